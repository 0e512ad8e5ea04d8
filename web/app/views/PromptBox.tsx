import { useEffect, useState } from 'preact/hooks';
import { ApiError, at, client, of, ok } from '../api';
import { modelWords, type NamedModel, namedModels } from '../models';
import type { AgentInfo, SessionInfo } from '../types';

/** The agents and models offered where the session works; `modelsLoaded` once the models have answered. */
function usePromptChoices(directory: string) {
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [models, setModels] = useState<NamedModel[]>([]);
  const [modelsLoaded, setModelsLoaded] = useState(false);
  useEffect(() => {
    void ok(client.GET('/api/agent', at(directory)))
      .then((r) => setAgents(r.data.filter((a) => a.mode !== 'subagent' && !a.hidden)))
      .catch(() => setAgents([]));
    void namedModels(directory)
      .then(setModels)
      .catch(() => setModels([]))
      .finally(() => setModelsLoaded(true));
  }, [directory]);
  return { agents, models, modelsLoaded };
}

function AgentSelect(props: { agent: string; agents: AgentInfo[]; onChoose: (agent: string) => void }) {
  const { agent, agents } = props;
  return (
    <label class="inline">
      <span>Agent</span>
      <select value={agent} onChange={(event) => props.onChoose(event.currentTarget.value)}>
        {agents.length === 0 && <option value={agent}>{agent || 'default'}</option>}
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name ?? a.id}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The session's model (`provider/model`, or none: the location's default) among those offered. */
function ModelSelect(props: {
  model: string;
  models: NamedModel[];
  onChoose: (providerID: string, id: string) => void;
}) {
  const { model, models } = props;
  return (
    <label class="inline">
      <span>Model</span>
      <select
        value={model}
        onChange={(event) => {
          const [providerID, ...rest] = event.currentTarget.value.split('/');
          props.onChoose(providerID, rest.join('/'));
        }}
      >
        {!model && <option value="">Location default</option>}
        {model && !models.some((m) => `${m.providerID}/${m.id}` === model) && (
          <option value={model}>{model}</option>
        )}
        {models.map((m) => (
          <option key={`${m.providerID}/${m.id}`} value={`${m.providerID}/${m.id}`}>
            {modelWords(models, m.providerID, m.id)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The prompt's text box: Enter sends, Shift+Enter (or an input method composing) is a new line. */
function PromptText(props: { text: string; onText: (text: string) => void; onSend: () => void }) {
  return (
    <>
      <label for="prompt" class="sr-only">
        Prompt
      </label>
      <textarea
        id="prompt"
        rows={3}
        placeholder="Ask or instruct… (Enter sends, Shift+Enter for a new line)"
        value={props.text}
        onInput={(event) => props.onText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            props.onSend();
          }
        }}
      />
    </>
  );
}

/** The prompt's text and what the box sends: the prompt, the agent or model chosen, a stop. */
function usePrompt(session: SessionInfo) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const send = async () => {
    const prompt = text.trim();
    if (!prompt || busy) return;
    setBusy(true);
    setError('');
    try {
      await ok(client.POST('/api/session/{sessionID}/prompt', { ...of(session.id), body: { text: prompt } }));
      setText('');
    } catch (failure) {
      setError((failure as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const act = async (work: () => Promise<unknown>) => {
    setError('');
    try {
      await work();
    } catch (failure) {
      setError((failure as ApiError).message);
    }
  };
  const chooseAgent = (agent: string) =>
    act(() => ok(client.POST('/api/session/{sessionID}/agent', { ...of(session.id), body: { agent } })));
  const chooseModel = (providerID: string, id: string) =>
    act(() =>
      ok(
        client.POST('/api/session/{sessionID}/model', {
          ...of(session.id),
          body: { model: { providerID, id } },
        }),
      ),
    );
  const interrupt = () => act(() => ok(client.POST('/api/session/{sessionID}/interrupt', of(session.id))));

  return { text, setText, busy, error, send, chooseAgent, chooseModel, interrupt };
}

/** The prompt box under a session: the text, the agent and model, Send and Stop. */
export function PromptBox({ session, running }: { session: SessionInfo; running: boolean }) {
  const { text, setText, busy, error, send, chooseAgent, chooseModel, interrupt } = usePrompt(session);
  const { agents, models, modelsLoaded } = usePromptChoices(session.location.directory);

  return (
    <form
      class="prompt-box panel"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <PromptText text={text} onText={setText} onSend={() => void send()} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {modelsLoaded && models.length === 0 && !session.model && (
        <p class="muted small" data-testid="no-model">
          No model here yet: <a href="#/models">add one on the Models page</a>, or sign in to a console there.
        </p>
      )}
      <div class="prompt-controls">
        <AgentSelect
          agent={session.agent ?? agents[0]?.id ?? ''}
          agents={agents}
          onChoose={(agent) => void chooseAgent(agent)}
        />
        <ModelSelect
          model={session.model ? `${session.model.providerID}/${session.model.id}` : ''}
          models={models}
          onChoose={(providerID, id) => void chooseModel(providerID, id)}
        />
        <span class="spacer" />
        {running && (
          <button type="button" class="danger" onClick={() => void interrupt()}>
            Stop
          </button>
        )}
        <button type="submit" disabled={busy || !text.trim()}>
          Send
        </button>
      </div>
    </form>
  );
}
