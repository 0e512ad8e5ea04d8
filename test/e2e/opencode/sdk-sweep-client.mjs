// Calls every operation of the released `@opencode-ai/sdk` v2 client (and the v1 client's, which share its paths)
// against a server: node sdk-sweep-client.mjs <baseUrl> <password> <directory> <ids as JSON>. Prints, per
// operation, `{ status, routeNotFound }`: whether the server answered at all for that route. Every path parameter
// is filled from the ids (a session, a message and its part the test made); operations that stream or upgrade are
// asked with a plain fetch that stops at the headers.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { createOpencodeClient as createV1Client } from '@opencode-ai/sdk/client';

const [baseUrl, password, directory, idsJson] = process.argv.slice(2);
const ids = JSON.parse(idsJson);
const headers = { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` };

/** The operations of a generated client: `a.b.c` names of its methods, with the object each is called on. */
function operations(client, prefix = '', out = []) {
  const proto = Object.getPrototypeOf(client);
  const names = [...Object.getOwnPropertyNames(proto), ...Object.keys(client)];
  for (const name of names) {
    if (name === 'constructor' || name.startsWith('_') || name === 'client') continue;
    const desc =
      Object.getOwnPropertyDescriptor(proto, name) ?? Object.getOwnPropertyDescriptor(client, name);
    const value = desc.get ? client[name] : desc.value;
    if (typeof value === 'function')
      out.push({ name: `${prefix}${name}`, call: (args) => value.call(client, args) });
    else if (value && typeof value === 'object') operations(value, `${prefix}${name}.`, out);
  }
  return out;
}

/** Streams and upgrades: asked by hand (the SDK's event streams retry forever, a WebSocket needs an upgrade). */
const RAW = {
  'global.event': '/global/event',
  'event.subscribe': '/event',
  'v2.event.subscribe': '/api/event',
  'v2.session.events': `/api/session/${ids.sessionID}/event`,
  'pty.connect': `/pty/${ids.ptyID}/connect`,
  'v2.pty.connect': `/api/pty/${ids.ptyID}/connect`,
  // Waits for the next request an editor queued for the TUI: the test queues one first.
  'tui.control.next': '/tui/control/next',
};

async function raw(path) {
  const controller = new AbortController();
  const url = `${baseUrl}${path}${path.includes('?') ? '&' : '?'}directory=${encodeURIComponent(directory)}`;
  const res = await fetch(url, { headers, signal: controller.signal });
  const body = res.headers.get('content-type')?.includes('event-stream') ? '' : await res.text();
  controller.abort();
  return { status: res.status, body };
}

/** Every parameter a path or query may name, from the ids the test made. */
const params = {
  directory,
  sessionID: ids.sessionID,
  messageID: ids.messageID,
  partID: ids.partID,
  providerID: 'scripted',
  requestID: 'per_sweep',
  permissionID: 'per_sweep',
  ptyID: ids.ptyID,
  projectID: ids.projectID,
  name: 'sweep',
  id: ids.sessionID,
  credentialID: 'cred_sweep',
  integrationID: 'scripted',
  attemptID: 'att_sweep',
  path: 'README.md',
  pattern: 'demo',
  query: 'demo',
  mode: 'git',
};
const v1Args = {
  path: { id: ids.sessionID, messageID: ids.messageID, name: 'sweep', permissionID: 'per_sweep' },
  query: { directory, path: 'README.md', pattern: 'demo', query: 'demo' },
  body: {},
};

const results = {};
const v2 = createOpencodeClient({ baseUrl, directory, headers });
const v1 = createV1Client({ baseUrl, headers });
const calls = [
  ...operations(v2).map((op) => ({ ...op, args: params })),
  ...operations(v1, 'v1:').map((op) => ({ ...op, args: v1Args })),
];
for (const op of calls) {
  const bare = op.name.replace(/^v1:/, '');
  let outcome;
  try {
    if (RAW[bare] !== undefined) outcome = await raw(RAW[bare]);
    else {
      const { response, error } = await op.call(op.args);
      outcome = { status: response.status, body: JSON.stringify(error ?? '') };
    }
  } catch (error) {
    outcome = { status: 0, body: String(error) };
  }
  results[op.name] = {
    status: outcome.status,
    routeNotFound: outcome.status === 404 && /Route not found/.test(outcome.body),
  };
}
process.stdout.write(JSON.stringify(results));
