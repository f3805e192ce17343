import { type ChildProcess, spawn } from "node:child_process";
import { expect } from "@playwright/test";
import pg from "pg";
import { startTcpRelay } from "../support/tcp-relay";
import { hydrated } from "./hydrated";
import { animationsDone, axeOf } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";
import { nodeFlags } from "../../server/node-flags.mjs";

// Issue 11: the production build on PostgreSQL, reached through a relay this test blocks for 10 s, as a database
// restart or a network cut would. A customer's dashboard stays open throughout.

const PASSWORD = "correct horse battery";

test("while PostgreSQL is away the store answers a clear 503 page, and after its return the open page follows the user record again", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const port = Number(new URL(baseURL!).port) + 58;
  const name = `storefront_outage_${port}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: target.toString() });
  const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  const url = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  try {
    server = spawn(process.execPath, [...nodeFlags, "build/server/main.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        PUBLIC_URL: url,
        DATA_DIR: `test-results/e2e-outage-${port}`,
        DATABASE_URL: relay.through(target.toString()),
        SMTP_URL: "",
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
    });
    const ready = (timeout: number) =>
      expect
        .poll(async () => (await fetch(`${url}/healthz`).catch(() => null))?.status, {
          timeout,
          intervals: [100],
        })
        .toBe(200);
    await ready(90_000);
    await db.connect();

    // A customer signs up (confirmed from outside: no mail here), signs in and keeps the dashboard open.
    const context = await browser.newContext({ baseURL: url });
    const page = await context.newPage();
    const email = `outage.${Date.now().toString(36)}@example.com`;
    await page.goto("/user/login?redirectTo=%2Fuser%2Fdashboard");
    await hydrated(page);
    const signUp = page.getByTestId("sign-up-form");
    await signUp.getByLabel("Your name").fill("Ada Lovelace");
    await signUp.getByLabel("E-mail address").fill(email);
    await signUp.getByLabel("Choose a password").fill(PASSWORD);
    await signUp.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByTestId("sign-up-sent")).toBeVisible();
    await db.query(`update "user" set email_verified = true where email = $1`, [email]);
    await page.goto("/user/login?redirectTo=%2Fuser%2Fdashboard");
    await hydrated(page);
    const signIn = page.getByTestId("sign-in-form");
    await signIn.getByLabel("E-mail address").fill(email);
    await signIn.getByLabel("Password").fill(PASSWORD);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Ada");
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // The database goes away for 10 s: another tab gets a clear 503 page, readable on a phone.
    relay.block();
    const blockedAt = Date.now();
    const other = await context.newPage();
    await other.setViewportSize({ width: 360, height: 740 });
    await expect
      .poll(async () => (await other.goto("/cart"))?.status(), { timeout: 5000, intervals: [200] })
      .toBe(503);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Back in a moment");
    await expect(other.getByText("The store cannot reach its database at the moment.")).toBeVisible();
    expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(other, "outage-503-360");
    await animationsDone(other);
    const { violations } = await axeOf(other).analyze();
    expect(
      violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"),
    ).toEqual([]);
    // The JSON API answers JSON.
    const quote = await fetch(`${url}/api/cart/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ lines: [] }),
    });
    expect(quote.status).toBe(503);
    expect(await quote.json()).toEqual({ error: expect.stringContaining("cannot reach its database") });

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - blockedAt))));
    relay.unblock();
    await ready(5000);
    // The store runs a process per core, each finding the database back by itself within its probe's half second:
    // the one that answered the readiness check may not be the one that answers the page.
    await expect
      .poll(async () => (await other.reload())?.status(), { timeout: 5000, intervals: [200] })
      .toBe(200);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Your cart");

    // Written from outside after the recovery: the open page follows, without a reload.
    await db.query(`update "user" set name = 'Augusta Ada King' where email = $1`, [email]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Augusta");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await context.close();
  } finally {
    await db.end().catch(() => {});
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.on("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await relay.close();
  }
});
