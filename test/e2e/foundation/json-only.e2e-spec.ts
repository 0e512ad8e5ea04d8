import { bearer, serviceAccountKey, signup } from '../../helpers/console';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

/** Each surface registers its JSON API's prefix (registerJsonApi); a body of another type is refused there only. */
describe('JSON APIs take JSON bodies only, on every surface that registers one', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await signup(t);
    key = (await serviceAccountKey(owner, owner.org, 'inference')).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const refusedAsText = async (path: string, authorization: string) => {
    const res = await t.http
      .post(path)
      .set('authorization', authorization)
      .set('content-type', 'text/plain')
      .send('{"a":1}');
    return res;
  };

  it('refuses text/plain on the instance API, the console API and the gateway with 400 naming content-type', async () => {
    for (const [path, authorization] of [
      ['/api/session', basic()],
      ['/console/api/tokens', bearer(key)],
      ['/inference/openai/v1/chat/completions', bearer(key)],
    ]) {
      const res = await refusedAsText(path, authorization);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(JSON.stringify(res.body)).toContain('Content-Type must be application/json');
    }
  });

  it('leaves the console sign-in form alone: it is not a JSON API', async () => {
    const res = await t.http
      .post('/console/login')
      .set('origin', t.url)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('email=nobody%40example.com&password=wrong');
    // The form reached its handler, which refuses it for want of a CSRF token (an HTML page, not a JSON error).
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).not.toContain('Content-Type must be application/json');
  });
});
