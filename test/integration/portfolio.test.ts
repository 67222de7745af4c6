/**
 * Portfolios inside workerd: the routes (preview, confirmed changes, trades, cash moves, valuation,
 * CSV export/import, 400 naming the field) and the portfolio tools in a turn (approval before any write).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { testEnv } from "./test-env";
import { call, chunksOf, parseFrames, postJson, script } from "./turn-helpers";
import { createShare, db, errorOf, newLocalSession, portfolios, seedPortfolioMarket } from "./identity-helpers";
beforeAll(seedPortfolioMarket);
describe("portfolio routes", () => {
  const owner = "local";

  it("previews without writing, applies a confirmed change, and records trades", async () => {
    const before = await portfolios.read(owner);
    const preview = await postJson("/api/portfolio/preview", {
      action: "add",
      code: "SIM.0002",
      shares: 200,
      cost: 12.5,
    });
    expect(preview.status).toBe(200);
    const p = (await preview.json()) as { after: { positions: { code: string }[] }; summary: string };
    expect(p.after.positions.map((x) => x.code)).toContain("SIM.0002");
    expect(await portfolios.read(owner)).toEqual(before);

    expect(
      (
        await postJson("/api/portfolio/changes", {
          action: "add",
          code: "SIM.0002",
          shares: 200,
          cost: 12.5,
          buyDate: "20240105",
        })
      ).status,
    ).toBe(200);
    expect(
      (await postJson("/api/portfolio/changes", { action: "add", code: "SIM.0002", shares: 200, cost: 14.5 })).status,
    ).toBe(200);
    expect((await postJson("/api/portfolio/changes", { action: "update", code: "SIM.0002", stop: 11 })).status).toBe(
      200,
    );
    expect((await postJson("/api/portfolio/changes", { action: "set_cash", freeCash: 5000 })).status).toBe(200);
    const view = (await (await call("/api/portfolio")).json()) as {
      portfolio: { freeCash: number; positions: Record<string, unknown>[] };
      trades: { action: string }[];
    };
    expect(view.portfolio.freeCash).toBe(5000);
    expect(view.portfolio.positions.find((x) => x["code"] === "SIM.0002")).toMatchObject({
      shares: 400,
      cost: 13.5,
      buyDate: "2024-01-05",
      stop: 11,
    });
    expect(view.trades.map((t) => t.action).slice(0, 4)).toEqual(["set_cash", "update", "add", "add"]);
  });

  it("answers 400 naming the field for malformed trade input, and changes nothing", async () => {
    const before = await portfolios.read(owner);
    const name = (await new D1MarketCache(db).getSymbol("SIM.0001"))?.name ?? "";
    const cases: [unknown, string][] = [
      [{ action: "add", code: "SIM.0001", shares: -5, cost: 10 }, "shares"],
      [{ action: "add", code: "SIM.0001", shares: 5 }, "cost"],
      [{ action: "add", code: "SIM.0001", shares: "many", cost: 10 }, "shares"],
      [{ action: "add", code: "SIM.0001", shares: 5, cost: 10, buyDate: "2024-02-30" }, "buyDate"],
      [{ action: "sell_everything", code: "SIM.0001" }, "action"],
      [{ action: "add", code: "NOPE.9999", shares: 5, cost: 10 }, "code"],
      [{ action: "add", code: "SIM.0001", name: `${name}X`, shares: 5, cost: 10 }, "name"],
      [{ action: "add", code: "SIM.IDX1", shares: 5, cost: 10 }, "code"],
      [{ action: "set_cash" }, "freeCash"],
      [{ action: "remove", code: "SIM.0150" }, "code"],
      [{ action: "add", code: "SIM.0001", shares: 5, cost: 10, extra: 1 }, "(body)"],
    ];
    for (const [body, field] of cases) {
      const res = await postJson("/api/portfolio/changes", body);
      const error = await errorOf(res);
      expect([JSON.stringify(body), res.status, error.code]).toEqual([JSON.stringify(body), 400, "invalid_input"]);
      expect([JSON.stringify(body), error.details?.["field"]]).toEqual([JSON.stringify(body), field]);
    }
    expect(await portfolios.read(owner)).toEqual(before);
  });

  it("moves cash with a buy and a sale, and values holdings at the last close with P&L", async () => {
    await postJson("/api/portfolio/import", { csv: "code,shares,cost\n", mode: "replace" });
    expect((await postJson("/api/portfolio/changes", { action: "set_cash", freeCash: 10_000 })).status).toBe(200);
    const preview = (await (
      await postJson("/api/portfolio/preview", { action: "add", code: "SIM.0001", shares: 100, cost: 20 })
    ).json()) as { before: { freeCash: number }; after: { freeCash: number }; cashMove: unknown };
    expect([preview.before.freeCash, preview.after.freeCash, preview.cashMove]).toEqual([
      10_000,
      8000,
      { amount: -2000, price: 20 },
    ]);
    expect((await portfolios.read(owner)).freeCash).toBe(10_000);
    expect(
      (await postJson("/api/portfolio/changes", { action: "add", code: "SIM.0001", shares: 100, cost: 20 })).status,
    ).toBe(200);
    expect((await portfolios.read(owner)).freeCash).toBe(8000);
    const view = (await (await call("/api/portfolio")).json()) as {
      valuation: {
        positions: Record<string, unknown>[];
        cash: number;
        marketValue: number;
        totalValue: number;
        pnl: number;
      };
    };
    const price = view.valuation.positions[0]?.["price"] as number;
    expect(price).toBeGreaterThan(0);
    const last = { close: price, date: view.valuation.positions[0]?.["priceDate"] };
    expect(last.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const value = Math.round(100 * price * 100) / 100;
    expect(view.valuation.positions[0]).toMatchObject({
      code: "SIM.0001",
      price: last?.close,
      priceDate: last?.date,
      value,
    });
    expect(view.valuation).toMatchObject({ cash: 8000, marketValue: value });
    expect(view.valuation.totalValue).toBeCloseTo(value + 8000, 2);
    expect(view.valuation.pnl).toBeCloseTo(value - 2000, 2);
    // A sale without a price puts shares × the last close back.
    const sale = (await (await postJson("/api/portfolio/changes", { action: "remove", code: "SIM.0001" })).json()) as {
      after: { freeCash: number };
      cashMove: { amount: number; price: number };
    };
    expect(sale.cashMove).toEqual({ amount: value, price: last?.close });
    expect(sale.after.freeCash).toBeCloseTo(8000 + value, 2);
    // An uncovered buy with cash "trade" is refused naming the field; a price on a buy is a 400 too.
    for (const [body, field] of [
      [{ action: "add", code: "SIM.0001", shares: 1e6, cost: 20, cash: "trade" }, "cash"],
      [{ action: "add", code: "SIM.0001", shares: 1, cost: 20, price: 21 }, "price"],
    ] as const) {
      const res = await postJson("/api/portfolio/changes", body);
      expect([res.status, (await errorOf(res)).details?.["field"]]).toEqual([400, field]);
    }
  });

  it("says what is at a workspace path (write_file's approval), and refuses a bad path with 400", async () => {
    const none = (await (await call("/api/workspace/stat?path=notes/plan.md")).json()) as Record<string, unknown>;
    expect(none).toEqual({ path: "notes/plan.md", exists: false, size: null, updatedAt: null });
    await testEnv.SPILLS.put("workspace/local/notes/plan.md", "hello");
    const stat = (await (await call("/api/workspace/stat?path=notes/plan.md")).json()) as Record<string, unknown>;
    expect(stat).toMatchObject({ path: "notes/plan.md", exists: true, size: 5 });
    for (const [path, status] of [
      ["", 400],
      ["../etc/passwd", 400],
      ["a%2e%2e", 400],
    ] as const) {
      const res = await call(`/api/workspace/stat?path=${encodeURIComponent(path)}`);
      expect([path, res.status, (await errorOf(res)).details?.["field"]]).toEqual([path, status, "path"]);
    }
    expect((await call("/api/workspace/stat")).status).toBe(400);
  });

  it("exports CSV and imports it back (dry run first); a bad row answers with its line and field", async () => {
    const csv = await (await call("/api/portfolio/export")).text();
    expect(csv.split("\r\n")[0]).toBe("code,name,shares,cost,buy_date,stop");
    const bad = await postJson("/api/portfolio/import", { csv: "code,shares,cost\nSIM.0001,10,1\nSIM.0002,10,abc\n" });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.["field"]).toBe("rows[1].cost");

    const before = await portfolios.read(owner);
    const next = "代码,数量,成本,止损\nSIM.0001,300,9.8,9\n";
    const dry = await postJson("/api/portfolio/import", { csv: next, mode: "replace", dryRun: true });
    expect(dry.status).toBe(200);
    expect(((await dry.json()) as { after: { positionCount: number } }).after.positionCount).toBe(1);
    expect(await portfolios.read(owner)).toEqual(before);

    expect((await postJson("/api/portfolio/import", { csv: next, mode: "replace" })).status).toBe(200);
    const after = await portfolios.read(owner);
    expect(after.positions.map((p) => [p.code, p.shares, p.cost, p.stop])).toEqual([["SIM.0001", 300, 9.8, 9]]);
    const roundTrip = await postJson("/api/portfolio/import", {
      csv: await (await call("/api/portfolio/export")).text(),
    });
    expect(roundTrip.status).toBe(200);
    expect((await portfolios.read(owner)).positions.map((p) => [p.code, p.shares])).toEqual([["SIM.0001", 300]]);
  });
});

describe("portfolio tools in a turn", () => {
  async function turnUntilApproval(id: string, text: string) {
    const res = await postJson(`/api/sessions/${id}/messages`, { text });
    const frames = parseFrames(await res.text());
    const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as
      | { approvalId: string }
      | undefined;
    return { frames, request };
  }

  it("update_portfolio never writes without approval: denied → nothing; allowed → written", async () => {
    const owner = "local";
    await postJson("/api/portfolio/import", { csv: "code,shares,cost\n", mode: "replace" });
    const id = await newLocalSession("portfolio turn");
    const key = `k-pf-${id}`;
    const call1 = { name: "update_portfolio", arguments: { action: "add", code: "SIM.0002", shares: 50, cost: 20 } };
    await script(key, [{ toolCalls: [call1] }, { text: "not changed" }, { toolCalls: [call1] }, { text: "added" }]);
    const codesOf = async () => (await portfolios.read(owner)).positions.map((p) => p.code);
    const held = await codesOf();

    const first = await turnUntilApproval(id, `add SIM.0002 ${key}`);
    expect(first.request).toBeDefined();
    expect(await codesOf()).toEqual(held);
    const deny = await postJson(`/api/sessions/${id}/approvals/${first.request?.approvalId}`, { decision: "deny" });
    expect(deny.status).toBe(200);
    const rest = parseFrames(
      await (await call(`/api/sessions/${id}/stream?from=${(first.frames.at(-1)?.id ?? 0) + 1}`)).text(),
    );
    expect(rest.at(-1)?.data).toBe("[DONE]");
    expect(await codesOf()).toEqual(held);

    const second = await turnUntilApproval(id, `again ${key}`);
    // A malformed edit is refused (400 naming the field) and still writes nothing.
    const badEdit = await postJson(`/api/sessions/${id}/approvals/${second.request?.approvalId}`, {
      decision: "edit",
      input: { action: "add", code: "SIM.0002", shares: -1, cost: 20 },
    });
    expect(badEdit.status).toBe(400);
    expect((await errorOf(badEdit)).message).toContain("shares");
    expect(await codesOf()).toEqual(held);
    expect(
      (await postJson(`/api/sessions/${id}/approvals/${second.request?.approvalId}`, { decision: "allow" })).status,
    ).toBe(200);
    const done = chunksOf(
      parseFrames(await (await call(`/api/sessions/${id}/stream?from=${(second.frames.at(-1)?.id ?? 0) + 1}`)).text()),
    );
    expect(done.find((c) => c.type === "tool-output-available")).toMatchObject({
      output: { success: true, changed: { code: "SIM.0002", shares: 50, cost: 20 } },
    });
    expect(await codesOf()).toContain("SIM.0002");
  });

  it("portfolio diagnose reports each holding's position-aware health (a failing one does not sink the rest)", async () => {
    await postJson("/api/portfolio/import", {
      csv: "code,shares,cost,stop\nSIM.0001,100,10,\nSIM.0003,10,5,\n",
      mode: "replace",
    });
    const id = await newLocalSession("diagnose");
    const key = `k-diag-${id}`;
    await script(key, [{ toolCalls: [{ name: "portfolio", arguments: { mode: "diagnose" } }] }, { text: "checked" }]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `体检持仓 ${key}` });
    const chunks = chunksOf(parseFrames(await res.text()));
    const out = chunks.find((c) => c.type === "tool-output-available") as {
      output: {
        positionCount: number;
        successfulCount: number;
        failedCount: number;
        diagnostics: Record<string, unknown>[];
      };
    };
    expect(out.output).toMatchObject({ positionCount: 2, successfulCount: 1, failedCount: 1 });
    const ok = out.output.diagnostics.find((d) => d["code"] === "SIM.0001");
    expect(ok).toMatchObject({ ok: true, simulated: true, grade: expect.stringMatching(/healthy|warning|danger/) });
    expect(typeof ok?.["pnlPct"]).toBe("number");
    expect(out.output.diagnostics.find((d) => d["code"] === "SIM.0003")).toMatchObject({ ok: false });

    // A share of this session serves the charts of symbols its transcript names, and no others.
    const { token } = await createShare(id);
    const bars = await call(`/api/shares/${token}/bars/SIM.0001?days=30`);
    expect(bars.status).toBe(200);
    expect(((await bars.json()) as { bars: unknown[] }).bars).toHaveLength(30);
    expect((await call(`/api/shares/${token}/bars/SIM.0002?days=30`)).status).toBe(404);
  });
});
