import { defineConfig, devices } from "@playwright/test";
import type { StoreDatabase } from "./tests/e2e/fixtures";
import { chromiumPath } from "./tests/support/chromium";

const chromium = chromiumPath();

const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig<object, { storeDatabase: StoreDatabase }>({
  testDir: "tests/e2e",
  outputDir: "test-results/playwright",
  // Each worker runs its own store (tests/e2e/fixtures.ts); a file's tests run in order in one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
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
    // First, and one worker at a time: its files share one store on PostgreSQL (setting one up migrates and seeds a
    // database, the dearest start of all) and run beside the other workers' Chromium files instead of after them.
    ...(postgres
      ? [
          {
            name: "postgres",
            use: { ...devices["Desktop Chrome"], storeDatabase: "postgres" as const },
            testMatch: /postgres\.spec\.ts/,
            workers: 1,
          },
        ]
      : []),
    { name: "chromium", use: { ...devices["Desktop Chrome"] }, testIgnore: /postgres\.spec\.ts/ },
  ],
});
