import { data } from "react-router";
import { activityToast } from "~/modules/accounts/activity";
import { setActivity } from "~/modules/accounts/activity.server";
import { requireUserApi } from "~/modules/accounts/session.server";
import type { Route } from "./+types/api.user-activity";

/**
 * The spec's update of the signed-in user's activity: `status` is Active or InActive. Anything else writes nothing
 * and answers 400 with the warning the page shows (Internal Error); a failed write answers 500 (Error while
 * updating activity).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUserApi(request, context);
  let status: unknown;
  const type = request.headers.get("content-type") ?? "";
  try {
    status = type.includes("application/json")
      ? ((await request.json()) as { status?: unknown }).status
      : (await request.formData()).get("status");
  } catch {
    status = undefined;
  }
  const result = await setActivity(context.db, viewer.id, status, context.logger);
  const toast = activityToast(result);
  if (result.ok) return { ok: true, status, at: result.at };
  return data(
    { ok: false, problem: result.problem, toast },
    { status: result.problem === "unknown-status" ? 400 : 500 },
  );
}
