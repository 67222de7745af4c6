/**
 * One chat session as the page holds it: its stored messages, the turn being followed live (through
 * a TurnRunner), and the actions a person takes (send, stop, answer an approval, retry). Live
 * message updates are coalesced to one render per animation frame.
 */
import type { ApprovalBody, UsageTotals } from "@contracts/api";
import type { UIMessage } from "ai";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, ApiError, errorMessage } from "../lib/api-client";
import { isNotification, statusOf, type PartLike } from "../lib/message-view";
import { takePendingMessage } from "../lib/pending-message";
import { refreshSessions, switchProfile } from "../lib/sessions-store";
import { TurnRunner, type Connection } from "../lib/turn-runner";
import { watchTurns } from "../lib/turn-watch";
import { initialTurnState, type TurnState, type TurnUsage } from "../lib/turn-state";

/** A message as the list draws it. */
export interface ViewMessage {
  id: string;
  role: "system" | "user" | "assistant";
  parts: readonly PartLike[];
  metadata?: Record<string, unknown>;
}

/** The turn being followed. */
export interface LiveTurn {
  message: ViewMessage | null;
  state: TurnState;
  connection: Connection;
}

/** What the chat page needs. */
export interface SessionModel {
  loading: boolean;
  loadError: string | null;
  notFound: boolean;
  title: string;
  /** The session's profile (`domain:capability`), null for the default. */
  profile: string | null;
  usage: UsageTotals | null;
  /**
   * The turn just finished, until the stored totals include it (the server adds a turn's usage just
   * after its stream ends): the status line adds it, so the figures never drop back for a moment.
   */
  carried: TurnUsage | null;
  history: ViewMessage[];
  /** More messages exist before `history[0]` (the session read pages). */
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Loads the page before `history[0]` into the front of `history`. */
  loadOlder: () => Promise<void>;
  live: LiveTurn | null;
  sendError: string | null;
  lastUserText: string | null;
  send(text: string): Promise<void>;
  stop(): Promise<void>;
  decide(approvalId: string, body: ApprovalBody): Promise<void>;
  /** Switches the profile (null = the default); rejects with the server's reason. */
  setProfile(profile: string | null): Promise<void>;
}

const OPEN = new Set(["running", "awaiting_approval"]);

function asView(m: UIMessage, metadata?: Record<string, unknown>): ViewMessage {
  return { id: m.id, role: m.role, parts: m.parts, ...(metadata ? { metadata } : {}) };
}

/** Loads a session and follows its turns. */
export function useSession(sessionId: string): SessionModel {
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [title, setTitle] = useState("");
  const [profile, setProfileState] = useState<string | null>(null);
  const [usage, setUsage] = useState<UsageTotals | null>(null);
  const [carried, setCarried] = useState<TurnUsage | null>(null);
  const storedUsage = useRef<UsageTotals | null>(null);
  const [history, setHistory] = useState<ViewMessage[]>([]);
  /** Cursor of the page before the oldest message held (null: the whole history is here). */
  const [older, setOlder] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const runner = useRef<TurnRunner | null>(null);
  const frame = useRef<number | null>(null);
  const pendingLive = useRef<LiveTurn | null>(null);

  const flush = useCallback(() => {
    frame.current = null;
    setLive(pendingLive.current);
  }, []);

  const schedule = useCallback(
    (update: (prev: LiveTurn) => LiveTurn) => {
      const prev = pendingLive.current ?? { message: null, state: initialTurnState(), connection: "connecting" };
      pendingLive.current = update(prev);
      frame.current ??= requestAnimationFrame(flush);
    },
    [flush],
  );

  const keepUsage = useCallback((next: UsageTotals) => {
    storedUsage.current = next;
    setUsage(next);
  }, []);

  const refreshMeta = useCallback(
    async (finished: TurnUsage | null = null) => {
      const before = storedUsage.current;
      const tokens = (u: UsageTotals | null) => (u ? u.inputTokens + u.outputTokens : 0);
      const counted = !finished || finished.inputTokens + finished.outputTokens === 0;
      for (let attempt = 0; attempt < 6; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 300 * attempt));
        try {
          const detail = await api.getSession(sessionId);
          setTitle(detail.title);
          setProfileState(detail.profile);
          if (counted || tokens(detail.usage) > tokens(before) || attempt === 5) {
            keepUsage(detail.usage);
            if (finished) setCarried(null);
            break;
          }
        } catch {
          // the status line keeps its last figures
          if (finished) setCarried(null);
          break;
        }
      }
      void refreshSessions();
    },
    [sessionId, keepUsage],
  );

  const follow = useCallback((r: TurnRunner) => {
    runner.current?.dispose();
    runner.current = r;
    pendingLive.current = { message: null, state: initialTurnState(), connection: "connecting" };
    setLive(pendingLive.current);
  }, []);

  const makeRunner = useCallback(
    () =>
      new TurnRunner(sessionId, {
        message: (m) => schedule((prev) => ({ ...prev, message: asView(m) })),
        state: (state, connection) => schedule((prev) => ({ ...prev, state, connection })),
        ended: (state, message) => {
          if (frame.current !== null) cancelAnimationFrame(frame.current);
          frame.current = null;
          pendingLive.current = null;
          runner.current = null;
          setLive(null);
          setCarried(state.usage);
          if (message) {
            const metadata: Record<string, unknown> = {
              status: state.status,
              ...(state.errorText ? { errorText: state.errorText } : {}),
              ...state.finish,
            };
            setHistory((h) => [...h, asView(message, metadata)]);
          } else if (state.errorText) {
            setHistory((h) => [
              ...h,
              {
                id: `error-${Date.now()}`,
                role: "assistant",
                parts: [],
                metadata: { status: "error", errorText: state.errorText },
              },
            ]);
          }
          void refreshMeta(state.usage);
        },
      }),
    [sessionId, schedule, refreshMeta],
  );

  const send = useCallback(
    async (text: string) => {
      setSendError(null);
      const r = makeRunner();
      const localId = `local-${Date.now()}`;
      setHistory((h) => [...h, { id: localId, role: "user", parts: [{ type: "text", text }] }]);
      follow(r);
      try {
        await r.start(text);
      } catch (error) {
        r.dispose();
        if (runner.current === r) runner.current = null;
        pendingLive.current = null;
        setLive(null);
        setHistory((h) => h.filter((m) => m.id !== localId));
        setSendError(errorMessage(error));
        return;
      }
      void refreshMeta(); // a first message names the session
    },
    [makeRunner, follow, refreshMeta],
  );

  const stop = useCallback(async () => {
    try {
      await api.cancel(sessionId);
    } catch (error) {
      setSendError(errorMessage(error));
    }
    runner.current?.follow();
  }, [sessionId]);

  const decide = useCallback(
    async (approvalId: string, body: ApprovalBody) => {
      await api.decide(sessionId, approvalId, body);
      runner.current?.follow();
    },
    [sessionId],
  );

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setLoadError(null);
    setNotFound(false);
    setHistory([]);
    setOlder(null);
    setLoadingOlder(false);
    setLive(null);
    setSendError(null);
    api
      .getSession(sessionId, controller.signal)
      .then((detail) => {
        setTitle(detail.title);
        setProfileState(detail.profile);
        keepUsage(detail.usage);
        setCarried(null);
        const messages: ViewMessage[] = detail.messages.map((m) => ({
          id: m.id,
          role: m.role,
          parts: m.parts,
          ...(m.metadata ? { metadata: m.metadata } : {}),
        }));
        const last = messages.at(-1);
        // An open turn: drop its folded message and rebuild it from the whole turn's events.
        const open =
          last && (last.role === "user" || (last.role === "assistant" && OPEN.has(statusOf(last.metadata) ?? "")));
        setHistory(open && last?.role === "assistant" ? messages.slice(0, -1) : messages);
        setOlder(detail.page?.older ?? null);
        setLoading(false);
        if (open) {
          const r = makeRunner();
          follow(r);
          r.resume();
          return;
        }
        const pending = takePendingMessage(sessionId);
        if (pending) void send(pending);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setNotFound(true);
        else setLoadError(errorMessage(error));
        setLoading(false);
      });
    return () => {
      controller.abort();
      runner.current?.dispose();
      runner.current = null;
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
      pendingLive.current = null;
    };
    // send/makeRunner/follow only change with sessionId
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- reload only when the session changes
  }, [sessionId]);

  // Turns this page did not start (a notification turn, another tab, a webhook): when the session's
  // turn state changes while the page follows nothing, re-read the transcript and follow an open turn.
  useEffect(
    () =>
      watchTurns(
        (after, wait, signal) => api.watchTurn(sessionId, after, wait, signal),
        async () => {
          if (runner.current) return;
          const detail = await api.getSession(sessionId).catch(() => null);
          if (!detail || runner.current) return;
          const messages: ViewMessage[] = detail.messages.map((m) => ({
            id: m.id,
            role: m.role,
            parts: m.parts,
            ...(m.metadata ? { metadata: m.metadata } : {}),
          }));
          const last = messages.at(-1);
          const open =
            last && (last.role === "user" || (last.role === "assistant" && OPEN.has(statusOf(last.metadata) ?? "")));
          const shown = open && last?.role === "assistant" ? messages.slice(0, -1) : messages;
          // Older messages the page already holds (loaded by paging) stay in front of the latest ones.
          setHistory((h) => {
            const at = shown[0] ? h.findIndex((m) => m.id === shown[0]?.id) : -1;
            return at > 0 ? [...h.slice(0, at), ...shown] : shown;
          });
          setTitle(detail.title);
          keepUsage(detail.usage);
          if (open) {
            const r = makeRunner();
            follow(r);
            r.resume();
          }
        },
      ),
    [sessionId, makeRunner, follow, keepUsage],
  );
  /** Loads the page before the oldest message held and puts it in front (scrolling up in the list). */
  const loadOlder = useCallback(async () => {
    if (!older || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const detail = await api.getOlderMessages(sessionId, older);
      const page: ViewMessage[] = detail.messages.map((m) => ({
        id: m.id,
        role: m.role,
        parts: m.parts,
        ...(m.metadata ? { metadata: m.metadata } : {}),
      }));
      setHistory((h) => {
        const held = new Set(h.map((m) => m.id));
        return [...page.filter((m) => !held.has(m.id)), ...h];
      });
      setOlder(detail.page?.older ?? null);
    } catch (error) {
      setLoadError(errorMessage(error));
    } finally {
      setLoadingOlder(false);
    }
  }, [sessionId, older, loadingOlder]);

  const setProfile = useCallback(
    async (next: string | null) => {
      setProfileState(await switchProfile(sessionId, next));
    },
    [sessionId],
  );

  const lastUser = [...history].reverse().find((m) => m.role === "user" && !isNotification(m.metadata));
  const lastUserText = lastUser
    ? lastUser.parts.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("")
    : null;

  return {
    loading,
    loadError,
    notFound,
    title,
    profile,
    usage,
    carried,
    history,
    hasOlder: older !== null,
    loadingOlder,
    loadOlder,
    live,
    sendError,
    lastUserText,
    send,
    stop,
    decide,
    setProfile,
  };
}
