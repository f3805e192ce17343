import { type ChildProcess, spawn } from "node:child_process";
import { type Browser, expect, type Page } from "@playwright/test";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { expectAccessible } from "./axe";
import { preparedDataDir } from "../support/store-process";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";
import { nodeFlags } from "../../server/node-flags.mjs";

// This test runs a production server of its own, on its own DATA_DIR and port, so it can stop it and start it
// again with SMTP: first without SMTP_URL (e-mails are stored), then with the test's own SMTP sink.

const NORTON = "/antivirus/norton/360-deluxe";
const BUYER = "outbox.buyer@example.com";

type Mail = { to: string; subject: string; text: string };

/** An SMTP server that keeps every message it is given. */
async function startSink(port: number) {
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((parsed) => {
          mails.push({
            to: parsed.to?.map((to) => to.address).join(", ") ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          done();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

function serverEnv(port: number, dataDir: string, smtpUrl?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BLOG_URL: "https://blog.example.com",
    LOG_LEVEL: "warn",
  };
  delete env.SMTP_URL;
  delete env.DATABASE_URL;
  if (smtpUrl) env.SMTP_URL = smtpUrl;
  return env;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const server = spawn(process.execPath, [...nodeFlags, "build/server/main.js"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${env.PORT}/healthz`).catch(() => null))?.status, {
      timeout: 60_000,
      message: `the server did not start: ${stderr}`,
    })
    .toBe(200);
  return server;
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.on("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

async function placeSandboxOrder(
  browser: Browser,
  baseURL: string,
): Promise<{ number: number; key: string }> {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.77" },
  });
  const page = await context.newPage();
  await page.goto(NORTON);
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: BUYER, method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const number = Number(/\/order\/(\d+)/.exec(page.url())![1]);
  const key = (await page.getByTestId("licence-key").first().textContent())!.trim();
  await context.close();
  return { number, key };
}

async function expectNoSeriousAxeViolations(page: Page, label: string) {
  // The e-mail's own frame runs no scripts (it is sandboxed), so axe cannot look inside: the page around it is
  // checked, and the frame itself must have a title.
  await expect(page.getByTestId("email-html")).toHaveAttribute("title", /as the customer sees it/);
  await expectAccessible(page, label, (axe) => axe.exclude('[data-testid="email-html"]'));
}

test("e-mails stored without SMTP are sent once, exactly once, after a restart with SMTP, and the admin can resend one", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const port = Number(new URL(baseURL!).port) + 55;
  const sinkPort = port + 10;
  const ownURL = `http://127.0.0.1:${port}`;
  const dataDir = `test-results/e2e-outbox-${port}`;

  // The end-to-end store's data (its admins, the demo store), without its server: signInAsAdmin reads the first
  // admin's password from the file this writes for the port.
  preparedDataDir(dataDir, port);

  let server = await startServer(serverEnv(port, dataDir));
  const sink = await startSink(sinkPort);
  try {
    // 1. No SMTP: the order's e-mails are written and kept.
    const { number, key } = await placeSandboxOrder(browser, ownURL);
    const admin = await browser.newContext({ baseURL: ownURL });
    let page = await admin.newPage();
    await signInAsAdmin(page, ownURL, "/admin/emails");
    await page.goto(`/admin/emails?status=stored&q=${encodeURIComponent(BUYER)}`);
    const receiptRow = page
      .getByTestId("email-row")
      .filter({ hasText: `Payment received for order #${number}` });
    await expect(receiptRow.getByTestId("email-status")).toHaveText("Stored (no SMTP)");
    await expect(
      page
        .getByTestId("email-row")
        .filter({ hasText: `Your order #${number}` })
        .getByTestId("email-status"),
    ).toHaveText("Stored (no SMTP)");
    expect(sink.mails).toEqual([]);
    await admin.close();

    // 2. The same store started again with SMTP: the stored e-mails go out, each once.
    await stopServer(server);
    server = await startServer(serverEnv(port, dataDir, `smtp://127.0.0.1:${sinkPort}`));
    const ofOrder = () =>
      sink.mails.filter((mail) => mail.to === BUYER && mail.subject.includes(`#${number}`));
    await expect.poll(() => ofOrder().length, { timeout: 30_000 }).toBe(2);
    const sentOnce = (subject: (text: string) => boolean) =>
      expect(ofOrder().filter((mail) => subject(mail.subject))).toHaveLength(1);
    const isReceipt = (subject: string) => subject === `Payment received for order #${number}`;
    const isConfirmation = (subject: string) => subject.startsWith(`Your order #${number}`);
    sentOnce(isReceipt);
    sentOnce(isConfirmation);
    const receipt = ofOrder().find((mail) => mail.subject.startsWith("Payment received"))!;
    expect(receipt.text).toContain(key);

    // 3. The admin sees them sent, reads one as the customer sees it, and sends it again.
    const again = await browser.newContext({ baseURL: ownURL });
    page = await again.newPage();
    await signInAsAdmin(page, ownURL, "/admin/emails");
    await page.goto(`/admin/emails?status=sent&q=${encodeURIComponent(`order #${number}`)}`);
    await hydrated(page);
    const sentRow = page
      .getByTestId("email-row")
      .filter({ hasText: `Payment received for order #${number}` });
    await expect(sentRow.getByTestId("email-status")).toHaveText("Sent");
    // The status tabs count what the search finds, not the whole outbox.
    const found = await page.getByTestId("email-row").count();
    await expect(page.getByRole("link", { name: /^Sent \(\d+\)$/ })).toHaveText(`Sent (${found})`);
    await expect(page.getByRole("link", { name: /^Stored \(no SMTP\)/ })).toHaveText("Stored (no SMTP) (0)");
    await screenshot(page, "admin-emails-searched");
    await sentRow.getByRole("link").click();
    const detail = page.getByTestId("email-detail");
    await expect(
      detail.getByRole("heading", { name: `Payment received for order #${number}` }),
    ).toBeVisible();
    await expect(page.getByTestId("email-text")).toContainText(key);
    const frame = page.getByTestId("email-html");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(
      page.frameLocator('[data-testid="email-html"]').getByText(`order #${number}`).first(),
    ).toBeVisible();
    await hydrated(page);
    await screenshot(page, "admin-email-detail-desktop");
    await expectNoSeriousAxeViolations(page, "an open e-mail");
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "admin-email-detail-phone");
    await screenshot(page.getByTestId("email-html"), "admin-email-html-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    page.once("dialog", (dialog) => void dialog.accept());
    await detail.getByRole("button", { name: "Resend this e-mail" }).click();
    await expect(page.getByTestId("action-notice")).toContainText("queued to be sent again");
    await expect
      .poll(() => ofOrder().filter((mail) => isReceipt(mail.subject)).length, { timeout: 30_000 })
      .toBe(2);
    // The sender has run again since the restart (it runs every 30 s and on every kick): the confirmation is still
    // sent once.
    sentOnce(isConfirmation);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("email-detail").getByTestId("email-status").textContent();
        },
        { timeout: 20_000 },
      )
      .toBe("Sent");

    // The resend is in the audit log, and the order's page lists all four e-mails: the confirmation, the receipt
    // and its resent copy to the buyer, and the owner's notice of the paid order.
    await page.goto("/admin/audit?action=email.resend");
    await expect(page.getByText("email.resend").first()).toBeVisible();
    await page.goto(`/admin/orders/${number}`);
    const listed = page.getByTestId("order-emails").getByTestId("order-email");
    await expect(listed).toHaveCount(4);
    await expect(listed.filter({ hasText: "Payment received" })).toHaveCount(2);
    await expect(listed.filter({ hasText: "support@example.com" })).toHaveCount(1);
    await screenshot(page, "admin-order-emails");
    await again.close();

    // 4. An SMTP server that cannot be reached: a resent e-mail waits for its next try, with the error shown.
    await stopServer(server);
    server = await startServer(serverEnv(port, dataDir, `smtp://127.0.0.1:${sinkPort + 1}`));
    const failing = await browser.newContext({ baseURL: ownURL });
    page = await failing.newPage();
    await signInAsAdmin(page, ownURL, "/admin/emails");
    await page.goto(`/admin/emails?q=${encodeURIComponent(`Your order #${number}`)}`);
    await hydrated(page);
    await page.getByTestId("email-row").first().getByRole("link").click();
    await hydrated(page);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Resend this e-mail" }).click();
    await expect(page.getByTestId("action-notice")).toContainText("queued to be sent again");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("email-detail").getByTestId("email-status").textContent();
        },
        { timeout: 20_000 },
      )
      .toBe("Waiting to send · 1 attempt");
    await expect(page.getByTestId("email-last-error")).toContainText("ECONNREFUSED");
    await page.goto(`/admin/emails?status=pending`);
    await expect(page.getByTestId("email-row")).toHaveCount(1);
    await expect(page.getByTestId("email-row")).toContainText("ECONNREFUSED");
    await screenshot(page, "admin-emails-waiting");
    await failing.close();

    // Nobody but an admin reads a stored e-mail: a visitor is sent to the sign-in, with nothing of the message.
    const anonymous = await fetch(`${ownURL}/admin/emails?id=1`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(await anonymous.text()).not.toContain(key);
  } finally {
    await stopServer(server);
    await sink.close();
  }
});
