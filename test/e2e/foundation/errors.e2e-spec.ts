import { CapturingLogger } from '../../helpers/capturing-logger';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { ProbeModule } from './probe.module';

describe('errors: one tagged body for every failure', () => {
  let t: TestApp;
  const logs = new CapturingLogger();

  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule], env: { OUTPOST_BODY_LIMIT: '2048' } });
    t.app.useLogger(logs);
  });
  afterAll(() => t.close());

  it('echoes a valid body', async () => {
    const res = await t.http
      .post('/api/__probe')
      .send({ title: 'x', count: 3, location: { directory: '/tmp' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { title: 'x', count: 3, location: { directory: '/tmp' } } });
  });

  it('names the field of a wrong type, with kind Body', async () => {
    const res = await t.http.post('/api/__probe').send({ title: 42 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'title', kind: 'Body' });
    expect(typeof res.body.message).toBe('string');
  });

  it('names a missing required member', async () => {
    const res = await t.http.post('/api/__probe').send({ count: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'title' });
  });

  it('refuses an unknown member', async () => {
    const res = await t.http.post('/api/__probe').send({ title: 'x', extra: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'extra' });
  });

  it('gives the dotted path of a nested member', async () => {
    const res = await t.http.post('/api/__probe').send({ title: 'x', location: { directory: 5 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'location.directory' });
  });

  it('validates the query with kind Query', async () => {
    const res = await t.http.get('/api/__probe?order=sideways');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'order', kind: 'Query' });
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.http.post('/api/__probe').set('content-type', 'application/json').send('[1,2]');
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('InvalidRequestError');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.http.post('/api/__probe').set('content-type', 'application/json').send('{"title": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'InvalidRequestError',
      message: expect.stringMatching(/^Malformed JSON body/),
    });
  });

  it('answers a bad percent-encoding in the path with 400', async () => {
    const res = await t.http.get('/api/__probe/%FF');
    expect({ status: res.status, tag: res.body._tag, kind: res.body.kind }).toEqual({
      status: 400,
      tag: 'InvalidRequestError',
      kind: 'Params',
    });
  });

  it('answers a wrong content type with 400', async () => {
    const res = await t.http.post('/api/__probe').set('content-type', 'text/plain').send('title=x');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'content-type', kind: 'Headers' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.http.post('/api/__probe').send({ title: 'x'.repeat(4096) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ _tag: 'PayloadTooLargeError', limit: 2048 });
  });

  it('answers an unknown route with 404 NotFoundError', async () => {
    const res = await t.http.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ _tag: 'NotFoundError', message: 'Route not found: GET /no/such/route' });
  });

  it('answers the unexpected with 500 and a ref that the log carries, and no internals', async () => {
    const res = await t.http.get('/api/__boom');
    expect(res.status).toBe(500);
    expect(res.body._tag).toBe('UnknownError');
    expect(res.body.ref).toMatch(/^err_[0-9a-f]{12}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|password_hashes|at /);
    expect(logs.lines.some((line) => line.includes(res.body.ref))).toBe(true);
  });

  it('returns a request id, and keeps a sane one the client sent', async () => {
    const fresh = await t.http.get('/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.http.get('/health').set('x-request-id', 'trace-123');
    expect(given.headers['x-request-id']).toBe('trace-123');
  });

  it('sets helmet headers', async () => {
    const res = await t.http.get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
