import { z } from "zod";
import { ROLE_NAME_LIST, type RoleName } from "~/modules/accounts/staff-roles";

/** The forms of /admin/staff (ADR 0037); the same schemas check them in the browser and in the action. */
const roleName = z.enum(ROLE_NAME_LIST as [RoleName, ...RoleName[]], {
  error: `Choose a role: ${ROLE_NAME_LIST.join(", ")}`,
});
const staffId = z.string({ error: "Choose a member of staff" }).trim().min(1).max(100);

export const staffInviteForm = z.object({
  intent: z.literal("invite"),
  email: z
    .string({ error: "Enter an e-mail address" })
    .trim()
    .toLowerCase()
    .max(254, "At most 254 characters")
    .pipe(z.email("Enter an e-mail address such as name@example.com")),
  role: roleName,
});

export const staffRoleForm = z.object({ intent: z.literal("role"), id: staffId, role: roleName });

export const staffRemoveForm = z.object({ intent: z.literal("remove"), id: staffId });

export const staffActionForm = z.discriminatedUnion(
  "intent",
  [staffInviteForm, staffRoleForm, staffRemoveForm],
  {
    error: "Choose what to do with the form's buttons",
  },
);
