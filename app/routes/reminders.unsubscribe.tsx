import { data, Form, Link, useNavigation } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { customerOfToken, remindersOff, setReminders } from "~/modules/orders/renewals.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/reminders.unsubscribe";

/**
 * The renewal reminders' unsubscribe link: no sign-in, the signed token says whose reminders. A GET only asks (mail
 * scanners open links); the button, or a mail program's one-click POST (RFC 8058, `List-Unsubscribe=One-Click`),
 * unsubscribes.
 */

const INVALID = "This unsubscribe link is not valid. Copy the whole link from the e-mail, or write to us.";

async function customerOf(request: Request, env: { AUTH_SECRET: string }) {
  return customerOfToken(env.AUTH_SECRET, new URL(request.url).searchParams.get("token"));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const customer = await customerOf(request, context.env);
  const seo = await seoForPath(context, new URL(request.url).pathname, {
    page: { title: "Renewal reminders", description: "Stop or restart e-mails before your licences expire." },
  });
  if (!customer) return data({ state: "invalid" as const, seo }, { status: 400, headers: PRIVATE_HEADERS });
  const off = await remindersOff(context.db, customer);
  return data({ state: off ? ("off" as const) : ("on" as const), seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const customer = await customerOf(request, context.env);
  if (!customer)
    return data({ state: "invalid" as const, changed: false }, { status: 400, headers: PRIVATE_HEADERS });
  const body = await readFormBody(request);
  // Anything but our own "turn them back on" button unsubscribes: a mail program posts only List-Unsubscribe.
  const on = body.ok && body.values.intent === "resubscribe";
  const actor = "userId" in customer ? `user:${customer.userId}` : customer.email;
  await setReminders(context.db, customer, on, actor);
  return data(
    { state: on ? ("on" as const) : ("off" as const), changed: true },
    { headers: PRIVATE_HEADERS },
  );
}

export default function UnsubscribeReminders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const state = actionData?.state ?? loaderData.state;
  return (
    <div>
      <PageHeader title="Renewal reminders" />
      <section className="mx-auto max-w-md px-4 py-10" data-testid="reminders-unsubscribe">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          {state === "invalid" ? (
            <p role="alert" className="text-amber-900">
              {INVALID}
            </p>
          ) : state === "on" ? (
            <>
              {actionData?.changed ? (
                <p role="status" className="mb-3 font-semibold text-emerald-800">
                  Renewal reminders are on again.
                </p>
              ) : null}
              <p className="text-slate-700">
                We e-mail you before a licence you bought from us expires, with a link to renew it. Stop these
                e-mails?
              </p>
              <Form method="post" className="mt-4">
                <button
                  type="submit"
                  disabled={busy}
                  className="w-full rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
                >
                  Unsubscribe from renewal reminders
                </button>
              </Form>
            </>
          ) : (
            <>
              <p role="status" className="font-semibold text-ink-900" data-testid="reminders-off">
                You are unsubscribed: we send you no more renewal reminders.
              </p>
              <p className="mt-2 text-sm text-slate-700">
                Your licences and orders are not affected. Changed your mind?
              </p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="resubscribe" />
                <button
                  type="submit"
                  disabled={busy}
                  className="w-full rounded-lg border border-slate-300 bg-white px-5 py-2.5 text-sm font-semibold text-ink-800 hover:bg-brand-50"
                >
                  Turn renewal reminders back on
                </button>
              </Form>
            </>
          )}
          <p className="mt-4 text-sm">
            <Link to="/user/licences" className="font-semibold text-brand-700 hover:underline">
              My licences
            </Link>
          </p>
        </div>
      </section>
    </div>
  );
}
