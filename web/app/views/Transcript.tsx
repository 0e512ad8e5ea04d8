import { Diff } from '../components/Diff';
import { Markdown } from '../components/Markdown';
import { formatCost, formatCount, totalTokens } from '../format';
import { useModelWords } from '../models';
import type { AssistantContent, AssistantMessage, Json, SessionMessageInfo, ToolState } from '../types';

type ToolPart = Extract<AssistantContent, { type: 'tool' }>;

/** The session's messages: prompts, the assistant's text, folded reasoning, tool calls with input and output. */
export function Transcript({
  messages,
  onFork,
}: {
  messages: SessionMessageInfo[];
  onFork: (messageID: string) => void;
}) {
  return (
    <ol class="transcript" aria-label="Transcript">
      {messages.map((message) => (
        <li key={message.id} class={`message message-${message.type}`} data-message-id={message.id}>
          <Message message={message} onFork={onFork} />
        </li>
      ))}
    </ol>
  );
}

function Message({ message, onFork }: { message: SessionMessageInfo; onFork: (messageID: string) => void }) {
  switch (message.type) {
    case 'user':
      return (
        <div class="bubble">
          <p class="text">{message.text}</p>
          {(message.files?.length ?? 0) > 0 && (
            <p class="muted small">Attached: {message.files!.map((f) => f.name ?? f.mime).join(', ')}</p>
          )}
          <button
            type="button"
            class="link small"
            onClick={() => onFork(message.id)}
            aria-label="Fork from here, before this message"
          >
            Fork from here
          </button>
        </div>
      );
    case 'assistant':
      return <Assistant message={message} />;
    case 'agent-switched':
      return <p class="note">Agent switched to {message.agent}</p>;
    case 'model-switched':
      return (
        <p class="note">
          Model switched to <ModelName model={message.model} />
        </p>
      );
    case 'location-switched':
      return <p class="note">Moved to {message.location.directory}</p>;
    case 'compaction':
      return (
        <details class="note">
          <summary>Conversation compacted ({message.status})</summary>
          {message.summary && <pre>{message.summary}</pre>}
          {message.error && <p class="error">{message.error}</p>}
        </details>
      );
    case 'shell':
      return (
        <div class="tool">
          <div class="tool-head">
            <span class="tool-name">shell</span> <code>{message.command}</code>{' '}
            <span class={`badge badge-${message.status}`}>{message.status}</span>
          </div>
          {message.output && (
            <pre class="tool-output" tabIndex={0}>
              {message.output.output}
            </pre>
          )}
        </div>
      );
    default:
      return (
        <details class="note">
          <summary>{message.type}</summary>
          <pre>{message.text}</pre>
        </details>
      );
  }
}

/** A message's model by name (`Llama 3.3 70B (Together)`), its ids when the location does not list it. */
function ModelName({ model }: { model: { providerID: string; id: string } }) {
  return <>{useModelWords(model)}</>;
}

function Assistant({ message }: { message: AssistantMessage }) {
  const done = message.time.completed !== undefined;
  return (
    <div class="assistant">
      {message.content.map((part, i) => (
        <Part key={i} part={part} />
      ))}
      {!done && message.content.length === 0 && (
        <p class="muted thinking" aria-live="polite">
          Thinking…
        </p>
      )}
      {message.retry && !done && (
        <p class="muted small">
          Retrying (attempt {message.retry.attempt}): {message.retry.error}
        </p>
      )}
      {message.error && (
        <p class="error" role="alert">
          {message.error.type}: {message.error.message}
        </p>
      )}
      {done && (
        <p class="muted small message-foot">
          {message.agent} · <ModelName model={message.model} />
          {message.tokens && ` · ${formatCount(totalTokens(message.tokens))} tokens`}
          {message.cost !== undefined && ` · ${formatCost(message.cost)}`}
          {message.finish &&
            message.finish !== 'stop' &&
            message.finish !== 'tool-calls' &&
            ` · ${message.finish}`}
        </p>
      )}
    </div>
  );
}

function Part({ part }: { part: AssistantContent }) {
  if (part.type === 'text') return <Markdown text={part.text} />;
  if (part.type === 'reasoning') {
    return (
      <details class="reasoning">
        <summary>Reasoning</summary>
        <Markdown text={part.text} />
      </details>
    );
  }
  return <Tool part={part} />;
}

const STATUS_WORDS: Record<ToolState['status'], string> = {
  streaming: 'preparing',
  running: 'running',
  completed: 'done',
  error: 'failed',
};

function Tool({ part }: { part: ToolPart }) {
  const { state } = part;
  const input = state.status === 'streaming' ? undefined : state.input;
  const output =
    state.status === 'completed' || state.status === 'error'
      ? (state.content ?? [])
          .map((c) => (c.type === 'text' ? c.text : `[file ${c.name ?? c.uri}]`))
          .join('\n')
      : '';
  return (
    <div class={`tool tool-${state.status}`}>
      <div class="tool-head">
        <span class="tool-name">{part.name}</span>{' '}
        <code class="tool-target">{input ? target(input) : ''}</code>{' '}
        <span class={`badge badge-${state.status}`}>{STATUS_WORDS[state.status]}</span>
      </div>
      {state.status === 'streaming' && state.input && <pre class="tool-input">{state.input}</pre>}
      {input && <ToolInput name={part.name} input={input} />}
      {state.status === 'error' && (
        <p class="error" role="alert">
          {state.error.message}
        </p>
      )}
      {output && (
        <details class="tool-output" open={part.name === 'bash'}>
          <summary>Output</summary>
          {/* It scrolls (20 rem at most): focusable, so a keyboard can scroll it too. */}
          <pre tabIndex={0}>{output}</pre>
        </details>
      )}
    </div>
  );
}

/** What the call is about, in a few characters: the file, the command, the pattern. */
export function target(input: Record<string, Json>): string {
  for (const key of ['filePath', 'path', 'command', 'pattern', 'url', 'description']) {
    const value = input[key];
    if (typeof value === 'string') return value.length > 120 ? `${value.slice(0, 117)}…` : value;
  }
  return '';
}

/** A call's input: an edit as a diff, a write as its content, a command as itself, anything else as JSON. */
export function ToolInput({ name, input }: { name: string; input: Record<string, Json> }) {
  const file = typeof input.filePath === 'string' ? input.filePath : undefined;
  if (typeof input.oldString === 'string' && typeof input.newString === 'string') {
    return <Diff before={input.oldString} after={input.newString} file={file} />;
  }
  if (name === 'write' && typeof input.content === 'string') {
    return <Diff before="" after={input.content} file={file} />;
  }
  if (name === 'bash' && typeof input.command === 'string')
    return <pre class="command">$ {input.command}</pre>;
  return (
    <details class="tool-args">
      <summary>Input</summary>
      <pre>{JSON.stringify(input, null, 2)}</pre>
    </details>
  );
}
