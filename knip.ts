import { defineConfig } from "knip/config";

/**
 * Dead code and dependencies (npm run lint). Its plugins find most entries themselves: the routes (app/routes.ts),
 * root and entries of React Router, the Vite, Vitest and Playwright configs and their tests, and the files the
 * package.json scripts run (server/index.ts through `npm run dev`). Listed here: what runs otherwise.
 */
export default defineConfig({
  entry: [
    // The commands: npm scripts run most of them (knip does not read `exec node scripts/start.mjs`); the others are
    // run by hand (scripts/cpu-profile.mjs) or by the tests (scripts/e2e-server.mjs).
    "scripts/*.{ts,mjs}",
    // Run by scripts/e2e-server.mjs as a process of its own.
    "tests/support/e2e-store-setup.ts",
    // Run by scripts/bench-web.ts as processes of their own.
    "scripts/bench-web/bare-node-server.mjs",
    "scripts/bench-web/host-speed.mjs",
    // Run by hand (docs/decisions/0044-the-stylesheet-compressed-once.md).
    "scripts/bench-web/side-by-side.mjs",
    // Stands in for zod in the browser build (the resolve.alias in vite.config.ts), which knip does not follow.
    "app/lib/zod.ts",
  ],
  project: ["**/*.{ts,tsx,js,mjs,css}"],
  // An export a file uses itself is part of how it reads, not dead code.
  ignoreExportsUsedInFile: true,
  ignoreDependencies: [
    // Font files read by path (app/modules/orders/invoice-pdf.server.ts), not imported.
    "@expo-google-fonts/noto-sans",
    // Loaded with createRequire for the path of its jar (tests/production/valid-html.test.ts).
    "vnu-jar",
  ],
  // Programs of the machine, not of npm: spawned by scripts/bench-web.ts and tests/production/disk.test.ts.
  ignoreBinaries: ["apt-get", "taskset", "unshare"],
});
