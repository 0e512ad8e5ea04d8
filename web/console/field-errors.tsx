import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describedBy, FieldError, LabelledInput } from '../shared/field';
import { fieldWords, formWords, splitFieldMessage } from '../shared/field-words';
import { ApiError, wordsOf } from './api';

export { describedBy, FieldError };

export interface FormError {
  message: string;
  /** The path the server named (`providers.team.settings.baseURL`), or none. */
  field?: string;
}

/**
 * An action whose refusal goes next to the field it is about: `at(path)` gives the message for the input at that
 * path (and the ids that tie it to the input), `rest` the message no input shows.
 */
export function useFormAction(paths: string[]) {
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const owner = (field?: string) =>
    field === undefined
      ? undefined
      : // The deepest path the form shows that the field is, or is inside.
        [...paths]
          .sort((a, b) => b.length - a.length)
          .find((path) => field === path || field.startsWith(`${path}.`));
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      const message = wordsOf(failure);
      setError({
        message,
        field: (failure instanceof ApiError ? failure.field : undefined) ?? splitFieldMessage(message).field,
      });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const shownAt = owner(error?.field);
  return {
    busy,
    run,
    /** Client-side refusal of one field, in the same place the server's would go. */
    refuse: (field: string, message: string) => setError({ field, message }),
    error,
    /** What to do, in words, under the field the refusal is about. */
    at: (path: string) => (error && shownAt === path ? fieldWords(error.message) : undefined),
    /** A refusal no field of the form shows, naming its field so the person can find it. */
    rest: error && shownAt === undefined ? formWords(error.message, error.field) : undefined,
  };
}

/** A text input with its label, and the message about it under it. */
export function TextField(props: Parameters<typeof LabelledInput>[0]) {
  return (
    <div>
      <LabelledInput {...props} />
    </div>
  );
}

/** A select with its label, and the message about it under it; `options` as `[value, words]`. */
export function SelectField<V extends string>(props: {
  id: string;
  label: string;
  value: V;
  options: ReadonlyArray<readonly [V, string]>;
  onValue: (value: V) => void;
  message?: string;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value as V)}>
        {props.options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
      <FieldError id={props.id} message={props.message} />
    </div>
  );
}

/** The end of a form: the refusal no input shows, then its buttons: submit, any others given, and Cancel. */
export function FormEnd(props: {
  form: { rest?: string; busy: boolean };
  submit: string;
  onCancel: () => void;
  children?: ComponentChildren;
}) {
  return (
    <>
      {props.form.rest ? (
        <p class="error" role="alert">
          {props.form.rest}
        </p>
      ) : null}
      <div class="row">
        <button type="submit" disabled={props.form.busy}>
          {props.submit}
        </button>
        {props.children}
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
