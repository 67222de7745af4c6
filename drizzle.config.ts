/** drizzle-kit for D1: `npm run db:generate` writes SQL migrations that wrangler applies. */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/storage/schema.ts",
  out: "./migrations",
});
