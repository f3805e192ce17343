import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests of pure code: no database, server, files or process state; they need no test databases. Every other test
 * file runs in the integration or the isolated project.
 */
const unitTests = [
  "app/lib/address.test.ts",
  "app/lib/byte-size.test.ts",
  "app/lib/field-limits.test.ts",
  "app/lib/bytes.server.test.ts",
  "app/lib/form-data.server.test.ts",
  "app/lib/key-cipher.server.test.ts",
  "app/lib/money.test.ts",
  "app/lib/route-path.test.ts",
  "app/lib/scripts-after-paint.server.test.ts",
  "app/modules/accounts/emails/account-emails.test.ts",
  "app/modules/accounts/user-record.test.ts",
  "app/modules/admin/pricing-fields.test.ts",
  "app/modules/admin/product-image-path.test.ts",
  "app/modules/admin/product-routes.test.ts",
  "app/modules/cart/cart.test.ts",
  "app/modules/cart/pricing-math.test.ts",
  "app/modules/catalogue/availability.test.ts",
  "app/modules/catalogue/pagination.test.ts",
  "app/modules/catalogue/search-index.test.ts",
  "app/modules/catalogue/search.test.ts",
  "app/modules/catalogue/selection.test.ts",
  "app/modules/content/blog.test.ts",
  "app/modules/content/components/markdown.test.tsx",
  "app/modules/email/layout.test.tsx",
  "app/modules/orders/action-schemas.test.ts",
  "app/modules/orders/emails/order-emails.test.ts",
  "app/modules/orders/invoice-document.test.ts",
  "app/modules/orders/invoice-pdf.server.test.ts",
  "app/modules/orders/lifecycle.test.ts",
  "app/modules/orders/order-view.test.ts",
  "app/modules/orders/stripe-line-items.test.ts",
  "app/modules/orders/totals.test.ts",
  "app/modules/seo/summary.test.ts",
  "app/modules/storage/access.server.test.ts",
  "app/modules/storage/multipart.server.test.ts",
  "app/modules/storage/paths.test.ts",
  "server/page-cache.test.ts",
  "server/runtime.test.ts",
  "server/same-origin.test.ts",
  "server/script-hashes.test.ts",
];

/**
 * The database tests of the app and the server share their worker's modules (isolate: false), which loads the app
 * once a worker instead of once a file: the store's modules keep their state per database or per server they are
 * given, never in a module-wide variable, so files that share them do not meet.
 */
const sharedModuleTests = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"];

/**
 * Each of these runs with a module graph of its own: tests that set process.env before their imports, start
 * servers, relays and processes of their own, or (tests/production) the production build.
 */
const isolatedTests = ["tests/integration/**/*.test.ts", "tests/production/**/*.test.ts"];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Inherited by every project (extends: true).
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each PGlite instance is a WebAssembly Postgres of its own: two at a time fit these machines.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: unitTests, isolate: false } },
      {
        extends: true,
        test: {
          name: "integration",
          isolate: false,
          include: sharedModuleTests,
          exclude: [...configDefaults.exclude, ...unitTests],
          globalSetup: ["tests/support/database-templates.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: isolatedTests,
          globalSetup: ["tests/support/database-templates.ts"],
        },
      },
    ],
  },
});
