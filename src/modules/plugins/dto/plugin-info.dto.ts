import { LocationPublicInfoDto } from '../../locations/dto/location-public-info.dto';

export class PluginSourceDto {
  type: 'builtin' | 'package' | 'local';
  /** package: the spec as configured, e.g. `my-plugin@^1.2.0`. */
  target?: string;
  /** package: the installed version. */
  version?: string;
  /** package: a newer version is published (set by plugin.check). */
  outdated?: true;
  /** package: an update is running. */
  updating?: true;
  /** local: the absolute path. */
  path?: string;
}

export class PluginFeaturesDto {
  server?: true;
  tui?: true;
  rpc?: true;
}

export class PluginStateDto {
  status: 'active' | 'failed';
  /** failed: why. */
  error?: string;
}

/** `Plugin.Info`. */
export class PluginInfoDto {
  id?: string;
  source: PluginSourceDto;
  features: PluginFeaturesDto;
  state: PluginStateDto;
}

export class PluginListResponseDto {
  location: LocationPublicInfoDto;
  data: PluginInfoDto[];
}
