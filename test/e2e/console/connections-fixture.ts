/**
 * The app the BYOK connection tests run against (the Providers family's console side:
 * `/console/api/orgs/{org}/connections`, and `forInference()`), its people and keys, their helpers, and every answer
 * they kept. Call `useConnectionsApp()` inside a describe: `t`, `db`, `service`, the people and the keys are set
 * from then on; once its tests are done, no kept answer may carry a credential.
 */
import { Client } from 'pg';
import request from 'supertest';
import { ConnectionsService } from '@/modules/connections/connections.service';
import { Person, signupTeam } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

export const SECRET = 'connections-test-secret-0123456789abcdef-0123456789';
export const CREDENTIAL = 'sk-live-PLAINTEXT-credential-7f3a9Q';
export const NEW_CREDENTIAL = 'sk-live-ROTATED-credential-b21cXyZ9';

export interface ConnectionBody {
  id: string;
  name: string;
  base_url: string;
  schema: string;
  auth: { mode: string; header?: string; credential_last4: string | null };
  models: Record<string, { name: string; prices?: Record<string, number> }>;
  inference_url: string;
  created_at: string;
  updated_at: string;
}

export const validBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Together',
  base_url: 'https://api.together.example/v1/',
  schema: 'openai-chat',
  auth: { mode: 'bearer', credential: CREDENTIAL },
  models: {
    'meta-llama/Llama-3-70b': { name: 'Llama 3 70B', prices: { input: 0.9, output: 2.5 } },
    'mistral-small': { name: 'Mistral Small' },
  },
  ...overrides,
});

export let t: TestApp;
export let db: Client;
export let service: ConnectionsService;
export let owner: Person;
export let admin: Person;
export let member: Person;
export let stranger: Person;
export let allKey: string;
export let inferenceKey: string;
/** Every answer any test received, to check that no credential ever appears in one. */
export const answers: string[] = [];

export const base = (org = owner.org) => `/console/api/orgs/${org}/connections`;
export const keep = (res: request.Response) => {
  answers.push(JSON.stringify({ headers: res.headers, body: res.body, text: res.text }));
  return res;
};
export const create = async (person: Person, body: object = validBody()) =>
  keep(await person.post(base(), body));
/** Creates a connection named `name` as `person`, and answers its id. */
export const createNamed = async (person: Person, name: string) => {
  const res = await create(person, validBody({ name }));
  expect(res.status).toBe(201);
  return res.body.id as string;
};
export const rowCount = async () =>
  Number((await db.query('SELECT count(*) AS n FROM connection')).rows[0].n as string);
export const auditEntries = async () => {
  const res = keep(await owner.get(`/console/api/orgs/${owner.org}/audit?limit=200`));
  expect(res.status).toBe(200);
  return (
    res.body.entries as Array<{ action: string; target: { type: string; id: string }; details: object }>
  ).filter((e) => e.action.startsWith('connection.'));
};

/** Starts the app with its people and keys before the describe's tests; after them, stops it and checks `answers`. */
export function useConnectionsApp(): void {
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET } });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    service = t.app.get(ConnectionsService);
    ({ owner, admin, member, stranger, allKey, inferenceKey } = await signupTeam(t, {
      owner: 'owner@example.com',
      admin: 'admin@example.com',
      member: 'member@example.com',
      stranger: 'stranger@example.com',
    }));
  });
  afterAll(async () => {
    await db.end();
    await t.close();
    // Every file checks its own answers, whether or not it has a test that does.
    for (const answer of answers) {
      expect(answer).not.toContain(CREDENTIAL);
      expect(answer).not.toContain(NEW_CREDENTIAL);
    }
  });
}
