/**
 * One drizzle client per D1 binding (or per `coalescingD1` proxy), built on first use and kept while
 * the binding lives: `createDb` sets up drizzle's relational config by walking the whole schema, and
 * a turn used to build nine of them over the same binding.
 */
import { createDb, type Db } from "../storage/db";

const clients = new WeakMap<D1Database, Db>();

/** The drizzle client over `d1`, shared by every caller with the same binding object. */
export function d1Client(d1: D1Database): Db {
  let db = clients.get(d1);
  if (!db) {
    db = createDb(d1);
    clients.set(d1, db);
  }
  return db;
}
