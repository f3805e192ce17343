// How fast this host is at this minute: the CPU time of a fixed piece of work of the kind a render does (a 100 KB
// page deflated at level 1 and hashed with SHA-256, 2,000 small objects through JSON), the median of eight
// quarter-seconds. Started by scripts/bench-web.ts pinned to core 0, where the servers it measures run; prints
// the milliseconds. Hosts of one size, and one host from one minute to the next, differ by up to twice: two runs'
// figures compare only beside their figures for this.
import { hash } from "node:crypto";
import zlib from "node:zlib";

const rows = Array.from({ length: 2000 }, (_, i) => ({
  id: i,
  name: `Product ${i}`,
  tags: ["antivirus", "3 devices"],
  cents: i * 150,
}));
const page = Buffer.from(
  rows
    .map(
      (row) =>
        `<li class="flex gap-3 text-slate-700"><a href="/p/${row.id}">${row.name}</a> ${row.cents}</li>`,
    )
    .join("\n"),
).subarray(0, 100_000);

function work() {
  zlib.deflateRawSync(page, { level: 1 });
  hash("sha256", page);
  JSON.parse(JSON.stringify(rows));
}

for (let i = 0; i < 50; i++) work();
const slices = [];
for (let slice = 0; slice < 8; slice++) {
  const until = Date.now() + 250;
  const start = process.cpuUsage();
  let done = 0;
  while (Date.now() < until) {
    work();
    done++;
  }
  const used = process.cpuUsage(start);
  slices.push((used.user + used.system) / 1000 / done);
}
slices.sort((a, b) => a - b);
console.log(((slices[3] + slices[4]) / 2).toFixed(2));
