/**
 * `generate_ai_report` and `generate_strategy_decision` on the queue. The report reads each code's
 * bars through MarketData, runs the engine and writes the three camps (a configured model writes
 * prose from compressed features; the offline model gets the rule-based report). The strategy runs
 * the screening in process, reports on its picks and turns holdings and picks into OMS orders.
 */
import { analyze } from "../engine/analyze";
import type { RegimeState } from "../engine/market-regime";
import { reportFeatures, type ReportFeatures } from "../engine/report/report-features";
import { reduceFunnel } from "../engine/screen/reduce-funnel";
import { decideOrders, type HeldReading } from "../engine/strategy/oms";
import { ReportInput, StrategyInput, type ReportResult, type StrategyResult } from "../contracts/report";
import type { TaskRecord } from "../ports/task-store";
import { createModels } from "../runtime/model";
import { writeReport } from "../runtime/reports/write-report";
import { costOf } from "../runtime/usage";
import type { BackgroundDeps } from "./background-deps";
import { completeTask } from "./complete-task";
import { PermanentError } from "./queue-consumer";
import { reportNotification, strategyNotification } from "./run-summaries";
import { screenFeatures, SCREEN_WINDOW } from "./screen-features";
import { inUniverse, universeCoverage } from "./market-sync/sync-gate";
import { boardFilter, universeFor } from "./universe";

async function readFeatures(d: BackgroundDeps, codes: readonly string[]) {
  const features: ReportFeatures[] = [];
  const missing: string[] = [];
  let simulated = false;
  for (const code of codes) {
    const bars = await d.market.dailyBars(code, { days: SCREEN_WINDOW, kind: "stock" });
    if (!bars.ok) {
      missing.push(`${code} (${bars.error.message.slice(0, 80)})`);
      continue;
    }
    const sym = bars.value.symbol;
    const a = analyze(bars.value.bars, {
      symbol: sym.id,
      market: sym.market === "US" ? "US" : "CN",
      ...(sym.board ? { board: sym.board } : {}),
    });
    if (!a.ok) {
      missing.push(`${code} (${a.error.message})`);
      continue;
    }
    simulated ||= sym.simulated;
    features.push(reportFeatures(sym.id, sym.name, bars.value.bars, a.value));
  }
  return { features, missing, simulated };
}

async function buildReport(d: BackgroundDeps, codes: readonly string[], ownerId: string): Promise<ReportResult> {
  const { features, missing, simulated } = await readFeatures(d, codes);
  // The owner's own model (or the default); own settings that cannot be used → the rule-based report.
  const endpoints = await d.modelsFor(ownerId, d.config);
  if (endpoints.problem) d.log.warn("user_model_unavailable", { ownerId, problem: endpoints.problem });
  const models = endpoints.model ? createModels(endpoints.model, endpoints.fallbackModel) : undefined;
  const written = await writeReport(models?.primary.model, features, simulated);
  if (written.usage && models) {
    // The report writer's tokens are the owner's usage too (purpose `report`), priced like a turn's.
    const id = models.primary.id;
    const usage = { ...written.usage, costUsd: costOf(written.usage, d.config.prices[id] ?? d.config.prices["*"]) };
    await d.usage.addEntries(ownerId, d.now(), [{ purpose: "report", modelId: id, calls: 1, usage }], d.log);
  }
  return {
    ok: features.length > 0,
    reason: features.length > 0 ? written.reason : "no readable stock among the codes",
    report_text: written.text,
    model: written.ruleBased ? "rule-based" : (models?.primary.id ?? "rule-based"),
    rule_based: written.ruleBased,
    stock_count: features.length,
    camps: written.camps,
    missing,
    simulated,
  };
}

/** Runs a report task. */
export async function runReportJob(d: BackgroundDeps, rec: TaskRecord): Promise<void> {
  const parsed = ReportInput.safeParse(rec.input);
  if (!parsed.success)
    throw new PermanentError(`invalid generate_ai_report input: ${parsed.error.issues[0]?.message ?? "?"}`);
  await d.tasks.transition(
    rec.view.id,
    ["running"],
    { progress: { stage: "report", detail: "reading stocks", pct: 20 } },
    d.now(),
  );
  const result = await buildReport(d, parsed.data.stock_codes, rec.ownerId);
  await completeTask(d, rec, result, reportNotification(rec.view.id, result));
}

/** Runs a strategy-decision task: screen → report → OMS. */
export async function runStrategyJob(d: BackgroundDeps, rec: TaskRecord): Promise<void> {
  const parsed = StrategyInput.safeParse(rec.input);
  if (!parsed.success)
    throw new PermanentError(`invalid generate_strategy_decision input: ${parsed.error.issues[0]?.message ?? "?"}`);
  const input = parsed.data;
  const id = rec.view.id;
  const u = universeFor(d.config.marketData, input.market);
  const gate = await universeCoverage(d.sync, u);
  if ("refused" in gate) throw new PermanentError(gate.refused);
  const symbols = boardFilter(inUniverse(gate, await d.cache.listSymbols(u.code, "stock")), input.board);
  const index = ((await d.cache.getSeries(u.index))?.bars ?? []).slice(-SCREEN_WINDOW);
  const small = u.smallCap ? ((await d.cache.getSeries(u.smallCap))?.bars ?? []).slice(-SCREEN_WINDOW) : [];
  await d.tasks.transition(
    id,
    ["running"],
    { progress: { stage: "screen", detail: `${symbols.length} symbols`, pct: 10 } },
    d.now(),
  );
  const features = await screenFeatures(d.cache, symbols, u, index);
  const o = reduceFunnel(features, { limit: 10, index, ...(small.length ? { smallCap: small } : {}) });
  await d.tasks.transition(
    id,
    ["running"],
    { progress: { stage: "report", detail: "writing the report", pct: 50 } },
    d.now(),
  );
  const report =
    o.symbolsForReport.length > 0 ? await buildReport(d, o.symbolsForReport.slice(0, 10), rec.ownerId) : null;
  const held: HeldReading[] = [];
  for (const h of input.holdings) {
    const bars = await d.market.dailyBars(h.code, { days: SCREEN_WINDOW, kind: "stock" });
    const a = bars.ok ? analyze(bars.value.bars, { symbol: bars.value.symbol.id }) : null;
    const v = a?.ok ? a.value : null;
    held.push({
      code: bars.ok ? bars.value.symbol.id : h.code,
      name: h.name ?? (bars.ok ? bars.value.symbol.name : h.code),
      shares: h.shares,
      cost: h.cost_price,
      ...(h.stop_loss !== undefined ? { userStop: h.stop_loss } : {}),
      close: v?.indicators.close ?? null,
      phase: v?.phase.name ?? null,
      healthGrade: v?.health.grade ?? null,
      structuralStop: v?.stops.structural ?? null,
      trailingStop: v?.stops.trailing ?? null,
    });
  }
  const entries = o.candidates
    .filter((c) => o.symbolsForReport.includes(c.code))
    .filter((c) => report?.camps.find((x) => x.code === c.code)?.camp !== "逻辑破产")
    .map((c) => ({ code: c.code, name: c.name, close: c.close, stop: c.stop, priority: c.priority }));
  const orders = decideOrders({
    holdings: held,
    candidates: entries,
    regime: o.regime.state as RegimeState,
    cash: input.free_cash,
  });
  const notes = [...o.notes];
  if (u.simulated) notes.unshift("Simulated market (SIM): orders are an exercise, not advice on real securities.");
  if (gate.coverage) notes.unshift(`Coverage: ${gate.coverage.statement} (market sync).`);
  if (input.holdings.length === 0) notes.push("no holdings given: pass holdings and free_cash for position decisions");
  const result: StrategyResult = {
    ok: true,
    regime: o.regime.state,
    buys_frozen: orders.buysFrozen,
    screen_summary: o.summary,
    report_preview: (report?.report_text ?? "no symbols for a report").slice(0, 2000),
    decisions: orders.decisions,
    nav: orders.nav,
    rule_based: report?.rule_based ?? true,
    notes,
  };
  await completeTask(d, rec, result, strategyNotification(id, result));
}
