import { InvalidInferenceRequestError } from './gateway.errors';
import { memberSpans, providerRequest } from './provider-request';

type Json = Record<string, unknown>;

const request = (text: string, upstream = 'small', stream = false, schema = 'openai-chat' as const) =>
  providerRequest(schema, JSON.parse(text) as Json, text, upstream, stream);

/** A value with the characters a scanner trips on: quotes, backslashes, brackets in strings, escapes, nesting. */
function randomValue(depth: number, seed: { n: number }): unknown {
  const next = () => (seed.n = (seed.n * 1103515245 + 12345) % 2147483648) / 2147483648;
  const tricky = ['"model":"x"', '\\', '\\"', '{[', ']}', 'é ✓ \u2028', '\n\t', ',', '"', 'model'];
  const pick = next();
  if (depth > 3 || pick < 0.3) return tricky[Math.floor(next() * tricky.length)] + String(next());
  if (pick < 0.4) return [null, true, false, -1.5e-7, 42][Math.floor(next() * 5)];
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(depth + 1, seed));
  const object: Json = {};
  for (let i = 0; i < 4; i++)
    object[tricky[Math.floor(next() * tricky.length)]] = randomValue(depth + 1, seed);
  return object;
}

describe("the provider's request", () => {
  it('writes the provider model id into the caller text and keeps every other byte', () => {
    const text =
      '{ "messages" : [ {"role":"user","content":"say \\"model\\": {x}"} ],\n  "model" :  "up/small" , "n":1 }';
    expect(request(text)).toBe(
      '{ "messages" : [ {"role":"user","content":"say \\"model\\": {x}"} ],\n  "model" :  "small" , "n":1 }',
    );
  });

  it('asks a streamed chat for its usage; keeps a request that already does, as written', () => {
    expect(request('{"model":"small","stream":true}', 'small', true)).toBe(
      '{"model":"small","stream":true,"stream_options":{"include_usage":true}}',
    );
    const asking = '{"model":"small","stream":true,"stream_options":{"include_usage":true}}';
    expect(request(asking, 'small', true)).toBe(asking);
    const other = JSON.parse(request('{"model":"small","stream_options":{"x":1}}', 'small', true)) as Json;
    expect(other.stream_options).toEqual({ x: 1, include_usage: true });
    expect(request('{"model":"small","stream":true}', 'small', true, 'anthropic' as never)).toBe(
      '{"model":"small","stream":true}',
    );
  });

  it('serializes the body again when `model` is written twice, so no provider can read the other one', () => {
    const twice = '{"model":"up/cheap","messages":[],"model":"up/small"}';
    const sent = request(twice);
    expect(JSON.parse(sent)).toEqual({ model: 'small', messages: [] });
    expect(memberSpans(sent, 'model')).toHaveLength(1);
    const escaped = '{"mod\\u0065l":"up/cheap","model":"up/small"}';
    expect(memberSpans(escaped, 'model')).toHaveLength(2);
    expect(JSON.parse(request(escaped))).toEqual({ model: 'small' });
  });

  it('serializes when there is no caller text, and refuses a body too deep to serialize with a 400', () => {
    expect(providerRequest('openai-chat', { model: 'up/small', a: 1 }, undefined, 'small', false)).toBe(
      '{"model":"small","a":1}',
    );
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let refused: unknown;
    try {
      providerRequest('openai-chat', { model: 'x', deep }, undefined, 'small', false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(InvalidInferenceRequestError);
    expect((refused as InvalidInferenceRequestError).toBody()).toMatchObject({ field: 'body' });
  });

  it('agrees with JSON.parse on 2,000 random bodies', () => {
    const seed = { n: 7 };
    for (let i = 0; i < 2000; i++) {
      const body = { ...(randomValue(0, seed) as Json), model: `up/m${i}` };
      if (typeof body !== 'object') continue;
      const stream = i % 2 === 0;
      const text = i % 3 === 0 ? JSON.stringify(body, null, 2) : JSON.stringify(body);
      const sent = JSON.parse(request(text, `m${i}`, stream)) as Json;
      const expected: Json = { ...JSON.parse(text), model: `m${i}` };
      if (stream) expected.stream_options = { ...(expected.stream_options as Json), include_usage: true };
      expect(sent).toEqual(expected);
    }
  });
});
