// Drives Outpost with the v2 client of the released `@opencode-ai/sdk`, built with `directory` as opencode's
// TUI and apps build it: node sdk-v2-client.mjs <baseUrl> <password> <directory>. Runs a turn while subscribed
// to the event stream, then calls each v2 operation; prints what each returned as JSON.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { result } from '../../helpers/sdk-result.mjs';

const [baseUrl, password, directory] = process.argv.slice(2);
const authorization = `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`;
const client = createOpencodeClient({ baseUrl, directory, headers: { authorization } });
const v2 = client.v2;

/** The first events of an SSE subscription until `stop` says so (or 20 s pass). */
async function collect(subscribe, stop) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 20_000);
  const events = [];
  try {
    const { stream } = await subscribe(abort.signal);
    for await (const event of stream) {
      events.push(event);
      if (stop(event, events)) break;
    }
  } catch (error) {
    events.push({ error: String(error) });
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

const out = {};
out.create = await result(
  v2.session.create({ location: { directory }, model: { providerID: 'scripted', id: 'small' } }),
);
const sessionID = out.create.data?.data?.id;

// The event stream: server.connected first, then the turn's events up to the session's idle.
let prompted;
out.events = await collect(
  (signal) => v2.event.subscribe({ signal, sseMaxRetryAttempts: 1 }),
  (event, events) => {
    if (events.length === 1)
      prompted = result(v2.session.prompt({ sessionID, prompt: { text: 'Say hello' } }));
    return event.type === 'session.idle' && event.data?.sessionID === sessionID;
  },
);
out.prompt = await prompted;

out.messages = await result(v2.session.messages({ sessionID }));
const assistant = out.messages.data?.data?.find((m) => m.type === 'assistant');
out.message = await result(v2.session.message({ sessionID, messageID: assistant?.id ?? 'msg_none' }));
out.missingMessage = await result(
  v2.session.message({ sessionID, messageID: 'msg_0000000000000000000000nOnE' }),
);
out.context = await result(v2.session.context({ sessionID }));
out.history = await result(v2.session.history({ sessionID }));
out.historyPage = await result(v2.session.history({ sessionID, after: 1, limit: 1 }));
out.sessionEvents = await collect(
  (signal) => v2.session.events({ sessionID }, { signal, sseMaxRetryAttempts: 1 }),
  (event) => event.type === 'session.next.step.ended',
);
out.savedPermissions = await result(v2.permission.saved.list({}));
out.questions = await result(v2.session.question.list({ sessionID }));
out.fsList = await result(v2.fs.list({ location: { directory } }));
out.fsListSub = await result(v2.fs.list({ location: { directory }, path: 'src' }));
out.fsEscape = await result(v2.fs.list({ location: { directory }, path: '../..' }));
out.fsLinkOut = await result(v2.fs.list({ location: { directory }, path: 'outside' }));
out.fsFind = await result(v2.fs.find({ location: { directory }, query: 'mai' }));
out.fsFindDirs = await result(v2.fs.find({ location: { directory }, query: '', type: 'directory' }));
out.fsFindBad = await result(v2.fs.find({ location: { directory }, query: 'x', limit: '0' }));
out.ptyList = await result(v2.pty.list({ location: { directory } }));
out.compact = await result(v2.session.compact({ sessionID }));
out.revertStage = await result(
  v2.session.revert.stage({ sessionID, messageID: assistant?.id ?? 'msg_none' }),
);
out.revertCommit = await result(v2.session.revert.commit({ sessionID }));
out.revertClear = await result(v2.session.revert.clear({ sessionID }));
process.stdout.write(JSON.stringify(out));
