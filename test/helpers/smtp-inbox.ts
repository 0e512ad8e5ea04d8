import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './eventually';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text body, transfer encoding undone. */
  text: string;
}

export interface SmtpInbox {
  /** `smtp://user:password@127.0.0.1:<port>`, for OUTPOST_SMTP_URL. */
  url: string;
  password: string;
  mails: ReceivedMail[];
  /** The mails to `to` once there are at least `count` of them (fails on what arrived after 10 s). */
  mailsTo(to: string, count?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** What the test needs of a message nodemailer wrote: the subject and the text body. */
function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  let body = raw.slice(split + 4);
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  if (encoding === 'base64') body = Buffer.from(body, 'base64').toString('utf8');
  return { from, to, subject: header('Subject'), text: body.replace(/\r\n/g, '\n') };
}

/** A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives; AUTH PLAIN/LOGIN. */
export async function startSmtpInbox(user = 'outpost', password = 'smtp-secret-9f1c'): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        mails.push(parse(Buffer.concat(chunks).toString('utf8'), from, to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    password,
    mails,
    async mailsTo(to, count = 1) {
      const toThem = () => mails.filter((mail) => mail.to.includes(to));
      return eventually(toThem, (found) => found.length >= count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in ${JSON.stringify(mail.text)}`);
  return link;
}
