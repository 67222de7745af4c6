/**
 * The reading room's build: plain Vite + React, root web/, output dist/client (served by the worker
 * as static assets locally; deployable to Pages on its own with VITE_API_BASE_URL).
 */
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: "web",
  plugins: [react()],
  resolve: {
    alias: {
      "@contracts": path.resolve(import.meta.dirname, "worker/contracts"),
      "@tool-specs": path.resolve(import.meta.dirname, "worker/tools/specs"),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, "dist/client"),
    emptyOutDir: true,
    // The markdown renderer (marked + remend) and the chart (lightweight-charts) are lazy chunks;
    // first load plus one rendered answer stays under the 250 KB gzip budget (npm run bench).
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { "/api": "http://127.0.0.1:8787", "/mcp": "http://127.0.0.1:8787" } },
});
