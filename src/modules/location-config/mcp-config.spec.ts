import { parseConfigDocument, mergeConfigs, emptyConfig } from './config-validation';
import { mcpServerProblem } from './mcp-config';

describe('the mcp section of a config file', () => {
  it('reads local and remote servers as opencode writes them', () => {
    const { config, problems } = parseConfigDocument(
      {
        mcp: {
          files: { type: 'local', command: ['npx', 'server'], environment: { A: '1' }, timeout: 900 },
          docs: {
            type: 'remote',
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer x' },
          },
          off: { type: 'local', command: ['x'], enabled: false },
        },
      },
      '/p',
    );
    expect(problems).toEqual([]);
    expect(config.mcp.files).toEqual({
      type: 'local',
      command: ['npx', 'server'],
      environment: { A: '1' },
      timeout: 900,
    });
    expect(config.mcp.docs.headers).toEqual({ Authorization: 'Bearer x' });
    expect(config.mcp.off.enabled).toBe(false);
  });

  it('leaves out an entry with a bad member and names the member', () => {
    const { config, problems } = parseConfigDocument(
      { mcp: { bad: { type: 'pipe', command: 'npx server' }, url: { type: 'remote', url: 'ftp://x' } } },
      '/p',
    );
    expect(config.mcp).toEqual({});
    expect(problems.map((p) => p.path)).toEqual(['mcp.bad.type', 'mcp.bad.command', 'mcp.url.url']);
  });

  it('a later file overrides a server member by member (a project may switch a global server off)', () => {
    const global = parseConfigDocument(
      { mcp: { gh: { type: 'remote', url: 'https://gh.example/mcp' } } },
      '/g',
    );
    const project = parseConfigDocument({ mcp: { gh: { enabled: false } } }, '/p');
    const merged = mergeConfigs(mergeConfigs(emptyConfig(), global.config), project.config);
    expect(merged.mcp.gh).toEqual({ type: 'remote', url: 'https://gh.example/mcp', enabled: false });
    expect(mcpServerProblem(merged.mcp.gh)).toBeUndefined();
    expect(mcpServerProblem({ enabled: true })).toBe('"type" must be "local" or "remote"');
  });
});
