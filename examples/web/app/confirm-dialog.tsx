import { useEffect, useRef } from "react";

/** A modal question with a confirm and a cancel button; Esc or a click outside cancels. */
export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      data-testid="confirm"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) props.onCancel();
      }}
    >
      <h2>{props.title}</h2>
      <p>{props.body}</p>
      <div className="confirm-actions">
        <button type="button" className="secondary" data-testid="confirm-cancel" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" data-testid="confirm-ok" autoFocus onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}
