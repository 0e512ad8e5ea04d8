import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { LocationReloadService } from '@/modules/location-reload/location-reload.service';
import { ResolvedLocation } from '@/modules/locations/location.types';
import { at, projectDir, writeFiles } from '../../helpers/project-dir';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

const agentFile = (description: string) => `---\ndescription: ${description}\nmode: subagent\n---\nReview.\n`;

describe('location.reload', () => {
  let t: TestApp;
  const events: OutpostEvent[] = [];
  const edited = projectDir({ '.outpost/agents/reviewer.md': agentFile('first draft') });
  const untouched = projectDir();

  beforeAll(async () => {
    t = await createTestApp();
    t.app.get(EventEmitter2).on(PUBLISHED_EVENT, (event: OutpostEvent) => events.push(event));
  });
  afterAll(() => t.close());

  const reload = () => t.http.post('/api/location/reload').set('authorization', basic());
  const agent = (dir: string, id: string) =>
    t.http.get(`/api/agent/${id}?${at(dir)}`).set('authorization', basic());
  const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.location?.directory);

  it('rebuilds every loaded location: edited and new agent files show up, location.shutdown is emitted', async () => {
    expect((await agent(edited, 'reviewer')).body.data.description).toBe('first draft');
    expect((await agent(untouched, 'build')).status).toBe(200);
    writeFiles(edited, {
      '.outpost/agents/reviewer.md': agentFile('second draft'),
      '.outpost/agents/newcomer.md': agentFile('just arrived'),
    });
    expect((await agent(edited, 'reviewer')).body.data.description).toBe('first draft');

    const shutDown: string[] = [];
    const unregister = t.app
      .get(LocationReloadService)
      .onLocationShutdown((location: ResolvedLocation) => void shutDown.push(location.directory));
    events.length = 0;
    const res = await reload();
    unregister();

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(shutDown.sort()).toEqual([edited, untouched].sort());
    expect(ofType('location.shutdown').sort()).toEqual([edited, untouched].sort());
    expect(events.find((e) => e.type === 'location.shutdown')?.data).toEqual({});
    expect(ofType('agent.updated')).toEqual([edited]);
    expect((await agent(edited, 'reviewer')).body.data.description).toBe('second draft');
    expect((await agent(edited, 'newcomer')).body.data.description).toBe('just arrived');
  });

  it('keeps a location whose config broke since: the reload settles and the location still answers', async () => {
    writeFiles(edited, { 'outpost.json': '{ "agents": ' });
    expect((await reload()).status).toBe(204);
    const res = await agent(edited, 'newcomer');
    expect(res.status).toBe(200);
    expect(res.body.data.description).toBe('just arrived');
  });

  it('lets a reload that arrives while one runs join it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstHook = new Promise<void>((resolve) => (started = resolve));
    let calls = 0;
    const unregister = t.app.get(LocationReloadService).onLocationShutdown(async () => {
      calls += 1;
      started();
      await gate;
    });
    const service = t.app.get(LocationReloadService);
    const original = service.reload.bind(service);
    let entered = 0;
    service.reload = () => {
      entered += 1;
      return original();
    };
    const first = reload().then((res) => res);
    await firstHook;
    const second = reload().then((res) => res);
    // Only once the second request has reached the service (on a busy machine it can take a while) is the first
    // round let go: the second must find it running.
    for (let i = 0; i < 200 && entered < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const [a, b] = await Promise.all([first, second]);
    service.reload = original;
    unregister();
    expect(entered).toBe(2);
    expect([a.status, b.status]).toEqual([204, 204]);
    expect(calls).toBe(2); // one per loaded location, not two rounds
  });

  it('needs credentials', async () => {
    expect((await t.http.post('/api/location/reload')).status).toBe(401);
  });

  it('answers 503 ServiceUnavailableError while the server shuts down', async () => {
    t.app.get(LocationReloadService).beforeApplicationShutdown();
    const res = await reload();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ _tag: 'ServiceUnavailableError', service: 'server' });
  });
});
