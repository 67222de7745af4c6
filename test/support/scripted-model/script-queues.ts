/**
 * The scripted model's response queues (test support): a default queue and keyed ones. A request
 * takes the next response of the first registered key it mentions (system prompt first, then the
 * newest user message naming one, then any message), else the default queue's.
 */
import type { ChatRequestBody } from "./openai-wire.ts";
import { parseResponses } from "./script.ts";
import type { NormalizedResponse, ScriptedResponse } from "./script.ts";

/** Collects every string found anywhere in the messages (content, text parts, tool arguments, …). */
function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

/** The default queue and the keyed queues of scripted responses. */
export class ScriptQueues {
  private defaultQueue: NormalizedResponse[];
  private readonly keyed = new Map<string, NormalizedResponse[]>();

  constructor(initial: NormalizedResponse[] = []) {
    this.defaultQueue = initial;
  }

  /** Appends parsed responses to `key`'s queue (the default queue when omitted). */
  enqueue(list: NormalizedResponse[], key?: string): void {
    if (key === undefined) {
      this.defaultQueue.push(...list);
      return;
    }
    if (key.length === 0) throw new Error("scripted model: queue key must be non-empty");
    const queue = this.keyed.get(key);
    if (queue) queue.push(...list);
    else this.keyed.set(key, list);
  }

  /** Validates and appends responses (see `ScriptedModel.push`). */
  push(responses: ScriptedResponse | ScriptedResponse[], key?: string): void {
    this.enqueue(parseResponses(Array.isArray(responses) ? responses : [responses]), key);
  }

  /** Empties every queue and forgets the keys. */
  clear(): void {
    this.defaultQueue = [];
    this.keyed.clear();
  }

  // A key in the system prompt names the call's purpose (e.g. compaction) and decides first; then the
  // newest user message that names one (a later turn's marker wins over an earlier turn's still in the
  // history); then any message, as before.
  /** The registered key a request names, or `null` for the default queue. */
  resolveKey(body: ChatRequestBody): string | null {
    if (this.keyed.size === 0) return null;
    const find = (value: unknown): string | null => {
      const strings: string[] = [];
      collectStrings(value, strings);
      for (const key of this.keyed.keys()) if (strings.some((s) => s.includes(key))) return key;
      return null;
    };
    const role = (m: unknown) => (m as { role?: unknown }).role;
    const system = find([(body as { system?: unknown }).system, body.messages.filter((m) => role(m) === "system")]);
    if (system !== null) return system;
    const users = body.messages.filter((m) => role(m) === "user");
    for (let i = users.length - 1; i >= 0; i--) {
      const key = find(users[i]);
      if (key !== null) return key;
    }
    return find(body.messages);
  }

  /** Takes the next response of `key`'s queue (`null`: the default queue); undefined when it is empty. */
  take(key: string | null): NormalizedResponse | undefined {
    return (key === null ? this.defaultQueue : this.keyed.get(key))?.shift();
  }

  /** How many responses `key`'s queue holds (undefined: the default queue). */
  size(key?: string): number {
    return key === undefined ? this.defaultQueue.length : (this.keyed.get(key)?.length ?? 0);
  }

  /** Remaining queue sizes, as `GET /__script` answers them. */
  sizes(): { default: number; keyed: Record<string, number> } {
    return {
      default: this.defaultQueue.length,
      keyed: Object.fromEntries([...this.keyed].map(([key, queue]) => [key, queue.length])),
    };
  }
}

/** A one-line summary of a response, for the log. */
export function describe(response: NormalizedResponse): string {
  if (response.kind === "error") return `error ${response.status}`;
  const { reply } = response;
  const parts: string[] = [];
  if (reply.reasoning) parts.push(`reasoning ${reply.reasoning.length}ch`);
  if (reply.text) parts.push(`text ${reply.text.length}ch`);
  if (reply.toolCalls?.length) parts.push(`tools ${reply.toolCalls.map((c) => c.name).join(",")}`);
  const suffix = parts.length > 0 ? ` (${parts.join(", ")})` : "";
  if (response.kind === "stall") return `stall after ${response.afterChunks} chunks${suffix}`;
  if (response.kind === "drop") return `drop connection after ${response.afterChunks} chunks${suffix}`;
  return `${response.kind}${suffix}`;
}
