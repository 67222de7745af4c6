/** Port: a user's portfolio (positions, free cash, trade records); the D1 adapter lives in storage/. */
import type { Portfolio, TradeAction, TradeRecord } from "../contracts/portfolio";

/** A position as written. */
export interface PositionWrite {
  code: string;
  name: string;
  shares: number;
  cost: number;
  buyDate: string | null;
  stop: number | null;
}

/** A trade record to append. */
export interface TradeWrite {
  action: TradeAction;
  code?: string;
  name?: string;
  shares?: number;
  price?: number;
  amount?: number;
  note?: string;
}

/** Everything one change writes, applied atomically. */
export interface PortfolioWrite {
  /** Positions to insert or overwrite. */
  upsert: PositionWrite[];
  /** Codes of positions to delete. */
  remove: string[];
  /** Delete every position first (CSV import in `replace` mode). */
  replaceAll?: boolean;
  freeCash?: number;
  trades: TradeWrite[];
  /** Trade records to delete (by id, or every record of these codes). */
  deleteTrades?: { ids?: string[]; codes?: string[] };
}

/** A user's portfolio storage. Every method is scoped to `ownerId`; nobody reads another's. */
export interface PortfolioStore {
  read(ownerId: string): Promise<Portfolio>;
  /** The newest trade records first. */
  trades(ownerId: string, limit?: number): Promise<TradeRecord[]>;
  /** Applies one change atomically; returns how many trade records were deleted. */
  commit(ownerId: string, write: PortfolioWrite, now: number): Promise<{ deletedTrades: number }>;
}
