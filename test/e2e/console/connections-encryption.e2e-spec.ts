/**
 * A BYOK connection's credential is encrypted with a key from the server secret: another server with the same
 * secret decrypts it, one with another is refused at start (or, with the secret rotated, cannot decrypt it), and a ciphertext altered or copied to another connection fails.
 */
import { SecretKeyMismatchError } from '@/modules/console-access/console-access.errors';
import { ConnectionCredentialError } from '@/modules/connections/connections.errors';
import { ConnectionsService } from '@/modules/connections/connections.service';
import { createTestApp } from '../../helpers/test-app';
import { CREDENTIAL, NEW_CREDENTIAL, SECRET, useConnectionsApp } from './connections-fixture';
// Set before the tests by useConnectionsApp().
import { db, owner, service, t } from './connections-fixture';
import { base, create, createNamed, keep, validBody } from './connections-fixture';

describe('BYOK connections', () => {
  useConnectionsApp();

  describe('the encryption key comes from the server secret', () => {
    let id: string;

    beforeAll(async () => (id = await createNamed(owner, 'Keyed')));

    it('another server with the same OUTPOST_SECRET_KEY decrypts it; one with another secret is refused, or cannot decrypt it once the secret was rotated', async () => {
      const same = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET }, databaseUrl: t.databaseUrl });
      try {
        expect((await same.app.get(ConnectionsService).forInference(owner.org, id)).credential).toBe(
          CREDENTIAL,
        );
      } finally {
        await same.close();
      }
      const another = { OUTPOST_SECRET_KEY: 'another-secret-of-at-least-32-characters!!' };
      await expect(createTestApp({ env: another, databaseUrl: t.databaseUrl })).rejects.toBeInstanceOf(
        SecretKeyMismatchError,
      );
      // Changed on purpose: the node starts, and what the old secret encrypted is unreadable.
      const other = await createTestApp({
        env: { ...another, OUTPOST_SECRET_KEY_ROTATE: '1' },
        databaseUrl: t.databaseUrl,
      });
      try {
        await expect(other.app.get(ConnectionsService).forInference(owner.org, id)).rejects.toBeInstanceOf(
          ConnectionCredentialError,
        );
      } finally {
        await other.close();
      }
    });

    it('a ciphertext altered or copied onto another connection does not decrypt', async () => {
      const twin = await create(owner, validBody({ name: 'Twin' }));
      expect(twin.status).toBe(201);
      // Copied from `id` onto the twin: bound to its own connection, it does not decrypt there.
      await db.query(
        'UPDATE connection SET credential_cipher = (SELECT credential_cipher FROM connection WHERE id = $1) WHERE id = $2',
        [id, twin.body.id],
      );
      service.invalidate(owner.org, twin.body.id);
      await expect(service.forInference(owner.org, twin.body.id)).rejects.toBeInstanceOf(
        ConnectionCredentialError,
      );
      // One flipped bit of the ciphertext.
      await db.query(
        `UPDATE connection SET credential_cipher = set_byte(credential_cipher, 40, get_byte(credential_cipher, 40) # 1)
          WHERE id = $1`,
        [id],
      );
      service.invalidate(owner.org, id);
      await expect(service.forInference(owner.org, id)).rejects.toBeInstanceOf(ConnectionCredentialError);
      // The console still lists both (it never decrypts), and a new credential repairs it.
      expect(keep(await owner.get(`${base()}/${id}`)).status).toBe(200);
      const repaired = keep(await owner.patch(`${base()}/${id}`, { auth: { credential: NEW_CREDENTIAL } }));
      expect(repaired.status).toBe(200);
      expect((await service.forInference(owner.org, id)).credential).toBe(NEW_CREDENTIAL);
    });
  });
});
