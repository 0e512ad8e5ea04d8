import { ConfigType } from '@nestjs/config';
import { ConfigError, oneOf, optionalStr } from '@/config/env';
import { configFromEnv } from '@/config/validate-env';
import type { Role } from '../console-access/console-principal';
import { parseDomains } from './email-domain';

const JOIN_ROLES = ['member', 'admin'] as const;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button says "Sign in with <name>". */
  name: string;
  /** Emails outside them are refused; empty: any. */
  allowedDomains: string[];
  /** The workspace every sign-in through the provider joins, with this role. */
  join?: { workspaceId: string; role: Role };
}

function required(env: Record<string, string | undefined>, name: string): string {
  const value = optionalStr(env, name);
  if (value === undefined) throw new ConfigError(name, 'must be set with OUTPOST_OIDC_ISSUER');
  return value;
}

/** Console sign-in with the company's identity provider (OpenID Connect), when `OUTPOST_OIDC_ISSUER` is set. */
export function parseSsoEnv(env: Record<string, string | undefined>): { oidc: OidcSettings | undefined } {
  const issuer = optionalStr(env, 'OUTPOST_OIDC_ISSUER');
  if (issuer === undefined) return { oidc: undefined };
  let url: URL | undefined;
  try {
    url = new URL(issuer);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new ConfigError(
      'OUTPOST_OIDC_ISSUER',
      `must be the issuer's URL like https://id.example.com (got "${issuer}")`,
    );
  }
  const allowedDomains = parseDomains(optionalStr(env, 'OUTPOST_OIDC_ALLOWED_DOMAINS'));
  if (!allowedDomains) {
    throw new ConfigError(
      'OUTPOST_OIDC_ALLOWED_DOMAINS',
      'must be a comma-separated list of domains like example.com',
    );
  }
  const workspaceId = optionalStr(env, 'OUTPOST_OIDC_WORKSPACE');
  if (workspaceId !== undefined && !/^org_[0-9A-Za-z]{10,36}$/.test(workspaceId)) {
    throw new ConfigError(
      'OUTPOST_OIDC_WORKSPACE',
      `must be a workspace id like org_01J… (got "${workspaceId}")`,
    );
  }
  const role = oneOf<(typeof JOIN_ROLES)[number]>(env, 'OUTPOST_OIDC_ROLE', JOIN_ROLES, 'member');
  return {
    oidc: {
      issuer,
      clientId: required(env, 'OUTPOST_OIDC_CLIENT_ID'),
      clientSecret: required(env, 'OUTPOST_OIDC_CLIENT_SECRET'),
      name: optionalStr(env, 'OUTPOST_OIDC_NAME') ?? url.hostname,
      allowedDomains,
      join: workspaceId ? { workspaceId, role } : undefined,
    },
  };
}

export const ssoConfig = configFromEnv('sso', parseSsoEnv);
export type SsoConfig = ConfigType<typeof ssoConfig>;
