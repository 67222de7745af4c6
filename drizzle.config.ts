/** drizzle-kit for D1: `npm run db:generate` writes SQL migrations that wrangler applies. */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // schema.ts re-exports market-schema.ts; both are listed so a table declared in either is covered.
  schema: ["./worker/storage/schema.ts", "./worker/storage/market-schema.ts"],
  out: "./migrations",
});
