import { ConfigType, registerAs } from '@nestjs/config';
import { expandHome, str } from '../../config/env';

export function parseLocationConfigEnv(env: Record<string, string | undefined>) {
  return {
    /** Holds the global `outpost.json` and global agent files. */
    globalDir: expandHome(str(env, 'OUTPOST_CONFIG_DIR', '~/.config/outpost')),
  };
}

export const locationConfigConfig = registerAs('locationConfig', () => parseLocationConfigEnv(process.env));
export type LocationConfigConfig = ConfigType<typeof locationConfigConfig>;
