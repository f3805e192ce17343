/**
 * What `import … from "zod"` loads in the app's bundles (vite.config.ts points the bare name here): zod itself, set
 * up before any module builds a schema. zod compiles fast object checks with `new Function` when it may, and to
 * find out it tries one as the first schema is built, which the browser's Content Security Policy (no
 * 'unsafe-eval') refuses and reports on every page. Checks without compiled code are just as correct.
 */
import { config, z } from "zod/v4";

config({ jitless: true });

export * from "zod/v4";
export { z };
export default z;
