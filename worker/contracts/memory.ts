/**
 * Long-term memory shapes: the memory types and their layers, a memory as the API and
 * the reading room see it, and the bodies and answers of `/api/memory`.
 */
import { z } from "zod";
import { StoredUIMessage } from "./api";

/** Every memory type. L1 atoms are preference/decision (and lesson, from the assistant's advice). */
export const MEMORY_TYPES = [
  "preference",
  "decision",
  "lesson",
  "fact",
  "stock_opinion",
  "market_view",
  "scenario",
  "persona",
  "session",
] as const;

/** A memory's type. */
export const MemoryType = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryType>;

/** How a memory came to be: keyword rules, the model's L1/L2/L3 pass, the pre-compaction flush, or a person's edit. */
export const MemoryOrigin = z.enum(["rule", "model", "flush", "user"]);
export type MemoryOrigin = z.infer<typeof MemoryOrigin>;

/** Where a memory came from: the session and the messages in it (`source_ref`). */
export const MemorySource = z.object({ sessionId: z.string(), messageIds: z.array(z.string()) });
export type MemorySource = z.infer<typeof MemorySource>;

/** Longest memory content (characters). */
export const MAX_MEMORY_CHARS = 600;

/** One memory. */
export const Memory = z.object({
  id: z.string(),
  type: MemoryType,
  content: z.string(),
  keywords: z.array(z.string()),
  codes: z.array(z.string()),
  relevance: z.number(),
  origin: MemoryOrigin,
  source: MemorySource,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastHitAt: z.string().nullable(),
});
export type Memory = z.infer<typeof Memory>;

/** `GET /api/memory?type=&q=&limit=` query. */
export const MemoryListQuery = z.object({
  type: MemoryType.optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export type MemoryListQuery = z.infer<typeof MemoryListQuery>;

/** `GET /api/memory` answer: newest first (best match first when searching). */
export const MemoryList = z.object({ memories: z.array(Memory) });
export type MemoryList = z.infer<typeof MemoryList>;

/** `PATCH /api/memory/:id` body: a person corrects a memory (keywords and codes are recomputed). */
export const MemoryPatchBody = z
  .object({
    content: z.string().trim().min(1).max(MAX_MEMORY_CHARS).optional(),
    type: MemoryType.optional(),
    relevance: z.number().min(0).max(10).optional(),
  })
  .strict()
  .refine((b) => b.content !== undefined || b.type !== undefined || b.relevance !== undefined, {
    message: "nothing to change: send content, type or relevance",
  });
export type MemoryPatchBody = z.infer<typeof MemoryPatchBody>;

/** `GET /api/memory/:id/trace`: the memory and the messages it was taken from. */
export const MemoryTrace = z.object({
  memory: Memory,
  session: z.object({ id: z.string(), title: z.string() }).nullable(),
  messages: z.array(StoredUIMessage),
  /** Message ids of the source that the session no longer holds (deleted session or messages). */
  missing: z.array(z.string()),
});
export type MemoryTrace = z.infer<typeof MemoryTrace>;
