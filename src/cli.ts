/* The `outpost` command. Sub-commands are small modules, loaded only when used. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const USAGE = `usage: outpost <command> [options]

commands:
  serve     start the server (what \`npm start\` runs)
  pair      print a single-use pairing link and QR code for a new client (asks the running server)
  console   console administration: \`outpost console create-user --email <email> --password-stdin\`
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

export const commands: Record<string, () => Promise<void>> = {
  serve: async () => (await import('./main')).serve(),
  pair: async () => (await import('./modules/pairing/pair.command')).pair(),
  console: async () =>
    (await import('./modules/identity/create-user.command')).consoleCommand(process.argv.slice(3)),
  login: async () =>
    (await import('./modules/console-link/login.command')).loginCommand('login', process.argv.slice(3)),
  logout: async () =>
    (await import('./modules/console-link/login.command')).loginCommand('logout', process.argv.slice(3)),
};

/** Help of a command that has no reader of its own arguments. */
const COMMAND_HELP: Record<string, string> = { serve: SERVE_USAGE };

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
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  if (wantsHelp && COMMAND_HELP[name]) {
    process.stdout.write(COMMAND_HELP[name]);
    return;
  }
  if (name === 'serve' && rest.length > 0) {
    process.stderr.write(`outpost: serve takes no arguments (got ${rest.join(' ')})\n\n${SERVE_USAGE}`);
    process.exit(2);
  }
  await command();
}

void main(process.argv.slice(2));
