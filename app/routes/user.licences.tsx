import { data } from "react-router";
import { z } from "zod";
import { readFormBody } from "~/lib/form-data.server";
import { LicencesPage } from "~/modules/accounts/components/licences-page";
import { licencesForUser, reportLicenceKey, revealLicenceKey } from "~/modules/accounts/licences.server";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { remindersOff, setReminders } from "~/modules/orders/renewals.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.licences";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [licences, off, seo] = await Promise.all([
    licencesForUser(context.db, viewer.id, new Date()),
    remindersOff(context.db, { userId: viewer.id }, viewer.email),
    seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "My licences",
        description: "Your licence keys, when they expire and how to renew them.",
      },
    }),
  ]);
  return data({ licences, reminders: !off, seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

const keyId = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);
const licenceForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reveal"), keyId }),
  z.object({ intent: z.literal("report"), keyId, reason: z.string().default("") }),
  z.object({ intent: z.literal("reminders"), reminders: z.enum(["on", "off"]) }),
]);
const reportReason = z
  .string()
  .trim()
  .min(10, "Tell us what goes wrong in at least 10 characters.")
  .max(500, "Keep it to 500 characters.");

/**
 * Reveal: one key, in full, to its owner only; report: "This key does not work", with a reason. Another customer's
 * key is not found (404), for either; each reveal and report is audited.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const body = await readFormBody(request);
  const form = licenceForm.safeParse(body.ok ? body.values : {});
  if (!form.success)
    throw data("Choose a key with its Reveal or Report button.", { status: 400, headers: PRIVATE_HEADERS });
  if (form.data.intent === "reminders") {
    const on = form.data.reminders === "on";
    await setReminders(context.db, { userId: viewer.id }, on, viewer.email, viewer.email);
    return data({ reminders: on }, { headers: PRIVATE_HEADERS });
  }
  const notFound = () =>
    data("No such licence key in your account.", { status: 404, headers: PRIVATE_HEADERS });
  if (form.data.intent === "report") {
    const reason = reportReason.safeParse(form.data.reason);
    if (!reason.success)
      return data(
        { reportProblem: { id: form.data.keyId, message: reason.error.issues[0]!.message } },
        { status: 400, headers: PRIVATE_HEADERS },
      );
    if (!(await reportLicenceKey(context.db, viewer, form.data.keyId, reason.data))) throw notFound();
    return data({ reported: { id: form.data.keyId } }, { headers: PRIVATE_HEADERS });
  }
  const key = await revealLicenceKey(context, viewer, form.data.keyId);
  if (key === null) throw notFound();
  return data({ revealed: { id: form.data.keyId, key } }, { headers: PRIVATE_HEADERS });
}

export default function UserLicences({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LicencesPage
      licences={loaderData.licences}
      reminders={loaderData.reminders}
      revealed={actionData && "revealed" in actionData ? actionData.revealed : null}
      reportProblem={actionData && "reportProblem" in actionData ? actionData.reportProblem : null}
    />
  );
}
