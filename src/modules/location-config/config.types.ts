import type { CommandConfig } from './command-config';
import type { McpServerConfig } from './mcp-config';
import type { WebSearchConfig } from './websearch-config';

/** One permission rule; a ruleset is evaluated in order and the LAST matching rule wins. */
export interface PermissionRule {
  action: string;
  resource: string;
  effect: 'allow' | 'deny' | 'ask';
}

export type Ruleset = PermissionRule[];

export interface ModelRef {
  id: string;
  providerID: string;
  variant?: string;
}

export const AGENT_MODES = ['subagent', 'primary', 'all'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** A custom agent (or an override of a built-in) as written in a config file or markdown front matter. */
export interface AgentConfig {
  name?: string;
  model?: ModelRef;
  request?: { headers?: Record<string, string>; body?: Record<string, unknown> };
  system?: string;
  description?: string;
  mode?: AgentMode;
  hidden?: boolean;
  color?: string;
  steps?: number;
  disabled?: boolean;
  permissions?: Ruleset;
}

/** A `plugins` entry, with the directory relative paths resolve against. `error` marks an entry of the wrong shape. */
export interface PluginConfigEntry {
  spec: string;
  options?: Record<string, unknown>;
  baseDir: string;
  error?: string;
}

export interface OutpostConfig {
  /** MCP servers by name (opencode's `mcp`). */
  mcp: Record<string, McpServerConfig>;
  /** Command templates by name (opencode's `command`). */
  command: Record<string, CommandConfig>;
  agents: Record<string, AgentConfig>;
  plugins: PluginConfigEntry[];
  /** Provider settings, kept as written for the prompt loop. */
  provider: Record<string, unknown>;
  /** Rules added to every agent. */
  permissions: Ruleset;
  /** Instruction files (paths or globs, relative to the location) added to every agent's system prompt. */
  instructions: string[];
  /** The model for small side calls (session titles); the session's own model when unset. */
  smallModel?: ModelRef;
  /** Where the `websearch` tool searches; the agent has no such tool without it. */
  websearch?: WebSearchConfig;
  /** The default model (opencode's `model`, `"provider/model"`), which clients pick when none is chosen. */
  model?: ModelRef;
  /** opencode's `enabled_providers`: only these providers load (all when unset). */
  enabledProviders?: string[];
  /** opencode's `disabled_providers`: these providers never load. */
  disabledProviders?: string[];
}

/**
 * One config file that was read, validated. `global` files come from the config dir, `project` from the
 * location, `console` from the console this instance is signed in to (its `file` is the console's URL).
 */
export interface ConfigLayer {
  file: string;
  scope: 'global' | 'project' | 'console';
  config: OutpostConfig;
}

export interface ConfigProblem {
  file: string;
  /** Where in the file, e.g. `agents.reviewer.mode`. */
  path?: string;
  message: string;
}

export interface LocationConfig {
  /** Every layer merged, later files overriding earlier ones. */
  merged: OutpostConfig;
  layers: ConfigLayer[];
  problems: ConfigProblem[];
}
