/** drizzle-kit for the session Durable Object's SQLite: bundled migrations run at DO start-up. */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./worker/session/schema.ts",
  out: "./worker/session/migrations",
});
