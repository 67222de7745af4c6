/**
 * The hit mark a recall leaves (`MemoryStore.touch`), in workerd over D1: it marks only the owner's
 * memories among the ids it is given, and its plan finds each memory by its unique id whatever the
 * number of ids — the owner's indexes would scan every memory the person holds (SQLite prefers them
 * once several ids are touched), which made recall grow with the person's count (issue 21).
 */
import { describe, expect, it } from "vitest";
import { memoryStoreOf, TOUCH_SQL } from "../../worker/storage/memory-repo";
import { testEnv } from "./test-env";

const source = { sessionId: "s_touch", messageIds: [] };

function memory(i: number) {
  return {
    type: "fact" as const,
    content: `touch test memory ${i}`,
    keywords: [],
    codes: [],
    origin: "rule" as const,
    source,
  };
}

describe("memory touch", () => {
  it("marks the owner's memories among the given ids, and none of another owner's", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const mine = await store.add("u_touch_mine", [0, 1, 2, 3].map(memory), 1_000);
    const theirs = await store.add("u_touch_theirs", [0, 1].map(memory), 1_000);
    await store.touch("u_touch_mine", [mine[0] ?? "", mine[2] ?? "", theirs[0] ?? "", "mem_missing"], 5_000);
    const hits = async (owner: string) =>
      new Map((await store.list(owner, { limit: 10 })).map((m) => [m.id, m.lastHitAt]));
    const m = await hits("u_touch_mine");
    expect([mine[0], mine[1], mine[2], mine[3]].map((id) => m.get(id ?? ""))).toEqual([5_000, null, 5_000, null]);
    const t = await hits("u_touch_theirs");
    expect([theirs[0], theirs[1]].map((id) => t.get(id ?? ""))).toEqual([null, null]);
    await store.touch("u_touch_mine", [], 9_000); // nothing to mark: no statement, no change
    expect((await hits("u_touch_mine")).get(mine[0] ?? "")).toBe(5_000);
  });

  it("finds each touched memory by its id, not by scanning the owner's memories", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const ids = await store.add(
      "u_touch_plan",
      Array.from({ length: 40 }, (_, i) => memory(i)),
      1_000,
    );
    for (const count of [1, 10, 40]) {
      const { results } = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${TOUCH_SQL}`)
        .bind("u_touch_plan", JSON.stringify(ids.slice(0, count)), 2_000)
        .all<{ detail: string }>();
      const steps = results.map((r) => r.detail);
      expect(steps.some((d) => /SEARCH memories USING INDEX memories_id_unique \(id=\?\)/.test(d))).toBe(true);
      expect(steps.filter((d) => /memories_owner/.test(d))).toEqual([]);
    }
  });
});
