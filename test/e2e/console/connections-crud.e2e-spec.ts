/**
 * BYOK connections created, read, changed and deleted by an owner: the credential shown only as its last four
 * characters and stored only encrypted, the gateway's view of it within a second of each change, the audit trail.
 */
import { whenSeen } from '../../helpers/fleet';
import { bearer } from '../../helpers/console';
import { ConnectionNotFoundError } from '@/modules/connections/connections.errors';
import { ConnectionBody, CREDENTIAL, NEW_CREDENTIAL, useConnectionsApp } from './connections-fixture';
// Set before the tests by useConnectionsApp().
import { admin, allKey, db, owner, service, stranger, t } from './connections-fixture';
import { auditEntries, base, create, keep, validBody } from './connections-fixture';

describe('BYOK connections', () => {
  useConnectionsApp();

  describe('CRUD by an owner', () => {
    let created: ConnectionBody;

    it('creates a connection: conn_ id, the credential shown only as its last four characters', async () => {
      const res = await create(owner);
      expect(res.status).toBe(201);
      created = res.body;
      expect(created).toEqual({
        id: expect.stringMatching(/^conn_[0-9A-Z]{26}$/),
        name: 'Together',
        base_url: 'https://api.together.example/v1',
        schema: 'openai-chat',
        auth: { mode: 'bearer', credential_last4: CREDENTIAL.slice(-4) },
        models: {
          'meta-llama/Llama-3-70b': { name: 'Llama 3 70B', prices: { input: 0.9, output: 2.5 } },
          'mistral-small': { name: 'Mistral Small' },
        },
        inference_url: `${t.url}/inference/custom/${created.id}`,
        created_at: expect.any(String),
        updated_at: created.created_at,
      });
    });

    it('lists and gets it the same way', async () => {
      const list = keep(await owner.get(base()));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created]);
      const one = keep(await owner.get(`${base()}/${created.id}`));
      expect(one.status).toBe(200);
      expect(one.body).toEqual(created);
    });

    it('an admin and an All key may read it too', async () => {
      expect(keep(await admin.get(`${base()}/${created.id}`)).body).toEqual(created);
      const res = keep(await t.http.get(base()).set('authorization', bearer(allKey)));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([created]);
    });

    it('keeps only ciphertext in the database: the plain credential is in no column', async () => {
      const { rows } = await db.query(
        `SELECT row_to_json(c)::text AS json, encode(credential_cipher, 'escape') AS raw,
                position(convert_to($2, 'UTF8') IN credential_cipher) AS at, length(credential_cipher) AS size
           FROM connection c WHERE id = $1`,
        [created.id, CREDENTIAL],
      );
      expect(rows).toHaveLength(1);
      const [row] = rows as Array<{ json: string; raw: string; at: number; size: number }>;
      expect(row.at).toBe(0);
      for (const text of [row.json, row.raw]) {
        expect(text).not.toContain(CREDENTIAL);
        expect(text).not.toContain(Buffer.from(CREDENTIAL).toString('base64'));
        expect(text).not.toContain(Buffer.from(CREDENTIAL).toString('hex'));
      }
      // version byte + 12-byte IV + 16-byte tag + ciphertext as long as the credential (GCM is a stream mode)
      expect(row.size).toBe(1 + 12 + 16 + CREDENTIAL.length);
      expect(row.json).toContain('"credential_last4":"' + CREDENTIAL.slice(-4) + '"');
    });

    it('two connections with the same credential get different ciphertexts (random IV)', async () => {
      const second = await create(owner, validBody({ name: 'Twin' }));
      expect(second.status).toBe(201);
      const { rows } = await db.query(
        'SELECT credential_cipher FROM connection WHERE id = ANY($1) ORDER BY id',
        [[created.id, second.body.id]],
      );
      expect(rows).toHaveLength(2);
      expect(Buffer.compare(rows[0].credential_cipher, rows[1].credential_cipher)).not.toBe(0);
      expect(keep(await owner.del(`${base()}/${second.body.id}`)).status).toBe(204);
    });

    it('gives the gateway the decrypted credential and prices in micro-cents per million tokens', async () => {
      const connection = await service.forInference(owner.org, created.id);
      expect(connection).toMatchObject({
        id: created.id,
        workspaceId: owner.org,
        baseUrl: 'https://api.together.example/v1',
        schema: 'openai-chat',
        authMode: 'bearer',
        authHeader: null,
        credential: CREDENTIAL,
      });
      expect(connection.models).toEqual(
        new Map<string, unknown>([
          [
            'meta-llama/Llama-3-70b',
            {
              name: 'Llama 3 70B',
              // $0.90 and $2.50 per million; cache prices default to the input price
              prices: {
                input: 90_000_000n,
                output: 250_000_000n,
                cacheRead: 90_000_000n,
                cacheWrite: 90_000_000n,
              },
            },
          ],
          ['mistral-small', { name: 'Mistral Small', prices: null }],
        ]),
      );
      // Another workspace cannot reach it, even knowing its id.
      await expect(service.forInference(stranger.org, created.id)).rejects.toBeInstanceOf(
        ConnectionNotFoundError,
      );
    });

    it('PATCH replaces the credential (write-only): last4 changes, the gateway sees the new one (every node within a second)', async () => {
      t.clock.advance(1_000);
      const res = keep(
        await owner.patch(`${base()}/${created.id}`, { auth: { credential: NEW_CREDENTIAL } }),
      );
      expect(res.status).toBe(200);
      expect(res.body.auth).toEqual({ mode: 'bearer', credential_last4: NEW_CREDENTIAL.slice(-4) });
      expect(res.body.auth.credential_last4).not.toBe(created.auth.credential_last4);
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect(res.body).toMatchObject({ id: created.id, name: created.name, models: created.models });
      const seen = await whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => !(read instanceof Error) && read.credential === NEW_CREDENTIAL,
      );
      expect(seen.credential).toBe(NEW_CREDENTIAL);
      const { rows } = await db.query(
        `SELECT position(convert_to($2, 'UTF8') IN credential_cipher) AS a,
                position(convert_to($3, 'UTF8') IN credential_cipher) AS b, row_to_json(c)::text AS json
           FROM connection c WHERE id = $1`,
        [created.id, CREDENTIAL, NEW_CREDENTIAL],
      );
      expect(rows[0]).toMatchObject({ a: 0, b: 0 });
      expect(rows[0].json).not.toContain(NEW_CREDENTIAL);
    });

    it('PATCH changes other members and keeps the credential', async () => {
      const res = keep(
        await owner.patch(`${base()}/${created.id}`, {
          name: 'Together AI',
          schema: 'openai-responses',
          auth: { mode: 'header', header: 'x-api-key' },
          models: { 'gpt-x': { name: 'GPT X', prices: { input: 1, output: 2, cache_read: 0.1 } } },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Together AI',
        schema: 'openai-responses',
        auth: { mode: 'header', header: 'x-api-key', credential_last4: NEW_CREDENTIAL.slice(-4) },
        models: { 'gpt-x': { name: 'GPT X', prices: { input: 1, output: 2, cache_read: 0.1 } } },
      });
      const connection = await whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => !(read instanceof Error) && read.authMode === 'header',
      );
      expect(connection).toMatchObject({
        authMode: 'header',
        authHeader: 'x-api-key',
        credential: NEW_CREDENTIAL,
        schema: 'openai-responses',
      });
      expect(connection.models.get('gpt-x')?.prices).toEqual({
        input: 100_000_000n,
        output: 200_000_000n,
        cacheRead: 10_000_000n,
        cacheWrite: 100_000_000n,
      });
      // Back to bearer: the header goes with the mode.
      const back = keep(await owner.patch(`${base()}/${created.id}`, { auth: { mode: 'bearer' } }));
      expect(back.body.auth).toEqual({ mode: 'bearer', credential_last4: NEW_CREDENTIAL.slice(-4) });
    });

    it('PATCH refuses a header with mode bearer, and mode header without one', async () => {
      const header = keep(await owner.patch(`${base()}/${created.id}`, { auth: { header: 'x-api-key' } }));
      expect(header.status).toBe(400);
      expect(header.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'auth.header' });
      const missing = keep(await owner.patch(`${base()}/${created.id}`, { auth: { mode: 'header' } }));
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'auth.header' });
      const models = keep(await owner.patch(`${base()}/${created.id}`, { models: {} }));
      expect(models.status).toBe(400);
      expect(models.body).toMatchObject({ field: 'models' });
      expect(keep(await owner.get(`${base()}/${created.id}`)).body.auth.mode).toBe('bearer');
    });

    it('audits every change, never with the credential', async () => {
      const entries = await auditEntries();
      const mine = entries.filter((e) => e.target.id === created.id);
      expect(mine.map((e) => e.action).reverse()).toEqual([
        'connection.created',
        'connection.updated',
        'connection.updated',
        'connection.updated',
      ]);
      expect(mine.every((e) => e.target.type === 'connection')).toBe(true);
      expect(mine[mine.length - 1].details).toMatchObject({
        name: 'Together',
        base_url: 'https://api.together.example/v1',
        schema: 'openai-chat',
        auth_mode: 'bearer',
        models: ['meta-llama/Llama-3-70b', 'mistral-small'],
      });
      expect(mine[mine.length - 2].details).toEqual({ changed: ['auth.credential'] });
      const { rows } = await db.query(
        `SELECT row_to_json(a)::text AS json FROM audit_entry a WHERE action LIKE 'connection.%'`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const { json } of rows as Array<{ json: string }>) {
        expect(json).not.toContain(CREDENTIAL);
        expect(json).not.toContain(NEW_CREDENTIAL);
      }
    });

    it('DELETE removes it with its credential: then GET is 404, the gateway is refused, and it is audited', async () => {
      expect(keep(await owner.del(`${base()}/${created.id}`)).status).toBe(204);
      const res = keep(await owner.get(`${base()}/${created.id}`));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'NotFound', connection_id: created.id });
      expect(keep(await owner.del(`${base()}/${created.id}`)).status).toBe(404);
      expect(keep(await owner.patch(`${base()}/${created.id}`, { name: 'x' })).status).toBe(404);
      const gone = whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => read instanceof Error,
      );
      await expect(gone).rejects.toBeInstanceOf(ConnectionNotFoundError);
      expect((await db.query('SELECT 1 FROM connection WHERE id = $1', [created.id])).rowCount).toBe(0);
      const deleted = (await auditEntries()).find(
        (e) => e.action === 'connection.deleted' && e.target.id === created.id,
      );
      expect(deleted?.details).toEqual({ name: 'Together AI' });
    });
  });
});
