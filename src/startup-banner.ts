import { serverUrls } from './modules/server/server-urls';

export interface BannerFacts {
  host: string;
  port: number;
  surfaces: string[];
  database?: string;
  /** `OUTPOST_CONSOLE_SIGNUP`, said in words next to the console. */
  signup?: 'first' | 'open' | 'invite' | 'closed';
  /** The server password, only on the start that generated it. */
  newPassword?: { user: string; value: string; file: string };
}

const SIGNUP_WORDS = {
  first: 'the first account only, then by invitation (OUTPOST_CONSOLE_SIGNUP=open lets anyone sign up)',
  open: 'open to anyone who reaches this server (OUTPOST_CONSOLE_SIGNUP=open)',
  invite: 'by invitation only (OUTPOST_CONSOLE_SIGNUP=invite)',
  closed: 'closed: accounts are made with `outpost console create-user`',
};

/** The last lines of start-up: where to go, what serves the data, and a first start's password. */
export function startupBanner(facts: BannerFacts): string {
  const [url] = serverUrls(facts.host, facts.port);
  const lines = [
    '',
    `  Outpost is running on ${url}   (${facts.surfaces.join(', ')})`,
    facts.surfaces.includes('instance') ? `  web app     ${url}/` : undefined,
    facts.surfaces.includes('console') ? `  console     ${url}/console` : undefined,
    facts.surfaces.includes('console') && facts.signup
      ? `  sign-up     ${SIGNUP_WORDS[facts.signup]}`
      : undefined,
    facts.surfaces.includes('inference') ? `  inference   ${url}/inference` : undefined,
    `  API docs    ${url}/docs`,
    facts.database ? `  database    ${facts.database}` : undefined,
  ].filter((line): line is string => line !== undefined);
  if (facts.newPassword) {
    const { user, value, file } = facts.newPassword;
    const rule = '  ' + '='.repeat(72);
    lines.push(
      '',
      rule,
      `  FIRST START: the server password (user "${user}") is`,
      '',
      `      ${value}`,
      '',
      `  It is kept in ${file}; it is not shown again.`,
      rule,
    );
  }
  return lines.join('\n') + '\n\n';
}
