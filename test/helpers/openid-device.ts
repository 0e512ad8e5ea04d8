import { Client as PgClient } from 'pg';
import { BaseClient, Issuer } from 'openid-client';
import { TestApp } from './test-app';
import { SecretHasher } from '../../src/modules/console-access/secret-hasher';

/** An `openid-client` (a real OAuth library, not ours) configured for the console's device endpoints. */
export function oauthClient(t: TestApp, clientId = 'opencode-cli'): BaseClient {
  const issuer = new Issuer({
    issuer: `${t.url}/console`,
    token_endpoint: `${t.url}/console/auth/device/token`,
    device_authorization_endpoint: `${t.url}/console/auth/device/code`,
  });
  return new issuer.Client({ client_id: clientId, token_endpoint_auth_method: 'none' });
}

/**
 * Resolves once the client has polled `userCode`'s request at least once (the server recorded the poll):
 * the point where the person has not approved yet, so the client saw `authorization_pending`.
 */
export async function polledOnce(t: TestApp, userCode: string): Promise<void> {
  const db = new PgClient({ connectionString: t.databaseUrl });
  await db.connect();
  try {
    for (;;) {
      const { rows } = await db.query(
        'SELECT last_polled_at FROM device_authorization WHERE user_code_hash = $1',
        [t.app.get(SecretHasher).hash(userCode.replace('-', ''))],
      );
      if (rows[0]?.last_polled_at) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await db.end();
  }
}
