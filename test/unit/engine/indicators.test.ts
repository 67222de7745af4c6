import { describe, expect, it } from "vitest";
import { closePosition, isFrozenBar, spreadRatio } from "../../../worker/engine/bar-shape";
import { linregSlope, returns, rsiWilder } from "../../../worker/engine/momentum";
import { ema, sma } from "../../../worker/engine/moving-average";
import { atrWilder, trueRange } from "../../../worker/engine/volatility";
import { obv, volumeRatio } from "../../../worker/engine/volume";

// StockCharts ChartSchool cs-atr.csv (via bukosabino/ta test/data, MIT): high, low, close, ATR column.
const ATR_HLC: [number, number, number][] = [
  [48.7, 47.79, 48.16],
  [48.72, 48.14, 48.61],
  [48.9, 48.39, 48.75],
  [48.87, 48.37, 48.63],
  [48.82, 48.24, 48.74],
  [49.05, 48.635, 49.03],
  [49.2, 48.94, 49.07],
  [49.35, 48.86, 49.32],
  [49.92, 49.5, 49.91],
  [50.19, 49.87, 50.13],
  [50.12, 49.2, 49.53],
  [49.66, 48.9, 49.5],
  [49.88, 49.43, 49.75],
  [50.19, 49.725, 50.03],
  [50.36, 49.26, 50.31],
  [50.57, 50.09, 50.52],
  [50.65, 50.3, 50.41],
  [50.43, 49.21, 49.34],
  [49.63, 48.98, 49.37],
  [50.33, 49.61, 50.23],
  [50.29, 49.2, 49.2375],
  [50.17, 49.43, 49.93],
  [49.32, 48.08, 48.43],
  [48.5, 47.64, 48.18],
  [48.3201, 41.55, 46.57],
  [46.8, 44.2833, 45.41],
  [47.8, 47.31, 47.77],
  [48.39, 47.2, 47.72],
  [48.66, 47.9, 48.62],
  [48.79, 47.7301, 47.85],
];
const ATR_REF = [
  0.555, 0.5939285714, 0.5857908163, 0.5689486152, 0.6154522855, 0.6179199794, 0.6423542666, 0.6743289618, 0.6927697503,
  0.7754290538, 0.7814698357, 1.209229133, 1.302619909, 1.380289916, 1.366697779, 1.336219366, 1.316482269,
];

// cs-obv.csv closes and volumes (first bar has no volume); OBV column.
const OBV_CLOSE = [
  53.26, 53.3, 53.32, 53.72, 54.19, 53.92, 54.65, 54.6, 54.21, 54.53, 53.79, 53.66, 53.56, 53.57, 53.94, 53.27, 53.6,
  53.65, 53.62, 53.27, 53.44, 53.28, 53.14, 53.31, 54.09, 54.08, 54.01, 54.17, 54.24, 54.45,
];
const OBV_VOL = [
  0, 8200, 8100, 8300, 8900, 9200, 13300, 10300, 9900, 10100, 11300, 12600, 10700, 11500, 23800, 14600, 11700, 10400,
  9500, 13900, 10400, 4200, 10900, 17600, 17900, 15800, 10200, 8700, 16000, 12500,
];
const OBV_REF = [
  0, 8200, 16300, 24600, 33500, 24300, 37600, 27300, 17400, 27500, 16200, 3600, -7100, 4400, 28200, 13600, 25300, 35700,
  26200, 12300, 22700, 18500, 7600, 25200, 43100, 27300, 17100, 25800, 41800, 54300,
];

// StockCharts RSI example closes (cs-rsi.csv Close column); reference RSI(14) published to 2 decimals (DOMAIN.md §3.1).
const RSI_CLOSE = [
  44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614,
  46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548,
  44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
];
const RSI_REF = [
  70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46, 41.87, 45.46, 37.3,
  33.08, 37.77,
];

describe("indicators", () => {
  it("reproduces StockCharts' Wilder ATR(14) to 1e-4 with a mean-of-first-14 seed", () => {
    const tr = trueRange(
      ATR_HLC.map((b) => b[0]),
      ATR_HLC.map((b) => b[1]),
      ATR_HLC.map((b) => b[2]),
    );
    expect(tr[0]).toBeCloseTo(0.91, 10);
    const atr = atrWilder(tr, 14);
    expect(Number.isNaN(atr[12])).toBe(true);
    ATR_REF.forEach((ref, k) => expect(Math.abs((atr[13 + k] ?? Number.NaN) - ref)).toBeLessThan(1e-4));
  });

  it("reproduces StockCharts' OBV exactly", () => {
    expect(Array.from(obv(OBV_CLOSE, OBV_VOL))).toEqual(OBV_REF);
  });

  it("reproduces StockCharts' Wilder RSI(14) to the published two decimals", () => {
    const rsi = rsiWilder(RSI_CLOSE, 14);
    expect(Number.isNaN(rsi[13])).toBe(true);
    RSI_REF.forEach((ref, k) => expect(Math.abs((rsi[14 + k] ?? Number.NaN) - ref)).toBeLessThanOrEqual(0.005 + 1e-9));
  });

  it("computes SMA and an SMA-seeded EMA", () => {
    const v = [1, 2, 3, 4, 5, 6];
    expect(Array.from(sma(v, 3)).slice(2)).toEqual([2, 3, 4, 5]);
    const e = ema(v, 3);
    expect(e[2]).toBe(2);
    expect(e[3]).toBeCloseTo(3, 12);
    expect(e[5]).toBeCloseTo(5, 12);
  });

  it("computes volume ratio, spread ratio and close position against the prior window", () => {
    const vol = [10, 10, 10, 10, 30];
    expect(volumeRatio(vol, 4)[4]).toBe(3);
    expect(Number.isNaN(volumeRatio(vol, 4)[3])).toBe(true);
    const sr = spreadRatio([2, 2, 2, 4], [1, 1, 1, 1], 3);
    expect(sr[3]).toBe(3);
    expect(Array.from(closePosition([10, 5], [8, 5], [9.5, 5]))).toEqual([0.75, 0.5]);
  });

  it("computes k-bar returns and the least-squares slope", () => {
    expect(returns([100, 110, 121], 2)[2]).toBeCloseTo(0.21, 12);
    const line = Array.from({ length: 10 }, (_, i) => 3 + 2 * i);
    expect(linregSlope(line, 5)[9]).toBeCloseTo(2, 12);
  });

  it("marks only limit-sized narrow bars as frozen", () => {
    expect(isFrozenBar(11, 11.02, 11, 11, 10)).toBe(true);
    expect(isFrozenBar(10.01, 10.05, 10, 10.02, 10)).toBe(false);
  });
});
