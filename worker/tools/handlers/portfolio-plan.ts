/**
 * Pure planning of one portfolio change: from the current portfolio and a validated, resolved change
 * to what must be written and what the portfolio looks like afterwards. Nothing here touches storage,
 * so a preview and the real write can never disagree.
 */
import { MAX_POSITIONS, type Portfolio, type PortfolioChange, type Position } from "../../contracts/portfolio";
import { err, ok, type Result } from "../../lib/result";
import type { PortfolioWrite, PositionWrite } from "../../ports/portfolio-store";

/**
 * A change whose `code` was resolved against the universe (or matched a held position); a sale also
 * carries the last close it is priced at when no price was given (`lastClose`, absent when unknown).
 */
export type ResolvedChange = PortfolioChange & { resolved?: { code: string; name: string }; lastClose?: number };

/** The outcome of planning. */
export interface ChangePlan {
  write: PortfolioWrite;
  after: Portfolio;
  summary: string;
  /** The position as it is after the change (null when removed or not position-related). */
  changed: Position | null;
  /** How free cash moved (negative: a buy took it out) and the price per share; absent when it did not. */
  cashMove?: { amount: number; price: number };
}

const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits;

function toWrite(p: Position): PositionWrite {
  return { code: p.code, name: p.name, shares: p.shares, cost: p.cost, buyDate: p.buyDate, stop: p.stop };
}

/** The portfolio after upserting/removing positions (sorted by code, like the store reads it). */
export function withPositions(
  current: Portfolio,
  upsert: readonly PositionWrite[],
  remove: readonly string[],
  opts: { replaceAll?: boolean; freeCash?: number; nowIso: string },
): Portfolio {
  const byCode = new Map<string, Position>(opts.replaceAll ? [] : current.positions.map((p) => [p.code, p]));
  for (const code of remove) byCode.delete(code);
  for (const p of upsert) byCode.set(p.code, { ...p, updatedAt: opts.nowIso });
  const positions = [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return {
    freeCash: opts.freeCash ?? current.freeCash,
    positionCount: positions.length,
    positions,
    updatedAt: opts.nowIso,
  };
}

function describe(p: PositionWrite): string {
  return `${p.code} ${p.name} ${p.shares} @ ${p.cost}${p.stop !== null ? `, stop ${p.stop}` : ""}`;
}

/** Plans `change` against `current`. Expected failures (no such position, too many) are `err`s. */
export function planChange(current: Portfolio, change: ResolvedChange, nowIso: string): Result<ChangePlan> {
  const held = change.resolved ? current.positions.find((p) => p.code === change.resolved?.code) : undefined;
  const finish = (
    write: PortfolioWrite,
    summary: string,
    changed: PositionWrite | null,
    cashMove?: { amount: number; price: number },
  ): Result<ChangePlan> =>
    ok({
      write,
      after: withPositions(current, write.upsert, write.remove, {
        ...(write.freeCash !== undefined ? { freeCash: write.freeCash } : {}),
        nowIso,
      }),
      summary,
      changed: changed ? { ...changed, updatedAt: nowIso } : null,
      ...(cashMove ? { cashMove } : {}),
    });
  switch (change.action) {
    case "add": {
      const { resolved, shares, cost } = change;
      if (!resolved || shares === undefined || cost === undefined)
        return err("invalid_input", "add needs code, shares and cost", { field: "code" });
      if (!held && current.positionCount >= MAX_POSITIONS)
        return err("invalid_input", `a portfolio holds at most ${MAX_POSITIONS} positions`, { field: "code" });
      const total = (held?.shares ?? 0) + shares;
      const next: PositionWrite = {
        code: resolved.code,
        name: resolved.name,
        shares: round(total),
        cost: held ? round((held.shares * held.cost + shares * cost) / total) : cost,
        buyDate: held?.buyDate ?? change.buyDate ?? null,
        stop: change.stop !== undefined ? change.stop : (held?.stop ?? null),
      };
      const amount = round(shares * cost, 2);
      const covered = current.freeCash + 1e-9 >= amount;
      if (change.cash === "trade" && !covered)
        return err(
          "invalid_input",
          `cash: free cash ${current.freeCash} does not cover ${amount} (${shares} × ${cost}); set cash first, or record the holding with cash "record"`,
          { field: "cash", freeCash: current.freeCash, amount },
        );
      const pays = change.cash !== "record" && covered;
      const cashNote = pays
        ? `cash −${amount}`
        : change.cash === "record"
          ? "recorded, cash unchanged"
          : `recorded, cash unchanged (free cash ${current.freeCash} does not cover ${amount})`;
      return finish(
        {
          upsert: [next],
          remove: [],
          ...(pays ? { freeCash: round(current.freeCash - amount, 2) } : {}),
          trades: [
            {
              action: "add",
              code: next.code,
              name: next.name,
              shares,
              price: cost,
              amount,
              note: change.note ? `${change.note} · ${cashNote}` : cashNote,
            },
          ],
        },
        `${held ? "added to" : "opened"} ${describe(next)}; ${cashNote}`,
        next,
        pays ? { amount: -amount, price: cost } : undefined,
      );
    }
    case "update": {
      if (!change.resolved || !held)
        return err("not_found", `code: no position in ${change.resolved?.code ?? change.code ?? "?"} to update`, {
          field: "code",
        });
      const next: PositionWrite = {
        ...toWrite(held),
        ...(change.shares !== undefined ? { shares: change.shares } : {}),
        ...(change.cost !== undefined ? { cost: change.cost } : {}),
        ...(change.buyDate !== undefined ? { buyDate: change.buyDate } : {}),
        ...(change.stop !== undefined ? { stop: change.stop } : {}),
      };
      const fields = (["shares", "cost", "buyDate", "stop"] as const).filter((f) => change[f] !== undefined);
      if (fields.length === 0)
        return err("invalid_input", "update needs at least one of shares, cost, buyDate, stop", { field: "shares" });
      return finish(
        {
          upsert: [next],
          remove: [],
          trades: [
            {
              action: "update",
              code: next.code,
              name: next.name,
              shares: next.shares,
              price: next.cost,
              note: change.note ?? `changed ${fields.join(", ")}`,
            },
          ],
        },
        `updated ${describe(next)}`,
        next,
      );
    }
    case "remove": {
      if (!change.resolved || !held)
        return err("not_found", `code: no position in ${change.resolved?.code ?? change.code ?? "?"} to remove`, {
          field: "code",
        });
      const sells = change.cash !== "record";
      const price = change.price ?? change.lastClose ?? held.cost;
      const proceeds = round(held.shares * price, 2);
      const cashNote = sells ? `sold at ${price}, cash +${proceeds}` : "recorded, cash unchanged";
      return finish(
        {
          upsert: [],
          remove: [held.code],
          ...(sells ? { freeCash: round(current.freeCash + proceeds, 2) } : {}),
          trades: [
            {
              action: "remove",
              code: held.code,
              name: held.name,
              shares: held.shares,
              price: sells ? price : held.cost,
              ...(sells ? { amount: proceeds } : {}),
              note: change.note ? `${change.note} · ${cashNote}` : cashNote,
            },
          ],
        },
        `removed ${describe(toWrite(held))}; ${cashNote}`,
        null,
        sells ? { amount: proceeds, price } : undefined,
      );
    }
    case "set_cash": {
      const cash = change.freeCash ?? 0;
      return finish(
        {
          upsert: [],
          remove: [],
          freeCash: cash,
          trades: [{ action: "set_cash", amount: cash, ...(change.note ? { note: change.note } : {}) }],
        },
        `free cash set to ${cash}`,
        null,
      );
    }
    case "delete_records":
      return finish(
        {
          upsert: [],
          remove: [],
          trades: [],
          deleteTrades: {
            ...(change.recordIds ? { ids: change.recordIds } : {}),
            ...(change.codes ? { codes: change.codes } : {}),
          },
        },
        `deleted trade records${change.codes ? ` of ${change.codes.join(", ")}` : ""}${change.recordIds ? ` ${change.recordIds.join(", ")}` : ""}`,
        null,
      );
  }
}
