import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventsPublisher, OutpostEvent } from '@/common/events';
import { EventStreamsService } from '@/modules/events/event-streams.service';
import { openSse, SseClient } from '../../helpers/sse';
import { basic, createTestApp, TestApp, TEST_PASSWORD } from '../../helpers/test-app';

const AUTH_TOKEN = Buffer.from(`opencode:${TEST_PASSWORD}`).toString('base64');
/** The test server's cap on the bytes held back for a slow client. */
const MAX_BUFFERED = 64 * 1024;
const notHeartbeat = (events: OutpostEvent[]) => events.filter((event) => event.type !== 'server.heartbeat');

describe('event.subscribe: GET /api/event', () => {
  let t: TestApp;
  let publisher: EventsPublisher;
  const open: SseClient[] = [];
  const dirA = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-events-a-')));
  const dirB = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-events-b-')));

  beforeAll(async () => {
    t = await createTestApp({
      env: { OUTPOST_EVENT_HEARTBEAT_MS: '50', OUTPOST_EVENT_MAX_BUFFERED_BYTES: String(MAX_BUFFERED) },
    });
    publisher = t.app.get(EventsPublisher);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await t.close();
  });

  const subscribe = async (query = '') => {
    const client = await openSse(`${t.url}/api/event?auth_token=${encodeURIComponent(AUTH_TOKEN)}${query}`);
    open.push(client);
    return client;
  };

  it('streams text/event-stream with server.connected first, then events in publication order', async () => {
    const client = await subscribe();
    expect(client.response.statusCode).toBe(200);
    expect(client.response.headers['content-type']).toMatch(/^text\/event-stream/);
    const [first] = await client.until((events) => events.length >= 1);
    expect(first).toEqual({
      id: expect.stringMatching(/^evt_/),
      created: expect.any(Number),
      type: 'server.connected',
      data: {},
    });

    const published = Array.from({ length: 20 }, (_, i) =>
      publisher.publish('location.shutdown', {}, { directory: i % 2 ? dirA : dirB }),
    );
    const received = await client.until((events) => notHeartbeat(events).length >= 21);
    expect(notHeartbeat(received).slice(1)).toEqual(published);
    expect(published[3]).toEqual({
      id: expect.any(String),
      created: expect.any(Number),
      type: 'location.shutdown',
      location: { directory: dirA },
      data: {},
    });
  });

  it('accepts Basic credentials too, and refuses a wrong auth_token', async () => {
    const client = await openSse(`${t.url}/api/event`, { authorization: basic() });
    open.push(client);
    expect(client.response.statusCode).toBe(200);
    const refused = await t.http.get(
      `/api/event?auth_token=${Buffer.from('opencode:nope').toString('base64')}`,
    );
    expect(refused.status).toBe(401);
  });

  it('stays open across heartbeats and keeps delivering', async () => {
    const client = await subscribe();
    const beats = await client.until(
      (events) => events.filter((e) => e.type === 'server.heartbeat').length >= 3,
    );
    expect(beats.find((e) => e.type === 'server.heartbeat')).toEqual({
      id: expect.stringMatching(/^evt_/),
      created: expect.any(Number),
      type: 'server.heartbeat',
      data: {},
    });
    const later = publisher.publish('location.shutdown', {});
    const events = await client.until((all) => all.some((event) => event.id === later.id));
    expect(events.at(-1)).toEqual(later);
    expect(client.response.complete).toBe(false);
  });

  it('filters by location[directory], still sending events of no location', async () => {
    const client = await subscribe(`&location[directory]=${encodeURIComponent(dirA)}`);
    await client.until((events) => events.length >= 1);
    const skipped = publisher.publish('location.shutdown', {}, { directory: dirB });
    const kept = publisher.publish('location.shutdown', {}, { directory: dirA });
    const global = publisher.publish('location.shutdown', {});
    const events = notHeartbeat(await client.until((all) => all.some((event) => event.id === global.id)));
    expect(events.map((event) => event.id)).toEqual([events[0].id, kept.id, global.id]);
    expect(events.map((event) => event.id)).not.toContain(skipped.id);
  });

  it('answers 404 LocationNotFoundError for an unknown filter directory', async () => {
    const res = await t.http.get('/api/event?location[directory]=/no/such/dir').set('authorization', basic());
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('LocationNotFoundError');
  });

  it('keeps a client that reads along even when one turn publishes more than the cap', async () => {
    const streams = t.app.get(EventStreamsService);
    const reader = await subscribe();
    await reader.until((events) => events.length >= 1);
    const before = streams.openCount;
    // Eight times the cap, published without the event loop turning: written together, then read.
    const blob = 'y'.repeat(MAX_BUFFERED);
    const burst = Array.from({ length: 8 }, () => publisher.publish('location.shutdown', { blob } as never));
    const last = burst.at(-1)!;
    await Promise.race([
      reader.until((events) => events.some((event) => event.id === last.id)),
      reader.ended,
    ]);
    const received = reader.events;
    expect(received.filter((event) => burst.some((sent) => sent.id === event.id))).toHaveLength(8);
    expect(streams.openCount).toBe(before);
  });

  it('disconnects a client that reads too slowly instead of queueing without bound', async () => {
    const streams = t.app.get(EventStreamsService);
    const reader = await subscribe();
    const slow = await subscribe();
    await slow.until((events) => events.length >= 1);
    slow.response.pause();
    const before = streams.openCount;
    // One event at a time, each read by the other client before the next: only the paused one falls behind.
    const blob = 'x'.repeat(64 * 1024);
    let sent = 0;
    let eventBytes = 0;
    while (streams.openCount === before && sent < 2_000) {
      const event = publisher.publish('location.shutdown', { blob } as never);
      eventBytes = Buffer.byteLength(`data: ${JSON.stringify(event)}\n\n`);
      sent += 1;
      await reader.until((events) => events.some((received) => received.id === event.id));
    }
    expect(streams.openCount).toBe(before - 1);
    slow.response.resume();
    await slow.ended;
    const taken = slow.events.filter((event) => event.type === 'location.shutdown').length;
    // Cut off once more than the cap was held back: after the socket buffers filled (a few MiB on loopback), not
    // after some count of events (the 64 KiB events the loop sent add up to far less than 1,000 of them).
    expect(taken).toBeLessThan(sent);
    // The events never taken are at least what was held back in the server when it cut the client off (one
    // 64 KiB event with its framing is already more than the cap).
    expect((sent - taken) * eventBytes).toBeGreaterThan(MAX_BUFFERED);
    expect(sent * blob.length).toBeLessThan(32 * 1024 * 1024);
    // The reader kept its stream and still receives.
    const after = publisher.publish('location.shutdown', {});
    await reader.until((events) => events.some((received) => received.id === after.id));
  });
});
