/**
 * The benches' CPU clock for workerd (bench/support/process-cpu.ts), checked on a Node child in its
 * place: the connection's owner is found among this process's descendants by command name, its CPU
 * grows by what it spent, and a connection from a process that is not a descendant is not claimed.
 */
import { spawn } from "node:child_process";
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { cpuMsOf, rssMbOf, workerdOf } from "../../../bench/support/process-cpu";

it.skipIf(process.platform !== "linux")("finds the descendant holding a connection and reads its CPU", async () => {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const nextSocket = async (): Promise<Socket> => {
    const have = sockets.length;
    while (sockets.length === have) await new Promise((r) => setTimeout(r, 10));
    return sockets[sockets.length - 1] as Socket;
  };
  // The child connects, then spins 300 ms of its own CPU when told to and says so.
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const s = require("node:net").connect(${port}, "127.0.0.1");
       s.on("data", () => { const c0 = process.cpuUsage(); let x = 0;
         while (process.cpuUsage(c0).user < 300000) x += Math.sqrt(x + 1); s.write("done " + x); });`,
    ],
    { stdio: "ignore" },
  );
  try {
    const fromChild = await nextSocket();
    const clientPort = fromChild.remotePort ?? 0;
    expect(workerdOf(clientPort, port, "node")).toBe(child.pid);
    expect(workerdOf(clientPort, port)).toBeNull(); // not named workerd
    const before = cpuMsOf(child.pid ?? 0);
    expect(rssMbOf(child.pid ?? 0)).toBeGreaterThan(1);
    const done = new Promise<void>((r) => fromChild.once("data", () => r()));
    fromChild.write("go");
    await done;
    const after = cpuMsOf(child.pid ?? 0);
    expect(after.all - before.all).toBeGreaterThanOrEqual(250);
    expect(after.main - before.main).toBeGreaterThanOrEqual(250);
    // A connection from this process itself: a process, but not one this one started.
    const own = connect(port, "127.0.0.1");
    const fromSelf = await nextSocket();
    expect(workerdOf(fromSelf.remotePort ?? 0, port, "node")).toBeNull();
    own.destroy();
  } finally {
    child.kill();
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
});
