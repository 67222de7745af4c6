/** The committed real A-share extracts (data/real/cn) as text, for loading the whole offline bundle in workerd. */
import sh000001 from "../../data/real/cn/000001.sh.json?raw";
import sz000001 from "../../data/real/cn/000001.sz.json?raw";
import sz000151 from "../../data/real/cn/000151.sz.json?raw";
import sh000300 from "../../data/real/cn/000300.sh.json?raw";
import sz399001 from "../../data/real/cn/399001.sz.json?raw";
import sz399005 from "../../data/real/cn/399005.sz.json?raw";
import sz399006 from "../../data/real/cn/399006.sz.json?raw";
import sh600000 from "../../data/real/cn/600000.sh.json?raw";

/** File texts, one per bundled real series. */
export const REAL_CN_FILES: readonly string[] = [
  sh000001,
  sz399001,
  sh000300,
  sz399005,
  sz399006,
  sh600000,
  sz000001,
  sz000151,
];
