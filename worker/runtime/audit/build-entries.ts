/**
 * Builds a turn's audit entries from what the session stored about it: the turn's stream events (tool
 * calls, outputs, text), its approvals, usage and the model view the runtime last sent. A plain turn
 * gives one entry; a pipeline turn gives one entry per step (its calls and text) and a closing entry
 * for the turn that lists no calls again. Large values are hashed, never copied, so an entry stays far
 * below a storage row's limit. Sealing chains each entry to the previous one (`prev`) and signs it.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import {
  AUDIT_ARGS_CHARS,
  AUDIT_ENTRY_CHARS,
  AUDIT_VERSION,
  auditGenesisText,
  type AuditBody,
  type AuditEntry,
  type AuditToolCall,
} from "../../contracts/audit";
import { canonicalJson } from "../../lib/canonical-json";
import type { AuditCrypto } from "../../ports/audit";

/** An approval as the session stored it. */
export interface AuditApproval {
  toolCallId: string;
  status: "pending" | "allow" | "always" | "edit" | "deny";
  decidedBy: string | null;
  decidedAt: number | null;
}

/** What the host knows about a finished turn. */
export interface AuditTurnFacts {
  sessionId: string;
  turnId: string;
  userId: string;
  kind: "turn" | "notification";
  startedAt: number;
  endedAt: number;
  status: string;
  modelId: string;
  /** Settings that shape the answer (never secrets): profile, limits, context window, offline. */
  settings: Record<string, unknown>;
  /** The question as stored (the user's text or the notification text). */
  userText: string | null;
  chunks: readonly UIMessageChunk[];
  approvals: readonly AuditApproval[];
  usage: Record<string, number>;
  costMicros: number;
  /** The last view sent to the model: system prompt and messages. */
  view?: { system: string; messages: readonly ModelMessage[] } | undefined;
  /** Stored text of a spilled result by its reference (the host reads R2); null when missing. */
  spillText?: (ref: string) => Promise<string | null>;
}

interface CallFacts {
  id: string;
  name: string;
  input: unknown;
  output?: unknown;
  status: AuditToolCall["status"];
  ms: number | null;
  approvalId?: string;
}

interface Segment {
  step: { index: number; name: string } | null;
  calls: Map<string, CallFacts>;
  text: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function isSpillRef(v: unknown): v is { spilled: true; ref: string; chars: number } {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  return r["spilled"] === true && typeof r["ref"] === "string" && typeof r["chars"] === "number";
}

/** Splits the turn's chunks into segments: one, or one per pipeline step (marked by `data-pipeline-step`). */
function segmentsOf(chunks: readonly UIMessageChunk[]): { turn: Segment; steps: Segment[] } {
  const turn: Segment = { step: null, calls: new Map(), text: "" };
  const steps: Segment[] = [];
  let current = turn;
  const byId = new Map<string, CallFacts>();
  for (const chunk of chunks) {
    switch (chunk.type) {
      case "text-delta":
        current.text += chunk.delta;
        if (current !== turn) turn.text += chunk.delta;
        break;
      case "tool-input-available":
      case "tool-input-error": {
        const call: CallFacts = {
          id: chunk.toolCallId,
          name: chunk.toolName,
          input: chunk.input ?? null,
          status: chunk.type === "tool-input-error" ? "error" : "unanswered",
          ms: null,
        };
        byId.set(call.id, call);
        current.calls.set(call.id, call);
        break;
      }
      case "tool-approval-request": {
        const call = byId.get(chunk.toolCallId);
        if (call) call.approvalId = chunk.approvalId;
        break;
      }
      case "tool-output-available": {
        const call = byId.get(chunk.toolCallId);
        if (!call) break;
        call.output = chunk.output;
        call.status = "ok";
        const ms = (chunk as { toolMetadata?: { ms?: unknown } }).toolMetadata?.ms;
        call.ms = typeof ms === "number" ? ms : null;
        break;
      }
      case "tool-output-error": {
        const call = byId.get(chunk.toolCallId);
        if (!call) break;
        call.output = { errorText: chunk.errorText };
        call.status = "error";
        break;
      }
      case "tool-output-denied": {
        const call = byId.get(chunk.toolCallId);
        if (call) call.status = "denied";
        break;
      }
      default:
        if (chunk.type === "data-pipeline-step") {
          const data = (chunk as { data?: { index?: unknown; name?: unknown } }).data;
          current = {
            step: { index: Number(data?.index ?? steps.length), name: String(data?.name ?? "") },
            calls: new Map(),
            text: "",
          };
          steps.push(current);
        }
    }
  }
  return { turn, steps };
}

async function toolCalls(
  segment: Segment,
  facts: AuditTurnFacts,
  crypto: AuditCrypto,
  hashAllArgs: boolean,
): Promise<AuditToolCall[]> {
  const approvals = new Map(facts.approvals.map((a) => [a.toolCallId, a]));
  const out: AuditToolCall[] = [];
  for (const call of segment.calls.values()) {
    const argsText = canonicalJson(call.input ?? null);
    const argsHash = await crypto.sha256Hex(argsText);
    const args =
      hashAllArgs || argsText.length > AUDIT_ARGS_CHARS
        ? { sha256: argsHash, chars: argsText.length }
        : (call.input ?? null);
    let spill: AuditToolCall["spill"] = null;
    if (isSpillRef(call.output)) {
      const text = facts.spillText ? await facts.spillText(call.output.ref) : null;
      spill = {
        ref: call.output.ref,
        sha256: text === null ? null : await crypto.sha256Hex(text),
        chars: call.output.chars,
      };
    }
    const approval = approvals.get(call.id);
    out.push({
      id: call.id,
      name: call.name,
      args,
      argsHash,
      resultHash: call.output === undefined ? null : await crypto.sha256Hex(canonicalJson(call.output)),
      status: call.status,
      ms: call.ms,
      spill,
      approval: approval
        ? {
            decision: approval.status,
            by: approval.decidedBy,
            at: approval.decidedAt === null ? null : iso(approval.decidedAt),
          }
        : null,
    });
  }
  return out;
}

/** The unsealed entries of one finished turn, in chain order. */
export async function buildAuditBodies(facts: AuditTurnFacts, crypto: AuditCrypto): Promise<AuditBody[]> {
  const { turn, steps } = segmentsOf(facts.chunks);
  const systemHash = facts.view ? await crypto.sha256Hex(facts.view.system) : null;
  const messagesHash = facts.view ? await crypto.sha256Hex(canonicalJson(facts.view.messages)) : null;
  const userTextHash = facts.userText === null ? null : await crypto.sha256Hex(facts.userText);
  const base = {
    v: AUDIT_VERSION,
    session: facts.sessionId,
    turn: facts.turnId,
    user: facts.userId,
    startedAt: iso(facts.startedAt),
    endedAt: iso(facts.endedAt),
    model: { id: facts.modelId, settings: facts.settings },
    userTextHash,
  } as const;
  const make = async (segment: Segment, hashAllArgs: boolean): Promise<AuditBody> => ({
    ...base,
    kind: segment.step ? "pipeline_step" : facts.kind,
    step: segment.step,
    status: segment.step ? "done" : facts.status,
    systemHash: segment.step ? null : systemHash,
    messagesHash: segment.step ? null : messagesHash,
    textHash: await crypto.sha256Hex(segment.text),
    tools: await toolCalls(segment, facts, crypto, hashAllArgs),
    usage: segment.step ? {} : facts.usage,
    costMicros: segment.step ? 0 : Math.round(facts.costMicros),
  });
  const bounded = async (segment: Segment): Promise<AuditBody> => {
    const body = await make(segment, false);
    return canonicalJson(body).length > AUDIT_ENTRY_CHARS ? make(segment, true) : body;
  };
  const bodies: AuditBody[] = [];
  for (const step of steps) bodies.push(await bounded(step));
  // The last step's status is the turn's when the turn did not finish.
  const lastStep = bodies.at(-1);
  if (lastStep && facts.status !== "done") lastStep.status = facts.status;
  bodies.push(await bounded(turn));
  return bodies;
}

/** The SHA-256 of a session's genesis text: the first entry's `prev`. */
export function genesisHash(sessionId: string, crypto: AuditCrypto): Promise<string> {
  return crypto.sha256Hex(auditGenesisText(sessionId));
}

/** Chains and signs an entry: `hash` = SHA-256 of the canonical JSON without `hash`, `sig`, `keyId`. */
export async function sealAuditEntry(
  body: AuditBody,
  link: { seq: number; prev: string },
  crypto: AuditCrypto,
): Promise<AuditEntry> {
  const unsigned = { ...body, seq: link.seq, prev: link.prev };
  const hash = await crypto.sha256Hex(canonicalJson(unsigned));
  const signed = await crypto.sign(hash);
  return { ...unsigned, hash, sig: signed?.sig ?? null, keyId: signed?.keyId ?? null };
}
