// Two servers on core 0 at once, each loaded by its own wrk from core 1: they share the core evenly whatever the
// host's speed that second, so the ratio of their rates is the inverse ratio of their CPU a request, where rounds
// taken in turn swing by half on a slow host. `npm run bench:web` measures the kept pages' share of the bare server
// this way (its shareSideBySide); this tool compares two builds, or a store after varied traffic (--warm).
//   node scripts/bench-web/side-by-side.mjs ROOT_A ROOT_B [--path /antivirus/mcafee] [--rounds 8] [--cached] [--warm]
//   node scripts/bench-web/side-by-side.mjs ROOT --bare [--path P] [--rounds N] [--warm]
// ROOT_A and ROOT_B are checkouts holding a build (build/server/main.js); each store gets a fresh DATA_DIR. Two
// builds (or a build against itself, the control: the method's own bias is a few per cent), or with --bare a store's
// kept page (B) against the bare Node server sending the same bytes and headers (A, bare-node-server.mjs), as
// bench:web compares them. --warm first asks each store for its sitemap's first 150 addresses, twice (the second
// time with a query string and brotli), then lets it rest 10 s: a store that has served varied traffic, whose kept
// pages cost more than a fresh store's (README, "Web benchmark").
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { nodeFlags } from "../../server/node-flags.mjs";

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const valued = new Set(["--path", "--rounds"]);
const roots = args.filter((arg, i) => !arg.startsWith("--") && !valued.has(args[i - 1]));
const bare = args.includes("--bare");
if (roots.length !== (bare ? 1 : 2)) {
  console.error(
    "usage: node scripts/bench-web/side-by-side.mjs ROOT_A ROOT_B [--path P] [--rounds N] [--cached] [--warm]\n" +
      "       node scripts/bench-web/side-by-side.mjs ROOT --bare [--path P] [--rounds N] [--warm]",
  );
  process.exit(1);
}
const pagePath = option("--path", "/antivirus/mcafee");
const rounds = Number(option("--rounds", "8"));
const cached = bare || args.includes("--cached");
// Enough connections to keep each server busy: a render takes milliseconds, a kept page microseconds.
const connections = cached ? 25 : 4;
const dataRoot = mkdtempSync(path.join(tmpdir(), "side-by-side-"));
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const bareServer = path.join(path.dirname(fileURLToPath(import.meta.url)), "bare-node-server.mjs");

async function waitUp(url, child, what) {
  for (let tries = 0; ; tries++) {
    const up = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return;
    if (tries > 240 || child.exitCode !== null) throw new Error(`${what} did not start`);
    await wait(500);
  }
}

async function startStore(root, index) {
  const port = 4400 + index;
  const child = spawn("taskset", ["-c", "0", process.execPath, ...nodeFlags, "build/server/main.js"], {
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
  });
  await waitUp(`http://127.0.0.1:${port}/healthz/live`, child, `the store in ${root}`);
  return { port, child };
}

/** A page as a client asking for gzip gets it: its gzip bytes and its headers but those of the connection. */
const fetchGzip = (url) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const headers = { ...res.headers };
          for (const perConnection of ["date", "connection", "keep-alive"]) delete headers[perConnection];
          if (res.headers["content-encoding"] !== "gzip") reject(new Error(`${url} was not sent with gzip`));
          else resolve({ headers, gzip: Buffer.concat(chunks).toString("base64") });
        });
      })
      .on("error", reject);
  });

/** The bare Node server on core 0, sending the store's page as the store sent it. */
async function startBare(store) {
  const port = 4402;
  const file = path.join(dataRoot, "pages.json");
  writeFileSync(
    file,
    JSON.stringify({ [pagePath]: await fetchGzip(`http://127.0.0.1:${store.port}${pagePath}`) }),
  );
  const child = spawn("taskset", ["-c", "0", process.execPath, bareServer, String(port), file], {
    stdio: "ignore",
  });
  await waitUp(`http://127.0.0.1:${port}${pagePath}`, child, "the bare Node server");
  return { port, child };
}

/** Varied traffic: the sitemap's first 150 addresses, then again with a query string and brotli. */
async function warm({ port }) {
  const base = `http://127.0.0.1:${port}`;
  const addresses = async (url) =>
    [...(await (await fetch(url)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(match[1]).pathname,
    );
  const listed = await addresses(`${base}/sitemap.xml`);
  for (const file of listed.filter((address) => address.endsWith(".xml")))
    listed.push(...(await addresses(`${base}${file}`)));
  const pages = listed.filter((address) => !address.endsWith(".xml")).slice(0, 150);
  for (const address of pages) await (await fetch(`${base}${address}`)).arrayBuffer();
  for (const address of pages)
    await (await fetch(`${base}${address}?warm=1`, { headers: { "Accept-Encoding": "br" } })).arrayBuffer();
  await wait(10_000);
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

const servers = [];
try {
  if (bare) {
    const store = await startStore(path.resolve(roots[0]), 1);
    servers.push(store);
    if (args.includes("--warm")) await warm(store);
    servers.unshift(await startBare(store));
  } else {
    for (const [index, root] of roots.entries()) servers.push(await startStore(path.resolve(root), index));
    if (args.includes("--warm")) for (const store of servers) await warm(store);
  }
  await Promise.all(servers.map((server) => load(server, 6)));
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const [a, b] = await Promise.all(servers.map((server) => load(server, 5)));
    ratios.push(b / a);
    console.log(
      `round ${round + 1}: A ${a.toFixed(0)}, B ${b.toFixed(0)} requests/s, B/A ${(b / a).toFixed(3)}`,
    );
  }
  ratios.sort((x, y) => x - y);
  const what = bare ? " (kept, against the bare Node server)" : cached ? " (kept)" : " (rendered)";
  console.log(`${pagePath}${what}: B/A median ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}`);
} finally {
  for (const { child } of servers) child.kill();
  rmSync(dataRoot, { recursive: true, force: true });
}
