import { z } from "zod";
import { USER_ROLES } from "~db/schema/accounts";

/** The forms of the admin's user page; the same schemas check them in the browser and in the action. */
export const userRoleForm = z.object({
  intent: z.literal("role"),
  role: z.enum(USER_ROLES, { error: "Choose customer, owner, orders, content or support" }),
});

export const BAN_REASON_MAX = 200;

export const userBanForm = z.object({
  intent: z.literal("ban"),
  reason: z
    .string({ error: "Say why this user is banned" })
    .trim()
    .min(1, "Say why this user is banned")
    .max(BAN_REASON_MAX, `At most ${BAN_REASON_MAX} characters`),
});

export const userUnbanForm = z.object({ intent: z.literal("unban") });

export const userActionForm = z.discriminatedUnion("intent", [userRoleForm, userBanForm, userUnbanForm], {
  error: "Choose what to do with the form's buttons",
});
