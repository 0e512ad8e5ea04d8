/* The `outpost` command. Sub-commands are small modules, loaded only when used. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLineOrExit } from './common/cli/command-line';

const USAGE = `usage: outpost <command> [options]

commands:
  serve     start the server (what \`npm start\` runs)
  pair      print a single-use pairing link and QR code for a new client (asks the running server)
  console   console administration: \`outpost console create-user --email <email> --password-stdin\`,
            \`outpost console reset-password --email <email>\` (prints a single-use link)
  login     sign this instance in to a console: \`outpost login <console url>\` (device sign-in)
  logout    sign this instance out of its console

options:
  -h, --help      this help (also \`outpost <command> --help\`)
  -v, --version   the version

Configuration comes from the environment (see .env.example); with no DATABASE_URL the data lives in an
embedded PostgreSQL under OUTPOST_DATA_DIR (default ~/.local/share/outpost).
`;

const SERVE_USAGE = `usage: outpost serve

Starts the server on http://$HOST:$PORT (default 127.0.0.1:4096) with the surfaces of OUTPOST_SURFACES.
With no DATABASE_URL it starts (or joins) the embedded PostgreSQL in $OUTPOST_DATA_DIR/postgres.
Stops cleanly on SIGTERM or Ctrl+C.
`;

export const commands: Record<string, (args: string[]) => Promise<void>> = {
  serve: async (args) => serve(args),
  pair: async (args) => (await import('./modules/pairing/pair.command')).pair(args),
  console: async (args) => (await import('./modules/identity/create-user.command')).consoleCommand(args),
  login: async (args) => (await import('./modules/console-link/login.command')).loginCommand('login', args),
  logout: async (args) => (await import('./modules/console-link/login.command')).loginCommand('logout', args),
};

async function serve(args: string[]): Promise<void> {
  const { values } = commandLineOrExit('serve', SERVE_USAGE, args, { help: { type: 'boolean', short: 'h' } });
  if (values.help) process.stdout.write(SERVE_USAGE);
  else await (await import('./main')).serve();
}

function version(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`outpost ${version()}\n`);
    return;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`outpost: unknown command "${name}"\n\n${USAGE}`);
    process.exit(2);
  }
  await command(rest);
}

void main(process.argv.slice(2));
