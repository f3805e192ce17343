import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * What every page loads in the browser, in two chunks instead of twenty small ones: the modules that the client
 * entry and the root route import statically (the root is part of every page), libraries in `vendor`, the app's own
 * code in `shell`. A dozen small files compress worse than one (gzip starts afresh in each), and each is a request;
 * routes and their own modules keep their chunks, loaded with the pages that use them.
 * See docs/decisions/0025-first-load-budget.md.
 */
function firstLoadChunks(): Plugin {
  const everyPage = new Set<string>();
  const root = path.resolve("app/root.tsx");
  return {
    name: "first-load-chunks",
    apply: "build",
    buildStart() {
      everyPage.clear();
    },
    buildEnd() {
      if (this.environment.name !== "client") return;
      const isStart = (id: string) => {
        const file = id.split("?")[0]!;
        return file === root || /[\\/]entry\.client\.[jt]sx?$/.test(file);
      };
      const starts = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry && isStart(id));
      const pending = [...starts];
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (everyPage.has(id)) continue;
        everyPage.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      // The client entry and the root route stay chunks of their own, which import these two.
      for (const id of everyPage) if (isStart(id)) everyPage.delete(id);
    },
    config() {
      return {
        environments: {
          client: {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    groups: [
                      {
                        name: "vendor",
                        priority: 2,
                        test: (id: string) => everyPage.has(id) && /[\\/]node_modules[\\/]/.test(id),
                      },
                      { name: "shell", priority: 1, test: (id: string) => everyPage.has(id) },
                    ],
                  },
                },
              },
            },
          },
        },
      };
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), firstLoadChunks()],
  resolve: {
    tsconfigPaths: true,
    // zod without compiled checks, which the Content Security Policy forbids (see app/lib/zod.ts).
    alias: [{ find: /^zod$/, replacement: path.resolve("app/lib/zod.ts") }],
  },
});
