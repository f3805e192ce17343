import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { expect, test } from "@playwright/test";

test("a second server on the same DATA_DIR fails fast with a clear message and the first keeps serving", async ({
  request,
  baseURL,
}) => {
  const port = Number(new URL(baseURL!).port);
  const second = spawnSync(process.execPath, ["build/server/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port + 50),
      DATA_DIR: `test-results/e2e-data-${port}`,
    },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(second.status).toBe(1);
  expect(second.stderr).toContain("is in use by another process");
  expect(second.stderr).toContain("pglite.lock");

  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  const home = await (await request.get("/")).text();
  expect(home).toContain("(212) 555-0100");
});

test("the server closes the database cleanly on SIGTERM and SIGINT, releasing the lock", async () => {
  test.setTimeout(120_000);
  for (const [index, signal] of (["SIGTERM", "SIGINT"] as const).entries()) {
    const dataDir = `test-results/e2e-shutdown-${index}`;
    rmSync(dataDir, { recursive: true, force: true });
    const port = 3470 + index;
    const server = spawn(process.execPath, ["build/server/main.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, {
        timeout: 60_000,
      })
      .toBe(200);
    expect(existsSync(`${dataDir}/pglite.lock`)).toBe(true);
    server.kill(signal);
    expect(await exited).toBe(0);
    expect(existsSync(`${dataDir}/pglite.lock`)).toBe(false);
  }
});
