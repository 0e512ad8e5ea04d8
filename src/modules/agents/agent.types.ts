import { AgentMode, ModelRef, Ruleset } from '../location-config/config.types';

/** `Agent.Info` of the API. */
export interface AgentInfo {
  id: string;
  name?: string;
  model?: ModelRef;
  request: {
    settings: Record<string, unknown>;
    headers: Record<string, string>;
    body: Record<string, unknown>;
  };
  system?: string;
  description?: string;
  mode: AgentMode;
  hidden: boolean;
  color?: string;
  steps?: number;
  permissions: Ruleset;
}
