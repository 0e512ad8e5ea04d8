import { useState } from 'preact/hooks';
import { api, call, day, type Schemas } from '../../api';
import { ConfirmButton, ErrorText, Loading, useAction, useLoad } from '../../ui';

export function Connections({ org }: { org: string }) {
  const list = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })),
    [org],
  );
  const [form, setForm] = useState({
    name: '',
    base_url: '',
    schema: 'openai-chat',
    credential: '',
    models: '',
  });
  const action = useAction();
  const field = (name: keyof typeof form) => ({
    id: `conn-${name}`,
    value: form[name],
    onInput: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  return (
    <section class="panel" aria-labelledby="connections">
      <h2 id="connections">Bring-your-own-key connections</h2>
      <p class="muted small">
        A provider account of the workspace. Its credential is write-only: only its last four characters are
        ever shown.
      </p>
      <Loading state={list}>
        {(connections) =>
          connections.length === 0 ? (
            <p class="muted">No connection yet.</p>
          ) : (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">API</th>
                    <th scope="col">Models</th>
                    <th scope="col">Credential</th>
                    <th scope="col">Added</th>
                    <th scope="col">
                      <span class="sr">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {connections.map((connection) => (
                    <tr key={connection.id}>
                      <td data-label="Name">
                        {connection.name}
                        <div class="muted small">{connection.inference_url}</div>
                      </td>
                      <td data-label="API">
                        {connection.schema} <div class="muted small">{connection.base_url}</div>
                      </td>
                      <td data-label="Models">{Object.keys(connection.models).join(', ')}</td>
                      <td data-label="Credential">
                        {connection.auth.credential_last4 ? `…${connection.auth.credential_last4}` : 'hidden'}
                      </td>
                      <td data-label="Added">{day(connection.created_at)}</td>
                      <td>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete connection ${connection.name}`}
                          question={`Delete ${connection.name} and its credential?`}
                          confirm="Yes, delete"
                          onConfirm={() =>
                            action.run(async () => {
                              await call(
                                api.DELETE('/console/api/orgs/{org}/connections/{id}', {
                                  params: { path: { org, id: connection.id } },
                                }),
                              );
                              list.reload();
                            })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loading>
      <h3>Add a connection</h3>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const models = Object.fromEntries(
            form.models
              .split(',')
              .map((model) => model.trim())
              .filter(Boolean)
              .map((model) => [model, { name: model }]),
          );
          const ok = await action.run(() =>
            call(
              api.POST('/console/api/orgs/{org}/connections', {
                params: { path: { org } },
                body: {
                  name: form.name.trim(),
                  base_url: form.base_url.trim(),
                  schema: form.schema as Schemas['CreateConnectionDto']['schema'],
                  auth: { mode: 'bearer', credential: form.credential },
                  models,
                },
              }),
            ),
          );
          if (ok) {
            setForm({ name: '', base_url: '', schema: 'openai-chat', credential: '', models: '' });
            list.reload();
          }
        }}
      >
        <div class="row">
          <div>
            <label for="conn-name">Name</label>
            <input type="text" required {...field('name')} />
          </div>
          <div>
            <label for="conn-base_url">Base URL</label>
            <input type="url" required placeholder="https://api.openai.com/v1" {...field('base_url')} />
          </div>
          <div>
            <label for="conn-schema">API</label>
            <select
              {...field('schema')}
              onChange={(e) => setForm({ ...form, schema: e.currentTarget.value })}
            >
              <option value="openai-chat">OpenAI chat completions</option>
              <option value="openai-responses">OpenAI Responses</option>
              <option value="anthropic">Anthropic messages</option>
            </select>
          </div>
          <div>
            <label for="conn-credential">API key (write-only)</label>
            <input type="password" required autoComplete="off" {...field('credential')} />
          </div>
          <div>
            <label for="conn-models">Models (comma-separated)</label>
            <input type="text" required {...field('models')} />
          </div>
          <button type="submit" disabled={action.busy}>
            Add connection
          </button>
        </div>
      </form>
      <ErrorText message={action.error} />
    </section>
  );
}
