/**
 * The one HTTP client of the reading room. Every JSON response is parsed with the worker's contract
 * schemas; errors surface as ApiError carrying the envelope's code and message. Turn streams are
 * returned as raw bodies for `sse-events.ts` to read.
 */
import { ModelSettingsView, type PutModelSettingsBody } from "@contracts/model-settings";
import {
  CancelResult,
  CreatedSession,
  Health,
  SessionDetail,
  SessionList,
  TurnWatch,
  UpdatedSession,
  UsageReport,
  type ApprovalBody,
  type CreateSessionBody,
  WorkspaceStat,
} from "@contracts/api";
import { ErrorEnvelope } from "@contracts/errors";
import { MarketBarsResponse } from "@contracts/market";
import { SyncStatus } from "@contracts/market-sync";
import { TaskView } from "@contracts/task";
import { ApiTokenList, CreatedApiToken, Me } from "@contracts/identity";
import { PortfolioPreview, PortfolioView, type PortfolioChange } from "@contracts/portfolio";
import { CreatedShare, SharedSession, ShareList } from "@contracts/share";
import { AuditHeadResponse } from "@contracts/audit";
import { HintList, HintView, SkillList, SkillView, type CreateHintBody, type PatchHintBody } from "@contracts/skills";
import { Memory, MemoryList, MemoryTrace, type MemoryPatchBody, type MemoryType } from "@contracts/memory";
import { z } from "zod";
import { authToken } from "./auth-token";
import { currentLang } from "./lang-store";
import { spillLocation } from "./spill";

/** Base URL of the API: same origin when served by the worker, or VITE_API_BASE_URL on Pages. */
const BASE = (import.meta.env.VITE_API_BASE_URL ?? "").replace(/\/+$/, "");

/** A failed API call, with the server's error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The message in each UI language, when the server said it in both (the envelope's `details.messages`). */
    readonly messages?: { en: string; zh: string },
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Whether the page is a share link (`/s/:token`): read-only, no routes beyond the share's own. */
export function onSharePage(): boolean {
  return location.pathname.startsWith("/s/");
}

/** On a share page (`/s/:token`), charts read their bars through the share link: the viewer may not be signed in. */
function barsBase(): string {
  const share = location.pathname.match(/^\/s\/([^/]+)/);
  return share?.[1] ? `/api/shares/${share[1]}/bars` : "/api/market/bars";
}

async function send(path: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  const headers = new Headers(init?.headers);
  const token = authToken();
  if (token && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  try {
    res = await fetch(`${BASE}${path}`, { ...init, headers });
  } catch (error) {
    if (init?.signal?.aborted) throw error;
    throw new ApiError(0, "network", `cannot reach the server: ${String(error)}`);
  }
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => undefined);
    const envelope = ErrorEnvelope.safeParse(body);
    if (envelope.success) {
      const { code, message, details } = envelope.data.error;
      throw new ApiError(res.status, code, message, bothLanguages(details?.messages));
    }
    throw new ApiError(res.status, "http_error", `HTTP ${res.status}`);
  }
  return res;
}

/** `{ en, zh }` when `value` holds both strings. */
function bothLanguages(value: unknown): { en: string; zh: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { en, zh } = value as Record<string, unknown>;
  return typeof en === "string" && typeof zh === "string" ? { en, zh } : undefined;
}

async function request<S extends z.ZodType>(path: string, schema: S, init?: RequestInit): Promise<z.infer<S>> {
  const res = await send(path, init);
  const body: unknown = await res.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(res.status, "bad_response", `unexpected response from ${path}`);
  return parsed.data;
}

function json(method: string, body: unknown, signal?: AbortSignal): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  };
}

async function streamBody(path: string, init: RequestInit): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const res = await send(path, init);
  if (!res.body) throw new ApiError(res.status, "bad_response", `no stream from ${path}`);
  return res.body;
}

const TaskList = z.object({ tasks: z.array(TaskView) });
const Renamed = z.object({ id: z.string(), title: z.string() });
const Ok = z.object({ ok: z.boolean() });

function watchQuery(after: string | null, wait: number): string {
  const q = new URLSearchParams({ wait: String(wait) });
  if (after !== null) q.set("after", after);
  return q.toString();
}

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** Typed calls to the worker's API. */
export const api = {
  health: () => request("/api/health", Health),
  marketSync: () => request("/api/market/sync", SyncStatus),
  listSessions: () => request("/api/sessions", SessionList),
  createSession: (body: CreateSessionBody = {}) => request("/api/sessions", CreatedSession, json("POST", body)),
  getSession: (id: string, signal?: AbortSignal) =>
    request(sessionPath(id), SessionDetail, signal ? { signal } : undefined),
  /** The page of messages before the cursor `before` (a session read's `page.older`). */
  getOlderMessages: (id: string, before: string, signal?: AbortSignal) =>
    request(`${sessionPath(id)}?before=${encodeURIComponent(before)}`, SessionDetail, signal ? { signal } : undefined),
  renameSession: (id: string, title: string) => request(sessionPath(id), Renamed, json("PATCH", { title })),
  /** Switches a session's profile (`null` = the default); answers the session's title and profile. */
  setProfile: (id: string, profile: string | null) =>
    request(sessionPath(id), UpdatedSession, json("PATCH", { profile })),
  /**
   * The whole of a spilled tool result, from its reference (`spills/<session>/<turn>/<callId>.json`).
   * Rejects with an ApiError for a malformed reference or one the server does not hold (404).
   */
  spill: async (ref: string, signal?: AbortSignal): Promise<unknown> => {
    const at = spillLocation(ref);
    if (!at) throw new ApiError(0, "bad_reference", `not a spill reference: ${ref}`);
    const path = `${sessionPath(at.sessionId)}/spills/${encodeURIComponent(at.turnId)}/${encodeURIComponent(at.callId)}`;
    return request(path, z.json(), signal ? { signal } : undefined);
  },
  /** The caller's usage and cost per day and model over the last `days` days. */
  usage: (days: number) => request(`/api/usage?days=${days}`, UsageReport),
  deleteSession: async (id: string): Promise<void> => {
    await send(sessionPath(id), { method: "DELETE" });
  },
  /**
   * Starts a turn; resolves to its SSE body (409 while another turn is open, 413 when too long). The
   * interface language goes with it: a text that shows none (`/screen`, `600000`) is answered in it.
   */
  sendMessage: (id: string, text: string, signal: AbortSignal) =>
    streamBody(`${sessionPath(id)}/messages`, json("POST", { text, lang: currentLang() }, signal)),
  /** Replays the current/last turn's events from index `from`, then follows it live. */
  openStream: async (id: string, from: number, signal: AbortSignal) => {
    const res = await send(`${sessionPath(id)}/stream?from=${from}`, { signal });
    // 204: the turn is over and nothing follows `from` — the client already holds all of it.
    if (res.status === 204) return null;
    if (!res.body) throw new ApiError(res.status, "bad_response", "no stream from the session");
    return res.body;
  },
  /**
   * Long-poll of the session's turn state: answers at once when its key differs from `after` (or
   * `after` is null), else when it changes or after `wait` seconds.
   */
  watchTurn: (id: string, after: string | null, wait: number, signal: AbortSignal) =>
    request(`${sessionPath(id)}/turn?${watchQuery(after, wait)}`, TurnWatch, { signal }),
  cancel: (id: string) => request(`${sessionPath(id)}/cancel`, CancelResult, { method: "POST" }),
  decide: (id: string, approvalId: string, body: ApprovalBody) =>
    request(`${sessionPath(id)}/approvals/${encodeURIComponent(approvalId)}`, Ok, json("POST", body)),
  /** A symbol's bars and analysis; `end` (YYYY-MM-DD): as the market stood at that close. */
  marketBars: (symbol: string, days: number, signal?: AbortSignal, end?: string) =>
    request(
      `${barsBase()}/${encodeURIComponent(symbol)}?days=${days}${end ? `&end=${encodeURIComponent(end)}` : ""}`,
      MarketBarsResponse,
      signal ? { signal } : undefined,
    ),
  /** A session's background tasks (without results); empty where the tasks API is missing (404). */
  listTasks: async (sessionId: string, signal?: AbortSignal) => {
    try {
      return (
        await request(`/api/tasks?session=${encodeURIComponent(sessionId)}`, TaskList, signal ? { signal } : undefined)
      ).tasks;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
  /** A background task with its result, or null when unknown (404). */
  task: async (id: string) => {
    try {
      return await request(`/api/tasks/${encodeURIComponent(id)}`, TaskView);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
};

const sharePath = (token: string) => `/api/shares/${encodeURIComponent(token)}`;

/** Identity, share links and the portfolio (issue 10). */
export const accountApi = {
  me: () => request("/api/me", Me),
  listTokens: () => request("/api/tokens", ApiTokenList),
  createToken: (label: string) => request("/api/tokens", CreatedApiToken, json("POST", label ? { label } : {})),
  revokeToken: async (id: string): Promise<void> => {
    await send(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
  },
  createShare: (sessionId: string, expiresInHours?: number, audit?: boolean) =>
    request(
      `${sessionPath(sessionId)}/share`,
      CreatedShare,
      json("POST", { ...(expiresInHours ? { expiresInHours } : {}), ...(audit ? { audit: true } : {}) }),
    ),
  /** The audit chain's head of a session (owner) or of a shared session (token). */
  auditHead: (target: { sessionId: string } | { token: string }) =>
    request(
      "sessionId" in target ? `${sessionPath(target.sessionId)}/audit/head` : `${sharePath(target.token)}/audit/head`,
      AuditHeadResponse,
    ),
  /** The audit export (JSONL text) of a session or a shared session, fetched with the caller's credentials. */
  auditExport: async (target: { sessionId: string } | { token: string }): Promise<string> =>
    (
      await send("sessionId" in target ? `${sessionPath(target.sessionId)}/audit` : `${sharePath(target.token)}/audit`)
    ).text(),
  listShares: () => request("/api/shares", ShareList),
  /** Revokes a share by its id (`sh_…`) or its token. */
  revokeShare: async (key: string): Promise<void> => {
    await send(sharePath(key), { method: "DELETE" });
  },
  getShare: (token: string, signal?: AbortSignal) =>
    request(sharePath(token), SharedSession, signal ? { signal } : undefined),
  /** A shared session's current (or last) turn from event `from`, live while it runs. */
  openShareStream: (token: string, from: number, signal: AbortSignal) =>
    streamBody(`${sharePath(token)}/stream?from=${from}`, { signal }),
  /** The shared session's turn-state long-poll (see `api.watchTurn`). */
  watchShareTurn: (token: string, after: string | null, wait: number, signal: AbortSignal) =>
    request(`${sharePath(token)}/turn?${watchQuery(after, wait)}`, TurnWatch, { signal }),
  portfolio: () => request("/api/portfolio", PortfolioView),
  previewChange: (change: PortfolioChange) => request("/api/portfolio/preview", PortfolioPreview, json("POST", change)),
  applyChange: (change: PortfolioChange) => request("/api/portfolio/changes", PortfolioPreview, json("POST", change)),
  importCsv: (csv: string, mode: "replace" | "merge", dryRun: boolean) =>
    request("/api/portfolio/import", PortfolioPreview, json("POST", { csv, mode, dryRun })),
  exportCsv: async (): Promise<string> => (await send("/api/portfolio/export")).text(),
  /** What is at a workspace path (exists, size): `write_file`'s approval says new or replaced. */
  workspaceStat: (path: string) => request(`/api/workspace/stat?path=${encodeURIComponent(path)}`, WorkspaceStat),
};

const memoryPath = (id: string) => `/api/memory/${encodeURIComponent(id)}`;

/** Long-term memory (issue 8): list/search, trace to the source, correct, delete. */
export const memoryApi = {
  list: (opts: { type?: MemoryType; q?: string } = {}, signal?: AbortSignal) => {
    const query = new URLSearchParams();
    if (opts.type) query.set("type", opts.type);
    if (opts.q) query.set("q", opts.q);
    const qs = query.toString();
    return request(`/api/memory${qs ? `?${qs}` : ""}`, MemoryList, signal ? { signal } : undefined);
  },
  trace: (id: string) => request(`${memoryPath(id)}/trace`, MemoryTrace),
  update: (id: string, patch: MemoryPatchBody) => request(memoryPath(id), Memory, json("PATCH", patch)),
  remove: async (id: string): Promise<void> => {
    await send(memoryPath(id), { method: "DELETE" });
  },
};

const skillPath = (name: string) => `/api/skills/${encodeURIComponent(name)}`;
const hintPath = (id: string) => `/api/hints/${encodeURIComponent(id)}`;

/** Skills (built-ins read-only, the user's own as markdown) and scenario hints (shipped ones read-only). */
export const agentApi = {
  listSkills: async () => (await request("/api/skills", SkillList)).skills,
  /** Creates a skill from markdown with front matter (400 with the reason when malformed, 409 for a built-in's name). */
  createSkill: (markdown: string) => request("/api/skills", SkillView, json("POST", { markdown })),
  /** Replaces the skill `name` (its front matter must keep that name). */
  updateSkill: (name: string, markdown: string) => request(skillPath(name), SkillView, json("PUT", { markdown })),
  deleteSkill: async (name: string): Promise<void> => {
    await send(skillPath(name), { method: "DELETE" });
  },
  listHints: async () => (await request("/api/hints", HintList)).hints,
  createHint: (body: CreateHintBody) => request("/api/hints", HintView, json("POST", body)),
  updateHint: (id: string, patch: PatchHintBody) => request(hintPath(id), HintView, json("PATCH", patch)),
  deleteHint: async (id: string): Promise<void> => {
    await send(hintPath(id), { method: "DELETE" });
  },
};

/** The user's own model (Settings → Model); the saved key is never returned, only whether it is set. */
export const modelSettingsApi = {
  get: () => request("/api/settings/model", ModelSettingsView),
  put: (body: PutModelSettingsBody) => request("/api/settings/model", ModelSettingsView, json("PUT", body)),
  remove: async (): Promise<void> => {
    await send("/api/settings/model", { method: "DELETE" });
  },
};

/** A short, human message for any error thrown by the client. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.messages?.[currentLang()] ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
