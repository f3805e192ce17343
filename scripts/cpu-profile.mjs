// Summarises a CPU profile (node --cpu-prof): where the busy time went, by package and by function (self time),
// and, given function names, the time spent inside each (inclusive). For reading where a request's CPU goes.
//   node scripts/cpu-profile.mjs FILE.cpuprofile [--top N] [--inside name1,name2] [--after SECONDS]
// --after leaves out the profile's first seconds (the server's start: migrations, demo data, warm-up).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith("--") && !/^\d+$/.test(arg));
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
if (!file) {
  console.error(
    "usage: node scripts/cpu-profile.mjs FILE.cpuprofile [--top N] [--inside name1,name2] [--after SECONDS]",
  );
  process.exit(1);
}
const top = Number(option("--top") ?? 25);
const inside = (option("--inside") ?? "").split(",").filter(Boolean);

const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const after = Number(option("--after") ?? 0) * 1e6;
const selfTime = new Map();
let elapsed = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  elapsed += delta;
  if (elapsed >= after) selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
});

/**
 * The server is one bundle (scripts/build-server.mjs), in which esbuild starts each file it took in with a comment
 * naming it (`// node_modules/zod/v4/core/schemas.js`): a frame in the bundle is told by the comment above it.
 */
const bundles = new Map();
const bundledSource = (url, line) => {
  if (!bundles.has(url)) {
    const path = fileURLToPath(url);
    const starts = [];
    if (existsSync(path))
      readFileSync(path, "utf8")
        .split("\n")
        .forEach((text, index) => {
          const named = text.match(/^\/\/ ((?:node_modules|app|server|db|platform|build)\/\S+)$/);
          if (named) starts.push([index, named[1]]);
        });
    bundles.set(url, starts);
  }
  return bundles.get(url).findLast(([start]) => start <= line)?.[1];
};

const packageOf = ({ url, functionName, lineNumber }) => {
  if (["(garbage collector)", "(idle)", "(program)"].includes(functionName)) return functionName;
  if (!url) return "(native)";
  if (url.startsWith("file:") && url.endsWith("/build/server/main.js")) {
    const source = bundledSource(url, lineNumber);
    if (!source || !source.includes("node_modules/")) return "(the app)";
    url = source;
  }
  const inModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url.startsWith("wasm")) return "(wasm)";
  if (url.includes("/build/server/")) return "(the app)";
  return url.replace(/^file:\/\//, "");
};

const byPackage = new Map();
const byFunction = new Map();
let busy = 0;
for (const [id, time] of selfTime) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === "(idle)") continue;
  busy += time;
  const pkg = packageOf(frame);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
  const name = `${frame.functionName || "(anonymous)"} ${pkg}:${frame.lineNumber}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
}

const line = (time, label) =>
  `${((100 * time) / busy).toFixed(1).padStart(5)}% ${(time / 1000).toFixed(0).padStart(7)} ms  ${label}`;
const print = (title, table) => {
  console.log(`--- ${title}`);
  [...table]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([label, time]) => console.log(line(time, label)));
};
console.log(`busy ${(busy / 1e6).toFixed(2)} s`);
print("self time by package", byPackage);
print("self time by function", byFunction);

if (inside.length > 0) {
  const within = new Map(inside.map((name) => [name, 0]));
  for (const [id, time] of selfTime) {
    if (nodes.get(id).callFrame.functionName === "(idle)") continue;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const name = nodes.get(at).callFrame.functionName;
      if (within.has(name) && !seen.has(name)) {
        seen.add(name);
        within.set(name, within.get(name) + time);
      }
    }
  }
  print("time inside (inclusive)", within);
}
