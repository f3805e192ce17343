import type { ToastInput } from "~/ui/toast";

/** The spec's messages for the activity status update. */
export const ACTIVITY_MESSAGES = {
  "unknown-status": "Internal Error",
  "write-failed": "Error while updating activity",
} as const;

/** The spec's activity statuses as the customer reads them; the codes stay in the data. */
export const ACTIVITY_STATUS_LABELS: Record<string, string> = {
  Active: "Signed in",
  InActive: "Signed out",
};

export type ActivityProblem = keyof typeof ACTIVITY_MESSAGES;

export type ActivityResult = { ok: true; at: string } | { ok: false; problem: ActivityProblem };

/** What the browser shows for an activity update that did not happen: nothing when it did. */
export function activityToast(result: ActivityResult): ToastInput | null {
  if (result.ok) return null;
  return result.problem === "unknown-status"
    ? { message: ACTIVITY_MESSAGES["unknown-status"], kind: "warning" }
    : { message: ACTIVITY_MESSAGES["write-failed"], kind: "error" };
}
