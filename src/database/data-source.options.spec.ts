import { ConfigError, parseDatabaseEnv } from '@/config/env';
import { dataSourceOptions } from './data-source.options';

describe('the database pool (DATABASE_POOL_MAX)', () => {
  const poolOf = (env: Record<string, string>) =>
    (dataSourceOptions('postgres://127.0.0.1/x', parseDatabaseEnv(env).poolMax) as { extra: { max: number } })
      .extra.max;

  it('keeps 20 connections a process unless told otherwise', () => {
    expect(poolOf({})).toBe(20);
    expect(poolOf({ DATABASE_POOL_MAX: '6' })).toBe(6);
  });

  it('refuses a size that is not a whole number from 1 to 1000, naming the variable', () => {
    for (const bad of ['0', '-3', '2.5', 'many', '1001'])
      expect(() => parseDatabaseEnv({ DATABASE_POOL_MAX: bad })).toThrow(
        expect.objectContaining({
          constructor: ConfigError,
          message: expect.stringContaining('DATABASE_POOL_MAX'),
        }),
      );
  });
});
