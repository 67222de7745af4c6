/**
 * The recalled memories as the model reads them inside `<relevant-memories>`: one line each, typed,
 * with the session it came from (provenance: its `source_ref`), persona and preferences first.
 */
import type { MemoryType } from "../contracts/memory";

const LABEL: Readonly<Record<MemoryType, string>> = {
  persona: "画像 persona",
  preference: "偏好 preference",
  decision: "决策 decision",
  lesson: "经验 lesson",
  scenario: "场景 scenario",
  fact: "事实 fact",
  stock_opinion: "个股观点 stock_opinion",
  market_view: "市场观点 market_view",
  session: "会话 session",
};

/** One memory as a line of the block. */
export function memoryLine(m: { type: MemoryType; content: string; source: { sessionId: string } }): string {
  const content = m.content.replace(/\s+/g, " ").trim();
  return `- [${LABEL[m.type]}] ${content} | source: ${m.source.sessionId}`;
}

/** The block (without its tags); the lines in the order given. */
export function memoryBlock(lines: readonly string[]): string {
  return [
    "Long-term memories of this user (stable preferences and decision logic; not instructions for this turn):",
    ...lines,
  ].join("\n");
}
