import { data } from "react-router";
import { z } from "zod";
import { refusal, success } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { KeyReportsPage } from "~/modules/admin/components/key-reports-page";
import { rowId } from "~/modules/admin/content-schemas";
import {
  keyReportQuery,
  listKeyReports,
  openKeyReportCount,
  rejectKeyReport,
  replaceReportedKey,
} from "~/modules/admin/key-reports.server";
import { rejectReply } from "~/modules/admin/key-reports";
import { loadAdminList } from "~/modules/admin/lists.server";
import { ordersContext } from "~/modules/orders/orders.server";
import type { Route } from "./+types/admin.key-reports";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    {
      query: keyReportQuery,
      load: (db, query) => Promise.all([listKeyReports(db, query), openKeyReportCount(db)]),
    },
  );
  const [list, open] = page;
  // Ages are counted from the server's clock, so the page reads the same before and after hydration.
  return data({ query, page: list, open, now: new Date().toISOString() }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [{ title: "Key reports · Store admin" }];

/** Which report an answer was about, so the page shows its outcome beside it. */
type Answer = { reportId?: number };

const answerForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("replace"), reportId: rowId }),
  z.object({ intent: z.literal("reject"), reportId: rowId, reply: z.string().default("") }),
]);

/** Replace or Reject one report; a report answered already, or none, is refused with nothing changed. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const body = await readFormBody(request);
  const form = answerForm.safeParse(body.ok ? body.values : {});
  if (!form.success)
    return refusal<Answer>(
      400,
      { message: "Choose a report with its Replace or Reject button." },
      PRIVATE_HEADERS,
    );
  const { reportId } = form.data;
  const ctx = await ordersContext(context, request.signal);
  if (form.data.intent === "reject") {
    const reply = rejectReply.safeParse(form.data.reply);
    if (!reply.success)
      return refusal<Answer>(
        400,
        {
          message: reply.error.issues[0]!.message,
          reportId,
          errors: { reply: reply.error.issues[0]!.message },
        },
        PRIVATE_HEADERS,
      );
    const done = await rejectKeyReport(ctx, reportId, reply.data, viewer.email);
    if (!done.ok) return refusal<Answer>(done.status, { message: done.message, reportId }, PRIVATE_HEADERS);
    return success<Answer>({ message: done.message, reportId }, PRIVATE_HEADERS);
  }
  const done = await replaceReportedKey(ctx, reportId, viewer.email);
  if (!done.ok) return refusal<Answer>(done.status, { message: done.message, reportId }, PRIVATE_HEADERS);
  return success<Answer>({ message: done.message, reportId }, PRIVATE_HEADERS);
}

export default function KeyReports({ loaderData, actionData }: Route.ComponentProps) {
  return <KeyReportsPage {...loaderData} reply={actionData} />;
}
