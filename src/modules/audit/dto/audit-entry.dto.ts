export class AuditEntryDto {
  id!: string;
  /** ISO-8601 time of the change. */
  time!: string;
  actor!: { type: 'user' | 'service_account' | 'system'; id: string | null };
  /** e.g. `member.invited`, `member.role_changed`, `key.created`, `key.revoked`. */
  action!: string;
  target!: { type: string; id: string };
  details!: Record<string, unknown>;
  source_address!: string | null;
}

export class AuditPageDto {
  entries!: AuditEntryDto[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor!: string | null;
}
