import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { expect, it } from "vitest";

// The server is one file (docs/decisions/0042-one-server-bundle.md): what it imports from node_modules when it
// starts is only the packages that read files kept beside their own code, which a bundle cannot hold.
const READ_FILES_BESIDE_THEIR_CODE = [
  "@electric-sql/pglite",
  "@electric-sql/pglite/contrib/pg_trgm",
  "pdfkit",
  "sharp",
];

it("the built server imports its packages from its own file, not from node_modules, but for those reading files", () => {
  const bundle = readFileSync("build/server/main.js", "utf8");
  const staticImports = [...bundle.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gm)].map(
    (match) => match[1]!,
  );
  const packages = [...new Set(staticImports.filter((specifier) => !isBuiltin(specifier)))].sort();
  expect(packages).toEqual(READ_FILES_BESIDE_THEIR_CODE);
  // React Router's build is inside, not loaded beside it: one copy of every module the two share.
  expect(bundle).not.toMatch(/import\(\s*["'][^"']*build\/server\/index\.js/);
  expect(bundle).toContain('assetsBuildDirectory = "build/client"');
});
