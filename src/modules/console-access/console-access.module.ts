import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { consoleAccessConfig } from './console-access.config';
import { ConsoleAuthenticator } from './console.authenticator';
import { CredentialCache } from './credential-cache';
import { CredentialLookupRepository } from './credential-lookup.repository';
import { SecretFingerprint } from './secret-fingerprint';
import { SecretFingerprintRepository } from './secret-fingerprint.repository';
import { SecretHasher } from './secret-hasher';

/**
 * Who may call the console API and the gateway: the one authenticator of `/console/api/` (cookie sessions, API
 * keys, user tokens, and the bearer credentials other modules register, such as device tokens), the credential
 * formats and their keyed hashes, the principal, actor and role checks every console module uses. It imports no
 * console module, so keys, identity, workspaces and audit all build on it without importing one another back.
 */
@Module({
  imports: [ConfigModule.forFeature(consoleAccessConfig)],
  providers: [
    SecretHasher,
    SecretFingerprint,
    SecretFingerprintRepository,
    CredentialLookupRepository,
    CredentialCache,
    ConsoleAuthenticator,
  ],
  exports: [SecretHasher, CredentialLookupRepository, CredentialCache, ConsoleAuthenticator],
})
export class ConsoleAccessModule {}
