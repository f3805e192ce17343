import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ready, startStore, stopStore, type StoreProcess, waitFor } from "../support/store-process";
import { nodeFlags } from "../../server/node-flags.mjs";

// The production build as a supervisor runs it, on a DATA_DIR of its own (embedded PGlite): its lock, its signals,
// a crash, and what only a whole server answers.

describe("a running store", () => {
  let store: StoreProcess;
  beforeAll(async () => {
    store = startStore(await freePort(), {});
    await ready(store);
  });
  afterAll(async () => {
    expect(await stopStore(store)).toBe(0);
  });

  it("a second server on the same DATA_DIR fails fast with a clear message and the first keeps serving", async () => {
    const second = spawnSync(process.execPath, ["build/server/main.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(await freePort()),
        DATA_DIR: store.dataDir,
        DATABASE_URL: "",
      },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain("is in use by another process");
    expect(second.stderr).toContain("pglite.lock");

    expect((await fetch(`${store.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${store.url}/`)).text()).toContain("(212) 555-0100");
  });

  it("serves the store's icon", async () => {
    const icon = await fetch(`${store.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    // An ICO file: reserved 0, type 1.
    expect([...new Uint8Array(await icon.arrayBuffer()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect((await fetch(`${store.url}/favicon.svg`)).status).toBe(200);
  });

  it("never shows a long post to the order lookup back", async () => {
    const post = (form: Record<string, string>) =>
      fetch(`${store.url}/order/lookup`, {
        method: "POST",
        headers: { origin: store.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
    const response = await post({ number: "1".repeat(60_000), email: `${"a".repeat(50_000)}@example.com` });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).not.toContain("1".repeat(1000));
    expect(html).not.toContain("a".repeat(1000));
    // A post over the store's limit is answered in a line, not a page.
    const huge = await post({ number: "1", email: "x".repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(await huge.text()).toBe("This request is too large: this address takes at most 128 KiB.");
  });
});

it("closes the database cleanly on SIGTERM and SIGINT, releasing the lock", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const store = startStore(await freePort(), {});
    await ready(store);
    expect(existsSync(`${store.dataDir}/pglite.lock`)).toBe(true);
    store.child.kill(signal);
    expect(await store.exited).toBe(0);
    expect(existsSync(`${store.dataDir}/pglite.lock`)).toBe(false);
  }
}, 120_000);

it("restarts at once on the same DATA_DIR after kill -9, and a live second server is still refused", async () => {
  const port = await freePort();
  const first = startStore(port, { LOG_LEVEL: "info" });
  await ready(first);
  const lockHolder = () => readFileSync(`${first.dataDir}/pglite.lock`, "utf8").split("\n")[0];
  expect(lockHolder()).toBe(String(first.child.pid));

  first.child.kill("SIGKILL");
  await first.exited;
  // The lock of the dead process is still there: the restart takes it over without waiting.
  expect(existsSync(`${first.dataDir}/pglite.lock`)).toBe(true);
  const restartedAt = Date.now();
  const second = startAgain(first);
  await ready(second);
  expect(second.output()).not.toContain("in use by another process");
  expect(Date.now() - restartedAt).toBeLessThan(60_000);
  expect(lockHolder()).toBe(String(second.child.pid));

  // A second live server on the same files is refused, with a clear message; the first keeps serving.
  const third = startAgain(first, await freePort());
  expect(await third.exited).toBe(1);
  expect(third.output()).toContain("is in use by another process");
  expect(third.output()).toContain(`process ${second.child.pid}`);
  expect((await fetch(`${second.url}/healthz`)).status).toBe(200);

  expect(await stopStore(second)).toBe(0);
  expect(existsSync(`${first.dataDir}/pglite.lock`)).toBe(false);
}, 180_000);

/** The build again on a store's DATA_DIR (not a fresh one), on its port or another. */
function startAgain(store: StoreProcess, port = Number(new URL(store.url).port)): StoreProcess {
  const child = spawn(process.execPath, [...nodeFlags, "build/server/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: store.dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, dataDir: store.dataDir, exited, output: () => output };
}

/** A raw HTTP/1.1 connection: what was sent back, and whether (and when) the server closed it. */
function connection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  let closedAt: number | undefined;
  socket.on("data", (chunk) => (received += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closedAt = Date.now();
      resolve();
    }),
  );
  return {
    socket,
    closed,
    received: () => received,
    closedAt: () => closedAt,
    connected: new Promise<void>((resolve) => socket.on("connect", () => resolve())),
  };
}

const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

it("on SIGTERM answers the requests it has accepted, closes the rest at the deadline and releases the lock", async () => {
  const port = await freePort();
  const server = startStore(port, { SHUTDOWN_TIMEOUT_SECONDS: "3", LOG_LEVEL: "info" });
  await ready(server);
  const host = `127.0.0.1:${port}`;

  // An idle keep-alive connection (one request answered, the connection kept).
  const idle = connection(port);
  await idle.connected;
  idle.socket.write(`GET /healthz/live HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await waitFor(() => idle.received().includes("200 OK"), { what: "the idle connection's answer" });

  // Two posts whose bodies are still coming, each accepted (the server has read its headers: it says 100 Continue).
  // The first one's body is finished after the SIGTERM and must be answered; the second's never comes: it is
  // closed at the deadline.
  const body = "number=1001&email=ada%40example.com";
  const post = (length: number) =>
    `POST /order/lookup HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nExpect: 100-continue\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;
  const slow = connection(port);
  const stuck = connection(port);
  await Promise.all([slow.connected, stuck.connected]);
  slow.socket.write(post(body.length) + body.slice(0, 10));
  stuck.socket.write(`${post(1000)}number=`);
  await waitFor(() => slow.received() === CONTINUE && stuck.received() === CONTINUE, {
    what: "both posts to be accepted",
  });

  const stoppedAt = Date.now();
  server.child.kill("SIGTERM");
  // Idle keep-alive connections end at once; new connections are refused.
  await idle.closed;
  expect(idle.closedAt()! - stoppedAt).toBeLessThan(1000);
  await waitFor(async () => (await fetch(`http://${host}/healthz/live`).catch(() => null)) === null, {
    what: "new connections to be refused",
  });

  // The slow request's body arrives after the SIGTERM: it is answered, and told the connection closes.
  slow.socket.write(body.slice(10));
  await slow.closed;
  const answer = slow.received().slice(CONTINUE.length);
  expect(answer).toMatch(/^HTTP\/1\.1 [2-4]\d\d /);
  expect(answer).toMatch(/\r\nConnection: close\r\n/i);

  // The stuck one is closed at the deadline, and the process ends soon after, with the lock released.
  expect(await server.exited).toBe(0);
  const tookMs = Date.now() - stoppedAt;
  expect(tookMs).toBeGreaterThanOrEqual(2500);
  expect(tookMs).toBeLessThan(3000 + 2000);
  await stuck.closed;
  expect(stuck.received()).toBe(CONTINUE);
  expect(existsSync(`${server.dataDir}/pglite.lock`)).toBe(false);
  expect(server.output()).toContain("closed connections still open at the shutdown deadline");
}, 180_000);
