/**
 * Applying a portfolio change for one owner: codes and names are checked against the market
 * universe, the change is planned purely (`planChange`), then written in one batch — or only
 * previewed. The `update_portfolio` tool and the reading room's portfolio routes share this path.
 */
import type { Portfolio, PortfolioChange, Position } from "../../contracts/portfolio";
import { err, ok, type Result } from "../../lib/result";
import type { Clock } from "../../ports/clock";
import type { MarketData } from "../../ports/market-data";
import type { PortfolioStore } from "../../ports/portfolio-store";
import { planChange, type ResolvedChange } from "./portfolio-plan";

/** The ports a portfolio change needs. */
export interface PortfolioDeps {
  market: MarketData;
  portfolio: PortfolioStore;
  clock: Clock;
}

/** What a change did (or would do, for a preview). */
export interface ChangeOutcome {
  before: Portfolio;
  after: Portfolio;
  summary: string;
  changed: Position | null;
  deletedTrades: number;
  /** How free cash moved (negative: taken out) and at what price per share; absent when it did not. */
  cashMove?: { amount: number; price: number };
}

const normalise = (s: string): string => s.replace(/\s+/g, "").toLowerCase();

/**
 * The universe's reading of `code` (and, when given, a check that `name` is that symbol's name).
 * A code already held matches its position even when the universe no longer lists it.
 */
export async function resolveSecurity(
  market: MarketData,
  input: { code: string; name?: string | undefined },
  held: readonly Position[] = [],
  field = "code",
): Promise<Result<{ code: string; name: string }>> {
  const r = await market.resolve(input.code, { kind: "stock" });
  if (!r.ok) {
    const own = held.find((p) => normalise(p.code) === normalise(input.code));
    if (own) return ok({ code: own.code, name: own.name });
    return err(r.error.code, `${field}: ${r.error.message}`, { ...r.error.details, field });
  }
  const s = r.value.symbol;
  if (s.kind === "index") return err("invalid_input", `${field}: ${s.id} is an index, not a security`, { field });
  if (input.name !== undefined) {
    const given = normalise(input.name);
    const matches = [s.name, s.code, s.id].some((n) => normalise(n) === given);
    if (!matches)
      return err("invalid_input", `name: "${input.name}" does not match ${s.id} (${s.name})`, {
        field: "name",
        expected: s.name,
      });
  }
  return ok({ code: s.id, name: s.name });
}

/** Resolves the codes a change names, so the plan works on universe ids. */
async function resolveChange(
  deps: PortfolioDeps,
  change: PortfolioChange,
  current: Portfolio,
): Promise<Result<ResolvedChange>> {
  if (change.action === "delete_records") {
    if (!change.codes) return ok(change);
    const codes: string[] = [];
    for (const code of change.codes) {
      const r = await resolveSecurity(deps.market, { code }, current.positions, "codes");
      codes.push(r.ok ? r.value.code : code.toUpperCase());
    }
    return ok({ ...change, codes });
  }
  if (change.code === undefined) return ok(change);
  const r = await resolveSecurity(deps.market, { code: change.code, name: change.name }, current.positions);
  if (!r.ok) return r;
  // A sale without a price is priced at the last close (the cost when no bars can be read).
  if (change.action === "remove" && change.price === undefined && change.cash !== "record") {
    const bars = await deps.market.dailyBars(r.value.code, { days: 1 });
    const last = bars.ok ? bars.value.bars[bars.value.bars.length - 1] : undefined;
    if (last) return ok({ ...change, resolved: r.value, lastClose: last.close });
  }
  return ok({ ...change, resolved: r.value });
}

/** Validates, plans and (unless `dryRun`) writes one change for `ownerId`. */
export async function applyPortfolioChange(
  ownerId: string,
  change: PortfolioChange,
  deps: PortfolioDeps,
  opts: { dryRun?: boolean } = {},
): Promise<Result<ChangeOutcome>> {
  const before = await deps.portfolio.read(ownerId);
  const resolved = await resolveChange(deps, change, before);
  if (!resolved.ok) return resolved;
  const now = deps.clock();
  const plan = planChange(before, resolved.value, new Date(now).toISOString());
  if (!plan.ok) return plan;
  const { after, summary, changed, write, cashMove } = plan.value;
  const moved = cashMove ? { cashMove } : {};
  if (opts.dryRun) return ok({ before, after, summary, changed, deletedTrades: 0, ...moved });
  const { deletedTrades } = await deps.portfolio.commit(ownerId, write, now);
  return ok({ before, after: await deps.portfolio.read(ownerId), summary, changed, deletedTrades, ...moved });
}
