/** Attacks on account self-service: /user/account, /admin/account and better-auth's endpoints behind them. */
import { e2eAdminPassword } from "../../tests/support/store-process";
import type { Attack, AttackKit } from "./kit";

const form = (values: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(values),
});

async function sessionsOf({ send }: AttackKit, cookie: string) {
  const response = await send("/api/auth/list-sessions", { headers: { cookie } });
  return (await response.json()) as { id: string; token: string }[];
}

async function signedIn({ send }: AttackKit, cookie: string) {
  const response = await send("/api/auth/get-session", { headers: { cookie } });
  const body = (await response.text()).trim();
  return body !== "" && body !== "null";
}

export const selfServiceAttacks: Attack[] = [
  {
    name: "self-service: end another customer's session by its id, or with ids made to break the query",
    async run(kit) {
      const { send, signUp, refused, expectStatus } = kit;
      const victim = await signUp();
      const attacker = await signUp();
      const [theirs] = await sessionsOf(kit, victim.cookie);
      for (const id of [theirs!.id, "' or 1=1 --", "x".repeat(10_000), ""]) {
        const response = await send("/user/account", {
          ...form({ intent: "end-session", session: id }),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: attacker.cookie },
        });
        await expectStatus(response, [400, 404], `ending session ${id.slice(0, 20)}`);
      }
      refused(await signedIn(kit, victim.cookie), "the victim's session was ended by another account");
    },
  },
  {
    name: "self-service: delete an account without its password (a stolen cookie, a fresh session, a wrong password)",
    async run(kit) {
      const { send, signUp, refused, expectStatus } = kit;
      const { cookie } = await signUp();
      for (const body of [{}, { password: "" }, { password: "wrong password" }, { token: "anything" }]) {
        const response = await send("/api/auth/delete-user", {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify(body),
        });
        await expectStatus(response, [400, 401, 403], `delete-user with ${JSON.stringify(body)}`);
      }
      const page = await send("/user/account", {
        ...form({ intent: "delete", password: "wrong password", confirm: "on" }),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      });
      await expectStatus(page, 400, "the delete form with a wrong password");
      refused(await signedIn(kit, cookie), "the account was deleted without its password");
    },
  },
  {
    name: "self-service: account forms posted from another site (change the password, the address, delete)",
    async run(kit) {
      const { send, signUp, refused, expectStatus } = kit;
      const { cookie, password } = await signUp();
      const posts: Record<string, string>[] = [
        {
          intent: "password",
          currentPassword: password,
          newPassword: "owned-by-evil",
          confirm: "owned-by-evil",
        },
        { intent: "email", email: "evil@example.com" },
        { intent: "delete", password, confirm: "on" },
      ];
      for (const values of posts) {
        const response = await send("/user/account", {
          ...form(values),
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie,
            origin: "https://evil.example",
          },
        });
        await expectStatus(response, 403, `cross-site ${values.intent}`);
      }
      refused(await signedIn(kit, cookie), "a cross-site post changed the account");
    },
  },
  {
    name: "self-service: odd new names and addresses through the form and straight to better-auth (500s, header injection)",
    async run(kit) {
      const { send, signUp, expectStatus, randomAddress } = kit;
      const { cookie } = await signUp();
      for (const email of [
        `${"a".repeat(300)}@example.com`,
        "a@example.com\r\nBcc: x@evil.example",
        "not-an-address",
      ]) {
        const api = await send("/api/auth/change-email", {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ newEmail: email, callbackURL: "/user/account" }),
          // better-auth limits change-email per client: each try from an address of its own.
          from: randomAddress(),
        });
        await expectStatus(api, 400, `change-email to ${JSON.stringify(email.slice(0, 30))}`);
        const page = await send("/user/account", {
          ...form({ intent: "email", email }),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        });
        await expectStatus(page, 400, `the e-mail form with ${JSON.stringify(email.slice(0, 30))}`);
      }
      const redirect = await send("/api/auth/change-email", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ newEmail: "fine@example.com", callbackURL: "https://evil.example/" }),
        from: randomAddress(),
      });
      // better-auth's origin check (403) or the store's redirect rule (400): either way, refused.
      await expectStatus(redirect, [400, 403], "change-email with a callback to another site");
      for (const name of ["", "x".repeat(101), "Bell\u0007Char", "Tab\tName"]) {
        const page = await send("/user/account", {
          ...form({ intent: "name", name }),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        });
        await expectStatus(page, 400, `the name form with ${JSON.stringify(name.slice(0, 20))}`);
      }
    },
  },
  {
    name: "self-service: an admin on admin:create's temporary password uses the admin (pages, admin API, uploads)",
    async run(kit) {
      const { send, refused, expectStatus, randomAddress } = kit;
      const password = e2eAdminPassword(kit.baseURL, "admin2");
      const signIn = await send("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "new-admin@example.com", password }),
        from: randomAddress(),
      });
      await expectStatus(signIn, 200, "the temporary password signs in");
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      for (const path of ["/admin/orders", "/admin/users", "/admin/audit"]) {
        const page = await send(path, { headers: { cookie } });
        await expectStatus(page, 302, path);
        refused(
          page.headers.get("location") === "/admin/account",
          `${path} opened on the temporary password`,
        );
      }
      const users = await send("/api/auth/admin/list-users", { headers: { cookie } });
      await expectStatus(users, 403, "the admin plugin's list-users on the temporary password");
      const upload = await send("/api/storage/v0/b/products/o?name=evil.png", {
        method: "POST",
        headers: { cookie, "content-type": "image/png" },
        body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      });
      refused(upload.status >= 400 && upload.status < 500, `an upload to products answered ${upload.status}`);
      // Anything but a new password is refused on the account page too.
      const rename = await send("/admin/account", {
        ...form({ intent: "name", name: "Sneaky" }),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      });
      await expectStatus(rename, 403, "renaming on the temporary password");
    },
  },
];
