/**
 * Who may call the BYOK connection routes (owners and admins, an All key to read; members, strangers and Inference
 * keys refused), the bodies they refuse naming the field, and no credential in any answer.
 */
import request from 'supertest';
import { bearer } from '../../helpers/console';
import { answers, CREDENTIAL, NEW_CREDENTIAL, useConnectionsApp } from './connections-fixture';
// Set before the tests by useConnectionsApp().
import { admin, allKey, inferenceKey, member, owner, stranger, t } from './connections-fixture';
import { base, createNamed, keep, rowCount, validBody } from './connections-fixture';

describe('BYOK connections', () => {
  useConnectionsApp();

  describe('who may do what', () => {
    let id: string;

    beforeAll(async () => (id = await createNamed(admin, 'By the admin')));

    it('an admin may create, change and delete (with the cookie)', async () => {
      const patched = keep(await admin.patch(`${base()}/${id}`, { name: 'Renamed' }));
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe('Renamed');
    });

    it('a member gets 403 on every route, and nothing changes', async () => {
      const before = await rowCount();
      for (const res of [
        await member.post(base(), validBody()),
        await member.get(base()),
        await member.get(`${base()}/${id}`),
        await member.patch(`${base()}/${id}`, { name: 'Mine now' }),
        await member.del(`${base()}/${id}`),
      ]) {
        keep(res);
        expect(res.status).toBe(403);
        expect(res.body._tag).toBe('Forbidden');
      }
      expect(await rowCount()).toBe(before);
      expect(keep(await owner.get(`${base()}/${id}`)).body.name).toBe('Renamed');
    });

    it('someone outside the workspace gets 403, and 404 for a connection of another workspace', async () => {
      expect(keep(await stranger.get(base())).status).toBe(403);
      expect((await stranger.get(`${base(stranger.org)}/${id}`)).status).toBe(404);
      expect((await stranger.del(`${base(stranger.org)}/${id}`)).status).toBe(404);
      expect((await stranger.patch(`${base(stranger.org)}/${id}`, { name: 'x' })).status).toBe(404);
      expect(keep(await stranger.get(base(stranger.org))).body).toEqual([]);
    });

    it('changes need a person signed in: an All key may read but not write; an Inference key may not read', async () => {
      const as = (key: string) => (test: request.Test) => test.set('authorization', bearer(key));
      const all = as(allKey);
      expect(keep(await all(t.http.post(base())).send(validBody())).status).toBe(403);
      expect(keep(await all(t.http.patch(`${base()}/${id}`)).send({ name: 'x' })).status).toBe(403);
      expect(keep(await all(t.http.delete(`${base()}/${id}`))).status).toBe(403);
      expect(keep(await all(t.http.get(`${base()}/${id}`))).status).toBe(200);
      const inference = as(inferenceKey);
      expect(keep(await inference(t.http.get(base()))).status).toBe(403);
      expect(keep(await inference(t.http.post(base())).send(validBody())).status).toBe(403);
      expect(keep(await t.http.get(base())).status).toBe(401);
    });

    afterAll(async () => {
      expect(keep(await admin.del(`${base()}/${id}`)).status).toBe(204);
    });
  });

  describe('bad bodies: 400 naming the field, nothing stored', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['an ftp base_url', { base_url: 'ftp://files.example/v1' }, 'base_url'],
      ['a base_url that is not a URL', { base_url: 'api.example.com/v1' }, 'base_url'],
      ['a base_url with credentials', { base_url: 'https://user:pass@api.example.com/v1' }, 'base_url'],
      ['a base_url with a query', { base_url: 'https://api.example.com/v1?key=1' }, 'base_url'],
      ['an unknown schema', { schema: 'gemini' }, 'schema'],
      ['no auth', { auth: undefined }, 'auth'],
      ['auth as a string', { auth: CREDENTIAL }, 'auth'],
      ['an unknown auth mode', { auth: { mode: 'basic', credential: CREDENTIAL } }, 'auth.mode'],
      ['mode header without a header', { auth: { mode: 'header', credential: CREDENTIAL } }, 'auth.header'],
      [
        'a header name with a space',
        { auth: { mode: 'header', header: 'x api key', credential: CREDENTIAL } },
        'auth.header',
      ],
      [
        'a header the gateway sets itself',
        { auth: { mode: 'header', header: 'Content-Length', credential: CREDENTIAL } },
        'auth.header',
      ],
      [
        'a header with mode bearer',
        { auth: { mode: 'bearer', header: 'x-api-key', credential: CREDENTIAL } },
        'auth.header',
      ],
      ['no credential', { auth: { mode: 'bearer' } }, 'auth.credential'],
      ['an empty credential', { auth: { mode: 'bearer', credential: '' } }, 'auth.credential'],
      [
        'a credential over 4 KiB',
        { auth: { mode: 'bearer', credential: 'k'.repeat(4097) } },
        'auth.credential',
      ],
      [
        'a credential with a line break',
        { auth: { mode: 'bearer', credential: `${CREDENTIAL}\r\nx-evil: 1` } },
        'auth.credential',
      ],
      [
        'an unknown auth member',
        { auth: { mode: 'bearer', credential: CREDENTIAL, extra: 1 } },
        'auth.extra',
      ],
      ['no models', { models: undefined }, 'models'],
      ['an empty models map', { models: {} }, 'models'],
      ['models as an array', { models: [{ name: 'x' }] }, 'models'],
      ['a model without a name', { models: { m: {} } }, 'models.m.name'],
      ['a model name with a lone surrogate', { models: { m: { name: 'bad \ud800 name' } } }, 'models.m.name'],
      ['a model id with a space', { models: { 'my model': { name: 'x' } } }, 'models.my model'],
      [
        'a negative price',
        { models: { m: { name: 'M', prices: { input: -1, output: 1 } } } },
        'models.m.prices.input',
      ],
      [
        'a price without output',
        { models: { m: { name: 'M', prices: { input: 1 } } } },
        'models.m.prices.output',
      ],
      [
        'a price as a string',
        { models: { m: { name: 'M', prices: { input: '1', output: 1 } } } },
        'models.m.prices.input',
      ],
      [
        'an unknown price',
        { models: { m: { name: 'M', prices: { input: 1, output: 1, reasoning: 1 } } } },
        'models.m.prices.reasoning',
      ],
      ['an unknown model member', { models: { m: { name: 'M', limit: 1 } } }, 'models.m.limit'],
      ['an unknown top-level member', { credential: CREDENTIAL }, 'credential'],
    ];

    it.each(cases)('refuses %s', async (_name, overrides, field) => {
      const before = await rowCount();
      const res = keep(await owner.post(base(), validBody(overrides)));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field, kind: 'Body' });
      expect(res.body.message).toContain(field);
      expect(await rowCount()).toBe(before);
    });
  });

  it('no answer ever carried a credential', () => {
    expect(answers.length).toBeGreaterThan(40);
    for (const answer of answers) {
      expect(answer).not.toContain(CREDENTIAL);
      expect(answer).not.toContain(NEW_CREDENTIAL);
    }
  });
});
