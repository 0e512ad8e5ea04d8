import { newestMatching, parsePluginSpec } from './plugin-spec';

const parse = (spec: string) => parsePluginSpec({ spec, baseDir: '/config/dir' });

describe('parsePluginSpec', () => {
  it.each([
    ['hello', 'hello', 'latest'],
    ['hello@^1.2.0', 'hello', '^1.2.0'],
    ['@team/hello@next', '@team/hello', 'next'],
    ['@team/hello', '@team/hello', 'latest'],
    ['hello@1.x || >=2.1.0', 'hello', '1.x || >=2.1.0'],
  ])('accepts the package spec %s', (spec, name, range) => {
    expect(parse(spec)).toEqual({ kind: 'package', target: spec, name, range });
  });

  it.each([
    ['Bad Name!', 'invalid package name'],
    ['-rf', 'invalid package name'],
    ['hello@$(touch x)', 'invalid version range'],
    ['hello@1.0.0; rm -rf /', 'invalid version range'],
    ['git+ssh://git@github.com/team/plugins.git', 'unsupported plugin spec'],
    ['https://example.com/x.tgz', 'unsupported plugin spec'],
  ])('refuses %s before anything runs', (spec, problem) => {
    const parsed = parse(spec);
    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.error).toContain(problem);
  });

  it('resolves local paths against the config file directory', () => {
    expect(parse('./plugins/a.mjs')).toMatchObject({ kind: 'local', path: '/config/dir/plugins/a.mjs' });
    expect(parse('file:///opt/p/index.js')).toMatchObject({ kind: 'local', path: '/opt/p/index.js' });
    expect(parse('/abs/plugin')).toMatchObject({ kind: 'local', path: '/abs/plugin' });
  });
});

describe('newestMatching', () => {
  const versions = ['1.0.0', '1.1.0', '2.0.0', '2.1.0-beta.1'];
  it('follows a dist-tag, else the highest version in range', () => {
    expect(newestMatching('latest', versions, { latest: '2.0.0' })).toBe('2.0.0');
    expect(newestMatching('^1.0.0', versions, { latest: '2.0.0' })).toBe('1.1.0');
    expect(newestMatching('^3.0.0', versions, {})).toBeUndefined();
  });
});
