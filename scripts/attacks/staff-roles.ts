/** Attacks by staff on the parts of the admin area their role is not for (ADR 0037). */
import { randomInt } from "node:crypto";
import type { Attack, AttackKit } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };

const post = (kit: AttackKit, path: string, cookie: string, fields: Record<string, string>) =>
  kit.send(path, { method: "POST", headers: { ...form, cookie }, body: new URLSearchParams(fields) });

/** The owner invites a member of staff; they choose a password with the e-mailed link and sign in. */
async function staffMember(kit: AttackKit, owner: string, role: string) {
  const email = `staff-${role}-${randomInt(1e9)}@example.com`;
  await kit.expectStatus(
    await post(kit, "/admin/staff", owner, { intent: "invite", email, role }),
    200,
    "the invitation",
  );
  const link = await kit.mailedLink(email, /\/api\/auth\/reset-password\/\S+/);
  const token = /reset-password\/([^?\s]+)/.exec(link)![1]!;
  const password = "staff-password-1";
  const reset = await kit.send("/api/auth/reset-password", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ token, newPassword: password }),
  });
  await kit.expectStatus(reset, 200, "choosing the invited password");
  const signedIn = await kit.send("/api/auth/sign-in/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
    from: kit.randomAddress(),
  });
  await kit.expectStatus(signedIn, 200, "the staff member's sign-in");
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const page = await (await kit.send("/admin/staff", { headers: { cookie: owner } })).text();
  const card = page.split('data-testid="staff-row"').find((part) => part.includes(`data-email="${email}"`));
  const id = /name="id" value="([^"]+)"/.exec(card ?? "")?.[1];
  if (!id) throw new Error(`${email} is not on the staff page`);
  return { email, cookie, id };
}

export const staffRoleAttacks: Attack[] = [
  {
    name: "a staff role reaching another role's pages and APIs",
    async run(kit) {
      const owner = await kit.signInAdmin();
      const content = await staffMember(kit, owner, "content");
      const get = (path: string, cookie = content.cookie) => kit.send(path, { headers: { cookie } });
      // The role's own page answers: the refusals below are the role's, not a dead session's.
      await kit.expectStatus(await get("/admin/seo"), 200, "the content role's own SEO page");

      for (const path of [
        "/admin/orders",
        "/admin/orders.data",
        "/admin/orders/1001",
        "/admin/orders/1001/documents/invoice.pdf",
        "/admin/users",
        "/admin/settings",
        "/admin/settings.data",
        "/admin/staff",
        "/admin/audit",
        "/admin/keys",
        "/admin/promotions",
        "/admin/export/orders.csv",
        "/admin/export/keys.csv",
        "/admin/export/invoices.csv?from=2020-01-01&to=2030-01-01",
        // Other spellings of the same pages are the same pages.
        "/ADMIN/Settings",
        "/admin/settings/",
        "/admin/%73ettings",
        "/admin/./settings",
      ])
        await kit.expectStatus(await get(path), 403, `content staff GET ${path}`);

      // Writes: promoting themselves, inviting an owner, changing settings, answering key reports.
      const writes: Array<[string, Record<string, string>]> = [
        ["/admin/staff", { intent: "role", id: content.id, role: "owner" }],
        ["/admin/staff", { intent: "invite", email: `sneaky-${randomInt(1e9)}@example.com`, role: "owner" }],
        ["/admin/settings", { intent: "shipping", flatRate: "0.00" }],
        ["/admin/users/" + content.id, { intent: "role", role: "admin" }],
        ["/admin/key-reports", { intent: "reject", reportId: "1", reply: "No." }],
      ];
      for (const [path, fields] of writes)
        await kit.expectStatus(
          await post(kit, path, content.cookie, fields),
          403,
          `content staff POST ${path}`,
        );

      // better-auth's own admin endpoints are the owner's too.
      const setRole = await kit.send("/api/auth/admin/set-role", {
        method: "POST",
        headers: { ...json, cookie: content.cookie },
        body: JSON.stringify({ userId: content.id, role: "admin" }),
      });
      await kit.expectStatus(setRole, [401, 403], "content staff calling admin/set-role");
      await kit.expectStatus(
        await get("/api/auth/admin/list-users"),
        [401, 403],
        "content staff listing users",
      );
      const updated = await kit.send("/api/auth/update-user", {
        method: "POST",
        headers: { ...json, cookie: content.cookie },
        body: JSON.stringify({ role: "admin" }),
      });
      kit.refused(updated.status < 500, `update-user with a role answered ${updated.status}`);
      await kit.expectStatus(
        await get("/admin/settings"),
        403,
        "content staff after asking for the owner's role",
      );

      // Support staff ban customers, not other staff, and change nobody's role.
      const support = await staffMember(kit, owner, "support");
      await kit.expectStatus(
        await get("/admin/users", support.cookie),
        200,
        "the support role's own users page",
      );
      const supportWrites: Array<Record<string, string>> = [
        { intent: "ban", reason: "Out." },
        { intent: "role", role: "user" },
      ];
      for (const fields of supportWrites)
        await kit.expectStatus(
          await post(kit, `/admin/users/${content.id}`, support.cookie, fields),
          403,
          `support staff's ${fields.intent} of a member of staff`,
        );
      await kit.expectStatus(
        await get("/admin/seo"),
        200,
        "the content role's page after support's attempts",
      );

      // Removed from the staff: the session is over at once.
      await kit.expectStatus(
        await post(kit, "/admin/staff", owner, { intent: "remove", id: content.id }),
        200,
        "the owner's removal",
      );
      await kit.expectStatus(await get("/admin/seo"), 302, "a removed member of staff's next page");
      await kit.expectStatus(
        await post(kit, "/admin/staff", owner, { intent: "remove", id: support.id }),
        200,
        "the owner's removal",
      );
    },
  },
];
