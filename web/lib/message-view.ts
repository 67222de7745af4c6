/**
 * Stream-to-view mapping: turns an AI SDK UI message (live from `readUIMessageStream`, or stored and
 * returned by `GET /api/sessions/:id`) into the blocks the reading room draws. Pure and tolerant:
 * tool parts are read field by field, the runtime's own `data-*` parts with their wire schemas
 * (`@contracts/stream-parts`); unknown or malformed parts are skipped.
 */
import { parseDataPart, type SubagentData } from "@contracts/stream-parts";

/** A tool call's lifecycle as the card shows it. */
export type ToolPhase = "input" | "running" | "approval" | "done" | "error" | "denied";

/** A note shown quietly inline (retries, fallbacks, compaction, guard stops, system notices). */
export interface NoteBlock {
  kind: "note";
  key: string;
  note: "retry" | "fallback" | "compaction" | "guard" | "notification" | "warning";
  data: Record<string, unknown>;
}

/** A warning the runtime put before an answer (`data-guard` with `placement: "prefix"`), drawn at the top. */
export interface BannerBlock {
  kind: "banner";
  key: string;
  guard: string;
  tool: string | null;
  text: string;
}

/** A sub-agent's progress (`data-subagent`, updated in place by the delegate call's id). */
export type SubagentRun = SubagentData;

/** A sub-agent's progress with no delegate card to hang under (drawn on its own). */
export interface SubagentBlock extends SubagentRun {
  kind: "subagent";
  key: string;
}

/** A tool call. */
export interface ToolBlock {
  kind: "tool";
  key: string;
  toolCallId: string;
  toolName: string;
  phase: ToolPhase;
  input: unknown;
  output: unknown;
  errorText: string | null;
  /** The error in each UI language, when the tool said it in both (`toolMetadata.messages`). */
  errorMessages: { zh?: string; en?: string } | null;
  approvalId: string | null;
  /** Server-reported duration (ms) when the part carries one in its tool metadata. */
  ms: number | null;
  /** The sub-agent that made this call (`toolMetadata.subagent`), null for the main agent's calls. */
  subagent: string | null;
  /** A delegate call's sub-agent progress (`data-subagent` with this call's id). */
  run: SubagentRun | null;
  /** The sub-agent's own tool calls, nested under the delegate call that started it. */
  nested: ToolBlock[];
}

/** One drawable piece of a message. */
export type Block =
  | { kind: "text"; key: string; text: string; streaming: boolean }
  | { kind: "reasoning"; key: string; text: string; streaming: boolean }
  | ToolBlock
  | NoteBlock
  | BannerBlock
  | SubagentBlock;

/** A message part as read here: an object with a `type`. */
export type PartLike = object;

function rec(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** The tool name of a tool part (`tool-<name>` or a `dynamic-tool` with `toolName`), else null. */
export function toolNameOf(part: PartLike): string | null {
  const p = rec(part);
  const type = str(p.type) ?? "";
  if (type === "dynamic-tool") return str(p.toolName);
  if (type.startsWith("tool-")) return type.slice(5);
  return null;
}

function phaseOf(state: string, approval: Record<string, unknown>): ToolPhase {
  switch (state) {
    case "input-streaming":
      return "input";
    case "input-available":
      return "running";
    case "approval-requested":
      return "approval";
    case "approval-responded":
      return approval.approved === false ? "denied" : "running";
    case "output-available":
      return "done";
    case "output-error":
      return "error";
    case "output-denied":
      return "denied";
    default:
      return "running";
  }
}

function toolBlock(part: Record<string, unknown>, name: string, key: string): ToolBlock {
  const approval = rec(part.approval);
  const meta = rec(part.toolMetadata);
  return {
    kind: "tool",
    key,
    toolCallId: str(part.toolCallId) ?? key,
    toolName: name,
    phase: phaseOf(str(part.state) ?? "", approval),
    input: part.input,
    output: part.output,
    errorText: str(part.errorText),
    errorMessages: bilingual(meta.messages),
    approvalId: str(approval.id),
    ms: typeof meta.ms === "number" ? meta.ms : null,
    subagent: str(meta.subagent),
    run: null,
    nested: [],
  };
}

function bilingual(v: unknown): { zh?: string; en?: string } | null {
  const m = rec(v);
  const zh = str(m.zh);
  const en = str(m.en);
  if (zh === null && en === null) return null;
  return { ...(zh !== null ? { zh } : {}), ...(en !== null ? { en } : {}) };
}

/** The sub-agent a delegate tool starts (`delegate_to_research` → `research`), else null. */
export function delegateAgent(toolName: string): string | null {
  return toolName.startsWith("delegate_to_") ? toolName.slice("delegate_to_".length) : null;
}

function noteOf(type: string, data: Record<string, unknown>): NoteBlock["note"] | null {
  switch (type) {
    case "data-retry": {
      const retry = parseDataPart("data-retry", data);
      if (!retry) return null;
      return retry.to !== undefined && retry.from !== undefined && retry.to !== retry.from ? "fallback" : "retry";
    }
    case "data-compaction":
      return parseDataPart("data-compaction", data) ? "compaction" : null;
    case "data-guard":
      return parseDataPart("data-guard", data) ? "guard" : null;
    case "data-notification":
      return parseDataPart("data-notification", data) ? "notification" : null;
    case "data-warning":
      return parseDataPart("data-warning", data) ? "warning" : null;
    default:
      return null;
  }
}

/**
 * Maps a message's parts to blocks, in order. A sub-agent's tool calls (`toolMetadata.subagent`) go
 * under the latest delegate call to that agent, its progress (`data-subagent`) onto the delegate call
 * with the same id; a prefix guard warning becomes a banner at the top, replacing the text part the
 * runtime appended with the same words.
 */
export function toBlocks(parts: readonly PartLike[]): Block[] {
  const blocks: Block[] = [];
  const banners: BannerBlock[] = [];
  const delegates = new Map<string, ToolBlock>();
  const latestDelegate = new Map<string, ToolBlock>();
  parts.forEach((raw, i) => {
    const part = rec(raw);
    const type = str(part.type) ?? "";
    const key = `${i}`;
    if (type === "text") {
      const text = str(part.text) ?? "";
      if (text !== "") blocks.push({ kind: "text", key, text, streaming: part.state === "streaming" });
      return;
    }
    if (type === "reasoning") {
      const text = str(part.text) ?? "";
      if (text.trim() !== "") blocks.push({ kind: "reasoning", key, text, streaming: part.state === "streaming" });
      return;
    }
    const name = toolNameOf(part);
    if (name !== null) {
      const block = toolBlock(part, name, str(part.toolCallId) ?? key);
      const agent = delegateAgent(name);
      if (agent !== null) {
        delegates.set(block.toolCallId, block);
        latestDelegate.set(agent, block);
      }
      const parent = block.subagent === null ? undefined : latestDelegate.get(block.subagent);
      if (parent) parent.nested.push(block);
      else blocks.push(block);
      return;
    }
    const data = rec(part.data);
    if (type === "data-subagent") {
      const run = parseDataPart("data-subagent", data);
      if (!run) return;
      const owner = delegates.get(str(part.id) ?? "");
      if (owner) owner.run = run;
      else blocks.push({ kind: "subagent", key, ...run });
      return;
    }
    const guard = type === "data-guard" ? parseDataPart("data-guard", data) : null;
    if (guard?.placement === "prefix") {
      banners.push({ kind: "banner", key, guard: guard.kind, tool: guard.tool, text: guard.text ?? "" });
      return;
    }
    const note = noteOf(type, data);
    if (note) blocks.push({ kind: "note", key, note, data });
  });
  if (banners.length === 0) return blocks;
  const said = new Set(banners.map((b) => b.text.trim()).filter((t) => t !== ""));
  return [...banners, ...blocks.filter((b) => !(b.kind === "text" && said.has(b.text.trim())))];
}

/** Every tool call of a message, sub-agents' nested calls included, in order. */
export function allTools(blocks: readonly Block[]): ToolBlock[] {
  const out: ToolBlock[] = [];
  const walk = (b: ToolBlock) => {
    out.push(b);
    b.nested.forEach(walk);
  };
  for (const b of blocks) if (b.kind === "tool") walk(b);
  return out;
}

/** Background task progress reported in `data-task` parts, latest per task id. */
export interface TaskPart {
  id: string;
  kind: string;
  status: string;
  stage: string;
  pct: number;
  /** Why it failed (`TaskView.error`, the server's English; shown through `taskFailureText`). */
  error?: string;
}

/** Collects the latest `data-task` state per task across messages. */
export function collectTasks(messages: readonly { parts: readonly PartLike[] }[]): TaskPart[] {
  const byId = new Map<string, TaskPart>();
  for (const m of messages) {
    for (const raw of m.parts) {
      const part = rec(raw);
      // A background tool's answer (`{ task_id, kind, status }`): the task exists from that moment.
      const accepted = rec(part.output);
      const acceptedId = str(accepted.task_id);
      if (typeof part.type === "string" && part.type.startsWith("tool-") && acceptedId) {
        if (!byId.has(acceptedId))
          byId.set(acceptedId, {
            id: acceptedId,
            kind: str(accepted.kind) ?? "task",
            status: str(accepted.status) ?? "queued",
            stage: "",
            pct: 0,
          });
        continue;
      }
      if (part.type !== "data-task") continue;
      const task = parseDataPart("data-task", part.data);
      if (!task) continue;
      byId.set(task.id, {
        id: task.id,
        kind: task.kind,
        status: task.status,
        stage: task.progress.stage,
        pct: task.progress.pct,
        ...(task.error ? { error: task.error } : {}),
      });
    }
  }
  return [...byId.values()];
}

/** The pending approval of a message (first tool part waiting for a person), if any. */
export function pendingApproval(blocks: readonly Block[]): ToolBlock | null {
  for (const b of allTools(blocks)) if (b.phase === "approval" && b.approvalId) return b;
  return null;
}

/** Whether a stored user-role message is a finished background task reported into the session. */
export function isNotification(metadata: unknown): boolean {
  return rec(metadata).kind === "notification";
}

/** A stored message's `metadata.status`, if it has one. */
export function statusOf(metadata: unknown): string | null {
  return str(rec(metadata).status);
}

/** A stored message's error diagnosis (`metadata.error` or `metadata.errorText`), if it has one. */
export function errorOf(metadata: unknown): string | null {
  const m = rec(metadata);
  return str(m.errorText) ?? str(m.error);
}

/** The text of a user message (its text parts joined). */
export function userText(parts: readonly PartLike[]): string {
  return parts
    .map((p) => rec(p))
    .filter((p) => p.type === "text")
    .map((p) => str(p.text) ?? "")
    .join("\n");
}
