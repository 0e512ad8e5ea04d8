/* The `outpost` command. Sub-commands are small modules, loaded only when used. */
const USAGE = `usage: outpost <command>

commands:
  serve     start the server (what \`npm start\` runs)
  pair      print a single-use pairing link and QR code for a new client (asks the running server)
  console   console administration: \`outpost console create-user --email <email> --password-stdin\`
`;

export const commands: Record<string, () => Promise<void>> = {
  serve: async () => (await import('./main')).serve(),
  pair: async () => (await import('./modules/pairing/pair.command')).pair(),
  console: async () =>
    (await import('./modules/identity/create-user.command')).consoleCommand(process.argv.slice(3)),
};

async function main(argv: string[]): Promise<void> {
  const [name] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(USAGE);
    process.exit(name === undefined || name === 'help' || name === '--help' ? 0 : 2);
  }
  await command();
}

void main(process.argv.slice(2));
