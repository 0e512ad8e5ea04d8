import { createTestApp, TestApp } from '../../helpers/test-app';

/** The operation ids of ../shared/spec/instance-api.md. */
const SPEC_OPERATION_IDS = [
  'server.info',
  'server.pair',
  'server.connect',
  'location.get',
  'location.reload',
  'agent.list',
  'agent.get',
  'plugin.list',
  'plugin.check',
  'plugin.update',
  'session.list',
  'session.create',
  'session.active',
  'session.get',
  'session.remove',
  'session.update',
  'session.fork',
  'session.switchAgent',
  'session.switchModel',
  'session.move',
  'session.prompt',
  'experimental.session.stats',
  'experimental.session.import',
  'experimental.session.export',
];

type DocOperation = { operationId?: string; responses: Record<string, unknown> };

describe('health and API documents', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('reports the database up', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('GET / is a page (the instance web app when the instance surface is on), never a JSON 404', async () => {
    const res = await t.http.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('src="/web/app/main.js"');
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await t.http.get('/docs').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('serves the instance document as OpenAPI 3.1.0, experimental 0.0.1, with Basic auth', async () => {
    const res = await t.http.get('/docs/instance.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('0.0.1');
    expect(res.body.info.title).toMatch(/experimental/i);
    expect(res.body.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
    for (const path of Object.keys(res.body.paths)) expect(path).toMatch(/^\/(api|auth\/connect)\//);
  });

  it('serves the console document with bearer and cookie auth', async () => {
    const res = await t.http.get('/docs/console.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.body.components.securitySchemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie' });
    for (const path of Object.keys(res.body.paths)) expect(path).not.toMatch(/^\/api\//);
  });

  it('documents 400 and 401 on every operation, each with an operation id', async () => {
    for (const doc of ['instance', 'console']) {
      const res = await t.http.get(`/docs/${doc}.json`);
      for (const [path, item] of Object.entries(
        res.body.paths as Record<string, Record<string, DocOperation>>,
      )) {
        for (const [method, operation] of Object.entries(item)) {
          expect({ path, method, id: typeof operation.operationId }).toEqual({ path, method, id: 'string' });
          expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401']));
        }
      }
    }
  });

  it('carries every operation id of the instance spec', async () => {
    const res = await t.http.get('/docs/instance.json');
    const ids = Object.values(res.body.paths as Record<string, Record<string, DocOperation>>).flatMap(
      (item) => Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids).toEqual(expect.arrayContaining(SPEC_OPERATION_IDS));
  });
});
