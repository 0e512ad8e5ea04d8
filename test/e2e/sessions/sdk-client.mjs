// Drives Outpost with the opencode v2 client of `@opencode-ai/sdk` (an ES module, so it runs in its own
// process): node sdk-client.mjs <baseUrl> <password> <directory>. Prints what each call returned as JSON.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';

const [baseUrl, password, directory] = process.argv.slice(2);
const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`;
const client = createOpencodeClient({ baseUrl, directory, headers: { authorization } });
const sessions = client.v2.session;

const result = async (call) => {
  const { data, error, response } = await call;
  return { status: response.status, data, error };
};

const out = {};
out.create = await result(sessions.create({ agent: 'plan', location: { directory } }));
const id = out.create.data?.data?.id;
out.createWithId = await result(sessions.create({ id: 'ses_7ffffffffffffffeSdKcLiEnTaBc' }));
out.get = await result(sessions.get({ sessionID: id }));
out.switchAgent = await result(sessions.switchAgent({ sessionID: id, agent: 'build' }));
out.switchModel = await result(
  sessions.switchModel({ sessionID: id, model: { id: 'gpt-5', providerID: 'openai' } }),
);
out.afterSwitch = await result(sessions.get({ sessionID: id }));
out.list = await result(sessions.list({ limit: '1' }));
out.next = await result(sessions.list({ limit: '1', cursor: out.list.data?.cursor?.next }));
out.active = await result(sessions.active());
out.missing = await result(sessions.get({ sessionID: 'ses_7ffffffffffffffdSdKcLiEnTaBc' }));
// Built with `directory`, the client adds ?directory= (and location[directory]) to these GETs.
out.location = await result(client.v2.location.get({ location: { directory } }));
out.agents = await result(client.v2.agent.list({ location: { directory } }));
out.messages = await result(
  sessions.messages?.({ sessionID: id }) ?? Promise.resolve({ response: { status: 0 } }),
);
// The event stream: the first event must arrive (the SDK retries silently on errors, so a time-out means none).
const abort = new AbortController();
const timer = setTimeout(() => abort.abort(), 5000);
try {
  const events = await client.v2.event.subscribe({ signal: abort.signal, sseMaxRetryAttempts: 1 });
  for await (const event of events.stream) {
    out.firstEvent = event;
    break;
  }
} catch (error) {
  out.firstEvent = { error: String(error) };
} finally {
  clearTimeout(timer);
  abort.abort();
}
process.stdout.write(JSON.stringify(out));
