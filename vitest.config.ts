import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests of pure code: no database, server, files or process state; they need no test databases. Every other test
 * file runs in the integration project.
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
 * Test files that change what the modules they import read once, when they are loaded (process.env before an
 * import): each runs with a module graph of its own. Every other file shares its worker's modules with the files
 * that ran there before (isolate: false), which loads the app once a worker instead of once a file: the store's
 * modules keep their state per database or per server they are given, never in a module-wide variable, so files
 * that share them do not meet.
 */
const isolatedTests = ["tests/integration/auth-origins.test.ts"];

const integrationTests = [
  "app/**/*.test.{ts,tsx}",
  "server/**/*.test.ts",
  "tests/integration/**/*.test.ts",
  // The production build as a process of its own (npm run build first).
  "tests/production/**/*.test.ts",
];

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
          include: integrationTests,
          exclude: [...configDefaults.exclude, ...unitTests, ...isolatedTests],
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
