/**
 * Step 4 OMS (PARITY.md §2.4): EXIT > TRIM > HOLD > PROBE/ATTACK. Holdings get stops that may only
 * tighten (user stop, −7% hard stop from cost, the engine's structural/trailing stops); buys are
 * frozen in CRASH / RISK_OFF; new entries are sized by risk (PROBE 0.8%, ATTACK 1.2% of NAV) in
 * 100-share lots with 0.5% slippage; holdings nobody mentioned get an automatic HOLD.
 */
import type { OmsDecision } from "../../contracts/report";
import { blocksEntries, type RegimeState } from "../market-regime";
import { round } from "../numeric";

/** OMS constants. */
export const OMS = { hardStop: -0.07, slippage: 0.005, lot: 100, riskProbe: 0.008, riskAttack: 0.012 } as const;

/** A holding with the engine's reading of it. */
export interface HeldReading {
  code: string;
  name: string;
  shares: number;
  cost: number;
  userStop?: number;
  close: number | null;
  phase: string | null;
  healthGrade: string | null;
  structuralStop: number | null;
  trailingStop: number | null;
}

/** An entry candidate from the screening. */
export interface EntryCandidate {
  code: string;
  name: string;
  close: number;
  stop: number | null;
  /** Screening priority; ≥ 140 (e.g. markup + SOS/Spring) is an ATTACK, else PROBE. */
  priority: number;
}

const RANK: Record<OmsDecision["action"], number> = { EXIT: 1, TRIM: 2, HOLD: 3, PROBE: 4, ATTACK: 4 };

/** Decides the orders. */
export function decideOrders(o: {
  holdings: readonly HeldReading[];
  candidates: readonly EntryCandidate[];
  regime: RegimeState;
  cash: number;
}): { decisions: OmsDecision[]; nav: number; buysFrozen: boolean } {
  const out: OmsDecision[] = [];
  let nav = o.cash;
  for (const h of o.holdings) nav += h.shares * (h.close ?? h.cost);
  for (const h of o.holdings) {
    const reasons: string[] = [];
    const proposed = Math.max(h.cost * (1 + OMS.hardStop), h.structuralStop ?? 0, h.trailingStop ?? 0);
    const stop = round(Math.max(h.userStop ?? 0, proposed), 3);
    if (h.userStop !== undefined && stop > h.userStop) reasons.push(`stop tightened from ${h.userStop} to ${stop}`);
    else if (h.userStop !== undefined) reasons.push(`your stop ${h.userStop} kept (only ever tightened)`);
    const base = { code: h.code, name: h.name, price: h.close, stop };
    if (h.close === null) {
      out.push({
        ...base,
        action: "HOLD",
        priority: RANK.HOLD,
        shares: h.shares,
        reasons: ["no data: auto-HOLD", ...reasons],
      });
      continue;
    }
    const pnl = h.close / h.cost - 1;
    if (h.close <= stop || h.healthGrade === "danger" || /^(DIST_[C-E]|MARKDOWN)$/.test(h.phase ?? "")) {
      const why =
        h.close <= stop ? `close ${h.close} at or under stop ${stop}` : `phase ${h.phase}, health ${h.healthGrade}`;
      out.push({ ...base, action: "EXIT", priority: RANK.EXIT, shares: h.shares, reasons: [why, ...reasons] });
    } else if ((h.healthGrade === "warning" || (h.phase ?? "").startsWith("DIST")) && pnl > 0) {
      const trim = Math.floor(h.shares / 2 / OMS.lot) * OMS.lot;
      if (trim >= OMS.lot)
        out.push({
          ...base,
          action: "TRIM",
          priority: RANK.TRIM,
          shares: trim,
          reasons: [`health ${h.healthGrade}, phase ${h.phase}: take half off`, ...reasons],
        });
      else
        out.push({
          ...base,
          action: "HOLD",
          priority: RANK.HOLD,
          shares: h.shares,
          reasons: ["warning but under two lots", ...reasons],
        });
    } else
      out.push({
        ...base,
        action: "HOLD",
        priority: RANK.HOLD,
        shares: h.shares,
        reasons: [`P&L ${round(pnl * 100, 1)}%, structure intact`, ...reasons],
      });
  }
  const buysFrozen = blocksEntries(o.regime);
  let cash = o.cash;
  if (!buysFrozen) {
    const held = new Set(o.holdings.map((h) => h.code));
    for (const c of o.candidates) {
      if (held.has(c.code)) continue;
      const attack = c.priority >= 140;
      const price = round(c.close * (1 + OMS.slippage), 3);
      const stop = round(Math.max(c.stop ?? 0, price * (1 + OMS.hardStop)), 3);
      const risk = price - stop;
      if (!(risk > 0)) continue;
      const byRisk = Math.floor((nav * (attack ? OMS.riskAttack : OMS.riskProbe)) / risk / OMS.lot) * OMS.lot;
      const byCash = Math.floor(cash / price / OMS.lot) * OMS.lot;
      const shares = Math.min(byRisk, byCash);
      if (shares < OMS.lot) continue;
      cash -= shares * price;
      out.push({
        action: attack ? "ATTACK" : "PROBE",
        priority: RANK.PROBE,
        code: c.code,
        name: c.name,
        shares,
        price,
        stop,
        reasons: [`risk ${attack ? "1.2" : "0.8"}% of NAV over ${round(risk, 3)} per share`, `priority ${c.priority}`],
      });
    }
  }
  out.sort((a, b) => a.priority - b.priority);
  return { decisions: out, nav: round(nav, 2), buysFrozen };
}
