import { readFileSync } from "node:fs";
import { isBuiltin, SourceMap, type SourceMapping, type SourceMapPayload } from "node:module";
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

it("its source map names the store's own file and line in a stack trace, and leaves a package's code at the bundle's", () => {
  const map = new SourceMap(JSON.parse(readFileSync("build/server/main.js.map", "utf8")) as SourceMapPayload);
  const lines = readFileSync("build/server/main.js", "utf8").split("\n");
  // esbuild starts each bundled file with a comment naming it.
  const lineAfter = (comment: string, count: number) => lines.indexOf(comment) + count;

  const own = map.findEntry(lineAfter("// server/http-server.ts", 3), 4) as Partial<SourceMapping>;
  expect(own.originalSource).toMatch(/\/server\/http-server\.ts$/);
  expect(readFileSync("server/http-server.ts", "utf8").split("\n")[own.originalLine!]).toContain("new Set");

  // Mapping every column of every package would cost about 117 MB the first time a stack is read.
  const inPackage = map.findEntry(lineAfter("// node_modules/zod/v4/core/schemas.js", 40), 4);
  expect((inPackage as Partial<SourceMapping>).originalSource).toBeUndefined();
});
