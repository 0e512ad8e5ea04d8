import { LocationsService } from '@/modules/locations/locations.service';
import { PermissionRequestsService } from '@/modules/runtime/permissions/permission-requests.service';
import { ModelStep } from '@/modules/runtime/providers/model-step';
import { ProvidersService } from '@/modules/runtime/providers/providers.service';
import { projectDir, writeFiles } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse } from '../../helpers/sse';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

const FAST = { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 };

describe('runtime in the instance app: providers from the location config, permissions on the stream', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let project: string;
  let other: string;

  const config = (models: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      provider: {
        scripted: {
          package: 'aisdk:@ai-sdk/openai-compatible',
          settings: { baseURL: server.baseURL, apiKey: '{env:RUNTIME_TEST_KEY}' },
          models,
        },
        ...extra,
      },
    });

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    project = projectDir({
      'outpost.json': config({ small: { cost: { input: 1, output: 2 } } }, { broken: { models: {} } }),
    });
    other = projectDir();
    t = await createTestApp({ env: { RUNTIME_TEST_KEY: 'sk-from-env' } });
    process.env.RUNTIME_TEST_KEY = 'sk-from-env';
  });

  afterAll(async () => {
    delete process.env.RUNTIME_TEST_KEY;
    await t.close();
    await server.close();
  });

  const location = (directory: string) => t.app.get(LocationsService).resolve(directory);
  const reload = () => t.http.post('/api/location/reload').set('authorization', basic());

  it('builds models from the provider map of outpost.json and runs a step against them', async () => {
    const registry = await t.app.get(ProvidersService).forLocation(await location(project));
    expect(registry.has({ providerID: 'scripted', id: 'small' })).toBe(true);
    expect(registry.has({ providerID: 'broken', id: 'x' })).toBe(false);
    expect(() => registry.model({ providerID: 'scripted', id: 'large' })).toThrow(
      expect.objectContaining({ status: 400, tag: 'ModelNotFoundError' }),
    );

    server.script({ text: 'hi from the config', usage: { input: 5, output: 3 } });
    const result = await t.app.get(ModelStep).run(
      {
        model: registry.resolve({ providerID: 'scripted', id: 'small' }).language,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      },
      FAST,
    );
    expect(result).toMatchObject({ status: 'completed', text: 'hi from the config' });
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-from-env');
  });

  it('picks up an edited provider map after a location reload', async () => {
    const providers = t.app.get(ProvidersService);
    const before = await providers.forLocation(await location(project));
    writeFiles(project, { 'outpost.json': config({ small: {}, large: {} }) });
    expect(
      (await providers.forLocation(await location(project))).has({ providerID: 'scripted', id: 'large' }),
    ).toBe(false);

    expect((await reload()).status).toBe(204);
    const after = await providers.forLocation(await location(project));
    expect(after).not.toBe(before);
    expect(after.has({ providerID: 'scripted', id: 'large' })).toBe(true);
  });

  it('streams permission.asked / permission.replied and rejects the requests of reloaded locations', async () => {
    const stream = await openSse(`${t.url}/api/event`, { authorization: basic() });
    try {
      await location(other);
      const requests = t.app.get(PermissionRequestsService);
      const asked = requests.ask({
        sessionID: 'ses_one',
        permission: 'edit',
        patterns: ['src/a.ts'],
        location: { directory: project },
      });
      const elsewhere = requests.ask({
        sessionID: 'ses_two',
        permission: 'bash',
        patterns: ['ls'],
        location: { directory: '/not/loaded' },
      });
      await stream.until((events) =>
        events.some((e) => e.type === 'permission.asked' && e.location?.directory === project),
      );

      expect((await reload()).status).toBe(204);
      await expect(asked.answer).resolves.toEqual({
        reply: 'reject',
        rules: [],
        reason: 'location reloaded',
      });
      expect(requests.list().map((r) => r.id)).toEqual([elsewhere.request.id]);

      const events = await stream.until((all) => all.some((e) => e.type === 'permission.replied'));
      const replied = events.find((e) => e.type === 'permission.replied')!;
      expect(replied).toMatchObject({
        location: { directory: project },
        data: { sessionID: 'ses_one', requestID: asked.request.id, reply: 'reject' },
      });
      requests.reply(elsewhere.request.id, 'once');
    } finally {
      stream.close();
    }
  });
});
