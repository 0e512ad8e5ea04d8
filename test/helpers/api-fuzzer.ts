import fc from 'fast-check';

/** One request the fuzzer sends: built from an operation of the API documents, with hostile values. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  credentials: 'none' | 'instance' | 'console' | 'inference';
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
};
type Operation = { parameters?: Array<{ name: string; in: string; schema?: Schema }>; requestBody?: unknown };
export type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

/** Strings that have broken servers: NUL, huge, unicode, SQL and path tricks, numbers as strings. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'a\udfffb',
    'small',
    '../../etc/passwd',
    "' OR 1=1 --",
    '%00',
    '%',
    '💥'.repeat(50),
    'ses_',
    'org_x',
    '-1',
    '1e309',
    'null',
    '{}',
    '[]',
  ),
);

/** In bodies, also strings far longer than any limit. */
const nastyValue = fc.oneof(
  { weight: 9, arbitrary: nasty },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 5_000, max: 70_000 }), fc.constantFrom('x', 'é', '\u0000', '%', '\ud800'))
      .map(([n, c]) => c.repeat(n)),
  },
);

/** Any JSON value, deep and odd: the shape a field is not meant to have. */
const junk: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyValue,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
  ),
})).value;

function resolve(document: Document, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref) return document.components?.schemas?.[schema.$ref.split('/').pop()!];
  return schema;
}

/** A value shaped like the schema most of the time, with hostile leaves and, sometimes, the wrong shape. */
function shaped(document: Document, schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(document, schema);
  if (!s || depth > 4) return junk;
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), junk);
  if (s.properties) {
    const members = Object.fromEntries(
      Object.entries(s.properties).map(([key, value]) => [key, shaped(document, value, depth + 1)]),
    );
    return fc.oneof(
      { weight: 4, arbitrary: fc.record(members, { requiredKeys: [] }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.record(members, { requiredKeys: [] }), fc.dictionary(nasty, junk, { maxKeys: 2 }))
          .map(([a, b]) => ({ ...b, ...a })),
      },
      { weight: 1, arbitrary: junk },
    );
  }
  if (s.items) return fc.oneof(fc.array(shaped(document, s.items, depth + 1), { maxLength: 3 }), junk);
  return junk;
}

/** Percent-encoded as UTF-8; a lone surrogate (which UTF-8 cannot hold) as the bytes CESU-8 would send. */
function encode(value: string): string {
  return value
    .split(/(\p{Cs})/u)
    .map((part) =>
      /^\p{Cs}$/u.test(part)
        ? `%${[0xe0 | (part.charCodeAt(0) >> 12), 0x80 | ((part.charCodeAt(0) >> 6) & 63), 0x80 | (part.charCodeAt(0) & 63)].map((b) => b.toString(16).toUpperCase()).join('%')}`
        : encodeURIComponent(part),
    )
    .join('');
}

function pathWith(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_all, name: string) => encode(values[name] ?? 'x'));
}

/** A model call the gateway reads through, so the connection named in its path is looked up. */
const MODEL_CALLS: Record<string, object> = {
  'chat/completions': { model: 'small', messages: [{ role: 'user', content: 'hi' }] },
  responses: { model: 'small', input: 'hi' },
  messages: { model: 'small', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  'messages/count_tokens': { model: 'small', messages: [{ role: 'user', content: 'hi' }] },
  embeddings: { model: 'small', input: 'hi' },
  completions: { model: 'small', prompt: 'hi' },
};

/** Path segments sent as they are, not %-encoded: bad and edge encodings, and one past the longest parameter. */
const RAW_SEGMENTS = fc.constantFrom(
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%',
  '%ZZ',
  '%ED%A0%80',
  '%C0%80',
  'x'.repeat(1_001),
);

/**
 * Model calls with a key, answered on the gateway's raw lane (src/common/http/http-lanes.ts) rather than by
 * Fastify's routes: every lane route with a path parameter (`/inference/custom/{connection}/…`, with and without
 * the SDKs' `/v1`), a hostile parameter and a body the gateway reads through.
 */
function laneRequests(documents: Document[]): fc.Arbitrary<FuzzRequest> | undefined {
  const tails = documents
    .flatMap((document) => Object.entries(document.paths))
    .filter(([path, methods]) => path.startsWith('/inference/custom/{connection}/') && methods.post)
    .map(([path]) => path.slice('/inference/custom/{connection}/'.length))
    .filter((tail) => MODEL_CALLS[tail]);
  if (tails.length === 0) return undefined;
  return fc
    .tuple(
      fc.constantFrom(...tails),
      fc.oneof(nasty.map(encode), RAW_SEGMENTS),
      fc.constantFrom('', '/v1'),
      fc.constantFrom('', '/', '?trace=1'),
      fc.constantFrom<Record<string, string>>(
        { 'content-type': 'application/json' },
        { 'content-type': 'text/plain' },
      ),
    )
    .map(([tail, connection, v1, end, headers]) => ({
      method: 'POST',
      path: `/inference/custom/${connection}${v1}/${tail}${end}`,
      headers,
      body: JSON.stringify(MODEL_CALLS[tail]),
      credentials: 'inference' as const,
    }));
}

/**
 * Requests for every operation of the documents, `count` in all, the same ones for the same seed; one in twenty a
 * model call on the gateway's raw lane with a fuzzed path parameter.
 */
export function fuzzRequests(documents: Document[], count: number, seed: number): FuzzRequest[] {
  const operations = documents.flatMap((document) =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ document, path, method, operation })),
    ),
  );
  const request = fc.constantFrom(...operations).chain(({ document, path, method, operation }) => {
    const parameters = operation.parameters ?? [];
    const pathParams = fc.record(
      Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, nasty])),
    );
    const query = fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            ...parameters.filter((p) => p.in === 'query').map((p) => p.name),
            'location[directory]',
            'directory',
            'x',
          ),
          nasty,
        ),
        fc.oneof(nasty, fc.constantFrom('true', '0', '1000', 'asc')),
      ),
      { maxLength: 4 },
    );
    const bodySchema = (
      operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined
    )?.content?.['application/json']?.schema;
    const body = fc.oneof(
      { weight: 5, arbitrary: shaped(document, bodySchema).map((value) => JSON.stringify(value ?? null)) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '{',
          '[]',
          '"x"',
          '{"a":' + '['.repeat(2_000),
          'null',
          '{"__proto__":{"x":1}}',
        ),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 65, max: 3_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
      },
    );
    return fc.record({
      method: fc.constant(method.toUpperCase()),
      path: fc.tuple(pathParams, query).map(([values, pairs]) => {
        const search = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
        return pathWith(path, values) + (search ? `?${search}` : '');
      }),
      headers: fc.constantFrom<Record<string, string>>(
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'text/plain' },
        { 'x-org-id': 'org_01XYZ', 'content-type': 'application/json' },
      ),
      body: method === 'get' || method === 'delete' ? fc.constant(undefined) : body,
      credentials: path.startsWith('/inference/')
        ? fc.constantFrom<FuzzRequest['credentials']>('none', 'console', 'inference', 'inference')
        : fc.constantFrom<FuzzRequest['credentials']>('none', 'instance', 'console'),
    });
  });
  const lane = laneRequests(documents);
  const any = lane ? fc.oneof({ weight: 19, arbitrary: request }, { weight: 1, arbitrary: lane }) : request;
  return fc.sample(any, { seed, numRuns: count });
}
