/* `outpost pair`: asks the running server for a pairing code and prints the link and a QR code. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import qrcode from 'qrcode-terminal';
import { commandLineOrExit } from '@/common/cli/command-line';
import { parseAppEnv } from '@/config/env';
import { parseInstanceAuthEnv } from '../instance-auth/instance-auth.config';
import type { PairingCodeDto } from './dto/pairing-code.dto';

const USAGE = `usage: outpost pair [--url <server url>]

Asks the running server (default: http://<HOST>:<PORT> from the environment, or OUTPOST_URL) for a
single-use pairing link and prints it with a QR code. The password comes from OUTPOST_PASSWORD or the
file the server keeps in OUTPOST_DATA_DIR.
`;

class PairCommandError extends Error {}

function serverUrl(url: string | undefined, env: NodeJS.ProcessEnv): string {
  if (url !== undefined) {
    if (!url) throw new PairCommandError('--url needs a value');
    return url.replace(/\/+$/, '');
  }
  if (env.OUTPOST_URL) return env.OUTPOST_URL.replace(/\/+$/, '');
  const { host, port } = parseAppEnv(env);
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function credentials(env: NodeJS.ProcessEnv): string {
  const { username, password } = parseInstanceAuthEnv(env);
  let secret = password;
  if (!secret) {
    const file = join(parseAppEnv(env).dataDir, 'server-password');
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch {
      throw new PairCommandError(
        `no password: set OUTPOST_PASSWORD, or run this where the server keeps ${file}`,
      );
    }
  }
  return `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`;
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new PairCommandError(
      `no server answers at ${new URL(url).origin}; start it with \`outpost serve\``,
    );
  }
  const body = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok)
    throw new PairCommandError(`the server answered ${res.status}: ${body.message ?? res.statusText}`);
  return body;
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host.startsWith('127.') || host === '[::1]';
}

export async function pair(argv: string[]): Promise<void> {
  const { values } = commandLineOrExit('pair', USAGE, argv, {
    url: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  try {
    const base = serverUrl(values.url, process.env);
    const headers = { authorization: credentials(process.env) };
    const code = await call<PairingCodeDto>(`${base}/api/pair`, { method: 'POST', headers });
    const info = await call<{ urls: string[] }>(`${base}/api/info`, { headers }).catch(() => ({ urls: [] }));
    const others = info.urls
      .filter((url) => url !== new URL(code.url).origin)
      .map((url) => `${url}/auth/connect/${code.code}`);
    // A phone needs an address of the network, not loopback.
    const forQr = [code.url, ...others].find((link) => !isLoopback(link)) ?? code.url;
    const minutes = Math.round(code.expires_in / 60);
    let out = `\nPairing link (single use, valid ${minutes} minute${minutes === 1 ? '' : 's'}):\n\n  ${code.url}\n`;
    if (others.length) out += `\nalso reachable as:\n${others.map((link) => `  ${link}`).join('\n')}\n`;
    out += `\nOpen it in a browser, or redeem it with curl -H 'accept: application/json' for a token.\n\n`;
    process.stdout.write(out);
    qrcode.generate(forQr, { small: true }, (qr) => process.stdout.write(`${qr}\n  (${forQr})\n`));
  } catch (error) {
    if (!(error instanceof PairCommandError)) throw error;
    process.stderr.write(`outpost pair: ${error.message}\n`);
    process.exitCode = 1;
  }
}
