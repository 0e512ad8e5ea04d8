import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EMBEDDED, FLEET, SLOW, SYSTEM } = require('./tiers') as Record<
  'EMBEDDED' | 'FLEET' | 'SLOW' | 'SYSTEM',
  string[]
>;

const root = join(__dirname, '..');
const e2eDir = join(__dirname, 'e2e');

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

const e2e = files(e2eDir, '.e2e-spec.ts').map((path) => relative(e2eDir, path));
const matching = (globs: string[]) => {
  const matches = picomatch(globs);
  return e2e.filter((file) => matches(file));
};

/**
 * What makes a file a system test: it starts `node dist/main.js`, a gateway node, the `outpost` CLI, a script or a
 * client in a process of its own, opencode, chromium, nginx, the fleet's node processes, the fuzzer, or has the app start
 * the test MCP server (`MCP_TEST_LOCAL` in an `mcp` config).
 */
const STARTS_A_PROCESS =
  /\b(startServer|startGatewayServer|instanceProcess|killedGateway|runCli|runLogin|launchBrowser|startNginx|opencodeEnv|fuzzRequests)\(|\b(execFile|execFileSync|spawn|spawnSync)\(\s*process\.execPath|promisify\(execFile\)|process\.env\.OUTPOST_TEST_FLEET = |\bMCP_TEST_(SERVER|LOCAL)\b/;

describe('the test tiers (test/tiers.js)', () => {
  it('name no file that is gone: every glob matches a test', () => {
    const unmatched = [...SYSTEM, ...EMBEDDED, ...FLEET, ...SLOW].filter(
      (glob) => matching([glob]).length === 0,
    );
    expect(unmatched).toEqual([]);
  });

  it('keep every test that starts a process in the system tier, and only those', () => {
    const system = new Set(matching(SYSTEM));
    const starts = (file: string) => STARTS_A_PROCESS.test(readFileSync(join(e2eDir, file), 'utf8'));
    expect(e2e.filter((file) => starts(file) && !system.has(file))).toEqual([]);
    expect([...system].filter((file) => !starts(file))).toEqual([]);
  });

  it('keep the unit tier free of the database and the app', () => {
    const specs = [...files(join(root, 'src'), '.spec.ts'), ...files(__dirname, '.spec.ts')];
    const booting = specs.filter((path) =>
      /helpers\/(test-app|test-database|boot-node)'/.test(readFileSync(path, 'utf8')),
    );
    expect(booting.map((path) => relative(root, path))).toEqual([]);
  });
});
