import type { JSX } from 'preact';

/** The message under an input, tied to it by `aria-describedby` (see `describedBy`). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p class="error" role="alert" id={`${id}-error`}>
      {message}
    </p>
  ) : null;
}

export const describedBy = (id: string, message?: string) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

/** A text input after its label, and the message about it (`message`) under it. */
export function LabelledInput(props: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  message?: string;
  /** The input's other attributes (type, placeholder, …). */
  input?: JSX.IntrinsicElements['input'];
}) {
  const { id, message } = props;
  return (
    <>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        {...props.input}
        value={props.value}
        onInput={(e) => props.onValue(e.currentTarget.value)}
        {...describedBy(id, message)}
      />
      <FieldError id={id} message={message} />
    </>
  );
}
