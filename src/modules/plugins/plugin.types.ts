/** `Plugin.Info` of the API (current generation). */
export type PluginSource =
  | { type: 'builtin' }
  | { type: 'package'; target: string; version?: string; outdated?: true; updating?: true }
  | { type: 'local'; path: string };

export interface PluginFeatures {
  server?: true;
  tui?: true;
  rpc?: true;
}

export type PluginState = { status: 'active' } | { status: 'failed'; error: string };

export interface PluginInfo {
  id?: string;
  source: PluginSource;
  features: PluginFeatures;
  state: PluginState;
}
