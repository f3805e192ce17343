import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { postedCheckout } from "../e2e/checkout-form";
import { createAdmin } from "../support/store-admin";
import { freePort, preparedDataDir, waitFor } from "../support/store-process";

// A full or read-only disk, made for real: the production server runs in a mount namespace of its own (unshare, as
// an unprivileged user may) where DATA_DIR/storage is a full tmpfs or a read-only bind mount.
const namespaces = spawnSync("unshare", ["-rm", "true"]).status === 0;

function startIn(
  setup: string,
  port: number,
  dataDir: string,
): { child: ChildProcess; output: () => string } {
  const child = spawn("unshare", ["-rm", "sh", "-c", `${setup}\nexec "$NODE" build/server/main.js`], {
    env: {
      ...process.env,
      NODE: process.execPath,
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      STORAGE: path.join(dataDir, "storage"),
      DATABASE_URL: "",
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A prepared DATA_DIR with an admin of its own (made as a store owner does); resolves to the admin's password. */
async function prepare(dataDir: string, port: number): Promise<string> {
  preparedDataDir(dataDir, port);
  mkdirSync(path.join(dataDir, "storage"), { recursive: true, mode: 0o700 });
  return createAdmin({ DATA_DIR: dataDir, DATABASE_URL: "" }, "owner@example.com");
}

/** Signs the first admin in and sets a password of their own, as an owner must first: the session cookie. */
async function adminCookie(url: string, password: string) {
  const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email: "owner@example.com", password }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  // First, as an owner must, a password of their own instead of admin:create's temporary one.
  const changed = await fetch(`${url}/api/auth/change-password`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, cookie },
    body: JSON.stringify({
      currentPassword: password,
      newPassword: `${password}-own`,
      revokeOtherSessions: false,
    }),
  });
  expect(changed.status).toBe(200);
  return cookie;
}

async function uploadAsAdmin(url: string, password: string) {
  const cookie = await adminCookie(url, password);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "full.png");
  const response = await fetch(
    `${url}/api/storage/v0/b/products/o?name=${encodeURIComponent("images/full.png")}`,
    {
      method: "POST",
      headers: { cookie, origin: url },
      body: form,
    },
  );
  return {
    status: response.status,
    body: (await response.json()) as { error?: { code: string; message: string } },
  };
}

const live = (url: string) =>
  waitFor(async () => (await fetch(`${url}/healthz/live`).catch(() => null))?.status === 200, {
    what: `${url} to answer`,
    timeout: 90_000,
  });

describe.skipIf(!namespaces)(
  "a full or read-only disk (needs unshare -rm: user and mount namespaces)",
  () => {
    it("a full disk answers uploads 507 storage/quota-exceeded and fails readiness; the site keeps serving", async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const dataDir = `test-results/disk-full-${port}`;
      const password = await prepare(dataDir, port);
      const server = startIn(
        `mount -t tmpfs -o size=256k tmpfs "$STORAGE" && chmod 700 "$STORAGE"\ndd if=/dev/zero of="$STORAGE/fill" bs=4k 2>/dev/null`,
        port,
        dataDir,
      );
      try {
        await live(url);
        const upload = await uploadAsAdmin(url, password);
        expect(upload.status).toBe(507);
        expect(upload.body.error).toEqual({
          code: "storage/quota-exceeded",
          message: expect.stringContaining("The file storage is full"),
        });
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(503);
        expect(await health.json()).toMatchObject({
          status: "error",
          storage: { ok: false },
          database: { ok: true },
        });
        expect((await fetch(`${url}/healthz/live`)).status).toBe(200);
        expect((await fetch(`${url}/`)).status).toBe(200);
        expect(server.output()).not.toMatch(/\n\s+at /);
      } finally {
        await stop(server.child);
      }
    }, 180_000);

    it("a full disk under the embedded database answers a checkout 507 with what happened, and places no order", async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const dataDir = path.resolve(`test-results/disk-db-full-${port}`);
      const password = await prepare(dataDir, port);
      // The database's files on a tmpfs a little larger than they are; the test fills it once the store runs.
      const server = startIn(
        `cp -a "$DATA_DIR/pglite" "$DATA_DIR/pglite-files"\n` +
          `mount -t tmpfs -o size=$(( $(du -sk "$DATA_DIR/pglite-files" | cut -f1) + 8192 ))k tmpfs "$DATA_DIR/pglite"\n` +
          `cp -a "$DATA_DIR/pglite-files/." "$DATA_DIR/pglite/" && rm -rf "$DATA_DIR/pglite-files"`,
        port,
        dataDir,
      );
      try {
        await live(url);
        const cookie = await adminCookie(url, password);
        // The store's own view of its files (the mount exists only in its namespace).
        const fill = `/proc/${server.child.pid}/root${dataDir}/pglite/fill`;
        spawnSync("dd", ["if=/dev/zero", `of=${fill}`, "bs=64k"]);

        const body = new URLSearchParams(
          postedCheckout(
            "full-disk@example.com",
            [{ groupKey: "Norton", id: "1", quantity: 1 }],
            "bank-transfer",
          ),
        );
        const headers = { "content-type": "application/x-www-form-urlencoded", origin: url };
        const form = await fetch(`${url}/payment`, {
          method: "POST",
          headers: { ...headers, accept: "text/html" },
          body,
          redirect: "manual",
        });
        expect(form.status).toBe(507);
        expect(form.headers.get("content-type")).toMatch(/^text\/html/);
        expect(await form.text()).toContain("The store's disk is full");
        // The same checkout from the page's script (React Router's data request): the message, for its error page.
        const script = await fetch(`${url}/payment.data`, {
          method: "POST",
          headers,
          body,
          redirect: "manual",
        });
        expect(script.status).toBe(507);
        expect(await script.text()).toContain("The store's disk is full");

        const orders = await fetch(`${url}/admin/orders`, { headers: { cookie } });
        expect(orders.status).toBe(200);
        expect(await orders.text()).not.toContain("full-disk@example.com");
        expect(server.output()).not.toMatch(/\n\s+at /);
      } finally {
        await stop(server.child);
      }
    }, 180_000);

    it("a read-only storage disk answers uploads 503 storage/read-only; a read-only DATA_DIR stops the start with what to do", async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const dataDir = `test-results/disk-ro-${port}`;
      const password = await prepare(dataDir, port);
      const server = startIn(
        `mount --bind "$STORAGE" "$STORAGE" && mount -o remount,bind,ro "$STORAGE"`,
        port,
        dataDir,
      );
      try {
        await live(url);
        const upload = await uploadAsAdmin(url, password);
        expect(upload.status, JSON.stringify(upload.body)).toBe(503);
        expect(upload.body.error).toEqual({
          code: "storage/read-only",
          message: expect.stringContaining("The file storage is read-only"),
        });
        expect((await fetch(`${url}/healthz`)).status).toBe(503);
      } finally {
        await stop(server.child);
      }

      const readOnly = startIn(
        `mount --bind "$DATA_DIR" "$DATA_DIR" && mount -o remount,bind,ro "$DATA_DIR"`,
        port,
        dataDir,
      );
      const code = await new Promise((resolve) => readOnly.child.on("exit", resolve));
      expect(code).toBe(1);
      expect(readOnly.output()).toContain("is on a read-only file system");
      expect(readOnly.output()).toContain("Mount it read-write, or set DATA_DIR to a writable directory.");
      expect(readOnly.output()).not.toContain("EROFS");
      expect(readOnly.output()).not.toMatch(/\n\s+at /);
    }, 180_000);
  },
);
