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
  /** Where the web app's password is (the variable that sets it or the file that keeps it), with the instance. */
  password?: { user: string; source: string };
}

const SIGNUP_WORDS = {
  first: 'the first account only, then by invitation (OUTPOST_CONSOLE_SIGNUP=open lets anyone sign up)',
  open: 'open to anyone who reaches this server (OUTPOST_CONSOLE_SIGNUP=open)',
  invite: 'by invitation only (OUTPOST_CONSOLE_SIGNUP=invite)',
  closed: 'closed: accounts are made with `outpost console create-user`',
};

/** Where each surface is, for the surfaces this process serves. */
function bannerUrls(facts: BannerFacts) {
  const [url] = serverUrls(facts.host, facts.port);
  const serves = (surface: string) => facts.surfaces.includes(surface);
  return {
    server: url,
    webApp: serves('instance') ? `${url}/` : undefined,
    console: serves('console') ? `${url}/console` : undefined,
    inference: serves('inference') ? `${url}/inference` : undefined,
    docs: `${url}/docs`,
  };
}

/**
 * What a person does next: sign in to the web app or pair a client, make the console's first account.
 * `passwordShown`: the banner prints a first start's password below the steps.
 */
export function nextSteps(facts: BannerFacts, passwordShown = false): string[] {
  const urls = bannerUrls(facts);
  const steps: string[] = [];
  if (urls.webApp && facts.password) {
    const where = facts.newPassword && passwordShown ? 'shown below, kept in' : 'in';
    steps.push(
      `open ${urls.webApp} and sign in as "${facts.password.user}" with the server password (${where} ${facts.password.source})`,
      'or connect a client or a phone: `outpost pair` prints a one-time link and its QR code',
    );
  }
  if (urls.console && (facts.signup === 'first' || facts.signup === 'open'))
    steps.push(
      `open ${urls.console} and create an account${facts.signup === 'first' ? ' (the first one owns the console)' : ''}`,
    );
  else if (urls.console && facts.signup === 'closed')
    steps.push("make the console's accounts with `outpost console create-user`");
  if (urls.inference && !urls.console)
    steps.push(`point OpenAI or Anthropic clients at ${urls.inference} with a console key`);
  return steps;
}

/**
 * The last lines of start-up, for a person at a terminal: where to go, what serves the data, and a first start's
 * password. The password itself only when `showPassword` (standard error is a terminal): a log file or a container's
 * log is read by more people than the server's owner, so there it names the file instead.
 */
export function startupBanner(facts: BannerFacts, { showPassword }: { showPassword: boolean }): string {
  const urls = bannerUrls(facts);
  const lines = [
    '',
    `  Outpost is running on ${urls.server}   (${facts.surfaces.join(', ')})`,
    urls.webApp && `  web app     ${urls.webApp}`,
    urls.console && `  console     ${urls.console}`,
    urls.console && facts.signup ? `  sign-up     ${SIGNUP_WORDS[facts.signup]}` : undefined,
    urls.inference && `  inference   ${urls.inference}`,
    `  API docs    ${urls.docs}`,
    facts.database ? `  database    ${facts.database}` : undefined,
  ].filter((line): line is string => !!line);
  const steps = nextSteps(facts, showPassword);
  if (steps.length) lines.push('', '  Next:', ...steps.map((step) => `    - ${step}`));
  if (facts.newPassword) {
    const { user, value, file } = facts.newPassword;
    const rule = '  ' + '='.repeat(72);
    lines.push(
      '',
      rule,
      ...(showPassword
        ? [
            `  FIRST START: the server password (user "${user}") is`,
            '',
            `      ${value}`,
            '',
            `  It is kept in ${file}; it is not shown again.`,
          ]
        : [
            `  FIRST START: a server password (user "${user}") was generated and kept in`,
            `      ${file}`,
            '  It is not printed here, where the output is not a terminal: read it from that file.',
          ]),
      rule,
    );
  }
  return lines.join('\n') + '\n\n';
}

/** The start-up banner as one JSON log record's fields (`LOG_FORMAT=json`): never the password, only its file. */
export function startupRecord(facts: BannerFacts) {
  const urls = bannerUrls(facts);
  return {
    fields: {
      banner: true,
      urls,
      surfaces: facts.surfaces,
      database: facts.database,
      signup: facts.surfaces.includes('console') ? facts.signup : undefined,
      firstStart: facts.newPassword
        ? { user: facts.newPassword.user, passwordFile: facts.newPassword.file }
        : undefined,
      next: nextSteps(facts),
    },
    msg: `Outpost is running on ${urls.server}`,
  };
}
