/**
 * Every action the console records in the audit log. `AuditService.record` takes only these, and the console's
 * audit page offers them as its filter, so neither can name one the other does not know.
 */
export const AUDIT_ACTIONS = [
  'workspace.created',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.password_reset_link',
  'invite.revoked',
  'service_account.created',
  'service_account.renamed',
  'service_account.deleted',
  'key.created',
  'key.revoked',
  'key.updated',
  'token.created',
  'token.revoked',
  'budget.member_set',
  'budget.member_cleared',
  'budget.default_set',
  'budget.workspace_set',
  'config.updated',
  'connection.created',
  'connection.updated',
  'connection.deleted',
  'search_provider.created',
  'search_provider.updated',
  'search_provider.deleted',
  'device.approved',
  'device.denied',
  'device.signed_in',
  'device.signed_out',
  'device.refresh_reused',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
