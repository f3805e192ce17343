import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      // The production build as a process of its own (npm run build first).
      "tests/production/**/*.test.ts",
    ],
    setupFiles: ["tests/support/vitest-setup.ts"],
    globalSetup: ["tests/support/database-templates.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each PGlite instance is a WebAssembly Postgres of its own: two at a time fit these machines.
    maxWorkers: 2,
  },
});
