/** An in-memory MemoryStore for unit tests (search: a term is found when the content or keywords contain it). */
import type { MemoryStore, StoredMemory } from "../../../worker/ports/memory-store";

/** The fake and its rows. */
export function createMemoryStoreFake(): MemoryStore & { rows: (StoredMemory & { ownerId: string })[] } {
  const rows: (StoredMemory & { ownerId: string })[] = [];
  let n = 0;
  const mine = (ownerId: string) => rows.filter((r) => r.ownerId === ownerId);
  return {
    rows,
    async add(ownerId, list, now) {
      const ids: string[] = [];
      for (const m of list) {
        if (mine(ownerId).some((r) => r.type === m.type && r.content === m.content)) continue;
        const id = `mem_${++n}`;
        rows.push({ ...m, id, ownerId, relevance: 1, createdAt: now, updatedAt: now, lastHitAt: null });
        ids.push(id);
      }
      return ids;
    },
    async recallRows(ownerId, terms, opts) {
      const wanted = [...terms];
      const matched = mine(ownerId)
        .map((r) => ({ ...r, bm25: -wanted.filter((t) => r.content.includes(t) || r.keywords.includes(t)).length }))
        .filter((r) => r.bm25 < 0)
        .slice(0, opts.limit);
      const pinned = mine(ownerId).filter((r) => r.type === "persona" || r.type === "preference");
      return { matched, pinned };
    },
    async touch(ownerId, ids, now) {
      for (const r of mine(ownerId)) if (ids.includes(r.id)) r.lastHitAt = now;
    },
    async prune() {
      return 0;
    },
    async list(ownerId, opts) {
      return mine(ownerId)
        .filter((r) => !opts.type || r.type === opts.type)
        .slice(0, opts.limit);
    },
    async recent(ownerId, types, limit) {
      return mine(ownerId)
        .filter((r) => types.includes(r.type))
        .slice(-limit);
    },
    async get(ownerId, id) {
      return mine(ownerId).find((r) => r.id === id) ?? null;
    },
    async update() {
      return null;
    },
    async remove() {
      return false;
    },
    async indexPending() {
      return 0;
    },
    async removeByOrigin(ownerId, types, origin) {
      const gone = mine(ownerId).filter((r) => types.includes(r.type) && r.origin === origin);
      for (const g of gone) rows.splice(rows.indexOf(g), 1);
      return gone.length;
    },
  };
}
