import { get, IncomingMessage } from 'node:http';
import { EventsPublisher } from '@/common/events';
import { SessionsService } from '@/modules/sessions/sessions.service';
import { openSse } from '../../helpers/sse';
import { tempDir } from '../../helpers/sessions';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

/** The test server's cap on the bytes held back for a slow client, and its heartbeat. */
const MAX_BUFFERED = 64 * 1024;
const HEARTBEAT_MS = 50;
const METRICS_TOKEN = 'event-stream-caps';
/** Long enough for the slowest machine; a stream that never does what is waited for fails here, not by hanging. */
const PATIENCE_MS = 10_000;

/** A stream read as raw text, which can be paused like a client that stops reading. */
interface RawStream {
  response: IncomingMessage;
  text(): string;
  /** Resolves once the text satisfies `done` (checked after each chunk); rejects after PATIENCE_MS. */
  until(done: (text: string) => boolean, what: string): Promise<string>;
  ended: Promise<void>;
  close(): void;
}

function openRaw(url: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { headers: { authorization: basic(), accept: 'text/event-stream' } },
      (response) => {
        let text = '';
        const waiters: Array<() => void> = [];
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          for (const wake of waiters.splice(0)) wake();
        });
        const ended = new Promise<void>((done) => {
          for (const event of ['end', 'close', 'error', 'aborted']) response.on(event, () => done());
        });
        resolve({
          response,
          text: () => text,
          ended,
          until(done, what) {
            return new Promise((settle, fail) => {
              const timer = setTimeout(
                () => fail(new Error(`${url}: no ${what} in ${PATIENCE_MS} ms`)),
                PATIENCE_MS,
              );
              const check = () => {
                if (!done(text)) return void waiters.push(check);
                clearTimeout(timer);
                settle(text);
              };
              check();
            });
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
  });
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('the three event streams (/api/event, v1 /event, /api/session/{id}/event): one writer, one set of caps', () => {
  let t: TestApp;
  let publisher: EventsPublisher;
  let sessionID: string;
  const directory = tempDir();
  const open: RawStream[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        OUTPOST_EVENT_HEARTBEAT_MS: String(HEARTBEAT_MS),
        OUTPOST_EVENT_MAX_BUFFERED_BYTES: String(MAX_BUFFERED),
        OUTPOST_METRICS_TOKEN: METRICS_TOKEN,
        OUTPOST_DEFAULT_DIRECTORY: directory,
      },
    });
    publisher = t.app.get(EventsPublisher);
    const created = await t.http
      .post('/api/session')
      .set('authorization', basic())
      .send({ title: 'caps' })
      .expect(200);
    sessionID = created.body.data.id;
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await t.close();
  });

  const streams = () => ({
    '/api/event': `${t.url}/api/event`,
    'v1 /event': `${t.url}/event?directory=${encodeURIComponent(directory)}`,
    '/api/session/{id}/event': `${t.url}/api/session/${sessionID}/event`,
  });
  const subscribe = async (url: string) => {
    const stream = await openRaw(url);
    open.push(stream);
    return stream;
  };
  /** Open event streams of the server, as /metrics tells. */
  const openStreams = async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return Number(/^outpost_event_stream_clients (\d+)$/m.exec(await res.text())?.[1]);
  };

  it('each sends a heartbeat every OUTPOST_EVENT_HEARTBEAT_MS', async () => {
    for (const [name, url] of Object.entries(streams())) {
      const stream = await subscribe(url);
      expect({ name, status: stream.response.statusCode }).toEqual({ name, status: 200 });
      await stream.until((text) => count(text, /heartbeat/g) >= 3, `three heartbeats on ${name}`);
      stream.close();
    }
  });

  it('each cuts a client that leaves more than the cap unread, and only that client', async () => {
    // A session's event every stream carries: v1 translates it (todo.updated), the session's stream takes it.
    const blob = 'x'.repeat(64 * 1024);
    const event = () =>
      publisher.publish('session.todo.updated', { sessionID, todos: [{ content: blob }] } as never);
    for (const [name, url] of Object.entries(streams())) {
      const reader = await openSse(`${t.url}/api/event`, { authorization: basic() });
      const slow = await subscribe(url);
      await slow.until((text) => text.length > 0, `a first byte on ${name}`);
      slow.response.pause();
      const before = await openStreams();
      // One event at a time, each read by the other client before the next: only the paused one falls behind.
      let sent = 0;
      while ((await openStreams()) === before && sent < 500) {
        const published = event();
        sent += 1;
        await reader.until((events) => events.some((received) => received.id === published.id));
      }
      expect({ name, open: await openStreams() }).toEqual({ name, open: before - 1 });
      slow.response.resume();
      await slow.ended;
      const taken = count(slow.text(), /x{65536}/g);
      // Cut off once more than the cap was held back, never after taking every event.
      expect({ name, cutBeforeTheEnd: taken < sent }).toEqual({ name, cutBeforeTheEnd: true });
      expect(sent * blob.length).toBeLessThan(32 * 1024 * 1024);
      // The reader kept its stream and still receives.
      const after = publisher.publish('location.shutdown', {});
      await reader.until((events) => events.some((received) => received.id === after.id));
      reader.close();
    }
  });

  it('the session stream holds what is published while its history is read: not lost, and not twice', async () => {
    await t.http
      .post(`/api/session/${sessionID}/agent`)
      .set('authorization', basic())
      .send({ agent: 'plan' });
    const sessions = t.app.get(SessionsService);
    const read = sessions.messages.bind(sessions);
    const duringRead: string[] = [];
    // The stream's history read publishes, once it has read: a change it already holds, and a new one.
    const spy = jest.spyOn(sessions, 'messages').mockImplementationOnce(async (id) => {
      const messages = await read(id);
      const [message] = messages;
      duringRead.push(publisher.publish('session.message.updated', { sessionID, message }).id);
      duringRead.push(publisher.publish('session.todo.updated', { sessionID, todos: [] }).id);
      return messages;
    });
    try {
      const stream = await openSse(`${t.url}/api/session/${sessionID}/event`, { authorization: basic() });
      try {
        // The history is read before the stream's head is written.
        expect(duringRead).toHaveLength(2);
        const [held, fresh] = duringRead;
        const events = await Promise.race([
          stream.until((all) => all.some((event) => event.id === fresh)),
          new Promise<never>((_, fail) =>
            setTimeout(() => fail(new Error('the event published during the read never came')), PATIENCE_MS),
          ),
        ]);
        const ids = events.map((event) => event.id);
        // The history first (the agent switch), then the new change; the one the history holds is not sent again.
        expect(events[0]).toMatchObject({ type: 'session.next.agent.switched' });
        expect(ids).toContain(fresh);
        expect(ids).not.toContain(held);
      } finally {
        stream.close();
      }
    } finally {
      spy.mockRestore();
    }
  });
});
