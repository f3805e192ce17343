/**
 * What every attack of `npm run attack` gets: the store's address, requests that remember any 5xx, sign-ins, and
 * plain checks. An attack throws (through `refused`, `expectStatus`, or an assertion of its own) when it succeeds.
 */
import { randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { e2eAdminPassword } from "../../tests/support/store-process";

export type Attack = {
  /** What the attacker tries, in a sentence: "guess order numbers for a known e-mail address". */
  name: string;
  run(kit: AttackKit): Promise<void>;
};

export type Sent = { method: string; url: string; status: number };

export class AttackSucceeded extends Error {}

export type AttackKit = ReturnType<typeof attackKit>;

export function attackKit(baseURL: string) {
  const sent: Sent[] = [];
  const origin = new URL(baseURL).origin;
  /** Every request of an attack goes through here, so a 5xx anywhere fails the run. */
  async function send(path: string, init: RequestInit & { from?: string } = {}): Promise<Response> {
    const url = path.startsWith("http") ? path : `${baseURL}${path}`;
    const headers = new Headers(init.headers);
    // A browser on the store's own pages sends its origin; attacks that forge it set their own.
    if (!headers.has("origin") && init.method && init.method !== "GET") headers.set("origin", origin);
    // Each attack comes from an address of its own, so one attack's sign-in limit does not trip the next.
    if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", init.from ?? clientAddress);
    const response = await fetch(url, { redirect: "manual", ...init, headers });
    sent.push({ method: init.method ?? "GET", url, status: response.status });
    return response;
  }
  const clientAddress = randomAddress();

  return {
    baseURL,
    origin,
    sent,
    send,
    /** A fresh address to send from (for limits counted per client). */
    randomAddress,
    /** Fails the attack: what the attacker got that they should not have. */
    refused(condition: boolean, what: string) {
      if (!condition) throw new AttackSucceeded(what);
    },
    async expectStatus(response: Response, expected: number | number[], what: string) {
      const allowed = Array.isArray(expected) ? expected : [expected];
      if (!allowed.includes(response.status)) {
        const body = (await response.text()).slice(0, 200);
        throw new AttackSucceeded(
          `${what}: got ${response.status}, expected ${allowed.join(" or ")} (${body})`,
        );
      }
    },
    /**
     * Signs up a new customer and opens the confirmation link e-mailed to it (which signs in, as for any
     * customer); returns the session cookie.
     */
    async signUp(email = `attacker-${randomInt(1e9)}@example.com`, password = "attack-password-1") {
      const response = await send("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password, name: "Attacker" }),
        from: randomAddress(),
      });
      if (response.status !== 200)
        throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
      const link = await mailedLink(baseURL, email, /\/api\/auth\/verify-email\?\S+/);
      const confirmed = await send(link);
      if (confirmed.status !== 302) throw new Error(`the confirmation link answered ${confirmed.status}`);
      return { email, password, cookie: sessionCookie(confirmed) };
    },
    /** The newest link matching `pattern` in the e-mails the store sent to `to` (waits for it to arrive). */
    mailedLink: (to: string, pattern: RegExp, after = 0) => mailedLink(baseURL, to, pattern, after),
    /** How many e-mails the store has sent so far (to tell new ones from old). */
    mailCount: () => mailFiles(baseURL).length,
    /** The e-mails the store sent to `to`, of those sent after the first `after`. */
    mailsTo: (to: string, after = 0) => mailsTo(baseURL, to, after),
    /** Signs the store's first admin in (the password admin:create printed) and returns the session cookie. */
    async signInAdmin() {
      const response = await send("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: e2eAdminPassword(baseURL) }),
        from: randomAddress(),
      });
      if (response.status !== 200) throw new Error(`admin sign-in failed: ${response.status}`);
      return sessionCookie(response);
    },
  };
}

export const ADMIN_EMAIL = "admin@example.com";

/** The store's e-mails, as the end-to-end server's SMTP sink keeps them (see scripts/e2e-server.mjs). */
function mailFiles(baseURL: string): string[] {
  const dir = `test-results/mail-${new URL(baseURL).port}`;
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((file) => path.join(dir, file))
    : [];
}

/** The e-mails to `to` among those sent after the first `after`, newest first. */
async function mailsTo(baseURL: string, to: string, after = 0) {
  const mails = [];
  for (const file of mailFiles(baseURL).slice(after).reverse()) {
    const mail = await PostalMime.parse(readFileSync(file));
    if (mail.to?.some((address) => address.address === to)) mails.push(mail);
  }
  return mails;
}

async function mailedLink(baseURL: string, to: string, pattern: RegExp, after = 0): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const mail of await mailsTo(baseURL, to, after)) {
      const found = pattern.exec(mail.text ?? "");
      if (found) return found[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail to ${to} with a link like ${pattern}`);
}

function sessionCookie(response: Response): string {
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
  const session = cookies.find((cookie) => cookie.includes("session_token="));
  if (!session) throw new Error("no session cookie was set");
  return cookies.join("; ");
}

function randomAddress() {
  const n = randomInt(1, 2 ** 24 - 1);
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
}

/** A complete checkout form for `lines`, as the payment page posts it. */
export function checkoutForm(
  lines: { groupKey: string; id: string; quantity: number }[],
  overrides: Record<string, string> = {},
): URLSearchParams {
  return new URLSearchParams({
    idempotencyKey: crypto.randomUUID(),
    email: `buyer-${randomInt(1e9)}@example.com`,
    "billing.name": "Test Buyer",
    "billing.line1": "1 Main Street",
    "billing.city": "Springfield",
    "billing.postalCode": "12345",
    "billing.country": "US",
    shipToBilling: "on",
    paymentMethod: "bank-transfer",
    cart: JSON.stringify(lines),
    acceptTerms: "on",
    ...overrides,
  });
}
