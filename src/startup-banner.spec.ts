import { BannerFacts, nextSteps, startupBanner, startupRecord } from './startup-banner';

const base: BannerFacts = { host: '127.0.0.1', port: 4096, surfaces: ['instance', 'console', 'inference'] };

describe('the start-up banner ends with what to do next', () => {
  it('the web app: where to sign in, as whom, where the password is; and pairing', () => {
    const steps = nextSteps({
      ...base,
      surfaces: ['instance'],
      password: { user: 'opencode', source: 'OUTPOST_PASSWORD' },
    });
    expect(steps).toEqual([
      'open http://127.0.0.1:4096/ and sign in as "opencode" with the server password (in OUTPOST_PASSWORD)',
      'or connect a client or a phone: `outpost pair` prints a one-time link and its QR code',
    ]);
  });

  it("a first start points at the password shown below and the file that keeps it, and the console's first account", () => {
    const facts: BannerFacts = {
      ...base,
      signup: 'first',
      password: { user: 'opencode', source: '/data/server-password' },
      newPassword: { user: 'opencode', value: 'the-secret-value', file: '/data/server-password' },
    };
    const text = startupBanner(facts, { showPassword: true });
    const next = text.indexOf('  Next:');
    expect(next).toBeGreaterThan(text.indexOf('API docs'));
    expect(text).toContain('(shown below, kept in /data/server-password)');
    expect(text).toContain(
      '    - open http://127.0.0.1:4096/console and create an account (the first one owns the console)',
    );
    expect(text.indexOf('the-secret-value')).toBeGreaterThan(next);
  });

  it('a closed console names the command that makes accounts; a gateway alone says where clients point', () => {
    expect(nextSteps({ ...base, surfaces: ['console'], signup: 'closed' })).toEqual([
      "make the console's accounts with `outpost console create-user`",
    ]);
    expect(nextSteps({ ...base, surfaces: ['inference'] })).toEqual([
      'point OpenAI or Anthropic clients at http://127.0.0.1:4096/inference with a console key',
    ]);
    expect(nextSteps({ ...base, surfaces: ['console'], signup: 'invite' })).toEqual([]);
  });

  it('the JSON record carries the same steps, and never the password', () => {
    const facts: BannerFacts = {
      ...base,
      signup: 'open',
      password: { user: 'opencode', source: '/data/server-password' },
      newPassword: { user: 'opencode', value: 'the-secret-value', file: '/data/server-password' },
    };
    const record = startupRecord(facts);
    expect(record.fields.next).toEqual(nextSteps(facts));
    expect(record.fields.next).toContain('open http://127.0.0.1:4096/console and create an account');
    expect(JSON.stringify(record)).not.toContain('the-secret-value');
  });
});
