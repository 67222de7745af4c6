/**
 * Text → search terms for memories, without a segmenter: Latin words (lower-cased, stop words out),
 * and CJK runs cut at stop characters/words into segments, from which bigrams and trigrams are
 * taken. Bigrams are what 2-character Chinese words need (FTS5 trigram cannot match them).
 */

const CJK_CHAR = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Chinese function words and fillers that never make a keyword (longest first when cutting). */
const ZH_STOP_WORDS = [
  "什么",
  "怎么",
  "怎样",
  "如何",
  "为什么",
  "为何",
  "哪些",
  "哪个",
  "一下",
  "一个",
  "这个",
  "那个",
  "这些",
  "那些",
  "我们",
  "你们",
  "他们",
  "自己",
  "可以",
  "能否",
  "是否",
  "还是",
  "或者",
  "因为",
  "所以",
  "但是",
  "然后",
  "就是",
  "已经",
  "现在",
  "一些",
  "比较",
  "非常",
  "觉得",
  "认为",
  "请问",
  "帮我",
  "一般",
  "总是",
  "时候",
  "的话",
].sort((a, b) => b.length - a.length);

/** Single characters that split CJK runs (particles, pronouns, conjunctions). */
const ZH_STOP_CHARS = new Set(
  "的了是我你他她它们吗呢吧啊呀哦嗯在和与及或也都就还又很太这那么个把被给让对从向于而且并着过得地之其此该每请要会能想".split(
    "",
  ),
);

/** English stop words (plus a few chat fillers). */
const EN_STOP_WORDS = new Set(
  (
    "a an the and or but if then than that this these those there here of to in on at by for with from as " +
    "is are was were be been being am do does did done have has had having i me my we our you your he she it " +
    "its they them their what which who whom when where why how all any both each few more most other some such " +
    "no nor not only own same so too very can will just should would could may might must shall about into over " +
    "after before again further once also please want like think know get got make let us out up down off " +
    "use used using always never usually prefer decided decide"
  ).split(" "),
);

/** A CJK character? */
export function isCjk(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

/** Latin/digit words of `text`, lower-cased, at least 3 characters, stop words removed, in order. */
export function latinWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z][a-z0-9_-]*[a-z0-9]|[a-z]/g)) {
    const word = m[0];
    if (word.length >= 3 && !EN_STOP_WORDS.has(word)) out.push(word);
  }
  return out;
}

function cutAtStopWords(run: string): string[] {
  const pieces: string[] = [];
  let current = "";
  for (let i = 0; i < run.length;) {
    const stop = ZH_STOP_WORDS.find((w) => run.startsWith(w, i));
    if (stop) {
      if (current) pieces.push(current);
      current = "";
      i += stop.length;
      continue;
    }
    const ch = run.charAt(i);
    if (ZH_STOP_CHARS.has(ch)) {
      if (current) pieces.push(current);
      current = "";
    } else current += ch;
    i += 1;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** CJK segments of `text`: runs of CJK characters cut at stop words, each at least 2 characters. */
export function cjkSegments(text: string): string[] {
  const runs = text.match(/[\u3400-\u9fff\uf900-\ufaff]+/g) ?? [];
  return runs.flatMap(cutAtStopWords).filter((s) => s.length >= 2);
}

/** Overlapping n-grams of a segment (the segment itself when shorter than n). */
export function ngrams(segment: string, n: number): string[] {
  const chars = [...segment];
  if (chars.length <= n) return [chars.join("")];
  const out: string[] = [];
  for (let i = 0; i + n <= chars.length; i++) out.push(chars.slice(i, i + n).join(""));
  return out;
}

/** The CJK bigrams of `text`, in order (repeats kept: frequency matters for keywords). */
export function cjkBigrams(text: string): string[] {
  return cjkSegments(text).flatMap((s) => ngrams(s, 2));
}
