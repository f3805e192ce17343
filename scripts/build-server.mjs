// Bundles the Express entry (server/) and React Router's server build (build/server/index.js, which the React Router
// build made just before) into build/server/main.js, with the packages both import: one copy of each module, and a
// start that reads one file instead of resolving some 1,500 in node_modules.
import { readFileSync, writeFileSync } from "node:fs";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/server/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // Packages that read files beside their own code (WebAssembly, fonts, native add-ons) or are for development only.
  external: ["@electric-sql/pglite", "sharp", "pdfkit", "@expo-google-fonts/*", "vite"],
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);',
  },
  tsconfig: "tsconfig.json",
  sourcemap: true,
  // Stack traces need the mappings only, not a copy of every source file.
  sourcesContent: false,
  logLevel: "warning",
});

/**
 * A stack trace names the store's own file and line, not its column: the first mapping of each line of the
 * bundle is kept. A package's code is left unmapped (main.js's own line, under a comment naming the package's file).
 * `--enable-source-maps` decodes the whole map the first time an error's stack is read, about 100 bytes of memory a
 * mapping: all 1.2 million took a process from 520 to 683 MB (docs/decisions/0042-one-server-bundle.md).
 */
const mapFile = "build/server/main.js.map";
const map = JSON.parse(readFileSync(mapFile, "utf8"));
const inPackage = map.sources.map((source) => source.includes("node_modules/"));
let unmapped = false;
map.mappings = encode(
  decode(map.mappings).map(([first]) => {
    if (!first || first.length < 4) return [];
    if (!inPackage[first[1]]) {
      unmapped = false;
      return [first];
    }
    // A frame finds the nearest mapping at or before it: one unmapped mark at the start of each package's run.
    if (unmapped) return [];
    unmapped = true;
    return [[first[0]]];
  }),
);
writeFileSync(mapFile, JSON.stringify(map));
