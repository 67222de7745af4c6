/** SSE framing of the turn stream: chunks with their event index, [DONE], invalid data skipped. */
import { describe, expect, it } from "vitest";
import { parseChunk, parseEventId, readStreamItems, type StreamItem } from "../../../web/lib/sse-events";

function body(text: string, split = 7): ReadableStream<Uint8Array<ArrayBuffer>> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += split) c.enqueue(bytes.slice(i, i + split));
      c.close();
    },
  });
}

async function all(text: string): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  for await (const item of readStreamItems(body(text))) out.push(item);
  return out;
}

describe("readStreamItems", () => {
  it("yields each chunk with its id, across arbitrary byte splits, then the end marker", async () => {
    const items = await all(
      'id: 7\ndata: {"type":"start","messageId":"m"}\n\nid: 8\ndata: {"type":"text-delta","id":"t","delta":"你好"}\n\ndata: [DONE]\n\n',
    );
    expect(items).toEqual([
      { kind: "chunk", idx: 7, chunk: { type: "start", messageId: "m" } },
      { kind: "chunk", idx: 8, chunk: { type: "text-delta", id: "t", delta: "你好" } },
      { kind: "done" },
    ]);
  });

  it("ends without the marker when the server pauses the turn", async () => {
    const items = await all('id: 3\ndata: {"type":"tool-approval-request","approvalId":"a","toolCallId":"c"}\n\n');
    expect(items.at(-1)).toMatchObject({ kind: "chunk", idx: 3 });
  });

  it("skips data that is not a protocol chunk", async () => {
    const items = await all(
      'id: 1\ndata: {"type":"no-such-part"}\n\nid: 2\ndata: not json\n\nid: 3\ndata: {"type":"finish-step"}\n\n',
    );
    expect(items).toEqual([{ kind: "chunk", idx: 3, chunk: { type: "finish-step" } }]);
  });
});

describe("parsers", () => {
  it("validates chunks with the SDK schema", async () => {
    expect(await parseChunk('{"type":"data-usage","data":{"round":1}}')).toEqual({
      type: "data-usage",
      data: { round: 1 },
    });
    expect(await parseChunk('{"type":"text-delta"}')).toBeUndefined();
  });

  it("reads event ids", () => {
    expect(parseEventId("12")).toBe(12);
    expect(parseEventId(undefined)).toBeNull();
    expect(parseEventId("x1")).toBeNull();
  });
});
