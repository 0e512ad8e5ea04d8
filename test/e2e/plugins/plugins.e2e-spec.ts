import { EventEmitter2 } from '@nestjs/event-emitter';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { TestRegistry } from '../../helpers/npm-registry';
import { at, projectDir } from '../../helpers/project-dir';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

const PKG = 'outpost-hello-plugin';

/** A plugin package whose agent says which version it came from. */
function helloPlugin(version: string): Record<string, string> {
  return {
    'index.js': `module.exports = {
      name: 'hello',
      agents: { greeter: { description: 'greets (${version})', mode: 'subagent' } },
    };\n`,
  };
}

describe('plugin.list / plugin.check / plugin.update', () => {
  let t: TestApp;
  let registry: TestRegistry;
  let dir: string;
  const events: OutpostEvent[] = [];

  beforeAll(async () => {
    registry = await TestRegistry.start();
    registry.publish(PKG, '1.0.0', helloPlugin('1.0.0'));
    t = await createTestApp({ env: { OUTPOST_NPM_REGISTRY: registry.url } });
    t.app.get(EventEmitter2).on(PUBLISHED_EVENT, (event: OutpostEvent) => events.push(event));
    dir = projectDir({
      'outpost.json': JSON.stringify({ plugins: [PKG, 'Bad Name!', './plugins/local.mjs'] }),
      'plugins/local.mjs': `export const name = 'local-one';\nexport const agents = [{ id: 'localist', mode: 'primary' }];\n`,
    });
  });
  afterAll(async () => {
    await t.close();
    await registry.close();
  });

  const auth = basic();
  const list = () => t.http.get(`/api/plugin?${at(dir)}`).set('authorization', auth);
  const check = (body: object) =>
    t.http
      .post(`/api/plugin/check?${at(dir)}`)
      .set('authorization', auth)
      .send(body);
  const update = (targets: string[]) =>
    t.http
      .post(`/api/plugin/update?${at(dir)}`)
      .set('authorization', auth)
      .send({ targets });
  const pkg = (body: { data: Array<{ source: { target?: string } }> }) =>
    body.data.find((p) => p.source.target === PKG) as {
      id: string;
      source: Record<string, unknown>;
      state: object;
    };
  const greeter = async () =>
    (await t.http.get(`/api/agent/greeter?${at(dir)}`).set('authorization', auth)).body.data?.description;
  const installs = () =>
    readdirSync(join(t.dataDir, 'plugins', PKG)).filter((name) => name !== 'current.json');

  it('installs package plugins from the registry and lists every plugin with its source and state', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.location.directory).toBe(dir);
    expect(res.body.data).toEqual([
      {
        id: 'outpost.agent',
        source: { type: 'builtin' },
        features: { server: true },
        state: { status: 'active' },
      },
      {
        id: 'hello',
        source: { type: 'package', target: PKG, version: '1.0.0' },
        features: { server: true },
        state: { status: 'active' },
      },
      {
        source: { type: 'package', target: 'Bad Name!' },
        features: {},
        state: { status: 'failed', error: expect.stringContaining('invalid package name "Bad Name!"') },
      },
      {
        id: 'local-one',
        source: { type: 'local', path: join(dir, 'plugins/local.mjs') },
        features: { server: true },
        state: { status: 'active' },
      },
    ]);
    expect(installs()).toHaveLength(1);
    expect(await greeter()).toBe('greets (1.0.0)');
    const agents = await t.http.get(`/api/agent?${at(dir)}`).set('authorization', auth);
    expect(agents.body.data.map((a: { id: string }) => a.id)).toEqual(
      expect.arrayContaining(['greeter', 'localist']),
    );
  });

  it('refuses an invalid package name before npm runs', async () => {
    expect(registry.requests.some((path) => /bad/i.test(path))).toBe(false);
    expect(readdirSync(join(t.dataDir, 'plugins')).sort()).toEqual(['.npm-cache', PKG]);
    const res = await update(['Bad Name!']);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'targets' });
    expect(res.body.message).toContain('Bad Name!');
    expect(registry.requests.some((path) => /bad/i.test(path))).toBe(false);
  });

  it('check finds a newer version in the registry', async () => {
    const before = await check({});
    expect(before.status).toBe(200);
    expect(pkg(before.body).source.outdated).toBeUndefined();
    registry.publish(PKG, '1.1.0', helloPlugin('1.1.0'));
    const after = await check({ target: PKG });
    expect(after.status).toBe(200);
    expect(Object.keys(after.body)).toEqual(['location', 'data']);
    expect(pkg(after.body).source).toEqual({
      type: 'package',
      target: PKG,
      version: '1.0.0',
      outdated: true,
    });
    expect(pkg((await list()).body).source.outdated).toBe(true);
  });

  it('check and update answer 400 naming a target that is not a configured plugin', async () => {
    const res = await check({ target: 'left-pad' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'target' });
    expect(res.body.message).toContain('left-pad');
    const upd = await update(['left-pad']);
    expect(upd.status).toBe(400);
    expect(upd.body.message).toContain('left-pad');
    expect((await update([])).status).toBe(400);
  });

  it('update switches to the new version, marks updating while it runs, and emits plugin.updated', async () => {
    const release = registry.hold();
    events.length = 0;
    const running = update([PKG]).then((res) => res);
    await registry.requested(`-1.1.0.tgz`);
    const during = pkg((await list()).body);
    expect(during.source).toMatchObject({ version: '1.0.0', updating: true });
    expect(await greeter()).toBe('greets (1.0.0)');
    release();
    const res = await running;
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = pkg((await list()).body);
    expect(after.source).toEqual({ type: 'package', target: PKG, version: '1.1.0' });
    expect(after.state).toEqual({ status: 'active' });
    expect(await greeter()).toBe('greets (1.1.0)');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'plugin.updated', location: { directory: dir }, data: {} }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'agent.updated', location: { directory: dir } }),
    );
    expect(installs()).toHaveLength(1);
  });

  it('a broken update answers 503 and the old version stays active', async () => {
    registry.publish(PKG, '1.2.0', { 'index.js': "throw new Error('broken plugin 1.2.0');\n" });
    const res = await update([PKG]);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ _tag: 'ServiceUnavailableError', targets: [PKG] });
    expect(res.body.message).toContain(PKG);
    expect(res.body.message).toContain('broken plugin 1.2.0');
    const after = pkg((await list()).body);
    expect(after.source).toEqual({ type: 'package', target: PKG, version: '1.1.0' });
    expect(after.state).toEqual({ status: 'active' });
    expect(await greeter()).toBe('greets (1.1.0)');
    expect(installs()).toHaveLength(1);
    expect(existsSync(join(t.dataDir, 'plugins', PKG, installs()[0], 'node_modules', PKG))).toBe(true);
  });

  it('answers 503 ServiceUnavailableError { service: "registry" } when the registry is unreachable', async () => {
    await registry.close();
    const res = await check({});
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ _tag: 'ServiceUnavailableError', service: 'registry' });
    expect((await list()).status).toBe(200);
  });
});
