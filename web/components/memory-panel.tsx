/**
 * The memory panel (issue 8): what the agent remembers about you across sessions — filter by type,
 * search, correct or delete a memory, and open the messages it was taken from.
 */
import { useEffect, useState } from "react";
import { MEMORY_TYPES, type Memory, type MemoryTrace, type MemoryType } from "@contracts/memory";
import { errorMessage, memoryApi } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import { chatPath, navigate } from "../lib/router";

const TEXT = {
  zh: {
    title: "长期记忆",
    intro: "智能体跨会话记住的稳定偏好与决策逻辑（不含当日行情与具体买卖）。",
    all: "全部类型",
    search: "搜索记忆",
    empty: "还没有记忆。",
    edit: "编辑",
    save: "保存",
    cancel: "取消",
    remove: "删除",
    confirmRemove: "删除这条记忆？",
    source: "来源",
    hide: "收起",
    openSession: "打开会话",
    gone: "来源会话已删除。",
    lastHit: "最近命中",
    never: "从未",
  },
  en: {
    title: "Long-term memory",
    intro:
      "Stable preferences and decision logic the agent remembers across sessions (never the day's market or specific trades).",
    all: "All types",
    search: "Search memories",
    empty: "No memories yet.",
    edit: "Edit",
    save: "Save",
    cancel: "Cancel",
    remove: "Delete",
    confirmRemove: "Delete this memory?",
    source: "Source",
    hide: "Hide",
    openSession: "Open session",
    gone: "The source session was deleted.",
    lastHit: "last recalled",
    never: "never",
  },
} as const;

function partText(parts: readonly Record<string, unknown>[]): string {
  return parts.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("\n");
}

function MemoryItem({ memory, onChanged }: { memory: Memory; onChanged: () => void }) {
  const { lang } = useT();
  const s = TEXT[lang];
  const [editing, setEditing] = useState<string | null>(null);
  const [trace, setTrace] = useState<MemoryTrace | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = (work: Promise<unknown>, after: () => void): void => {
    void work.then(after).catch((e: unknown) => setError(errorMessage(e)));
  };
  return (
    <li className="memory-item" data-testid="memory-item">
      <div className="memory-meta muted small">
        <span className="memory-type">{memory.type}</span> · {memory.updatedAt.slice(0, 10)} · {s.lastHit}{" "}
        {memory.lastHitAt ? memory.lastHitAt.slice(0, 10) : s.never}
      </div>
      {editing === null ? (
        <p className="memory-content">{memory.content}</p>
      ) : (
        <textarea
          className="memory-edit"
          value={editing}
          maxLength={600}
          aria-label={s.edit}
          onChange={(e) => setEditing(e.target.value)}
        />
      )}
      <div className="memory-actions">
        {editing === null ? (
          <button type="button" className="link-button small" onClick={() => setEditing(memory.content)}>
            {s.edit}
          </button>
        ) : (
          <>
            <button
              type="button"
              className="link-button small"
              onClick={() =>
                act(memoryApi.update(memory.id, { content: editing }), () => (setEditing(null), onChanged()))
              }
            >
              {s.save}
            </button>
            <button type="button" className="link-button small" onClick={() => setEditing(null)}>
              {s.cancel}
            </button>
          </>
        )}
        <button
          type="button"
          className="link-button small"
          onClick={() => {
            if (trace) setTrace(null);
            else void memoryApi.trace(memory.id).then(setTrace, (e: unknown) => setError(errorMessage(e)));
          }}
        >
          {trace ? s.hide : s.source}
        </button>
        <button
          type="button"
          className="link-button small danger"
          onClick={() => {
            if (window.confirm(s.confirmRemove)) act(memoryApi.remove(memory.id), onChanged);
          }}
        >
          {s.remove}
        </button>
      </div>
      {error && <p className="inline-error small">{error}</p>}
      {trace && (
        <div className="memory-trace">
          {trace.session ? (
            <a
              href={chatPath(trace.session.id)}
              onClick={(e) => {
                e.preventDefault();
                if (trace.session) navigate(chatPath(trace.session.id));
              }}
            >
              {s.openSession}: {trace.session.title}
            </a>
          ) : (
            <p className="muted small">{s.gone}</p>
          )}
          {trace.messages.map((m) => (
            <blockquote key={m.id} className="small">
              <strong>{m.role}</strong>: {partText(m.parts).slice(0, 600)}
            </blockquote>
          ))}
        </div>
      )}
    </li>
  );
}

/** The panel (the `/memory` page). */
export function MemoryPanel() {
  const { lang } = useT();
  const s = TEXT[lang];
  const [type, setType] = useState<MemoryType | "">("");
  const [q, setQ] = useState("");
  const [memories, setMemories] = useState<Memory[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      memoryApi
        .list({ ...(type ? { type } : {}), ...(q.trim() ? { q: q.trim() } : {}) }, controller.signal)
        .then((list) => (setMemories(list.memories), setError(null)))
        .catch((e: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(e));
        });
    }, 200);
    return () => (clearTimeout(timer), controller.abort());
  }, [type, q, version]);
  return (
    <section className="memory-panel" aria-labelledby="memory-title" data-testid="memory-panel">
      <h1 id="memory-title">{s.title}</h1>
      <p className="muted">{s.intro}</p>
      <div className="memory-filters">
        <select value={type} aria-label={s.all} onChange={(e) => setType(e.target.value as MemoryType | "")}>
          <option value="">{s.all}</option>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <input
          type="search"
          value={q}
          placeholder={s.search}
          aria-label={s.search}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      {error && <p className="inline-error">{error}</p>}
      {memories?.length === 0 && <p className="muted">{s.empty}</p>}
      <ul className="memory-list">
        {memories?.map((m) => (
          <MemoryItem key={m.id} memory={m} onChanged={() => setVersion((v) => v + 1)} />
        ))}
      </ul>
    </section>
  );
}
