import { ConfigType } from '@nestjs/config';
import { ConfigError, optionalStr } from '@/config/env';
import { configFromEnv } from '@/config/validate-env';

/** `OUTPOST_SMTP_URL` without its password, for messages (the password never reaches a log or an answer). */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * Email: with `OUTPOST_SMTP_URL` (smtp://user:pass@host:587, smtps://… for TLS from the start) invitations and
 * password resets are sent by email from `OUTPOST_SMTP_FROM`; without it the console shows links to hand over.
 */
export function parseMailEnv(env: Record<string, string | undefined>) {
  const smtpUrl = optionalStr(env, 'OUTPOST_SMTP_URL');
  const from = optionalStr(env, 'OUTPOST_SMTP_FROM');
  if (smtpUrl !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      protocol = '';
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      throw new ConfigError(
        'OUTPOST_SMTP_URL',
        `must be an smtp:// or smtps:// URL like smtp://user:password@mail.example.com:587 (got "${withoutPassword(smtpUrl)}")`,
      );
    }
    if (from === undefined) {
      throw new ConfigError(
        'OUTPOST_SMTP_FROM',
        'must be set with OUTPOST_SMTP_URL (e.g. "Outpost <outpost@example.com>")',
      );
    }
  }
  return { smtpUrl, from };
}

export const mailConfig = configFromEnv('mail', parseMailEnv);
export type MailConfig = ConfigType<typeof mailConfig>;
