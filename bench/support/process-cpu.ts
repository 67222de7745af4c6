/**
 * CPU time and resident size of the workerd process that asked (Linux `/proc`). workerd gives a
 * worker no CPU clock (its timers move on I/O only), so a bench inside it asks the collector before
 * and after a span; the collector finds which process holds the asking connection (its client port
 * in `/proc/net/tcp`, the socket's inode among the fds of the workerd processes this one started)
 * and answers the on-CPU nanoseconds of all its threads (`/proc/<pid>/task/<tid>/schedstat`, first
 * field). The difference is what that workerd spent meanwhile — the worker's JS, its GC, local D1 and
 * R2 (SQLite runs in the same process) — whatever else the machine was doing; other workerd
 * processes (another bench file running beside it, other users' runs) are not mixed in.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
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

/** Pids of the processes named `command` (workerd by default) descended from `root`. */
export function workerdPids(root = process.pid, command = "workerd"): number[] {
  const parent = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const name of list("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = statOf(pid);
    if (!s) continue;
    parent.set(pid, s[0]);
    commands.set(pid, s[1]);
  }
  const descends = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...commands].filter(([pid, cmd]) => cmd === command && descends(pid)).map(([pid]) => pid);
}

/** The socket inode of the loopback TCP connection from `clientPort` to `serverPort`, or null. */
function socketInode(clientPort: number, serverPort: number): string | null {
  const hex = (p: number) => p.toString(16).toUpperCase().padStart(4, "0");
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"])
    for (const line of (read(file) ?? "").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex(clientPort)}`) && f[2]?.endsWith(`:${hex(serverPort)}`)) return f[9] ?? null;
    }
  return null;
}

/** Which process holds a socket, by command and inode (unique while it lives: a reused port gets a new one). */
const byInode = new Map<string, number>();

/**
 * The pid of the process named `command` (workerd by default), descended from this one, holding the
 * connection from `clientPort` to `serverPort`, or null (not found, or not such a descendant).
 */
export function workerdOf(clientPort: number, serverPort: number, command = "workerd"): number | null {
  const inode = socketInode(clientPort, serverPort);
  if (!inode || inode === "0") return null;
  const seen = byInode.get(`${command}:${inode}`);
  if (seen !== undefined) return seen;
  const link = `socket:[${inode}]`;
  for (const pid of workerdPids(process.pid, command))
    for (const fd of list(`/proc/${pid}/fd`)) {
      let target = "";
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target === link) {
        byInode.set(`${command}:${inode}`, pid);
        return pid;
      }
    }
  return null;
}

/**
 * On-CPU milliseconds so far of every thread of process `pid`, and of its main thread alone. In
 * workerd the main thread is the event loop that runs the worker and the local D1/R2 simulators
 * alike; the others are V8's helpers (concurrent GC marking, compilation).
 */
export function cpuMsOf(pid: number): { all: number; main: number } {
  let ns = 0;
  let main = 0;
  for (const tid of list(`/proc/${pid}/task`)) {
    const t = Number(read(`/proc/${pid}/task/${tid}/schedstat`)?.split(" ")[0] ?? 0);
    ns += t;
    if (tid === String(pid)) main = t;
  }
  return { all: ns / 1e6, main: main / 1e6 };
}

/** Resident set size (MiB) of process `pid` (`VmRSS`), or null. */
export function rssMbOf(pid: number): number | null {
  const kb = /VmRSS:\s+(\d+)/.exec(read(`/proc/${pid}/status`) ?? "")?.[1];
  return kb === undefined ? null : Number(kb) / 1024;
}
