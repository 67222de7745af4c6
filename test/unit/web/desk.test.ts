/** Pure helpers of the research desk: weekly bars, moving averages, label fitting, Markdown export, retry delays. */
import { describe, expect, it } from "vitest";
import { labelsThatFit, movingAverage, weekOf, weeklyBars } from "../../../web/lib/chart-series";
import { describeNote } from "../../../web/lib/note-text";
import { fileNameOf, transcriptMarkdown } from "../../../web/lib/transcript-markdown";
import type { NoteBlock } from "../../../web/lib/message-view";

const bar = (date: string, close: number, volume = 10) => ({
  date,
  open: close - 1,
  high: close + 2,
  low: close - 2,
  close,
  volume,
});

describe("weekly bars", () => {
  it("groups Monday–Sunday weeks, dated by the last trading day, with high/low/volume over the week", () => {
    expect(weekOf("2026-06-03")).toBe("2026-06-01"); // Wednesday → Monday
    expect(weekOf("2026-06-07")).toBe("2026-06-01"); // Sunday stays in its week
    const w = weeklyBars([bar("2026-06-01", 10), bar("2026-06-03", 14), bar("2026-06-05", 12), bar("2026-06-08", 11)]);
    expect(w).toEqual([
      { date: "2026-06-05", open: 9, high: 16, low: 8, close: 12, volume: 30 },
      { date: "2026-06-08", open: 10, high: 13, low: 9, close: 11, volume: 10 },
    ]);
  });
});

describe("moving average", () => {
  it("starts at the n-th bar and averages the last n closes", () => {
    const ma = movingAverage([bar("a", 1), bar("b", 2), bar("c", 3), bar("d", 10)], 3);
    expect(ma).toEqual([
      { date: "c", value: 2 },
      { date: "d", value: 5 },
    ]);
  });
});

describe("labels that fit", () => {
  it("drops a label that would overlap the previous one on the same side, keeps the other side's", () => {
    const index = new Map([
      ["d1", 0],
      ["d2", 1],
      ["d9", 9],
    ]);
    const markers = [
      { time: "d1", label: "Spring#3", position: "belowBar" },
      { time: "d2", label: "Test", position: "belowBar" },
      { time: "d2", label: "UT", position: "aboveBar" },
      { time: "d9", label: "SOS", position: "belowBar" },
    ];
    expect(labelsThatFit(markers, index, 8)).toEqual([true, false, true, true]);
    // Wide bars: everything fits.
    expect(labelsThatFit(markers, index, 80)).toEqual([true, true, true, true]);
  });
});

describe("Markdown export", () => {
  it("writes the person's words, the answer, tool calls with outcomes and notices", () => {
    const md = transcriptMarkdown(
      "My session",
      [
        { role: "user", parts: [{ type: "text", text: "analyze SIM.0002" }] },
        {
          role: "assistant",
          parts: [
            { type: "tool-analyze_stock", state: "output-available" },
            { type: "text", text: "Phase **Markup**." },
          ],
        },
        { role: "user", parts: [{ type: "text", text: "Backtest done" }], metadata: { kind: "notification" } },
      ],
      { user: "You", assistant: "Agent", notice: "System notice" },
    );
    expect(md).toBe(
      "# My session\n\n## You\n\nanalyze SIM.0002\n\n## Agent\n\n> 🔧 `analyze_stock` — available\n\nPhase **Markup**.\n\n> **System notice:** Backtest done\n",
    );
    expect(fileNameOf(`a/b: "c"`)).toBe("a-b-c.md");
  });
});

describe("retry note", () => {
  const note = (delayMs: number | undefined) =>
    ({
      kind: "note",
      key: "n",
      note: "retry",
      data: { reason: "server_error", status: 500, delayMs },
    }) as unknown as NoteBlock;
  it("says 'now' for no delay, milliseconds under a second, seconds above — never '0.0 s'", () => {
    expect(describeNote(note(0)).key).toBe("noteRetryNow");
    expect(describeNote(note(500)).vars.delay).toBe("500 ms");
    expect(describeNote(note(2000)).vars.delay).toBe("2.0 s");
  });
});
