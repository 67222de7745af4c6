/**
 * Extracts the real A-share day K-lines that the npm package hqchart@1.1.15808 (Apache-2.0) ships in
 * src/jscommon/umychart.testdata/DayKLine/ into data/real/cn/<symbol>.json: the same rows
 * `[yyyymmdd, prevClose, open, high, low, close, volume, amount]`, numbers rounded to the cent
 * (volume and amount to integers), raw otherwise (bad OHLC rows, ex-rights gaps and suspensions kept:
 * the consumers clean and flag them). Committed as a compact extract (≈ 2.9 MB) instead of a 23 MB
 * devDependency: `npm ci` stays fast and `npm start` needs no package beyond the project's own.
 *
 * Usage: node scripts/extract-real-cn.mjs [path/to/hqchart/package]
 *   without a path it runs `npm pack hqchart@1.1.15808` into a temp dir (needs the npm registry).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PKG = "hqchart@1.1.15808";
const SERIES = [
  ["000001.sh", "上证指数", "SSE Composite Index", "index"],
  ["399001.sz", "深证成指", "SZSE Component Index", "index"],
  ["000300.sh", "沪深300", "CSI 300 Index", "index"],
  ["399005.sz", "中小100", "SZSE SME 100 Index", "index"],
  ["399006.sz", "创业板指", "ChiNext Index", "index"],
  ["600000.sh", "浦发银行", "Shanghai Pudong Development Bank", "stock"],
  ["000001.sz", "平安银行", "Ping An Bank", "stock"],
  ["000151.sz", "中成股份", "China Complant Group", "stock"],
];

let pkgDir = process.argv[2];
if (!pkgDir) {
  const tmp = mkdtempSync(path.join(tmpdir(), "hqchart-"));
  execFileSync("npm", ["pack", PKG, "--silent"], { cwd: tmp, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("tar", ["xzf", "hqchart-1.1.15808.tgz"], { cwd: tmp });
  pkgDir = path.join(tmp, "package");
}
const dir = path.join(pkgDir, "src/jscommon/umychart.testdata/DayKLine");
const out = path.join(root, "data/real/cn");
mkdirSync(out, { recursive: true });
const cent = (x) => Math.round(x * 100) / 100;
for (const [symbol, name, nameEn, kind] of SERIES) {
  const raw = JSON.parse(readFileSync(path.join(dir, `${symbol}.day.kline.json`), "utf8"));
  const rows = raw.data.map((r) => [
    r[0],
    cent(r[1]),
    cent(r[2]),
    cent(r[3]),
    cent(r[4]),
    cent(r[5]),
    Math.round(r[6]),
    Math.round(r[7]),
  ]);
  const head = {
    symbol,
    name,
    nameEn,
    kind,
    source: `${PKG} src/jscommon/umychart.testdata/DayKLine/${symbol}.day.kline.json`,
    licence: "Apache-2.0",
    fields: ["date", "prevClose", "open", "high", "low", "close", "volume", "amount"],
  };
  const text = `${JSON.stringify(head).slice(0, -1)},"rows":[\n${rows.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`;
  writeFileSync(path.join(out, `${symbol}.json`), text);
  console.log(
    `[real-cn] ${symbol} ${name}: ${rows.length} rows ${rows[0][0]}–${rows.at(-1)[0]} (${(text.length / 1e3).toFixed(0)} KB)`,
  );
}
