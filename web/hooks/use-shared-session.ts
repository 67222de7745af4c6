/**
 * A shared session as its read-only page holds it: the stored transcript from `GET /api/shares/:token`
 * and, while a turn runs, that turn followed live through the share stream (folded with the AI SDK's
 * reader, like the owner's page). When the turn pauses for the owner's approval or the link breaks,
 * the page re-reads the transcript a little later. A revoked link ends up "gone".
 */
import type { SharedSession } from "@contracts/share";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { useEffect, useState } from "react";
import { accountApi, ApiError, errorMessage } from "../lib/api-client";
import { statusOf } from "../lib/message-view";
import { readStreamItems } from "../lib/sse-events";
import { watchTurns } from "../lib/turn-watch";
import { applyChunk, initialTurnState, markDone, type TurnState } from "../lib/turn-state";
import type { ViewMessage } from "./use-session";

const OPEN = new Set(["running", "awaiting_approval"]);
const RETRY_MS = 3000;

/** What the share page draws. */
export interface SharedView {
  status: "loading" | "ready" | "gone" | "error";
  error: string | null;
  session: SharedSession | null;
  history: ViewMessage[];
  live: { message: ViewMessage | null; state: TurnState } | null;
}

async function followTurn(
  token: string,
  signal: AbortSignal,
  onUpdate: (message: ViewMessage | null, state: TurnState) => void,
): Promise<TurnState> {
  const body = await accountApi.openShareStream(token, 0, signal);
  let state = initialTurnState();
  let message: ViewMessage | null = null;
  let controller: ReadableStreamDefaultController<UIMessageChunk> | undefined;
  const chunks = new ReadableStream<UIMessageChunk>({ start: (c) => void (controller = c) });
  const folding = (async () => {
    for await (const m of readUIMessageStream<UIMessage>({ stream: chunks, onError: () => {} })) {
      message = { id: m.id, role: m.role, parts: m.parts };
      onUpdate(message, state);
    }
  })();
  try {
    for await (const item of readStreamItems(body)) {
      if (item.kind === "done") {
        state = markDone(state);
        continue;
      }
      const applied = applyChunk(state, item.idx, item.chunk, performance.now());
      if (!applied.fresh) continue;
      state = applied.state;
      controller?.enqueue(item.chunk);
      onUpdate(message, state);
    }
  } finally {
    controller?.close();
    await folding.catch(() => {});
  }
  return state;
}

/** Loads a shared session and follows its running turn. */
export function useSharedSession(token: string): SharedView {
  const [view, setView] = useState<SharedView>({
    status: "loading",
    error: null,
    session: null,
    history: [],
    live: null,
  });

  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      if (!stop.signal.aborted) timer = setTimeout(() => void load(), RETRY_MS);
    };
    let following = false;
    const load = async (): Promise<void> => {
      let session: SharedSession;
      try {
        session = await accountApi.getShare(token, stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          setView({ status: "gone", error: null, session: null, history: [], live: null });
          return;
        }
        setView((v) => ({ ...v, status: v.session ? "ready" : "error", error: errorMessage(error) }));
        later();
        return;
      }
      const messages: ViewMessage[] = session.messages.map((m) => ({
        id: m.id,
        role: m.role,
        parts: m.parts,
        ...(m.metadata ? { metadata: m.metadata } : {}),
      }));
      const last = messages.at(-1);
      const open =
        last !== undefined &&
        (last.role === "user" || (last.role === "assistant" && OPEN.has(statusOf(last.metadata) ?? "")));
      const history = open && last?.role === "assistant" ? messages.slice(0, -1) : messages;
      setView({
        status: "ready",
        error: null,
        session,
        history,
        live: open ? { message: null, state: initialTurnState() } : null,
      });
      if (!open || following) return;
      following = true;
      try {
        const end = await followTurn(token, stop.signal, (message, state) =>
          setView((v) => ({ ...v, live: { message, state } })),
        );
        if (stop.signal.aborted) return;
        // Finished: the stored transcript now holds the turn. Paused or cut off: look again later.
        if (end.ended) void load();
        else later();
      } catch {
        later();
      } finally {
        following = false;
      }
    };
    void load();
    // A turn that starts after the page opened (the owner's next message, a notification turn).
    const unwatch = watchTurns(
      (after, wait, signal) => accountApi.watchShareTurn(token, after, wait, signal),
      () => {
        if (!following) void load();
      },
    );
    return () => {
      unwatch();
      stop.abort();
      if (timer) clearTimeout(timer);
    };
  }, [token]);

  return view;
}
