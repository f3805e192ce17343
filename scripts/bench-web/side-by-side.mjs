// Two built stores on core 0 at once, each loaded by its own wrk from core 1: they share the core evenly whatever
// the host's speed that second, so the ratio of their rates is the inverse ratio of their CPU a request, where rounds
// taken in turn swing by half on a slow host. For comparing two builds (or a build against itself, the control:
// the method's own bias is a few per cent). Not part of `npm run bench:web`.
//   node scripts/bench-web/side-by-side.mjs ROOT_A ROOT_B [--path /antivirus/mcafee] [--rounds 8] [--cached]
// ROOT_A and ROOT_B are checkouts holding a build (build/server/main.js); each store gets a fresh DATA_DIR.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const valued = new Set(["--path", "--rounds"]);
const roots = args.filter((arg, i) => !arg.startsWith("--") && !valued.has(args[i - 1]));
if (roots.length !== 2) {
  console.error(
    "usage: node scripts/bench-web/side-by-side.mjs ROOT_A ROOT_B [--path P] [--rounds N] [--cached]",
  );
  process.exit(1);
}
const pagePath = option("--path", "/antivirus/mcafee");
const rounds = Number(option("--rounds", "8"));
const cached = args.includes("--cached");
// Enough connections to keep each store busy: a render takes milliseconds, a kept page microseconds.
const connections = cached ? 25 : 4;
const dataRoot = mkdtempSync(path.join(tmpdir(), "side-by-side-"));
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(root, index) {
  const port = 4400 + index;
  const child = spawn(
    "taskset",
    ["-c", "0", process.execPath, "--enable-source-maps", "--max-semi-space-size=16", "build/server/main.js"],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: path.join(dataRoot, String(index)),
        LOG_LEVEL: "warn",
        ...(cached ? {} : { PAGE_CACHE: "off" }),
      },
      stdio: "ignore",
    },
  );
  for (let tries = 0; ; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz/live`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { port, child };
    if (tries > 240 || child.exitCode !== null) throw new Error(`the store in ${root} did not start`);
    await wait(500);
  }
}

const load = async ({ port }, seconds) => {
  const { stdout } = await run("taskset", [
    "-c",
    "1",
    "wrk",
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "-H",
    "Accept-Encoding: gzip",
    `http://127.0.0.1:${port}${pagePath}`,
  ]);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]);
};

const stores = [];
try {
  for (const [index, root] of roots.entries()) stores.push(await start(path.resolve(root), index));
  await Promise.all(stores.map((store) => load(store, 6)));
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const [a, b] = await Promise.all(stores.map((store) => load(store, 5)));
    ratios.push(b / a);
    console.log(
      `round ${round + 1}: A ${a.toFixed(0)}, B ${b.toFixed(0)} requests/s, B/A ${(b / a).toFixed(3)}`,
    );
  }
  ratios.sort((x, y) => x - y);
  console.log(
    `${pagePath}${cached ? " (kept)" : " (rendered)"}: B/A median ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}`,
  );
} finally {
  for (const { child } of stores) child.kill();
  rmSync(dataRoot, { recursive: true, force: true });
}
