/** A small, calm activity indicator (CSS animation; hidden from assistive tech). */

/** An inline spinner. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
