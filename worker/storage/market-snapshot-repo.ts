/**
 * The whole-market snapshots (lib/market-snapshot.ts) in R2, indexed by D1's `market_snapshots`:
 * one object per market and store generation, written after a sync run completes and rebuildable at
 * any time from the per-symbol chunks (they stay the store; the snapshot is a copy).
 *
 * Consistency: every write to a market's stored bars bumps its `generation` (SQL triggers, whatever
 * path writes). A build reads the generation, then the chunks, and publishes only if the generation
 * has not moved since (`WHERE generation = ?`) — so a published snapshot holds exactly the store at
 * its generation, and readers serve it only while `built_generation = generation`; any later write
 * (a partial run, a per-symbol refetch) sends them back to the chunks until the next build. A
 * redelivered build at the same generation writes the same bytes under the same key.
 */
import type { MarketCode } from "../contracts/market";
import { encodeMarketSnapshot, MarketSnapshot, type SnapshotSeries } from "../lib/market-snapshot";

/** How objects are stored: gzip (`CompressionStream`) or as is. */
export type SnapshotCompression = "gzip" | "none";

const PREFIX = "market-snapshots/";

/** What a build published (null fields when the store moved during the build and nothing was published). */
export interface SnapshotBuild {
  published: boolean;
  key: string;
  generation: number;
  series: number;
  bars: number;
  /** Stored object size (after compression). */
  bytes: number;
  /** Encoded size before compression. */
  rawBytes: number;
  asOf: string;
}

/** Reads every stored stock series of a market from the per-symbol chunks (D1MarketCache). */
export type ChunkReader = (market: MarketCode) => Promise<SnapshotSeries[]>;

interface Loaded {
  key: string;
  snap: Promise<MarketSnapshot | null>;
}

/** Parsed snapshots by market, shared by every reader in the isolate (one per market: the newest read). */
const loaded = new Map<string, Loaded>();

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(buf: ArrayBuffer): Promise<Uint8Array> {
  const stream = new Blob([buf]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export class MarketSnapshots {
  readonly #d1: D1Database;
  readonly #bucket: R2Bucket;
  readonly #compression: SnapshotCompression;

  constructor(d1: D1Database, bucket: R2Bucket, opts: { compression?: SnapshotCompression } = {}) {
    this.#d1 = d1;
    this.#bucket = bucket;
    this.#compression = opts.compression ?? "gzip";
  }

  /** Builds the market's snapshot from the chunks and publishes it unless the store moved meanwhile. */
  async rebuild(market: MarketCode, runId: string | null, read: ChunkReader, now: number): Promise<SnapshotBuild> {
    await this.#d1
      .prepare(`INSERT INTO market_snapshots (market, generation) VALUES (?1, 0) ON CONFLICT(market) DO NOTHING`)
      .bind(market)
      .run();
    const row = await this.#d1
      .prepare(`SELECT generation, key FROM market_snapshots WHERE market = ?1`)
      .bind(market)
      .first<{ generation: number; key: string | null }>();
    const generation = row?.generation ?? 0;
    const series = await read(market);
    let asOf = "";
    let bars = 0;
    for (const s of series) {
      const last = s.columns.date[s.columns.date.length - 1] ?? "";
      if (last > asOf) asOf = last;
      bars += s.columns.close.length;
    }
    const raw = encodeMarketSnapshot({ market, asOf, runId, generation }, series);
    const body = this.#compression === "gzip" ? await gzip(raw) : raw;
    const key = `${PREFIX}${market}/${asOf || "empty"}-g${generation}.${this.#compression === "gzip" ? "bin.gz" : "bin"}`;
    await this.#bucket.put(key, body);
    const done = await this.#d1
      .prepare(
        `UPDATE market_snapshots SET built_generation = ?2, key = ?3, run_id = ?4, as_of = ?5, bytes = ?6, series = ?7, built_at = ?8
         WHERE market = ?1 AND generation = ?2`,
      )
      .bind(market, generation, key, runId, asOf, body.length, series.length, now)
      .run();
    const published = (done.meta.changes ?? 0) > 0;
    const old = row?.key ?? null;
    if (published && old && old !== key) await this.#bucket.delete(old);
    if (!published && old !== key) await this.#bucket.delete(key);
    return { published, key, generation, series: series.length, bars, bytes: body.length, rawBytes: raw.length, asOf };
  }

  /** The current snapshot of each market these symbols belong to (markets without one omitted). */
  async currentFor(symbolIds: readonly string[]): Promise<MarketSnapshot[]> {
    const rows = await this.#d1
      .prepare(
        `SELECT market, key FROM market_snapshots
         WHERE key IS NOT NULL AND built_generation = generation
           AND market IN (SELECT m.market FROM json_each(?1) AS k JOIN market_symbols m ON m.id = k.value)`,
      )
      .bind(JSON.stringify([...new Set(symbolIds)]))
      .raw<[string, string]>();
    return this.#load(rows);
  }

  /** The market's current snapshot, or null (none built, or the store moved since). */
  async current(market: MarketCode): Promise<MarketSnapshot | null> {
    const rows = await this.#d1
      .prepare(
        `SELECT market, key FROM market_snapshots WHERE market = ?1 AND key IS NOT NULL AND built_generation = generation`,
      )
      .bind(market)
      .raw<[string, string]>();
    return (await this.#load(rows))[0] ?? null;
  }

  async #load(rows: readonly [string, string][]): Promise<MarketSnapshot[]> {
    const out: MarketSnapshot[] = [];
    for (const [market, key] of rows) {
      let l = loaded.get(market);
      if (!l || l.key !== key) {
        l = { key, snap: this.#fetch(key).catch(() => null) };
        loaded.set(market, l);
      }
      const snap = await l.snap;
      if (snap) out.push(snap);
      else if (loaded.get(market) === l) loaded.delete(market); // unreadable or gone: try again next time
    }
    return out;
  }

  async #fetch(key: string): Promise<MarketSnapshot | null> {
    const obj = await this.#bucket.get(key);
    if (!obj) return null;
    const buf = await obj.arrayBuffer();
    const bytes = key.endsWith(".gz") ? await gunzip(buf).catch(() => null) : new Uint8Array(buf);
    return bytes ? MarketSnapshot.parse(bytes) : null;
  }
}

/** Forgets the isolate's parsed snapshots (tests and benches measuring a cold read). */
export function forgetLoadedSnapshots(): void {
  loaded.clear();
}
