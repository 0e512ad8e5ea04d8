import type { ComponentChildren, JSX } from 'preact';
import { describedBy, FieldError } from '../../field-errors';

type StringKeys<R> = { [K in keyof R]: R[K] extends string ? K : never }[keyof R] & string;

/** What the fields of one model row are made with. */
export interface ModelRowParts<R> {
  /** A text input of the row for the model's `name`; `decimal` for numbers (a phone's decimal keyboard). */
  field: (name: StringKeys<R>, label: string, size: number, decimal?: boolean) => JSX.Element;
  rowId: string;
  change: (change: Partial<R>) => void;
}

/**
 * The models of a provider's form: a group for each (its fields, Remove, and the message about it), the message
 * about the list, and "Add a model".
 */
export function ModelRows<R extends { id: string }>(props: {
  models: R[];
  onChange: (models: R[]) => void;
  empty: () => R;
  /** `conn-model`: the rows are `conn-model-0`, … and the list's message `conn-models-error`. */
  idPrefix: string;
  /** `Connection model`: the groups are "Connection model 1", …. */
  label: string;
  messageOf: (model: R) => string | undefined;
  listMessage?: string;
  /** The inputs of a row, before its Remove button. */
  fields: (model: R, parts: ModelRowParts<R>) => ComponentChildren;
}) {
  const { models, onChange } = props;
  return (
    <fieldset>
      <legend>Models (prices in dollars per million tokens)</legend>
      {models.map((model, index) => {
        const rowId = `${props.idPrefix}-${index}`;
        const message = model.id.trim() ? props.messageOf(model) : undefined;
        const change = (part: Partial<R>) =>
          onChange(models.map((m, i) => (i === index ? { ...m, ...part } : m)));
        const field = (name: StringKeys<R>, label: string, size: number, decimal?: boolean) => (
          <div>
            <label for={`${rowId}-${name}`}>{label}</label>
            <input
              id={`${rowId}-${name}`}
              type="text"
              inputMode={decimal ? 'decimal' : undefined}
              size={size}
              value={model[name] as string}
              onInput={(e) => change({ [name]: e.currentTarget.value } as Partial<R>)}
              {...describedBy(rowId, message)}
            />
          </div>
        );
        return (
          <div key={index} class="model-row" role="group" aria-label={`${props.label} ${index + 1}`}>
            <div class="row">
              {props.fields(model, { field, rowId, change })}
              <button
                type="button"
                class="secondary"
                aria-label={`Remove ${props.label.toLowerCase()} ${index + 1}`}
                onClick={() => onChange(models.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </div>
            <FieldError id={rowId} message={message} />
          </div>
        );
      })}
      <FieldError id={`${props.idPrefix}s`} message={props.listMessage} />
      <button type="button" class="secondary" onClick={() => onChange([...models, props.empty()])}>
        Add a model
      </button>
    </fieldset>
  );
}
