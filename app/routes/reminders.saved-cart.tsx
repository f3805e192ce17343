import { data, Form, useNavigation } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import {
  savedCartRemindersOff,
  setSavedCartReminders,
  userOfUnsubscribeToken,
} from "~/modules/orders/saved-carts.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/reminders.saved-cart";

/**
 * The saved-cart reminder's unsubscribe link (a signed token naming the account, no sign-in). A GET only asks; the
 * button, or a mail program's one-click POST (RFC 8058), unsubscribes.
 */

const INVALID = "This unsubscribe link is not valid. Copy the whole link from the e-mail, or write to us.";

const userOf = (request: Request, secret: string) =>
  userOfUnsubscribeToken(secret, new URL(request.url).searchParams.get("token"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const seo = await seoForPath(context, new URL(request.url).pathname, {
    page: { title: "Cart reminders", description: "Stop or restart e-mails about a cart you left." },
  });
  const userId = userOf(request, context.env.AUTH_SECRET);
  if (!userId) return data({ state: "invalid" as const, seo }, { status: 400, headers: PRIVATE_HEADERS });
  const off = await savedCartRemindersOff(context.db, userId);
  return data({ state: off ? ("off" as const) : ("on" as const), seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const userId = userOf(request, context.env.AUTH_SECRET);
  if (!userId) return data({ state: "invalid" as const }, { status: 400, headers: PRIVATE_HEADERS });
  const body = await readFormBody(request);
  // Anything but our own "turn them back on" button unsubscribes: a mail program posts only List-Unsubscribe.
  const on = body.ok && body.values.intent === "resubscribe";
  if (!(await setSavedCartReminders(context.db, userId, on))) {
    // The account was deleted since: nothing is left to send to.
    return data({ state: "invalid" as const }, { status: 404, headers: PRIVATE_HEADERS });
  }
  return data({ state: on ? ("on" as const) : ("off" as const) }, { headers: PRIVATE_HEADERS });
}

export default function SavedCartReminders({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const state = actionData?.state ?? loaderData.state;
  const button = "w-full rounded-lg px-5 py-2.5 text-sm font-semibold";
  return (
    <div>
      <PageHeader title="Cart reminders" />
      <section className="mx-auto max-w-md px-4 py-10" data-testid="saved-cart-unsubscribe">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          {state === "invalid" ? (
            <p role="alert" className="text-amber-900">
              {INVALID}
            </p>
          ) : state === "on" ? (
            <>
              <p className="text-slate-700">
                When you leave items in your cart while signed in, we e-mail you once about them later. Stop
                these e-mails?
              </p>
              <Form method="post" className="mt-4">
                <button
                  type="submit"
                  disabled={busy}
                  className={`${button} bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-300`}
                >
                  Unsubscribe from cart reminders
                </button>
              </Form>
            </>
          ) : (
            <>
              <p role="status" className="font-semibold text-ink-900" data-testid="saved-cart-reminders-off">
                You are unsubscribed: we send you no more cart reminders.
              </p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="resubscribe" />
                <button
                  type="submit"
                  disabled={busy}
                  className={`${button} border border-slate-300 bg-white text-ink-800 hover:bg-brand-50`}
                >
                  Turn cart reminders back on
                </button>
              </Form>
            </>
          )}
        </div>
      </section>
    </div>
  );
}
