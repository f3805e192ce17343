// npm test: every check of the store (lint, types, the Vitest suite, the end-to-end suite in Chromium and the
// attacks), in stages whose parts run side by side, then how long each part took and any test that passed only on
// a retry. Each part also runs alone: npm run lint, typecheck, build, test:unit, test:e2e, attack.
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

/**
 * A stage starts when the one before has passed. The build comes first: the Vitest tests in tests/production, the
 * end-to-end tests and the attacks all run it. Every stage keeps both cores busy (measured: the Vitest suite alone
 * uses about 1.9 of them, ESLint beside the TypeScript checker 2, the end-to-end suite 1.8), so a part set beside
 * another only takes cores from it; the attacks (about one core for 80 s) run beside the end-to-end suite, which
 * they slow the least.
 */
const stages = [
  [
    { name: "lint", command: ["npm", "run", "--silent", "lint"] },
    { name: "typecheck", command: ["npm", "run", "--silent", "typecheck"] },
    { name: "build", command: ["npm", "run", "--silent", "build"] },
  ],
  [{ name: "vitest", command: ["npx", "vitest", "run"] }],
  [
    { name: "e2e", command: ["npx", "playwright", "test"] },
    { name: "attack", command: ["npm", "run", "--silent", "attack"] },
  ],
];

const width = Math.max(...stages.flat().map((part) => part.name.length));
const startedAt = Date.now();
const timings = [];
const flaky = [];

/** Runs one part, its output line by line under its name; resolves to its exit code. */
function run({ name, command }) {
  const began = Date.now();
  const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  const label = `[${name.padEnd(width)}]`;
  let flakyBlock = false;
  const lines = (stream, out) => {
    let rest = "";
    stream.on("data", (chunk) => {
      const text = rest + chunk.toString();
      const complete = text.split("\n");
      rest = complete.pop();
      for (const line of complete) {
        out.write(`${label} ${line}\n`);
        // Playwright's summary names each test that failed first and passed on its retry under "N flaky".
        const plain = stripVTControlCharacters(line);
        if (/^\s+\d+ flaky$/.test(plain)) flakyBlock = true;
        else if (flakyBlock && /^\s+\[/.test(plain)) flaky.push(plain.trim());
        else flakyBlock = false;
      }
    });
    stream.on("end", () => rest && out.write(`${label} ${rest}\n`));
  };
  lines(child.stdout, process.stdout);
  lines(child.stderr, process.stderr);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      timings.push({ name, seconds: (Date.now() - began) / 1000, code });
      resolve(code ?? 1);
    }),
  );
}

let failed = [];
for (const stage of stages) {
  const codes = await Promise.all(stage.map(run));
  failed = stage.filter((_, index) => codes[index] !== 0).map((part) => part.name);
  if (failed.length > 0) break;
}

console.log("\nHow long each part took:");
for (const { name, seconds, code } of timings)
  console.log(`  ${name.padEnd(width)}  ${seconds.toFixed(0).padStart(4)} s${code === 0 ? "" : "  FAILED"}`);
console.log(`  ${"total".padEnd(width)}  ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s`);
if (flaky.length > 0) {
  console.log(
    `\nPassed only on a retry (flaky: a failure to fix):\n${flaky.map((test) => `  ${test}`).join("\n")}`,
  );
}
if (failed.length > 0) {
  console.log(`\nFailed: ${failed.join(", ")}`);
  process.exit(1);
}
