import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { TableChanges } from '@/database/table-changes';
import { ResolvedCredential } from './console-principal';

/** The tables whose changes can end or change a bearer credential (their triggers notify `TableChanges`). */
export const CREDENTIAL_TABLES = new Set([
  'api_key',
  'user_token',
  'device_token',
  'device_session',
  'service_account',
  'membership',
  'workspace',
  'users',
]);
/** A cached credential is looked up again after this, so `last used` keeps moving for busy keys. */
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  credential: ResolvedCredential;
  storedAt: number;
}

/**
 * Bearer credentials (API keys, user tokens, device tokens) already checked, by token and requested
 * workspace, so the hot paths (the inference gateway above all) skip the lookup query. It serves only while
 * `TableChanges` is live, and empties on any change of a credential table committed by any process, so a
 * revocation, a removed member or a deleted workspace is refused at once everywhere; an expiry is checked on
 * every use. A lookup that raced a change is not stored (the generation moved on).
 */
@Injectable()
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly changes: TableChanges,
    private readonly clock: Clock,
  ) {
    changes.onChange((table) => {
      if (table === '*' || CREDENTIAL_TABLES.has(table)) this.clear();
    });
  }

  /** A token to remember on the way to `set`, so a lookup that raced a change is dropped. */
  begin(): number {
    return this.generation;
  }

  get(key: string): ResolvedCredential | undefined {
    if (!this.changes.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.clock.now();
    const expired = entry.credential.expiresAt && entry.credential.expiresAt.getTime() <= now;
    if (expired || entry.storedAt + MAX_AGE_MS <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.credential;
  }

  set(key: string, credential: ResolvedCredential, generation: number): void {
    if (!this.changes.live || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { credential, storedAt: this.clock.now() });
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
