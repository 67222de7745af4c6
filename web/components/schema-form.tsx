/**
 * An edit form for a tool's input, generated from the tool's JSON schema (`z.toJSONSchema` of its
 * zod input) by `formFields` (lib/schema-fields.ts), or a JSON text box when the schema is not a flat
 * object. The caller validates with the zod schema.
 */
import { useId } from "react";
import { formFields, type Draft } from "../lib/schema-fields";

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
  const fields = formFields(schema);
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
  const set = (k: string, v: unknown) => onChange({ ...draft, values: { ...draft.values, [k]: v } });
  return (
    <div className="schema-form">
      {fields.map((f) => {
        const id = `${base}-${f.name}`;
        const value = draft.values[f.name];
        return (
          <div className="field" key={f.name}>
            <label htmlFor={id}>
              <code>{f.name}</code>
              {f.description ? <span className="muted"> — {f.description}</span> : null}
            </label>
            {f.kind === "enum" ? (
              <select id={id} value={String(value ?? "")} onChange={(e) => set(f.name, e.target.value)}>
                {(f.options ?? []).map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : f.kind === "boolean" ? (
              <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(f.name, e.target.checked)} />
            ) : f.kind === "number" || f.kind === "integer" ? (
              <input
                id={id}
                type="number"
                step={f.kind === "integer" ? 1 : "any"}
                value={typeof value === "number" ? value : ""}
                onChange={(e) => set(f.name, e.target.value === "" ? undefined : Number(e.target.value))}
              />
            ) : f.kind === "list" ? (
              <input
                id={id}
                type="text"
                value={typeof value === "string" ? value : ""}
                onChange={(e) => set(f.name, e.target.value)}
              />
            ) : f.kind === "longtext" ? (
              <textarea
                id={id}
                rows={8}
                value={typeof value === "string" ? value : ""}
                onChange={(e) => set(f.name, e.target.value)}
                spellCheck={false}
              />
            ) : (
              <input
                id={id}
                type="text"
                value={typeof value === "string" ? value : ""}
                onChange={(e) => set(f.name, e.target.value)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
