/** JSON, collapsed behind a summary line (long tool outputs stay out of the way until asked for). */

/** A collapsible pretty-printed JSON value. */
export function JsonView({ label, value, open = false }: { label: string; value: unknown; open?: boolean }) {
  const text = JSON.stringify(value, null, 2) ?? "undefined";
  return (
    <details className="json-view" open={open}>
      <summary>
        {label} <span className="muted">({text.length.toLocaleString()} B)</span>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
