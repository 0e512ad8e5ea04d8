/**
 * What the gateway refuses and how it fails: bad requests and bodies in the caller's format (the SDKs raise their
 * own error classes), provider failures and retries, only a few of the provider's headers passed on, a dropped
 * stream billed for what was produced, a revoked key refused by every process, a bad catalogue at start-up.
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { bearer, serviceAccountKey } from '../../helpers/console';
import { freePort, startServer } from '../../helpers/processes';
import { createTestApp } from '../../helpers/test-app';
import { anthropic, catalogue, openai, SECRET_KEY, spent, UPSTREAM_OPENAI_KEY } from './gateway-fixture';
// Set before the tests by useGatewayApp().
import { key, owner, t, upstream, useGatewayApp } from './gateway-fixture';

describe('the inference gateway (/inference/*) with the official SDKs', () => {
  useGatewayApp();

  it('a Responses request without input, or to the chat route, is a 400 naming the member', async () => {
    const noInput = await t.http
      .post('/inference/openai/v1/responses')
      .set('authorization', bearer(key))
      .send({ model: 'reason', max_output_tokens: 5 });
    expect(noInput.status).toBe(400);
    expect(noInput.body.error).toMatchObject({ code: 'InvalidInferenceRequestError', param: 'input' });
    const wrongRoute = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'reason', messages: [] });
    expect(wrongRoute.status).toBe(400);
    expect(wrongRoute.body.error.message).toContain('/inference/openai/v1/responses');
  });

  it('errors come in the caller format: the SDKs raise their own error classes', async () => {
    await expect(
      openai('oc_sk_nope_nope').chat.completions.create({ model: 'small', messages: [] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const missing = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'nope', messages: [] });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: {
        message: 'No model "nope" in this gateway\'s catalogue',
        type: 'not_found_error',
        code: 'ModelNotFoundError',
        param: null,
        model: 'nope',
      },
      model: 'nope',
    });
    const bad = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .send({ model: 'claude/haiku', messages: [] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'InvalidInferenceRequestError', field: 'max_tokens' },
    });
    await expect(
      anthropic('oc_sk_bad_bad').messages.create({ model: 'claude/haiku', max_tokens: 5, messages: [] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('a body refused before the gateway reads it (malformed JSON, another content type) is in the caller format too', async () => {
    const malformed = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .set('content-type', 'application/json')
      .send('{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'InvalidRequestError',
        message: expect.stringContaining('Malformed JSON body'),
      },
    });
    const text = await t.http
      .post('/inference/anthropic/v1/messages')
      .set('x-api-key', key)
      .set('content-type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'InvalidRequestError', field: 'content-type' },
    });
    // Elsewhere the tagged form stays.
    const instance = await t.http
      .post('/console/api/auth/signup')
      .set('content-type', 'application/json')
      .send('{"email":');
    expect(instance.body).toMatchObject({ _tag: 'InvalidRequestError' });
  });

  it('a provider 5xx is a 502 keeping its status; a 429 is retried before anything was sent', async () => {
    upstream.script({ error: { status: 503, message: 'down' } });
    const failed = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('api-key', key)
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'UpstreamError', upstream_status: 503 });
    upstream.script(
      { error: { status: 429, message: 'slow down' } },
      { text: 'second try', usage: { input: 1, output: 1 } },
    );
    const retried = await openai().chat.completions.create({
      model: 'small',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(retried.choices[0].message.content).toBe('second try');
  });

  it('the answer carries only content type, cache control, x-request-id and the gateway time; never the provider key', async () => {
    // The provider takes 300 ms: the gateway's own time leaves it out.
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 }, delayMs: 300 });
    const res = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.headers['x-upstream-secret-header']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeDefined();
    const gatewayMs = Number(res.headers['x-outpost-gateway-ms']);
    expect(gatewayMs).toBeGreaterThan(0);
    expect(gatewayMs).toBeLessThan(250);
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_OPENAI_KEY);
  });

  it('a stream the client drops is billed for what was produced', async () => {
    const before = await spent();
    upstream.script({ text: ['x'.repeat(400), 'y'.repeat(400)], hold: true });
    const controller = new AbortController();
    const stream = await openai().chat.completions.create(
      { model: 'small', messages: [{ role: 'user', content: 'long' }], stream: true },
      { signal: controller.signal },
    );
    let received = '';
    try {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta?.content ?? '';
        if (received.length >= 800) controller.abort();
      }
    } catch {
      // the SDK may raise its abort error; either way the client has gone
    }
    expect(received.length).toBe(800);
    for (let i = 0; i < 50 && (await spent()) === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // 800 characters seen: 200 output tokens at least, plus the input estimate.
    expect((await spent()) - before).toBeGreaterThanOrEqual(200n * 200n);
  });

  it('a revoked key is refused within a second by every server process on the database, though keys are cached', async () => {
    const other = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        SCRIPTED_OPENAI_KEY: UPSTREAM_OPENAI_KEY,
        OUTPOST_SECRET_KEY: SECRET_KEY,
      },
    });
    try {
      const victim = await serviceAccountKey(owner, owner.org, 'inference');
      upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
      const viaOther = () =>
        other.http
          .post('/inference/openai/v1/chat/completions')
          .set('authorization', bearer(victim.key))
          .send({ model: 'small', messages: [{ role: 'user', content: 'x' }] });
      // Twice, so the second answer comes from the other process's credential cache.
      upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
      expect((await viaOther()).status).toBe(200);
      expect((await viaOther()).status).toBe(200);
      expect(
        (await owner.del(`/console/api/orgs/${owner.org}/service-accounts/${victim.sa}/keys/${victim.keyId}`))
          .status,
      ).toBe(204);
      const revokedAt = Date.now();
      let after = await viaOther();
      while (after.status !== 401 && Date.now() - revokedAt < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await viaOther();
      }
      expect(after.status).toBe(401);
      expect(after.body.error.type).toBe('authentication_error');
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    } finally {
      await other.close();
    }
  });
});

describe('OUTPOST_GATEWAY_CONFIG is checked at start-up', () => {
  it.each([
    ['providers: 3', 'OUTPOST_GATEWAY_CONFIG file must have a `providers` map'],
    [
      'providers:\n  p:\n    base_url: ftp://x\n    schema: openai-chat\n    api_key_env: K\n    models: {}',
      'providers.p.base_url must be an http(s) URL',
    ],
    [
      'providers:\n  p:\n    base_url: http://x\n    schema: grpc\n    api_key_env: K\n    models: {}',
      'providers.p.schema must be one of openai-chat, openai-responses, anthropic',
    ],
    [
      'providers:\n  p:\n    base_url: http://x\n    schema: anthropic\n    api_key_env: K\n    models:\n      mystery: {}',
      'providers.p.models.mystery.prices is needed',
    ],
  ])('%j: `outpost serve` stops with one line', async (text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-gateway-bad-'));
    writeFileSync(join(dir, 'g.yaml'), text);
    const server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_reached',
      OUTPOST_DATA_DIR: dir,
      OUTPOST_SURFACES: 'console,inference',
      OUTPOST_GATEWAY_CONFIG: join(dir, 'g.yaml'),
    });
    expect(await server.exited).toBe(1);
    const output = server.output().trim();
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(/^outpost: invalid configuration: OUTPOST_GATEWAY_CONFIG /);
    expect(output).toContain(message);
  });
});
