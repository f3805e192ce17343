// Bundles the Express entry (server/) into build/server/main.js; the app itself is built by React Router.
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/server/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: true,
  logLevel: "warning",
});
