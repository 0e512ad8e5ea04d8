import { configFromEnv } from '@/config/validate-env';
import { ConfigType } from '@nestjs/config';
import { expandHome, str } from '@/config/env';

export function parseLocationConfigEnv(env: Record<string, string | undefined>) {
  return {
    /** Holds the global `outpost.json` and global agent files. */
    globalDir: expandHome(str(env, 'OUTPOST_CONFIG_DIR', '~/.config/outpost')),
  };
}

export const locationConfigConfig = configFromEnv('locationConfig', parseLocationConfigEnv);
export type LocationConfigConfig = ConfigType<typeof locationConfigConfig>;
