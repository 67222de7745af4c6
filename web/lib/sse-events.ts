/**
 * Reads one turn-stream response (AI SDK UI message stream protocol v1) into validated chunks with
 * their event index. eventsource-parser does the SSE framing because the SDK's parseJsonEventStream
 * drops the `id:` line we need for `stream?from=N`; each chunk is still validated with the SDK's
 * own `uiMessageChunkSchema`, and folding into messages is left to `readUIMessageStream`.
 */
import { asSchema, uiMessageChunkSchema, type UIMessageChunk } from "ai";
import { EventSourceParserStream } from "eventsource-parser/stream";

/** One item of a turn stream: a chunk (with its event index when the server sent one) or the end marker. */
export type StreamItem = { kind: "chunk"; idx: number | null; chunk: UIMessageChunk } | { kind: "done" };

const chunkSchema = asSchema(uiMessageChunkSchema);

/** Validates one `data:` payload; undefined when it is not a chunk of the protocol. */
export async function parseChunk(data: string): Promise<UIMessageChunk | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const validate = chunkSchema.validate;
  if (!validate) return undefined;
  const result = await validate(value);
  return result.success ? result.value : undefined;
}

/** Parses an SSE event id into an index (null when absent or malformed). */
export function parseEventId(id: string | undefined): number | null {
  if (id === undefined || !/^\d{1,12}$/.test(id)) return null;
  return Number(id);
}

/** Yields the chunks of an SSE body in order, then `{ kind: "done" }` if the server sent `[DONE]`. */
export async function* readStreamItems(body: ReadableStream<Uint8Array<ArrayBuffer>>): AsyncGenerator<StreamItem> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.data === "[DONE]") {
        yield { kind: "done" };
        continue;
      }
      const chunk = await parseChunk(value.data);
      if (chunk) yield { kind: "chunk", idx: parseEventId(value.id), chunk };
    }
  } finally {
    reader.releaseLock();
  }
}
