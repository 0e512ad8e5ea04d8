import { useState } from 'preact/hooks';
import { ErrorText, Notice, useAction } from '../../ui';

/**
 * One member of the config as JSON, folded under "Advanced": for what the form does not show. The API's
 * validation message is shown as it comes. `title` names it ("Web search": "Save web search as JSON").
 */
export function AdvancedJson(props: {
  id: string;
  title: string;
  help: string;
  value: unknown;
  editable: boolean;
  onSave: (value: unknown) => Promise<unknown>;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.value ?? null, null, 2));
  const [invalid, setInvalid] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const action = useAction();
  const what = props.title.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
  return (
    <details class="advanced">
      <summary>Advanced: {what} as JSON</summary>
      <p class="muted small">{props.help}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setSaved(undefined);
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (error) {
            return setInvalid(`This is not valid JSON: ${(error as Error).message}`);
          }
          setInvalid(undefined);
          if (await action.run(() => props.onSave(value))) setSaved('Saved.');
        }}
      >
        <label for={`${props.id}-json`}>{props.title} (JSON)</label>
        <textarea
          id={`${props.id}-json`}
          rows={8}
          readOnly={!props.editable}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {props.editable ? (
          <button type="submit" disabled={action.busy}>
            {`Save ${what} as JSON`}
          </button>
        ) : null}
      </form>
      <ErrorText message={invalid ?? action.error} />
      <Notice message={saved} />
    </details>
  );
}
