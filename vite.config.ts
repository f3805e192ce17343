import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    tsconfigPaths: true,
    // zod without compiled checks, which the Content Security Policy forbids (see app/lib/zod.ts).
    alias: [{ find: /^zod$/, replacement: path.resolve("app/lib/zod.ts") }],
  },
});
