import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../../helpers/test-app';

type Schema = Record<string, unknown>;
interface Response {
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, Response>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/** POST routes that take no body at all. */
const BODILESS = new Set([
  'server.pair',
  'location.reload',
  'session.interrupt',
  'session.wait',
  'pty.create',
  'auth.logout',
  'invite.accept',
  'member.passwordReset',
  'consoleLink.signOut',
  'session.compact',
  'session.revert.commit',
  'session.revert.clear',
  'session.question.reject',
  'connections.test',
]);

function operations(document: Document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method,
      operation,
    })),
  );
}

/** A schema that says something: a reference, a type, or a combination; never `{}`. */
function meaningful(schema: Schema | undefined, document: Document): boolean {
  if (!schema) return false;
  if (typeof schema.$ref === 'string') {
    const target = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    return (
      !!target && (target.type !== undefined || target.properties !== undefined || target.allOf !== undefined)
    );
  }
  return ['type', 'oneOf', 'anyOf', 'allOf'].some((key) => schema[key] !== undefined);
}

describe('API documents: every operation complete, and the typed clients generated from them', () => {
  let t: TestApp;
  const documents: Record<string, Document> = {};
  beforeAll(async () => {
    t = await createTestApp();
    for (const name of ['instance', 'console']) {
      documents[name] = (await t.http.get(`/docs/${name}.json`).expect(200)).body;
    }
  });
  afterAll(() => t.close());

  it.each(['instance', 'console'])(
    '%s: every operation has a success response with a schema (or a 204, or only redirects)',
    (name) => {
      const document = documents[name];
      const problems: string[] = [];
      for (const { name: op, operation } of operations(document)) {
        const success = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
        // A browser's round trip (sign-in with an identity provider) answers only with redirects.
        const redirects = Object.keys(operation.responses).some((status) => /^3\d\d$/.test(status));
        if (success.length === 0 && !redirects) problems.push(`${op}: no success response`);
        for (const [status, response] of success) {
          if (status === '204') continue;
          const media = Object.values(response.content ?? {});
          if (media.length === 0 || !media.every((entry) => meaningful(entry.schema, document))) {
            problems.push(`${op}: ${status} without a schema`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(operations(document).length).toBeGreaterThan(30);
    },
  );

  it.each(['instance', 'console'])('%s: request bodies and error bodies are documented', (name) => {
    const document = documents[name];
    const problems: string[] = [];
    for (const { name: op, method, operation } of operations(document)) {
      if (['post', 'put', 'patch'].includes(method) && !BODILESS.has(operation.operationId!)) {
        const media = Object.values(operation.requestBody?.content ?? {});
        if (media.length === 0 || !media.every((entry) => meaningful(entry.schema, document))) {
          problems.push(`${op}: no request body schema`);
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400 && !meaningful(response.content?.['application/json']?.schema, document)) {
          problems.push(`${op}: ${status} without an error body`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every {name} of a path is a declared path parameter (a generated client must fill it)', () => {
    const problems: string[] = [];
    for (const document of Object.values(documents)) {
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          const declared = (
            (operation as { parameters?: Array<{ in: string; name: string }> }).parameters ?? []
          )
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
            if (!declared.includes(name)) problems.push(`${method} ${path}: {${name}}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('operation ids are unique in each document (the generated clients key operations by them)', () => {
    for (const document of Object.values(documents)) {
      const ids = operations(document).map(({ operation }) => operation.operationId);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    }
  });

  it('session.list documents its page and session.remove its 204 (once missing)', () => {
    const instance = documents.instance;
    expect(instance.paths['/api/session'].get.responses['200'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SessionsPageDto',
    });
    expect(instance.components.schemas.SessionInfoDto).toMatchObject({
      required: expect.arrayContaining(['id', 'projectID', 'cost', 'tokens', 'time', 'title', 'location']),
    });
    expect(Object.keys(instance.paths['/api/session/{sessionID}'].delete.responses)).toContain('204');
  });

  it('web/shared/api/{instance,console}.ts are what openapi-typescript makes of the served documents', async () => {
    // Asynchronously: the server answering the script runs in this process.
    const script = join(__dirname, '..', '..', '..', 'scripts', 'api-generate.mjs');
    const run = await promisify(execFile)(process.execPath, [script, '--check', '--from', t.url]).catch(
      (failure: { code: number; stdout: string; stderr: string }) => failure,
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('match the API documents');
  });
});
