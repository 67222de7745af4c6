/**
 * A loopback collector for figures measured inside workerd (which has no file system): benchmarks
 * there POST each metric here, and it is appended to the run's record file like `record()` does.
 * `GET /cpu` answers the on-CPU milliseconds so far of the workerd processes this one started
 * (process-cpu.ts; `{ "ms": null }` where `/proc` cannot tell), so a bench can read CPU around a span.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { workerdCpuMs } from "./process-cpu";
import { record, type Metric } from "./record";

/** Starts the collector; returns its URL and a closer. */
export async function startCollector(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/cpu") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ms: workerdCpuMs() }));
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
