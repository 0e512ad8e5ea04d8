import type { AuditAction } from '@/modules/audit/audit-actions';
import type { components } from '../shared/api/console';
import { day, dollars, usd } from './format';

type Entry = components['schemas']['AuditEntryDto'];
type Details = Record<string, unknown>;

/** Looks up a person's or service account's name by id. */
export type NameOf = (id: string) => string | undefined;

const str = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));
const quoted = (value: unknown) => (str(value) ? `“${str(value)}”` : '');
const withArticle = (role: unknown) => `${str(role) === 'admin' ? 'an' : 'a'} ${str(role)}`;
const limit = (details: Details) =>
  details.limit_micro_cents == null ? 'no limit' : `${dollars(str(details.limit_micro_cents))} a month`;
const keysRevoked = (details: Details) => {
  const count = Number(details.revoked_keys ?? 0);
  return count > 0 ? `; ${count} ${count === 1 ? 'key' : 'keys'} revoked` : '';
};
const list = (value: unknown) => (Array.isArray(value) ? value.map(str).join(', ') : str(value));

/** What an entry is about, by name: a member's name, a key's or connection's name; an id only when nothing else is known. */
export function targetName(entry: Entry, nameOf: NameOf): string {
  const details = entry.details as Details;
  return (
    nameOf(entry.target.id) ??
    (str(details.name) || `${entry.target.type.replace(/_/g, ' ')} ${entry.target.id}`)
  );
}

/** One sentence per entry, saying what changed: "Set Bob’s budget to $500.00 a month". */
export function describe(entry: Entry, nameOf: NameOf): string {
  const d = entry.details as Details;
  const target = targetName(entry, nameOf);
  switch (entry.action as AuditAction) {
    case 'workspace.created':
      return `Created the workspace ${quoted(d.name)}`;
    case 'member.invited':
      return `Invited ${str(d.email)} as ${withArticle(d.role)}${
        d.replaced_earlier_link ? '; the earlier invitation link no longer works' : ''
      }`;
    case 'member.joined':
      return `${target} joined as ${withArticle(d.role)}`;
    case 'member.role_changed':
      return `Changed ${target}’s role from ${str(d.from)} to ${str(d.to)}`;
    case 'member.removed':
      return `Removed ${target} (${str(d.role)})${keysRevoked(d)}`;
    case 'member.password_reset_link':
      return `Made a password reset link for ${target}`;
    case 'invite.revoked':
      return `Revoked the invitation${d.email ? ` of ${str(d.email)}` : ''}`;
    case 'service_account.created':
      return `Added the service account ${quoted(d.name)}`;
    case 'service_account.renamed':
      return `Renamed the service account ${quoted(d.previous_name)} to ${quoted(d.name)}`;
    case 'service_account.deleted':
      return `Removed the service account ${target}${keysRevoked(d)}`;
    case 'key.created': {
      const owner = d.owner ? nameOf(str(d.owner)) : undefined;
      const expires = d.expires_at ? `, expiring ${day(str(d.expires_at))}` : '';
      return `Created the key ${quoted(d.name)}${owner ? ` for ${owner}` : ''} (${permission(d.permission)}${expires})`;
    }
    case 'key.updated':
      return keyChanges(d, target);
    case 'key.revoked':
      return `Revoked the key ${quoted(d.name) || target}`;
    case 'token.created':
      return `Created the user token ${quoted(d.name)}${d.expires_at ? `, expiring ${day(str(d.expires_at))}` : ''}`;
    case 'token.revoked':
      return `Revoked the user token ${quoted(d.name) || target}`;
    case 'budget.member_set':
      return `Set ${target}’s budget to ${limit(d)}`;
    case 'budget.member_cleared':
      return `Removed ${target}’s own budget (the workspace default applies)`;
    case 'budget.default_set':
      return `Set the default budget of members to ${limit(d)}`;
    case 'budget.workspace_set':
      return `Set the workspace’s budget to ${limit(d)}`;
    case 'config.updated':
      return `Changed the settings${d.changed ? `: ${list(d.changed)}` : ''}`;
    case 'connection.created':
      return `Added the connection ${quoted(d.name)}${d.base_url ? ` to ${str(d.base_url)}` : ''}${
        Array.isArray(d.models) && d.models.length ? ` with ${list(d.models)}` : ''
      }`;
    case 'connection.updated':
      return `Changed the connection ${quoted(d.name) || target}${changedFields(d)}`;
    case 'connection.deleted':
      return `Removed the connection ${quoted(d.name) || target}`;
    case 'search_provider.created':
      return `Added the web search provider ${quoted(d.name)}${d.kind ? ` (${str(d.kind)})` : ''}`;
    case 'search_provider.updated':
      return `Changed the web search provider ${quoted(d.name) || target}${changedFields(d)}`;
    case 'search_provider.deleted':
      return `Removed the web search provider ${quoted(d.name) || target}`;
    case 'device.approved':
      return `Approved a sign-in of ${str(d.client_id) || 'a device'}`;
    case 'device.denied':
      return `Denied a sign-in of ${str(d.client_id) || 'a device'}`;
    case 'device.signed_in':
      return `Signed in ${str(d.client_id) || 'a device'}`;
    case 'device.signed_out':
      return `Signed out ${str(d.client_id) || 'a device'}`;
    case 'device.refresh_reused':
      return `A used sign-in of ${str(d.client_id) || 'a device'} was presented again; its sessions were ended`;
    default:
      return `${entry.action.replace(/[._]/g, ' ')} ${target}`;
  }
}

/** The new value of a key's control as a person reads it (`undefined`: not in the entry). */
function controlValue(name: string, d: Details): string {
  const rate = (d.rate_limit ?? {}) as Details;
  const value =
    name === 'rate_limit.requests_per_minute'
      ? rate.requests_per_minute
      : name === 'rate_limit.tokens_per_minute'
        ? rate.tokens_per_minute
        : d[name];
  return shownControl(name, value);
}

function shownControl(name: string, value: unknown): string {
  if (value == null) return name === 'allowed_models' ? 'every model' : 'no limit';
  if (name === 'monthly_budget_dollars') return `${usd.format(Number(value))} a month`;
  if (Array.isArray(value)) return value.length ? list(value) : 'no model';
  return str(value);
}

const CONTROL_WORDS: Record<string, string> = {
  'rate_limit.requests_per_minute': 'requests per minute',
  'rate_limit.tokens_per_minute': 'tokens per minute',
  allowed_models: 'allowed models',
  monthly_budget_dollars: 'monthly budget',
};

/**
 * "Changed the key “ci”: requests per minute from no limit to 60; monthly budget from $5.00 a month to $10.00 a
 * month", or "Renamed the key “old” to “new”"; older entries (no `previous`) name the new values only.
 */
function keyChanges(d: Details, target: string): string {
  const changed = (Array.isArray(d.changed) ? d.changed : []).map(str);
  const previous = (d.previous ?? undefined) as Details | undefined;
  const parts: string[] = [];
  let renamed = '';
  for (const name of changed) {
    if (name === 'name') {
      renamed = previous ? `Renamed the key ${quoted(previous.name)} to ${quoted(d.name)}` : '';
      continue;
    }
    const words = CONTROL_WORDS[name] ?? name.replace(/[._]/g, ' ');
    const to = controlValue(name, d);
    parts.push(
      previous && name in previous
        ? `${words} from ${shownControl(name, previous[name])} to ${to}`
        : `${words} to ${to}`,
    );
  }
  if (!parts.length) return renamed || `Changed the key ${quoted(d.name) || target}`;
  return `${renamed ? `${renamed}; changed` : `Changed the key ${quoted(d.name) || target}:`} ${parts.join('; ')}`;
}

function permission(value: unknown): string {
  return value === 'inference' ? 'inference only' : value === 'all' ? 'full access' : str(value);
}

/** "; changed: name, base URL" for an update whose details list what changed. */
function changedFields(d: Details): string {
  const changed = d.changed ?? Object.keys(d).filter((key) => key !== 'name');
  const names = (Array.isArray(changed) ? changed : [changed]).map((key) => str(key).replace(/_/g, ' '));
  return names.length ? ` (${names.join(', ')})` : '';
}
