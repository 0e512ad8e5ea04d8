import {
  AGENT_MODES,
  AgentConfig,
  AgentMode,
  ModelRef,
  OutpostConfig,
  PermissionRule,
  PluginConfigEntry,
  Ruleset,
} from './config.types';
import { parseCommandSection } from './command-config';
import { mergeMcp, parseMcpSection } from './mcp-config';
import { parseWebSearch } from './websearch-config';

/** A problem found in one document, by path (`agents.reviewer.mode`). */
export interface FieldProblem {
  path: string;
  message: string;
}

const EFFECTS = ['allow', 'deny', 'ask'] as const;
const COLOR_NAMES = ['primary', 'secondary', 'accent', 'success', 'warning', 'error', 'info'];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEffect(value: unknown): value is PermissionRule['effect'] {
  return EFFECTS.includes(value as PermissionRule['effect']);
}

/**
 * Rules, either as a list of `{ action, resource?, effect }` or in opencode's object form
 * (`{ edit: "deny", read: { "*.env": "ask" } }`), which becomes rules in key order.
 */
export function parseRuleset(raw: unknown, path: string, problems: FieldProblem[]): Ruleset | undefined {
  const rules: Ruleset = [];
  const bad = (message: string) => {
    problems.push({ path, message });
    return undefined;
  };
  if (Array.isArray(raw)) {
    for (const [index, rule] of raw.entries()) {
      if (!isRecord(rule) || typeof rule.action !== 'string' || !isEffect(rule.effect)) {
        return bad(`rule ${index} must be { action, resource, effect: allow | deny | ask }`);
      }
      if (rule.resource !== undefined && typeof rule.resource !== 'string') {
        return bad(`rule ${index}: resource must be a string`);
      }
      rules.push({ action: rule.action, resource: rule.resource ?? '*', effect: rule.effect });
    }
    return rules;
  }
  if (typeof raw === 'string' && isEffect(raw)) return [{ action: '*', resource: '*', effect: raw }];
  if (!isRecord(raw)) return bad('must be a list of rules or an object of action → effect');
  for (const [action, value] of Object.entries(raw)) {
    if (isEffect(value)) {
      rules.push({ action, resource: '*', effect: value });
    } else if (isRecord(value) && Object.values(value).every(isEffect)) {
      for (const [resource, effect] of Object.entries(value)) {
        rules.push({ action, resource, effect: effect as PermissionRule['effect'] });
      }
    } else {
      return bad(`${action} must be allow, deny, ask or an object of pattern → effect`);
    }
  }
  return rules;
}

function parseModel(raw: unknown): ModelRef | undefined {
  if (typeof raw === 'string') {
    const slash = raw.indexOf('/');
    if (slash <= 0 || slash === raw.length - 1) return undefined;
    return { providerID: raw.slice(0, slash), id: raw.slice(slash + 1) };
  }
  if (isRecord(raw) && typeof raw.id === 'string' && typeof raw.providerID === 'string') {
    if (raw.variant !== undefined && typeof raw.variant !== 'string') return undefined;
    return {
      id: raw.id,
      providerID: raw.providerID,
      ...(raw.variant !== undefined ? { variant: raw.variant as string } : {}),
    };
  }
  return undefined;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * One agent definition. Unknown members are ignored (opencode files carry more), known ones must be valid:
 * an agent with a bad field is dropped as a whole, with the problems naming each field.
 */
export function parseAgentConfig(
  raw: unknown,
  path: string,
  problems: FieldProblem[],
): AgentConfig | undefined {
  if (!isRecord(raw)) {
    problems.push({ path, message: 'must be an object' });
    return undefined;
  }
  const before = problems.length;
  const bad = (field: string, message: string) => problems.push({ path: `${path}.${field}`, message });
  const agent: AgentConfig = {};
  const text = (field: string, value: unknown, set: (v: string) => void) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') set(value);
    else bad(field, 'must be a string');
  };
  const flag = (field: string, value: unknown, set: (v: boolean) => void) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'boolean') set(value);
    else bad(field, 'must be true or false');
  };
  text('name', raw.name, (v) => (agent.name = v));
  text('description', raw.description, (v) => (agent.description = v));
  text('system', raw.system ?? raw.prompt, (v) => (agent.system = v));
  flag('hidden', raw.hidden, (v) => (agent.hidden = v));
  flag('disabled', raw.disabled ?? raw.disable, (v) => (agent.disabled = v));
  if (raw.mode !== undefined && raw.mode !== null) {
    if (AGENT_MODES.includes(raw.mode as AgentMode)) agent.mode = raw.mode as AgentMode;
    else bad('mode', `must be one of ${AGENT_MODES.join(', ')}`);
  }
  if (raw.color !== undefined && raw.color !== null) {
    const color = raw.color;
    if (typeof color === 'string' && (/^#[0-9a-fA-F]{6}$/.test(color) || COLOR_NAMES.includes(color))) {
      agent.color = color;
    } else {
      bad('color', `must be #RRGGBB or one of ${COLOR_NAMES.join(', ')}`);
    }
  }
  const steps = raw.steps ?? raw.maxSteps;
  if (steps !== undefined && steps !== null) {
    if (typeof steps === 'number' && Number.isInteger(steps) && steps > 0) agent.steps = steps;
    else bad('steps', 'must be a positive whole number');
  }
  if (raw.model !== undefined && raw.model !== null) {
    const model = parseModel(raw.model);
    if (model) agent.model = model;
    else bad('model', 'must be "provider/model" or { id, providerID, variant? }');
  }
  if (raw.request !== undefined && raw.request !== null) {
    const request = raw.request;
    if (
      isRecord(request) &&
      (request.headers === undefined || isStringMap(request.headers)) &&
      (request.body === undefined || isRecord(request.body))
    ) {
      agent.request = {
        ...(request.headers ? { headers: request.headers as Record<string, string> } : {}),
        ...(request.body ? { body: request.body as Record<string, unknown> } : {}),
      };
    } else {
      bad('request', 'must be { headers?: { name: value }, body?: object }');
    }
  }
  const permissions = raw.permissions ?? raw.permission;
  if (permissions !== undefined && permissions !== null) {
    const rules = parseRuleset(permissions, `${path}.permissions`, problems);
    if (rules) agent.permissions = rules;
  }
  return problems.length === before ? agent : undefined;
}

function parsePluginEntry(
  raw: unknown,
  baseDir: string,
  path: string,
  problems: FieldProblem[],
): PluginConfigEntry {
  if (typeof raw === 'string' && raw.trim() !== '') return { spec: raw.trim(), baseDir };
  if (isRecord(raw) && typeof raw.package === 'string' && raw.package.trim() !== '') {
    if (raw.options === undefined || isRecord(raw.options)) {
      return { spec: raw.package.trim(), baseDir, ...(raw.options ? { options: raw.options } : {}) };
    }
  }
  const error = 'must be a package spec, a path, or { package, options? }';
  problems.push({ path, message: error });
  return { spec: JSON.stringify(raw)?.slice(0, 200) ?? String(raw), baseDir, error };
}

export function emptyConfig(): OutpostConfig {
  return { agents: {}, plugins: [], provider: {}, permissions: [], instructions: [], mcp: {}, command: {} };
}

/**
 * A whole config document (`outpost.json` / `opencode.json`). Accepts opencode's singular keys too
 * (`agent`, `plugin`, `permission`). Bad parts are left out and reported; the rest applies.
 */
export function parseConfigDocument(
  raw: unknown,
  baseDir: string,
): { config: OutpostConfig; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const config = emptyConfig();
  if (!isRecord(raw)) {
    problems.push({ path: '', message: 'the document must be a JSON object' });
    return { config, problems };
  }
  const agents = raw.agents ?? raw.agent;
  if (agents !== undefined) {
    if (!isRecord(agents)) problems.push({ path: 'agents', message: 'must be an object of id → agent' });
    else {
      for (const [id, value] of Object.entries(agents)) {
        const agent = parseAgentConfig(value, `agents.${id}`, problems);
        if (agent) config.agents[id] = agent;
      }
    }
  }
  const plugins = raw.plugins ?? raw.plugin;
  if (plugins !== undefined) {
    if (!Array.isArray(plugins)) problems.push({ path: 'plugins', message: 'must be a list' });
    else
      config.plugins = plugins.map((entry, i) => parsePluginEntry(entry, baseDir, `plugins.${i}`, problems));
  }
  if (raw.provider !== undefined) {
    if (isRecord(raw.provider)) config.provider = raw.provider;
    else problems.push({ path: 'provider', message: 'must be an object of provider id → settings' });
  }
  const permissions = raw.permissions ?? raw.permission;
  if (permissions !== undefined)
    config.permissions = parseRuleset(permissions, 'permissions', problems) ?? [];
  if (raw.instructions !== undefined) {
    const list = raw.instructions;
    if (Array.isArray(list) && list.every((item) => typeof item === 'string' && item.trim() !== '')) {
      config.instructions = list as string[];
    } else problems.push({ path: 'instructions', message: 'must be a list of file paths or globs' });
  }
  if (raw.mcp !== undefined) config.mcp = parseMcpSection(raw.mcp, problems);
  if (raw.command !== undefined) config.command = parseCommandSection(raw.command, problems);
  if (raw.websearch !== undefined) {
    const websearch = parseWebSearch(raw.websearch, problems);
    if (websearch) config.websearch = websearch;
  }
  if (raw.model !== undefined) {
    const model = parseModel(raw.model);
    if (model) config.model = model;
    else problems.push({ path: 'model', message: 'must be "provider/model" or { id, providerID }' });
  }
  for (const [key, field] of [
    ['enabled_providers', 'enabledProviders'],
    ['disabled_providers', 'disabledProviders'],
  ] as const) {
    const list = raw[key];
    if (list === undefined) continue;
    if (Array.isArray(list) && list.every((id) => typeof id === 'string' && id !== '')) config[field] = list;
    else problems.push({ path: key, message: 'must be a list of provider ids' });
  }
  if (raw.small_model !== undefined) {
    const model = parseModel(raw.small_model);
    if (model) config.smallModel = model;
    else problems.push({ path: 'small_model', message: 'must be "provider/model" or { id, providerID }' });
  }
  return { config, problems };
}

/** `over` on top of `base`, objects merged member by member, anything else (lists too) replaced. */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = out[key];
    out[key] = isRecord(prior) && isRecord(value) ? deepMerge(prior, value) : value;
  }
  return out;
}

/** The key a plugin entry is de-duplicated by: a later entry for the same package replaces the earlier one. */
function pluginKey(entry: PluginConfigEntry): string {
  const at = entry.spec.indexOf('@', 1);
  return at > 0 && !entry.spec.includes('/', at) ? entry.spec.slice(0, at) : entry.spec;
}

/** `over` on top of `base`: agents merge field by field, plugins by package, rules append (the last match wins). */
export function mergeConfigs(base: OutpostConfig, over: OutpostConfig): OutpostConfig {
  const agents: Record<string, AgentConfig> = { ...base.agents };
  for (const [id, agent] of Object.entries(over.agents)) {
    const prior = agents[id];
    agents[id] = prior
      ? { ...prior, ...agent, permissions: [...(prior.permissions ?? []), ...(agent.permissions ?? [])] }
      : agent;
  }
  const plugins = new Map(base.plugins.map((entry) => [pluginKey(entry), entry]));
  for (const entry of over.plugins) {
    plugins.delete(pluginKey(entry));
    plugins.set(pluginKey(entry), entry);
  }
  return {
    agents,
    plugins: [...plugins.values()],
    provider: deepMerge(base.provider, over.provider),
    permissions: [...base.permissions, ...over.permissions],
    mcp: mergeMcp(base.mcp, over.mcp),
    command: { ...base.command, ...over.command },
    // Every layer's instruction files apply, as opencode concatenates them.
    instructions: [...new Set([...base.instructions, ...over.instructions])],
    ...((over.smallModel ?? base.smallModel) ? { smallModel: over.smallModel ?? base.smallModel } : {}),
    ...((over.model ?? base.model) ? { model: over.model ?? base.model } : {}),
    // A later file's provider lists replace an earlier one's, as opencode merges lists.
    ...((over.enabledProviders ?? base.enabledProviders)
      ? { enabledProviders: over.enabledProviders ?? base.enabledProviders }
      : {}),
    ...((over.disabledProviders ?? base.disabledProviders)
      ? { disabledProviders: over.disabledProviders ?? base.disabledProviders }
      : {}),
    // A later file's search provider replaces an earlier one's (and the console's) whole.
    ...((over.websearch ?? base.websearch) ? { websearch: over.websearch ?? base.websearch } : {}),
  };
}
