/**
 * An edit form for a tool's input, generated from the tool's JSON schema (`z.toJSONSchema` of its
 * zod input): one field per top-level property (text, number, checkbox, select for enums), or a
 * JSON text box when the schema is not a flat object. The caller validates with the zod schema.
 */
import { useId } from "react";

/** A JSON-schema property as far as the form reads it. */
interface Prop {
  type?: string;
  enum?: unknown[];
  description?: string;
}

function props(schema: unknown): [string, Prop][] | null {
  if (typeof schema !== "object" || schema === null || !("properties" in schema)) return null;
  const p = schema.properties;
  if (typeof p !== "object" || p === null) return null;
  const entries = Object.entries(p).map(([k, v]): [string, Prop] => [
    k,
    typeof v === "object" && v !== null ? (v as Prop) : {},
  ]);
  const flat = entries.every(
    ([, v]) => v.enum !== undefined || ["string", "number", "integer", "boolean"].includes(v.type ?? ""),
  );
  return flat ? entries : null;
}

/** The draft value: a record for flat objects, else JSON text. */
export type Draft = { kind: "fields"; values: Record<string, unknown> } | { kind: "json"; text: string };

/** The initial draft for an input under a schema. */
export function initialDraft(schema: unknown, input: unknown): Draft {
  if (props(schema) && typeof input === "object" && input !== null)
    return { kind: "fields", values: { ...(input as Record<string, unknown>) } };
  return { kind: "json", text: JSON.stringify(input, null, 2) };
}

/** The value a draft stands for (JSON parse errors surface as a thrown SyntaxError). */
export function draftValue(draft: Draft): unknown {
  return draft.kind === "fields" ? draft.values : JSON.parse(draft.text);
}

/** The form. */
export function SchemaForm({
  schema,
  draft,
  onChange,
}: {
  schema: unknown;
  draft: Draft;
  onChange: (d: Draft) => void;
}) {
  const base = useId();
  const fields = props(schema);
  if (!fields || draft.kind === "json") {
    const text = draft.kind === "json" ? draft.text : JSON.stringify(draft.values, null, 2);
    return (
      <label className="field">
        <span>JSON</span>
        <textarea
          rows={6}
          value={text}
          onChange={(e) => onChange({ kind: "json", text: e.target.value })}
          spellCheck={false}
        />
      </label>
    );
  }
  const set = (k: string, v: unknown) => onChange({ kind: "fields", values: { ...draft.values, [k]: v } });
  return (
    <div className="schema-form">
      {fields.map(([name, p]) => {
        const id = `${base}-${name}`;
        const value = draft.values[name];
        return (
          <div className="field" key={name}>
            <label htmlFor={id}>
              <code>{name}</code>
              {p.description ? <span className="muted"> — {p.description}</span> : null}
            </label>
            {p.enum ? (
              <select id={id} value={String(value ?? "")} onChange={(e) => set(name, e.target.value)}>
                {p.enum.map((o) => (
                  <option key={String(o)} value={String(o)}>
                    {String(o)}
                  </option>
                ))}
              </select>
            ) : p.type === "boolean" ? (
              <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(name, e.target.checked)} />
            ) : p.type === "number" || p.type === "integer" ? (
              <input
                id={id}
                type="number"
                step={p.type === "integer" ? 1 : "any"}
                value={typeof value === "number" ? value : ""}
                onChange={(e) => set(name, e.target.value === "" ? undefined : Number(e.target.value))}
              />
            ) : (
              <input
                id={id}
                type="text"
                value={typeof value === "string" ? value : ""}
                onChange={(e) => set(name, e.target.value)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
