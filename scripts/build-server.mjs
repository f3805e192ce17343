// Bundles the Express entry (server/) and React Router's server build (build/server/index.js, which the React Router
// build made just before) into build/server/main.js, with the packages both import: one copy of each module, and a
// start that reads one file instead of resolving some 1,500 in node_modules.
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
