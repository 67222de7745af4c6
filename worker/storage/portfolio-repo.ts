/** D1PortfolioStore: the `PortfolioStore` port over D1 (one batch per change, so a change is all or nothing). */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Portfolio, TradeRecord } from "../contracts/portfolio";
import type { PortfolioStore, PortfolioWrite } from "../ports/portfolio-store";
import type { Db } from "./db";
import { portfolioAccounts, portfolioPositions, portfolioTrades } from "./schema";
import { newId } from "../http/secrets";

const iso = (ms: number): string => new Date(ms).toISOString();

/** Portfolios in D1. */
export class D1PortfolioStore implements PortfolioStore {
  constructor(private readonly db: Db) {}

  async read(ownerId: string): Promise<Portfolio> {
    const [account, rows] = await this.db.batch([
      this.db.select().from(portfolioAccounts).where(eq(portfolioAccounts.ownerId, ownerId)),
      this.db
        .select()
        .from(portfolioPositions)
        .where(eq(portfolioPositions.ownerId, ownerId))
        .orderBy(portfolioPositions.code),
    ]);
    const positions = rows.map((r) => ({
      code: r.code,
      name: r.name,
      shares: r.shares,
      cost: r.cost,
      buyDate: r.buyDate,
      stop: r.stop,
      updatedAt: iso(r.updatedAt),
    }));
    const times = [...rows.map((r) => r.updatedAt), ...(account[0] ? [account[0].updatedAt] : [])];
    return {
      freeCash: account[0]?.freeCash ?? 0,
      positionCount: positions.length,
      positions,
      updatedAt: times.length > 0 ? iso(Math.max(...times)) : null,
    };
  }

  async trades(ownerId: string, limit = 100): Promise<TradeRecord[]> {
    const rows = await this.db
      .select()
      .from(portfolioTrades)
      .where(eq(portfolioTrades.ownerId, ownerId))
      .orderBy(desc(portfolioTrades.at), desc(portfolioTrades.id))
      .limit(limit);
    return rows.map((r) => ({
      id: r.id,
      action: r.action as TradeRecord["action"],
      code: r.code,
      name: r.name,
      shares: r.shares,
      price: r.price,
      amount: r.amount,
      note: r.note,
      at: iso(r.at),
    }));
  }

  async commit(ownerId: string, write: PortfolioWrite, now: number): Promise<{ deletedTrades: number }> {
    const db = this.db;
    const ops: BatchItem<"sqlite">[] = [];
    let deleteTradesAt = -1;
    if (write.replaceAll) ops.push(db.delete(portfolioPositions).where(eq(portfolioPositions.ownerId, ownerId)));
    if (write.remove.length > 0)
      ops.push(
        db
          .delete(portfolioPositions)
          .where(and(eq(portfolioPositions.ownerId, ownerId), inArray(portfolioPositions.code, write.remove))),
      );
    for (const p of write.upsert) {
      ops.push(
        db
          .insert(portfolioPositions)
          .values({ ownerId, ...p, createdAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: [portfolioPositions.ownerId, portfolioPositions.code],
            set: { name: p.name, shares: p.shares, cost: p.cost, buyDate: p.buyDate, stop: p.stop, updatedAt: now },
          }),
      );
    }
    // Touching the account row records when the portfolio last changed, even without a cash change.
    ops.push(
      db
        .insert(portfolioAccounts)
        .values({ ownerId, freeCash: write.freeCash ?? 0, updatedAt: now })
        .onConflictDoUpdate({
          target: portfolioAccounts.ownerId,
          set: write.freeCash === undefined ? { updatedAt: now } : { freeCash: write.freeCash, updatedAt: now },
        }),
    );
    const del = write.deleteTrades;
    if (del && (del.ids?.length || del.codes?.length)) {
      const byId = del.ids?.length ? inArray(portfolioTrades.id, del.ids) : undefined;
      const byCode = del.codes?.length ? inArray(portfolioTrades.code, del.codes) : undefined;
      const which = byId && byCode ? sql`(${byId} or ${byCode})` : (byId ?? byCode);
      deleteTradesAt = ops.length;
      ops.push(
        db
          .delete(portfolioTrades)
          .where(and(eq(portfolioTrades.ownerId, ownerId), which))
          .returning({ id: portfolioTrades.id }),
      );
    }
    write.trades.forEach((t, i) => {
      ops.push(
        db.insert(portfolioTrades).values({
          id: newId("tr_"),
          ownerId,
          action: t.action,
          code: t.code ?? null,
          name: t.name ?? null,
          shares: t.shares ?? null,
          price: t.price ?? null,
          amount: t.amount ?? null,
          note: t.note ?? null,
          // Records of one change keep their order.
          at: now + i,
        }),
      );
    });
    const [first, ...rest] = ops;
    if (!first) return { deletedTrades: 0 };
    const results = await db.batch([first, ...rest]);
    const deleted = deleteTradesAt >= 0 ? results[deleteTradesAt] : undefined;
    return { deletedTrades: Array.isArray(deleted) ? deleted.length : 0 };
  }
}
