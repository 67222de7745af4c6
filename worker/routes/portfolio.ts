/**
 * Portfolio routes for the reading room: view, preview a change (nothing written), apply it after
 * the person confirmed, CSV export and import (with a dry run). Everything is the caller's own
 * portfolio; the same change path as the `update_portfolio` tool, so both check codes the same way.
 */
import { Hono, type Context } from "hono";
import {
  PortfolioChange,
  PortfolioImportBody,
  type PortfolioPreview,
  type PortfolioView,
} from "../contracts/portfolio";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { AppError, toAppError } from "../lib/app-error";
import type { ErrorData } from "../lib/result";
import { applyPortfolioChange, type ChangeOutcome, type PortfolioDeps } from "../tools/handlers/portfolio-changes";
import { importPositions, positionsCsv } from "../tools/handlers/portfolio-import";
import { valuePortfolio } from "../tools/handlers/portfolio-valuation";

function depsOf(c: Context<AppEnv>): PortfolioDeps {
  return {
    market: c.var.deps.market,
    portfolio: c.var.deps.portfolio,
    clock: Date.now,
  };
}

/** A change the body asked for that cannot be made is the client's input problem: 400 naming the field. */
function changeError(error: ErrorData): AppError {
  const field = error.details?.["field"];
  if (typeof field === "string" && (error.code === "not_found" || error.code === "invalid_input"))
    return new AppError("invalid_input", 400, error.message, { details: { ...error.details, field } });
  return toAppError(error);
}

/** The preview answer of a change's outcome (the cash move only when there was one). */
function previewOf(o: ChangeOutcome): PortfolioPreview {
  return {
    before: o.before,
    after: o.after,
    summary: o.summary,
    ...(o.cashMove ? { cashMove: o.cashMove } : {}),
  };
}

/** Portfolio routes, mounted at /api/portfolio. */
export const portfolioRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { portfolio: store, market } = depsOf(c);
    const [portfolio, trades] = await Promise.all([store.read(c.var.userId), store.trades(c.var.userId)]);
    const valuation = await valuePortfolio(market, portfolio);
    return c.json({ portfolio, trades, valuation } satisfies PortfolioView);
  })
  .post("/preview", async (c) => {
    const change = await readJson(c, PortfolioChange);
    const r = await applyPortfolioChange(c.var.userId, change, depsOf(c), { dryRun: true });
    if (!r.ok) throw changeError(r.error);
    return c.json(previewOf(r.value) satisfies PortfolioPreview);
  })
  .post("/changes", async (c) => {
    const change = await readJson(c, PortfolioChange);
    const r = await applyPortfolioChange(c.var.userId, change, depsOf(c));
    if (!r.ok) throw changeError(r.error);
    c.var.log.info("portfolio_changed", { action: change.action });
    return c.json(previewOf(r.value) satisfies PortfolioPreview);
  })
  .get("/export", async (c) => {
    const portfolio = await c.var.deps.portfolio.read(c.var.userId);
    return c.body(positionsCsv(portfolio), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="portfolio.csv"',
    });
  })
  .post("/import", async (c) => {
    const body = await readJson(c, PortfolioImportBody);
    const r = await importPositions(c.var.userId, body, depsOf(c));
    if (!r.ok) throw changeError(r.error);
    return c.json({
      before: r.value.before,
      after: r.value.after,
      summary: r.value.summary,
    } satisfies PortfolioPreview);
  });
