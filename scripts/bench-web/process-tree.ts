/** What the benchmark reads of a store's processes (the server and a cluster's workers) from /proc. */
import { readdirSync, readFileSync } from "node:fs";

/** A process and its children (a cluster's workers): each one's /proc id and stat line. */
function processTree(pid: number): Array<{ id: string; stat: string }> {
  const tree: Array<{ id: string; stat: string }> = [];
  for (const id of readdirSync("/proc")) {
    if (!/^\d+$/.test(id)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${id}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // After the command's closing parenthesis: state, then the parent's id.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (Number(id) === pid || parent === pid) tree.push({ id, stat });
  }
  return tree;
}

/** Resident memory (MB) of a process and its children. */
export function processTreeRssMb(pid: number): number {
  let kb = 0;
  for (const { id } of processTree(pid)) {
    try {
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** CPU time (user and system, ms) of a process and its children (a cluster's workers), from /proc. */
export function processCpuMs(pid: number): number {
  let total = 0;
  for (const { stat } of processTree(pid)) {
    // After the command's closing parenthesis: state, parent, ...; utime and stime are the 12th and 13th, in ticks.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}
