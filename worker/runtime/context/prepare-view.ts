/**
 * What the model is sent each round: compaction when the request would pass the
 * window's threshold, recalled memories around this turn's question, stale results shrunk from round
 * 2 on, and a last-resort cut when a single message overflows. Only the view changes; storage never.
 */
import type { ModelMessage, ToolSet, UIMessageChunk } from "ai";
import type { Logger } from "../../lib/log";
import type { Lang } from "../errors";
import type { TraceEvent } from "../trace";
import { withTurnContext } from "../transcript";
import { compactIfNeeded, viewOf, type Summarize, type Transcript } from "./compaction";
import { fitToBudget, shrinkStaleResults } from "./shrink";
import { requestTokens } from "./tokens";
import { dataPart } from "../../contracts/stream-parts";

/** Tokens kept free for the model's answer when fitting an oversized view. */
export const OUTPUT_RESERVE_TOKENS = 4_096;

/** Inputs of one round's view. */
export interface ViewInput {
  transcript: Transcript;
  round: number;
  system: string;
  tools: ToolSet;
  window: number;
  lang: Lang;
  summarize: Summarize;
  beforeSummary: (head: readonly ModelMessage[]) => Promise<void>;
  /** This turn's question and what to put in front of it: the turn's context and recalled memories. */
  memory: { question: ModelMessage | undefined; block: string | undefined; context?: string | undefined };
  keysOf: (toolName: string) => ReadonlySet<string> | undefined;
  signal: AbortSignal;
  emit: (chunk: UIMessageChunk) => void;
  onCompaction: (state: { summary: string; coveredCount: number }) => void;
  trace: ((event: TraceEvent) => void) | undefined;
  log: Logger;
}

/** The (possibly compacted) transcript and the messages to send. */
export async function prepareView(o: ViewInput): Promise<{ transcript: Transcript; messages: ModelMessage[] }> {
  let transcript = o.transcript;
  const { round, window } = o;
  const outcome = await compactIfNeeded(transcript, {
    system: o.system,
    tools: o.tools,
    window,
    lang: o.lang,
    summarize: o.summarize,
    beforeSummary: o.beforeSummary,
  });
  if (outcome.kind === "compacted") {
    transcript = outcome.transcript;
    o.onCompaction({ summary: transcript.summary ?? "", coveredCount: transcript.coveredCount });
    const { transcript: _, kind: __, ...figures } = outcome;
    o.emit(dataPart("data-compaction", { round, window, ...figures }));
    o.trace?.({ type: "compaction", round, detail: { window, ...figures } });
  } else if (outcome.kind === "failed") {
    if (o.signal.aborted) throw o.signal.reason;
    o.log.warn("compaction_failed", { reason: outcome.reason });
    o.emit(
      dataPart("data-compaction", {
        round,
        window,
        failed: true,
        reason: outcome.reason,
        tokensBefore: outcome.tokensBefore,
      }),
    );
  }
  const { question, block, context } = o.memory;
  const base = viewOf(transcript, o.lang).map((m) =>
    m === question && (block || context) ? withTurnContext(m, { context, memories: block }) : m,
  );
  const view = round > 1 ? shrinkStaleResults(base, o.keysOf) : base;
  const budget = window - requestTokens(o.system, o.tools, []) - OUTPUT_RESERVE_TOKENS;
  const fitted = fitToBudget(view, budget);
  if (fitted.cut > 0) o.emit(dataPart("data-compaction", { round, window, truncatedMessages: fitted.cut }));
  return { transcript, messages: fitted.messages };
}
