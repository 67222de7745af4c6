/** `search_stock_by_name`: find symbols by name, code or pinyin initials. */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { MarketSource, SymbolBrief } from "./market-source";

/** The `search_stock_by_name` tool. */
export const searchStockByNameSpec = defineToolSpec({
  name: "search_stock_by_name",
  title: { zh: "搜索股票", en: "Search stocks" },
  description:
    "Find stocks and indices by Chinese/English name, code or pinyin initials (e.g. 茅台, 600519, GZMT). Returns up to 10 matches; the top 3 carry the latest close and change %. Use before analyze_stock when the user gives a name. Results flagged simulated belong to the simulated SIM market.",
  input: z.object({ keyword: z.string().trim().min(1).max(40).describe("name, code or pinyin initials") }),
  output: z.object({
    query: z.string(),
    count: z.number().int(),
    results: z.array(
      SymbolBrief.extend({
        latestClose: z.number().nullable(),
        changePct: z.number().nullable(),
        latestDate: z.string().nullable(),
      }),
    ),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
