// npm start: build when the sources are newer than the build, then run the server
// (which migrates the database and fills an empty one with the demo store).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFlags } from "../server/node-flags.mjs";
import { buildInputs } from "./build-inputs.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const builtMarker = path.join(root, "build", "server", "main.js");

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestChange(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/**
 * Builds quietly: a newcomer's first start shows the store's own lines, not the bundler's chunk list. The whole
 * output is shown when the build fails; `npm run build` shows it always.
 */
function build(reason) {
  console.log(`${reason}: building the store (about a minute)...`);
  const began = Date.now();
  // A production build whatever NODE_ENV this shell has: under another (a test runner's "test", an exported
  // "development") Vite would bundle React's development build into the pages the store serves.
  const result = spawnSync("npm", ["run", "--silent", "build"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    console.error("The build failed: see above.");
    process.exit(result.status ?? 1);
  }
  console.log(`Built in ${Math.round((Date.now() - began) / 1000)} s.`);
}

const builtAt = existsSync(builtMarker) ? statSync(builtMarker).mtimeMs : 0;
const changedAt = Math.max(...buildInputs.map((source) => newestChange(path.join(root, source))));
if (changedAt > builtAt) build(builtAt ? "Sources changed since the last build" : "No build yet");

// The "start" script execs this process, so it is the one a supervisor (Docker, systemd, a process manager) or
// npm signals. It passes SIGTERM and SIGINT on and leaves with the server's exit code. The IPC channel ends if this
// process is killed outright, and the server then stops on its own instead of holding the port and the database.
const server = spawn(process.execPath, [...nodeFlags, builtMarker], {
  cwd: root,
  stdio: ["inherit", "inherit", "inherit", "ipc"],
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
