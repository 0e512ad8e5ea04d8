import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { join } from 'node:path';
import { expandHome, optionalStr, str } from '@/config/env';

export function parseLocationConfigEnv(env: Record<string, string | undefined>) {
  return {
    /** Holds the global `outpost.json` and global agent files. */
    globalDir: expandHome(str(env, 'OUTPOST_CONFIG_DIR', '~/.config/outpost')),
    /** opencode's global config folder (`$XDG_CONFIG_HOME/opencode`), read before Outpost's own. */
    opencodeGlobalDir: join(expandHome(str(env, 'XDG_CONFIG_HOME', '~/.config')), 'opencode'),
    /** opencode's `OPENCODE_CONFIG`: one more config file, after the global ones. */
    opencodeConfig: optionalStr(env, 'OPENCODE_CONFIG') && expandHome(optionalStr(env, 'OPENCODE_CONFIG')!),
    /** opencode's `OPENCODE_CONFIG_CONTENT`: a config document, applied over every file. */
    opencodeConfigContent: optionalStr(env, 'OPENCODE_CONFIG_CONTENT'),
  };
}

export const locationConfigConfig = configFromEnv('locationConfig', parseLocationConfigEnv);
export type LocationConfigConfig = ConfigType<typeof locationConfigConfig>;
