import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./tests/support/chromium";

const chromium = chromiumPath();

const port = Number(process.env.E2E_PORT ?? 3400);
const baseURL = `http://127.0.0.1:${port}`;
const e2eDataDir = "test-results/e2e-data";
const postgres = process.env.TEST_DATABASE_URL;
const postgresURL = `http://127.0.0.1:${port + 1}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    // Recording a trace of every test costs a fifth of the run; `npx playwright test --trace retain-on-failure`
    // keeps one of each failing test when it is wanted.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] }, testIgnore: /postgres\.spec\.ts/ },
    ...(postgres
      ? [
          {
            name: "postgres",
            use: { ...devices["Desktop Chrome"], baseURL: postgresURL },
            testMatch: /postgres\.spec\.ts/,
          },
        ]
      : []),
  ],
  // The production build (npm run test:e2e builds it) on a fresh embedded database, and on PostgreSQL when
  // TEST_DATABASE_URL is set.
  webServer: [
    server(port, {}),
    ...(postgres ? [server(port + 1, { E2E_DATABASE: "postgres", TEST_DATABASE_URL: postgres })] : []),
  ],
});

function server(onPort: number, extra: Record<string, string>) {
  const url = `http://127.0.0.1:${onPort}`;
  return {
    command: "node scripts/e2e-server.mjs",
    url: `${url}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(onPort),
      DATA_DIR: `${e2eDataDir}-${onPort}`,
      PUBLIC_URL: url,
      BLOG_URL: "https://blog.example.com",
      LOG_LEVEL: "warn",
      ...extra,
    },
  };
}
