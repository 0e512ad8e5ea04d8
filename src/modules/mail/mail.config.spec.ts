import { parseMailEnv, withoutPassword } from './mail.config';

describe('parseMailEnv', () => {
  it('is off without OUTPOST_SMTP_URL', () => {
    expect(parseMailEnv({})).toEqual({ smtpUrl: undefined, from: undefined });
  });

  it('takes an smtp or smtps URL with a sender', () => {
    const env = {
      OUTPOST_SMTP_URL: 'smtps://u:p@mail.example.com:465',
      OUTPOST_SMTP_FROM: 'Outpost <o@example.com>',
    };
    expect(parseMailEnv(env)).toEqual({ smtpUrl: env.OUTPOST_SMTP_URL, from: env.OUTPOST_SMTP_FROM });
  });

  it('refuses another scheme without showing the password', () => {
    const parse = () => parseMailEnv({ OUTPOST_SMTP_URL: 'http://user:hunter2-secret@mail.example.com' });
    expect(parse).toThrow('OUTPOST_SMTP_URL must be an smtp:// or smtps:// URL');
    expect(parse).not.toThrow(/hunter2-secret/);
  });

  it('needs a sender with a server', () => {
    expect(() => parseMailEnv({ OUTPOST_SMTP_URL: 'smtp://mail.example.com' })).toThrow(
      'OUTPOST_SMTP_FROM must be set with OUTPOST_SMTP_URL',
    );
  });
});

describe('withoutPassword', () => {
  it('masks the password and keeps the rest', () => {
    expect(withoutPassword('smtp://user:secret@mail.example.com:587')).toBe(
      'smtp://user:***@mail.example.com:587',
    );
    expect(withoutPassword('smtp://mail.example.com')).toBe('smtp://mail.example.com');
  });
});
