import { commandLine, CommandLineError } from './command-line';

const PAIR = { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

describe('commandLine', () => {
  it('reads --name=value and --name value alike', () => {
    expect(commandLine(['--url=http://a:1'], PAIR).values.url).toBe('http://a:1');
    expect(commandLine(['--url', 'http://a:1'], PAIR).values.url).toBe('http://a:1');
  });

  it('reads short flags and arguments up to the number allowed', () => {
    expect(commandLine(['-h'], PAIR).values.help).toBe(true);
    expect(commandLine(['https://console.example'], PAIR, 1).positionals).toEqual([
      'https://console.example',
    ]);
  });

  it('refuses an unknown option, naming it', () => {
    expect(() => commandLine(['--ulr=http://a:1'], PAIR)).toThrow(CommandLineError);
    expect(() => commandLine(['--ulr=http://a:1'], PAIR)).toThrow(/^Unknown option '--ulr'$/);
  });

  it('refuses an option without its value, and a value given to a flag', () => {
    expect(() => commandLine(['--url'], PAIR)).toThrow(/--url/);
    expect(() => commandLine(['--help=yes'], PAIR)).toThrow(/--help/);
  });

  it('refuses more arguments than the command takes', () => {
    expect(() => commandLine(['extra'], PAIR)).toThrow("Unexpected argument 'extra'");
    expect(() => commandLine(['a', 'b'], PAIR, 1)).toThrow("Unexpected argument 'b'");
  });
});
