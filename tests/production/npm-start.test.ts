import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildInputs } from "../../scripts/build-inputs.mjs";
import { nodeFlags } from "../../server/node-flags.mjs";
import { childrenOf, freePort, ready, waitFor } from "../support/store-process";

// `npm start` as Docker, systemd or a process manager runs it: they signal the process npm started, and may kill it
// outright. Either way the store stops and lets go of its port and its database.

const alive = (pid: number) => existsSync(`/proc/${pid}`);
const argumentsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
const commandLine = (pid: number) => argumentsOf(pid).join(" ");

// One DATA_DIR for the file's stores, one after another: the demo store is imported once.
const dataDir = `test-results/npm-start-${process.pid}`;
rmSync(dataDir, { recursive: true, force: true });

/** `npm start` in the project (or in `cwd`, a copy of it), its store on `dataDir`. */
async function npmStart({ cwd, env = {} }: { cwd?: string; env?: Record<string, string> } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const npm = spawn("npm", ["start"], {
    cwd,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: path.resolve(dataDir),
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_SECONDS: "5",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const npmExited = new Promise<void>((resolve) => npm.on("exit", () => resolve()));
  try {
    await Promise.race([
      ready({ url }, 240_000),
      npmExited.then(() => {
        throw new Error(`npm start ended before the store was ready:\n${output}`);
      }),
    ]);
    // What npm started is the launcher itself (the script execs it), not a shell in between.
    const [launcher] = childrenOf(npm.pid!);
    expect(commandLine(launcher!)).toContain("scripts/start.mjs");
    const [server] = childrenOf(launcher!);
    // The server runs with its Node flags (docs/decisions/0041-server-node-flags.md), however it is started.
    const [, ...serverArgs] = argumentsOf(server!);
    expect(serverArgs.slice(0, -1)).toEqual(nodeFlags);
    expect(serverArgs.at(-1)).toMatch(/(^|\/)build\/server\/main\.js$/);
    return { npm, npmExited, launcher: launcher!, server: server!, output: () => output };
  } catch (error) {
    // A store left running would hold the DATA_DIR the file's next test starts on: that test would wait on its lock
    // instead of this one failing alone.
    const tree = (pid: number): number[] => [pid, ...childrenOf(pid).flatMap(tree)];
    const processes = tree(npm.pid!);
    for (const pid of processes) if (alive(pid)) process.kill(pid, "SIGTERM");
    // The assertion's failure is what the test reports, whether or not they end in time; what does not is killed.
    await waitFor(() => !processes.some(alive), {
      what: "npm start's processes to end",
      timeout: 30_000,
    }).catch(() => processes.filter(alive).forEach((pid) => process.kill(pid, "SIGKILL")));
    throw error;
  }
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops the store when the process npm started gets ${signal}`, async () => {
      const started = await npmStart();
      process.kill(started.launcher, signal);
      await waitFor(() => !alive(started.server) && !alive(started.launcher), {
        what: "the server and its launcher to end",
        timeout: 60_000,
      });
      await started.npmExited;
      expect(existsSync(`${dataDir}/pglite.lock`)).toBe(false);
      expect(started.output()).toContain("Storefront ready at");
    }, 240_000);
  }

  it("builds for production whatever NODE_ENV the shell has, and again after any of the build's inputs changed", async () => {
    // A copy of what the build reads (and node_modules linked), so that this build is not the one the other tests
    // start stores from.
    const project = path.resolve(`test-results/npm-start-project-${process.pid}`);
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    for (const entry of ["scripts", ...buildInputs.filter((input) => !input.startsWith("scripts/"))])
      cpSync(entry, path.join(project, entry), { recursive: true });
    symlinkSync(path.resolve("node_modules"), path.join(project, "node_modules"));
    const startAndStop = async (check: (output: string) => void) => {
      const started = await npmStart({ cwd: project, env: { NODE_ENV: "development" } });
      try {
        check(started.output());
      } finally {
        process.kill(started.launcher, "SIGTERM");
        await started.npmExited;
      }
    };
    try {
      await startAndStop((output) => {
        expect(output).toContain("No build yet: building the store");
        const assets = path.join(project, "build/client/assets");
        const scripts = readdirSync(assets)
          .filter((name) => name.endsWith(".js"))
          .map((name) => ({ name, text: readFileSync(path.join(assets, name), "utf8") }));
        expect(scripts.filter(({ text }) => text.includes("hydrateRoot")).length).toBeGreaterThan(0);
        // Text only React's development build carries (its warning about list items without keys).
        const development = scripts.filter(({ text }) =>
          text.includes("Each child in a list should have a unique"),
        );
        expect(development.map(({ name }) => name)).toEqual([]);
      });
      // platform/ is bundled into the server like app/ and server/: a change there is a change to the store.
      const later = new Date(Date.now() + 60_000);
      utimesSync(path.join(project, "platform/config-error.ts"), later, later);
      await startAndStop((output) => expect(output).toContain("Sources changed since the last build"));
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 300_000);

  it("stops the store when the process npm started is killed outright", async () => {
    const started = await npmStart();
    process.kill(started.launcher, "SIGKILL");
    await waitFor(() => !alive(started.server), { what: "the server to end", timeout: 60_000 });
    expect(existsSync(`${dataDir}/pglite.lock`)).toBe(false);
    started.npm.kill();
  }, 240_000);
});
