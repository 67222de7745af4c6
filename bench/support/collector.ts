/**
 * A loopback collector for figures measured inside workerd (which has no file system): benchmarks
 * there POST each metric here, and it is appended to the run's record file like `record()` does.
 * `GET /cpu` answers the on-CPU milliseconds so far (all threads `ms`, the event-loop thread
 * `mainMs`) and the resident size (MiB) of the workerd process that asks (process-cpu.ts; nulls
 * where `/proc` cannot tell), so a bench can read its CPU around a span.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpuMsOf, rssMbOf, workerdOf } from "./process-cpu";
import { record, type Metric } from "./record";

/** Starts the collector; returns its URL and a closer. */
export async function startCollector(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/cpu") {
      const pid = workerdOf(req.socket.remotePort ?? 0, req.socket.localPort ?? 0);
      const cpu = pid === null ? null : cpuMsOf(pid);
      const body =
        pid === null || !cpu
          ? { ms: null, mainMs: null, rssMb: null }
          : { ms: cpu.all, mainMs: cpu.main, rssMb: rssMbOf(pid) };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      try {
        record(JSON.parse(body) as Metric);
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
