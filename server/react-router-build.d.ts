// `#react-router-build` (package.json "imports") is React Router's server build, build/server/index.js, which exists
// only once `npm run build` has made it.
import type { ServerBuild } from "react-router";

declare const build: ServerBuild;
export = build;
