/** Wraps a D1 binding in drizzle with the project's schema. */
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The typed D1 database every repo is built over (`$client`: the binding, for bulk statements drizzle cannot express). */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** Creates the drizzle client for a D1 binding. */
export function createDb(d1: D1Database): Db {
  return drizzle(d1, { schema });
}
