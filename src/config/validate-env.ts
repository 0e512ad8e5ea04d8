import { registerAs } from '@nestjs/config';
import { parseAppEnv, parseDatabaseEnv } from './env';

type Env = Record<string, string | undefined>;

/** The parsers of the modules' variables, each added by the module's `configFromEnv` as its file loads. */
const parsers: Array<(env: Env) => unknown> = [];

/**
 * A module's config, read from the environment by `parse`, which also runs in `validateEnv` before anything starts:
 * a module cannot define a config that start-up does not check (the platform keeps the list, modules fill it).
 */
export function configFromEnv<T extends Record<string, unknown>>(token: string, parse: (env: Env) => T) {
  parsers.push(parse);
  return registerAs(token, () => parse(process.env));
}

/** Checks every variable of the platform and of the modules loaded, throwing the first ConfigError. */
export function validateEnv(env: Env): void {
  parseAppEnv(env);
  parseDatabaseEnv(env);
  for (const parse of parsers) parse(env);
}
