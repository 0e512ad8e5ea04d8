import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A modal `<dialog>`: focus moves into it, Escape or the close button ends it. */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    // Removing the element (when the parent drops it) takes it out of the top layer too.
    if (!dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} class="panel" aria-labelledby="dialog-title" onClose={onClose}>
      <h2 id="dialog-title">{title}</h2>
      {children}
    </dialog>
  );
}

/** The buttons at the foot of a dialog's form: the action (submits the form), and Cancel. */
export function DialogActions({
  action,
  disabled,
  onCancel,
}: {
  action: string;
  disabled: boolean;
  onCancel: () => void;
}) {
  return (
    <div class="actions">
      <button type="submit" disabled={disabled}>
        {action}
      </button>
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
