/**
 * CSV import and export of a portfolio's positions (header `code,name,shares,cost,buy_date,stop`;
 * common aliases accepted). Every row is validated and checked against the universe before anything
 * is written; the first bad row answers with its line and field.
 */
import { z } from "zod";
import { BuyDate, MAX_POSITIONS, type Portfolio } from "../../contracts/portfolio";
import { parseCsv, toCsv } from "../../lib/csv";
import { err, ok, type Result } from "../../lib/result";
import type { PositionWrite } from "../../ports/portfolio-store";
import { resolveSecurity, type ChangeOutcome, type PortfolioDeps } from "./portfolio-changes";
import { withPositions } from "./portfolio-plan";

const COLUMNS: Record<string, readonly string[]> = {
  code: ["code", "symbol", "ticker", "代码", "证券代码"],
  name: ["name", "名称", "证券名称"],
  shares: ["shares", "qty", "quantity", "数量", "持仓"],
  cost: ["cost", "cost_price", "price", "成本", "成本价"],
  buyDate: ["buy_date", "buydate", "buy_dt", "date", "买入日期"],
  stop: ["stop", "stop_loss", "止损"],
};

const num = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, `${what} must be a number`)
    .transform(Number);

const Row = z.object({
  code: z.string().trim().min(1, "code is required").max(40),
  name: z.string().trim().max(60).optional(),
  shares: num("shares").refine((n) => n > 0, "shares must be positive"),
  cost: num("cost").refine((n) => n > 0, "cost must be positive"),
  buyDate: BuyDate.optional(),
  stop: num("stop")
    .refine((n) => n >= 0, "stop must not be negative")
    .optional(),
});

/** A CSV problem: the field named as `rows[i].field` (i = data row, 0-based) and the line in the text. */
function rowError(i: number, field: string, message: string) {
  return err("invalid_input", `line ${i + 2}, ${field}: ${message}`, { field: `rows[${i}].${field}`, line: i + 2 });
}

/** Parses and validates the CSV (no universe check yet). */
export function readPositionsCsv(
  csv: string,
): Result<{ code: string; name?: string; shares: number; cost: number; buyDate?: string; stop?: number }[]> {
  const [header, ...rows] = parseCsv(csv);
  if (!header) return err("invalid_input", "csv: empty", { field: "csv" });
  const names = header.map((h) => h.trim().toLowerCase());
  const index: Record<string, number> = {};
  for (const [key, aliases] of Object.entries(COLUMNS)) {
    const at = names.findIndex((n) => aliases.includes(n));
    if (at >= 0) index[key] = at;
  }
  for (const need of ["code", "shares", "cost"])
    if (index[need] === undefined)
      return err("invalid_input", `csv: the header needs a ${need} column (code,name,shares,cost,buy_date,stop)`, {
        field: "csv",
      });
  if (rows.length > MAX_POSITIONS)
    return err("invalid_input", `csv: at most ${MAX_POSITIONS} positions`, { field: "csv" });
  const out = [];
  for (const [i, cells] of rows.entries()) {
    const raw: Record<string, string> = {};
    for (const [key, at] of Object.entries(index)) {
      const v = cells[at]?.trim() ?? "";
      if (v !== "" || key === "code" || key === "shares" || key === "cost") raw[key] = v;
    }
    const parsed = Row.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return rowError(i, String(issue?.path[0] ?? "row"), issue?.message ?? "invalid");
    }
    out.push(parsed.data);
  }
  return ok(out);
}

/** Imports positions from CSV: `merge` overwrites the listed codes, `replace` makes the CSV the whole book. */
export async function importPositions(
  ownerId: string,
  input: { csv: string; mode: "replace" | "merge"; dryRun: boolean },
  deps: PortfolioDeps,
): Promise<Result<ChangeOutcome>> {
  const rows = readPositionsCsv(input.csv);
  if (!rows.ok) return rows;
  const before = await deps.portfolio.read(ownerId);
  const upsert: PositionWrite[] = [];
  for (const [i, row] of rows.value.entries()) {
    const r = await resolveSecurity(deps.market, { code: row.code, name: row.name }, before.positions);
    if (!r.ok) return rowError(i, String(r.error.details?.["field"] ?? "code"), r.error.message.replace(/^\w+: /, ""));
    if (upsert.some((p) => p.code === r.value.code)) return rowError(i, "code", `${r.value.code} is listed twice`);
    upsert.push({
      code: r.value.code,
      name: r.value.name,
      shares: row.shares,
      cost: row.cost,
      buyDate: row.buyDate ?? before.positions.find((p) => p.code === r.value.code)?.buyDate ?? null,
      stop: row.stop ?? null,
    });
  }
  const replaceAll = input.mode === "replace";
  const now = deps.clock();
  const after = withPositions(before, upsert, [], { replaceAll, nowIso: new Date(now).toISOString() });
  if (!replaceAll && after.positionCount > MAX_POSITIONS)
    return err("invalid_input", `csv: a portfolio holds at most ${MAX_POSITIONS} positions`, { field: "csv" });
  const summary = `imported ${upsert.length} position(s) (${input.mode})`;
  if (input.dryRun) return ok({ before, after, summary, changed: null, deletedTrades: 0 });
  await deps.portfolio.commit(
    ownerId,
    { upsert, remove: [], replaceAll, trades: [{ action: "import", note: summary }] },
    now,
  );
  return ok({ before, after: await deps.portfolio.read(ownerId), summary, changed: null, deletedTrades: 0 });
}

/** The positions as CSV (the import format). */
export function positionsCsv(portfolio: Portfolio): string {
  return toCsv([
    ["code", "name", "shares", "cost", "buy_date", "stop"],
    ...portfolio.positions.map((p) => [p.code, p.name, p.shares, p.cost, p.buyDate, p.stop]),
  ]);
}
