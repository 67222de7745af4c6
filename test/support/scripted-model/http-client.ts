/**
 * A raw HTTP client for the scripted model's tests: posts chat-completions bodies and reads SSE
 * payloads and chunks back, so the tests check the wire format byte by byte.
 */
import { expect } from "vitest";
import type { ChatRequestBody } from "./openai-wire.ts";
import type { ScriptedModel } from "./server.ts";

/** One streamed `chat.completion.chunk`. */
export interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{
        index: number;
        id?: string;
        type?: string;
        function: { name?: string; arguments?: string };
      }>;
    };
    finish_reason: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** A non-streamed `chat.completion`. */
export interface Completion {
  object: string;
  model: string;
  choices: Array<{
    message: {
      role: string;
      content: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    };
    finish_reason: string;
  }>;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
}

/** A one-user-message chat request. */
export function chatBody(content: string, extra: Partial<ChatRequestBody> = {}): ChatRequestBody {
  return { model: "test-model", messages: [{ role: "user", content }], ...extra };
}

/** POSTs `body` to the model's `/chat/completions`. */
export function post(
  model: ScriptedModel,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${model.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** The `data:` payloads of an SSE body, in order (raw strings, `[DONE]` included). */
export async function ssePayloads(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((event) => event.length > 0)
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

/** The JSON chunks among SSE payloads (`[DONE]` left out). */
export function parseChunks(payloads: string[]): Chunk[] {
  return payloads.filter((p) => p !== "[DONE]").map((p) => JSON.parse(p) as Chunk);
}
