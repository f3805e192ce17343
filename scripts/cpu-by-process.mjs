// Runs a command and says where the machine's CPU went meanwhile, by kind of process (Chromium's renderers, the
// store, Vitest's workers, ...), from each process's own user and system time in /proc (Linux only). Every process
// counts, not only the command's children: PostgreSQL's, a browser's orphans, the host's own. For finding which part
// of a test run or a benchmark to make cheaper.
//   node scripts/cpu-by-process.mjs [--interval MS] -- COMMAND [ARGS...]
// Exits with the command's exit code. A process that starts and ends between two samples is not seen.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const args = process.argv.slice(2);
const dashes = args.indexOf("--");
if (dashes < 0 || dashes === args.length - 1) {
  console.error("usage: node scripts/cpu-by-process.mjs [--interval MS] -- COMMAND [ARGS...]");
  process.exit(2);
}
const intervalAt = args.indexOf("--interval");
const interval = intervalAt >= 0 && intervalAt < dashes ? Number(args[intervalAt + 1]) : 500;
const [command, ...commandArgs] = args.slice(dashes + 1);
// USER_HZ: the unit of /proc/PID/stat's times on Linux.
const TICKS_PER_SECOND = 100;

/** The kind of a process, by its command line. */
function kindOf(commandLine, name) {
  const type = /--type=([a-z-]+)/.exec(commandLine)?.[1];
  if (/chrom/.test(commandLine)) return `chromium ${type ?? "browser"}`;
  if (commandLine.includes("build/server/main.js")) return "store";
  if (/vitest/.test(commandLine))
    return /worker|forks|threads/.test(commandLine) ? "vitest worker" : "vitest";
  if (/playwright/.test(commandLine)) return "playwright";
  if (/e2e-server\.mjs/.test(commandLine)) return "e2e server launcher";
  if (/\btsx\b/.test(commandLine)) return "tsx";
  const tool = /node_modules\/\.bin\/([\w-]+)/.exec(commandLine)?.[1];
  if (tool) return tool;
  if (/^postgres/.test(commandLine) || name === "postgres") return "postgres";
  if (/\bjava\b/.test(commandLine)) return "java";
  if (/\bnpm\b/.test(commandLine)) return "npm";
  return /node/.test(name) ? "node (other)" : `${name}`;
}

const first = new Map(); // pid -> ticks when first seen (0 for processes born during the run)
const last = new Map(); // pid -> { ticks, kind }
let started = false;

function sample() {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      let seen = last.get(pid);
      if (!seen) {
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
        seen = { kind: kindOf(commandLine || name, name), ticks };
        last.set(pid, seen);
        first.set(pid, started ? 0 : ticks);
      }
      seen.ticks = ticks;
    } catch {
      // ended meanwhile
    }
  }
  started = true;
}

sample();
const began = Date.now();
const timer = setInterval(sample, interval);
const child = spawn(command, commandArgs, { stdio: "inherit" });
child.on("exit", (code, signal) => {
  clearInterval(timer);
  sample();
  const byKind = new Map();
  for (const [pid, { kind, ticks }] of last) {
    const seconds = (ticks - first.get(pid)) / TICKS_PER_SECOND;
    if (seconds > 0) byKind.set(kind, (byKind.get(kind) ?? 0) + seconds);
  }
  const rows = [...byKind].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
  console.log(`\nCPU by kind of process over ${((Date.now() - began) / 1000).toFixed(0)} s (CPU-seconds):`);
  for (const [kind, seconds] of rows.filter(([, seconds]) => seconds >= 0.5))
    console.log(`  ${seconds.toFixed(1).padStart(8)}  ${kind}`);
  console.log(`  ${total.toFixed(1).padStart(8)}  in all`);
  process.exit(code ?? (signal ? 1 : 0));
});
