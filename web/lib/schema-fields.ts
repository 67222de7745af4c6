/**
 * The fields of a tool's approval form, read from the JSON schema of its input (`z.toJSONSchema`):
 * one field per top-level property — text (a text area for long text), number, checkbox, a select for
 * enums, a comma-separated list for arrays of strings; a nullable property is its non-null type. A
 * schema that is not a flat object of these becomes one JSON text box. Pure: the form draws it.
 */

/** How one property is edited. */
export type FieldKind = "text" | "longtext" | "number" | "integer" | "boolean" | "enum" | "list";

/** One form field. */
export interface Field {
  name: string;
  kind: FieldKind;
  description?: string;
  options?: string[];
}

/** Longest string still edited on one line (characters of its `maxLength`). */
export const ONE_LINE_CHARS = 256;

interface Prop {
  type?: string;
  enum?: unknown[];
  description?: string;
  maxLength?: number;
  items?: Prop;
  anyOf?: Prop[];
}

function asProp(v: unknown): Prop {
  return typeof v === "object" && v !== null ? (v as Prop) : {};
}

/** The property without its `null` alternative (`anyOf: [X, {type: "null"}]` → X, description kept). */
function nonNull(p: Prop): Prop {
  if (!p.anyOf) return p;
  const rest = p.anyOf.filter((a) => a.type !== "null");
  const [only] = rest;
  return rest.length === 1 && only ? { ...only, description: p.description ?? only.description } : p;
}

function kindOf(p: Prop): Pick<Field, "kind" | "options"> | null {
  if (p.enum) return { kind: "enum", options: p.enum.map(String) };
  switch (p.type) {
    case "string":
      return { kind: p.maxLength === undefined || p.maxLength > ONE_LINE_CHARS ? "longtext" : "text" };
    case "number":
      return { kind: "number" };
    case "integer":
      return { kind: "integer" };
    case "boolean":
      return { kind: "boolean" };
    case "array": {
      const item = nonNull(p.items ?? {});
      return item.type === "string" || item.enum ? { kind: "list" } : null;
    }
    default:
      return null;
  }
}

/** The form's fields, or null when the schema is not a flat object of editable properties. */
export function formFields(schema: unknown): Field[] | null {
  const properties = asProp(schema) as { properties?: unknown };
  if (typeof properties.properties !== "object" || properties.properties === null) return null;
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(properties.properties)) {
    const p = nonNull(asProp(raw));
    const kind = kindOf(p);
    if (!kind) return null;
    fields.push({ name, ...kind, ...(p.description ? { description: p.description } : {}) });
  }
  return fields;
}

/** A list field's text (`a, b`) from its value. */
function listText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : "";
}

/** A list field's value from its text: the comma-separated entries, none → undefined. */
function listValue(text: string): string[] | undefined {
  const items = text
    .split(/[,，\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return items.length > 0 ? items : undefined;
}

/** The draft being edited: field values (list fields as their text) for flat objects, else JSON text. */
export type Draft =
  | { kind: "fields"; values: Record<string, unknown>; lists: string[] }
  | { kind: "json"; text: string };

/** The initial draft for an input under a schema. */
export function initialDraft(schema: unknown, input: unknown): Draft {
  const fields = formFields(schema);
  if (fields && typeof input === "object" && input !== null) {
    const lists = fields.filter((f) => f.kind === "list").map((f) => f.name);
    const values: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const name of lists) values[name] = listText(values[name]);
    return { kind: "fields", values, lists };
  }
  return { kind: "json", text: JSON.stringify(input, null, 2) };
}

/** The value a draft stands for (JSON parse errors surface as a thrown SyntaxError). */
export function draftValue(draft: Draft): unknown {
  if (draft.kind === "json") return JSON.parse(draft.text);
  const value: Record<string, unknown> = { ...draft.values };
  for (const name of draft.lists) {
    const list = listValue(typeof value[name] === "string" ? value[name] : "");
    if (list) value[name] = list;
    else delete value[name];
  }
  return value;
}
