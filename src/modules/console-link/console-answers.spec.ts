import {
  ConsoleAnswerError,
  consoleConfigAnswer,
  deviceCodeAnswer,
  tokenAnswer,
  workspaceNameAnswer,
} from './console-answers';

const ORIGIN = 'http://console.test';
const code = {
  device_code: 'dc',
  user_code: 'ABCD-EFGH',
  verification_uri: '/console/device',
  verification_uri_complete: '/console/device?user_code=ABCD-EFGH',
  expires_in: 600,
  interval: 5,
};

describe('a console device-code answer', () => {
  it('is read as given when well formed, the page resolved against the console', () => {
    expect(deviceCodeAnswer(ORIGIN, code)).toEqual({
      deviceCode: 'dc',
      userCode: 'ABCD-EFGH',
      link: 'http://console.test/console/device?user_code=ABCD-EFGH',
      expiresInSeconds: 600,
      intervalSeconds: 5,
    });
  });

  it.each([
    [{}, 'device_code'],
    [null, 'body'],
    [[], 'body'],
    [{ ...code, expires_in: undefined }, 'expires_in'],
    [{ ...code, expires_in: 'soon' }, 'expires_in'],
    [{ ...code, expires_in: -1 }, 'expires_in'],
    [{ ...code, expires_in: Number.NaN }, 'expires_in'],
    [{ ...code, interval: '5' }, 'interval'],
    [{ ...code, device_code: 7 }, 'device_code'],
    [{ ...code, user_code: '' }, 'user_code'],
    [{ ...code, verification_uri_complete: 'javascript:alert(1)' }, 'verification_uri_complete'],
  ])('%j is refused, naming %s and the console', (answer, field) => {
    const refused = (() => {
      try {
        deviceCodeAnswer(ORIGIN, answer);
      } catch (error) {
        return error as ConsoleAnswerError;
      }
    })();
    expect(refused).toBeInstanceOf(ConsoleAnswerError);
    expect(refused?.field).toBe(field);
    expect(refused?.message).toContain(ORIGIN);
  });

  it('polls every 5 s when the console gives no interval (RFC 8628), never faster than once a second', () => {
    expect(deviceCodeAnswer(ORIGIN, { ...code, interval: undefined }).intervalSeconds).toBe(5);
    expect(deviceCodeAnswer(ORIGIN, { ...code, interval: 0.001 }).intervalSeconds).toBe(1);
  });

  it('polls for an hour at most, whatever expires_in says', () => {
    expect(deviceCodeAnswer(ORIGIN, { ...code, expires_in: 1e12 }).expiresInSeconds).toBe(3600);
  });

  it('falls back to verification_uri when the complete link is missing', () => {
    const { verification_uri_complete: _, ...plain } = code;
    expect(deviceCodeAnswer(ORIGIN, plain).link).toBe('http://console.test/console/device');
  });
});

describe('a console token answer', () => {
  const tokens = { access_token: 'a', refresh_token: 'r', expires_in: 3600, org_id: 'org_1' };

  it('is read when well formed; org_id may be null or absent', () => {
    expect(tokenAnswer(ORIGIN, tokens)).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      expiresInSeconds: 3600,
      orgId: 'org_1',
    });
    expect(tokenAnswer(ORIGIN, { ...tokens, org_id: undefined }).orgId).toBeNull();
  });

  it.each([
    [{ ...tokens, access_token: undefined }, 'access_token'],
    [{ ...tokens, refresh_token: {} }, 'refresh_token'],
    [{ ...tokens, expires_in: Infinity }, 'expires_in'],
    [{ ...tokens, org_id: 42 }, 'org_id'],
  ])('%j is refused, naming %s', (answer, field) => {
    expect(() => tokenAnswer(ORIGIN, answer)).toThrow(expect.objectContaining({ field }));
  });
});

describe('a workspace config from a console', () => {
  it('keeps well-formed providers and policies and drops the rest', () => {
    const config = consoleConfigAnswer(ORIGIN, {
      providers: {
        good: {
          name: 'Good',
          package: '@ai-sdk/openai',
          settings: { baseURL: 'http://g' },
          models: { m: {} },
        },
        bad: 'not an object',
        odd: { package: 5, settings: 'x', headers: { a: 'b', c: 1 }, models: [] },
      },
      policies: [
        { action: 'provider.use', resource: 'good/*', effect: 'deny' },
        { action: 'provider.use', resource: 'x', effect: 'maybe' },
        null,
      ],
    });
    expect(config).toEqual({
      providers: {
        good: {
          name: 'Good',
          package: '@ai-sdk/openai',
          settings: { baseURL: 'http://g' },
          models: { m: {} },
        },
        odd: { settings: {}, headers: { a: 'b' }, models: {} },
      },
      policies: [{ action: 'provider.use', resource: 'good/*', effect: 'deny' }],
    });
  });

  it('refuses a body that is not an object', () => {
    expect(() => consoleConfigAnswer(ORIGIN, null)).toThrow(ConsoleAnswerError);
    expect(() => consoleConfigAnswer(ORIGIN, 'hello')).toThrow(/the console at http:\/\/console.test/);
  });

  it("keeps remote MCP servers; the console's token goes only to the console's own origin, no other {env:}", () => {
    const token = 'Bearer {env:OPENCODE_CONSOLE_TOKEN}';
    const config = consoleConfigAnswer(ORIGIN, {
      mcp: {
        servers: {
          outpost: {
            type: 'remote',
            url: `${ORIGIN}/console/mcp`,
            headers: { Authorization: token },
            oauth: false,
          },
          elsewhere: { url: 'https://mcp.example.com/mcp', headers: { Authorization: token, 'x-team': 'a' } },
          environment: { url: 'https://mcp.example.com/mcp', headers: { 'x-leak': '{env:DATABASE_URL}' } },
          templated: { url: 'https://{env:HOST}/mcp' },
          local: { type: 'local', command: ['sh'] },
          ftp: { url: 'ftp://mcp.example.com' },
          odd: { url: 'https://mcp.example.com/odd', timeout: -1, enabled: 'yes' },
        },
      },
    });
    expect(config.mcp).toEqual({
      outpost: { url: `${ORIGIN}/console/mcp`, headers: { Authorization: token }, oauth: false },
      elsewhere: { url: 'https://mcp.example.com/mcp', headers: { 'x-team': 'a' } },
      environment: { url: 'https://mcp.example.com/mcp', headers: {} },
      odd: { url: 'https://mcp.example.com/odd' },
    });
  });
});

describe("the workspace's name in a console's answer", () => {
  it('is the name of the workspace asked for, trimmed', () => {
    const orgs = [
      { id: 'org_other', name: 'Other' },
      { id: 'org_1', name: '  Acme  ' },
    ];
    expect(workspaceNameAnswer('org_1', orgs)).toBe('Acme');
  });

  it('loses control characters, so a console cannot send a terminal escape sequence to `outpost login`', () => {
    expect(
      workspaceNameAnswer('org_1', [{ id: 'org_1', name: '\u001b]0;pwned\u0007Acme\u001b[2J\r\n' }]),
    ).toBe(']0;pwnedAcme[2J');
    expect(workspaceNameAnswer('org_1', [{ id: 'org_1', name: 'x'.repeat(500) }])).toHaveLength(200);
  });

  it('is null when the answer does not name it', () => {
    for (const raw of [
      undefined,
      {},
      [],
      [{ id: 'org_2', name: 'B' }],
      [{ id: 'org_1', name: 7 }],
      [{ id: 'org_1', name: ' \u0007 ' }],
    ])
      expect(workspaceNameAnswer('org_1', raw)).toBeNull();
  });
});
