import { parseSsoEnv } from './sso.config';

const base = {
  OUTPOST_OIDC_ISSUER: 'https://id.example.com/realms/acme',
  OUTPOST_OIDC_CLIENT_ID: 'outpost',
  OUTPOST_OIDC_CLIENT_SECRET: 'secret',
};

describe('parseSsoEnv', () => {
  it('is off without an issuer', () => {
    expect(parseSsoEnv({})).toEqual({ oidc: undefined });
  });

  it('reads the provider, naming the button by the host by default', () => {
    expect(parseSsoEnv(base).oidc).toEqual({
      issuer: base.OUTPOST_OIDC_ISSUER,
      clientId: 'outpost',
      clientSecret: 'secret',
      name: 'id.example.com',
      allowedDomains: [],
      join: undefined,
    });
  });

  it('reads the domains and the workspace to join with its role', () => {
    const oidc = parseSsoEnv({
      ...base,
      OUTPOST_OIDC_NAME: 'Acme ID',
      OUTPOST_OIDC_ALLOWED_DOMAINS: 'Example.com,corp.example.org',
      OUTPOST_OIDC_WORKSPACE: 'org_01JABCDEFGHJKMNPQRSTVWXYZ0',
      OUTPOST_OIDC_ROLE: 'admin',
    }).oidc;
    expect(oidc).toMatchObject({
      name: 'Acme ID',
      allowedDomains: ['example.com', 'corp.example.org'],
      join: { workspaceId: 'org_01JABCDEFGHJKMNPQRSTVWXYZ0', role: 'admin' },
    });
  });

  it('refuses a missing client, a bad domain, an owner role or a bad issuer', () => {
    expect(() => parseSsoEnv({ ...base, OUTPOST_OIDC_CLIENT_SECRET: '' })).toThrow(
      'OUTPOST_OIDC_CLIENT_SECRET must be set with OUTPOST_OIDC_ISSUER',
    );
    expect(() => parseSsoEnv({ ...base, OUTPOST_OIDC_ALLOWED_DOMAINS: '*.example.com' })).toThrow(
      'OUTPOST_OIDC_ALLOWED_DOMAINS',
    );
    expect(() => parseSsoEnv({ ...base, OUTPOST_OIDC_ROLE: 'owner' })).toThrow(
      'OUTPOST_OIDC_ROLE must be one of',
    );
    expect(() => parseSsoEnv({ ...base, OUTPOST_OIDC_ISSUER: 'id.example.com' })).toThrow(
      'OUTPOST_OIDC_ISSUER',
    );
  });
});
