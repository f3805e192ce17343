import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { expect, test } from "@playwright/test";

// Issue 11: the production server as a supervisor runs it, on a DATA_DIR of its own (embedded PGlite).

type Started = { child: ChildProcess; exited: Promise<number | null>; output: () => string };

function startServer(port: number, dataDir: string, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ["build/server/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

const ready = (port: number, timeout = 60_000) =>
  expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, {
      timeout,
      intervals: [100],
    })
    .toBe(200);

test("after kill -9 the server restarts at once on the same DATA_DIR, and a live second server is still refused", async ({
  baseURL,
}) => {
  test.setTimeout(180_000);
  const port = Number(new URL(baseURL!).port) + 55;
  const dataDir = `test-results/e2e-crash-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  const first = startServer(port, dataDir);
  await ready(port);
  expect(readFileSync(`${dataDir}/pglite.lock`, "utf8").split("\n")[0]).toBe(String(first.child.pid));

  first.child.kill("SIGKILL");
  await first.exited;
  // The lock of the dead process is still there: the restart takes it over without waiting.
  expect(existsSync(`${dataDir}/pglite.lock`)).toBe(true);
  const restartedAt = Date.now();
  const second = startServer(port, dataDir);
  await ready(port);
  expect(second.output()).not.toContain("in use by another process");
  expect(Date.now() - restartedAt).toBeLessThan(60_000);
  expect(readFileSync(`${dataDir}/pglite.lock`, "utf8").split("\n")[0]).toBe(String(second.child.pid));

  // A second live server on the same files is refused, with a clear message; the first keeps serving.
  const third = startServer(port + 1, dataDir);
  expect(await third.exited).toBe(1);
  expect(third.output()).toContain("is in use by another process");
  expect(third.output()).toContain(`process ${second.child.pid}`);
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

  second.child.kill("SIGTERM");
  expect(await second.exited).toBe(0);
  expect(existsSync(`${dataDir}/pglite.lock`)).toBe(false);
});

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

test("SIGTERM with requests held open: answered requests get their answer, the rest is closed at the deadline, the lock is released", async ({
  baseURL,
}) => {
  test.setTimeout(180_000);
  const port = Number(new URL(baseURL!).port) + 57;
  const dataDir = `test-results/e2e-stop-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  const server = startServer(port, dataDir, { SHUTDOWN_TIMEOUT_SECONDS: "3" });
  await ready(port);
  const host = `127.0.0.1:${port}`;

  // An idle keep-alive connection (one request answered, the connection kept).
  const idle = connection(port);
  await idle.connected;
  idle.socket.write(`GET /healthz/live HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await expect.poll(() => idle.received()).toContain("200 OK");

  // A request accepted, whose body is still coming: it is finished after the SIGTERM and must be answered.
  const body = "number=1001&email=ada%40example.com";
  const slow = connection(port);
  await slow.connected;
  slow.socket.write(
    `POST /order/lookup HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  // A request whose body never comes: closed at the deadline.
  const stuck = connection(port);
  await stuck.connected;
  stuck.socket.write(
    `POST /order/lookup HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nnumber=`,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));

  const stoppedAt = Date.now();
  server.child.kill("SIGTERM");
  // Idle keep-alive connections end at once; new connections are refused.
  await idle.closed;
  expect(idle.closedAt()! - stoppedAt).toBeLessThan(1000);
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz/live`).catch(() => null))?.status)
    .toBeUndefined();

  // The slow request's body arrives after the SIGTERM: it is answered, and told the connection closes.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  slow.socket.write(body.slice(10));
  await slow.closed;
  expect(slow.received()).toMatch(/^HTTP\/1\.1 [2-4]\d\d /);
  expect(slow.received()).toMatch(/\r\nConnection: close\r\n/i);

  // The stuck one is closed at the deadline, and the process ends soon after, with the lock released.
  expect(await server.exited).toBe(0);
  const tookMs = Date.now() - stoppedAt;
  expect(tookMs).toBeGreaterThanOrEqual(2500);
  expect(tookMs).toBeLessThan(3000 + 2000);
  await stuck.closed;
  expect(stuck.received()).toBe("");
  expect(existsSync(`${dataDir}/pglite.lock`)).toBe(false);
  expect(server.output()).toContain("closed connections still open at the shutdown deadline");
});
