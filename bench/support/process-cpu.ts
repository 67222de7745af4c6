/**
 * CPU time of the workerd processes this process started (Linux `/proc`): the on-CPU nanoseconds of
 * every thread (`/proc/<pid>/task/<tid>/schedstat`, first field) of each descendant whose command is
 * `workerd`. workerd gives a worker no CPU clock (its timers move on I/O only), so a bench inside it
 * asks the collector for this figure before and after a span: the difference is the CPU the whole
 * workerd process spent meanwhile — the worker's JS, its GC, and local D1/R2 (SQLite runs in the same
 * process) — whatever else the machine was doing. Only descendants of this process count, so other
 * processes named workerd on the machine are not mixed in.
 */
import { readdirSync, readFileSync } from "node:fs";

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** [ppid, command] of a process from `/proc/<pid>/stat` (the command sits in parentheses and may hold spaces). */
function statOf(pid: number): [number, string] | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  const rest = text.slice(close + 2).split(" ");
  return [Number(rest[1]), text.slice(open + 1, close)];
}

/** Pids of the workerd processes descended from `root`. */
export function workerdPids(root = process.pid): number[] {
  const parent = new Map<number, number>();
  const command = new Map<number, string>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = statOf(pid);
    if (!s) continue;
    parent.set(pid, s[0]);
    command.set(pid, s[1]);
  }
  const descends = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...command].filter(([pid, cmd]) => cmd === "workerd" && descends(pid)).map(([pid]) => pid);
}

let known: number[] = [];

/** On-CPU milliseconds so far of every thread of the workerd processes descended from this one (null off Linux). */
export function workerdCpuMs(): number | null {
  // The pids found once stay while they live (a scan of /proc per call would slow the caller's span).
  if (known.length === 0 || known.some((pid) => read(`/proc/${pid}/stat`) === null)) known = workerdPids();
  const pids = known;
  if (pids.length === 0) return null;
  let ns = 0;
  for (const pid of pids) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) ns += Number(read(`/proc/${pid}/task/${tid}/schedstat`)?.split(" ")[0] ?? 0);
  }
  return ns / 1e6;
}
