/** A modal yes/no question on the native <dialog> (focus trapping and Escape come with it). */
import { useEffect, useRef } from "react";

/** Asks to confirm a destructive action. */
export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="confirm-title" onCancel={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.body}</p>
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel} autoFocus>
          {props.cancelLabel}
        </button>
        <button type="button" className="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
