import { spawnSync } from "node:child_process";
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
