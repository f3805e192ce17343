import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Env } from "~/lib/env.server";
import { callAuth, createAuth } from "~/modules/accounts/auth.server";
import { createTestDatabase, drivers, type TestDatabase } from "../support/database";
import { recordingLogger } from "../support/logger";
import { testEnv } from "../support/orders";

// better-auth leaves out its origin checks in tests (NODE_ENV=test, or TEST set, as Vitest does): this file runs
// it as the store does.
const testVars = vi.hoisted(() => {
  const before = { NODE_ENV: process.env.NODE_ENV, TEST: process.env.TEST };
  process.env.NODE_ENV = "production";
  delete process.env.TEST;
  return before;
});
afterAll(() => {
  for (const [name, value] of Object.entries(testVars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A form post of the store's own page at `pageOrigin`, sent on to better-auth the way the sign-in page does. */
async function signUpThroughTheForm(database: TestDatabase, env: Env, pageOrigin: string, email: string) {
  const auth = createAuth({
    db: database.db,
    env,
    logger: recordingLogger().logger,
    mailer: { kick() {} },
    rateLimit: false,
  });
  const request = new Request(`${pageOrigin}/user/login`, {
    method: "POST",
    headers: { origin: pageOrigin, "sec-fetch-site": "same-origin" },
  });
  return callAuth({ auth, env }, request, "/sign-up/email", {
    email,
    password: "a-long-password",
    name: "Ada",
  });
}

describe.each(drivers)("better-auth's idea of the store's origin, on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("without PUBLIC_URL, takes sign-ups from the store's pages at whatever address they were opened", async () => {
    const env = testEnv({ PUBLIC_URL: "http://localhost:3000", PUBLIC_URL_SET: false });
    for (const [origin, email] of [
      ["http://127.0.0.1:3000", "ada@example.com"],
      ["http://192.168.1.20:3000", "bob@example.com"],
      ["http://localhost:3000", "cy@example.com"],
    ]) {
      const reply = await signUpThroughTheForm(database, env, origin!, email!);
      expect(reply.status, origin).toBe(200);
    }
  });

  it("with PUBLIC_URL, takes them from PUBLIC_URL only", async () => {
    const env = testEnv({ PUBLIC_URL: "https://shop.example.com", PUBLIC_URL_SET: true });
    expect(
      (await signUpThroughTheForm(database, env, "https://shop.example.com", "dee@example.com")).status,
    ).toBe(200);
    const elsewhere = await signUpThroughTheForm(database, env, "http://127.0.0.1:3000", "eve@example.com");
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe("INVALID_ORIGIN");
  });
});
