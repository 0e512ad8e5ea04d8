/**
 * Outpost's resources in the shapes of opencode 1.18.33's v1 routes (the released CLI and TUI read these):
 * sessions, messages with their parts, agents, providers and models, permission requests.
 */
import type { AgentInfo } from '../agents/agent.types';
import type { ModelRef, PermissionRule } from '../location-config/config.types';
import type { PermissionRequest } from '../runtime/permissions/permission.types';
import type { ModelConfig, ProviderConfig, ProviderConfigMap } from '../runtime/providers/provider-config';
import type {
  AssistantContent,
  AssistantMessage,
  SessionMessageInfo,
} from '../sessions/session-message.types';
import type { SessionInfo } from '../sessions/session.types';

import { entryPartID, partID, removedParts, v1MessageInfo, v1Tokens } from './v1-message-info';
import { v1CompactionMessages, v1ShellMessages } from './v1-turn-shapes';

export { partID, v1MessageInfo } from './v1-message-info';

export const V1_VERSION = '1.18.33';

/** v1 names a rule `{ permission, pattern, action }`; Outpost `{ action, resource, effect }`. */
export interface V1Rule {
  permission: string;
  pattern: string;
  action: 'allow' | 'deny' | 'ask';
}

export const toV1Rule = (rule: PermissionRule): V1Rule => ({
  permission: rule.action,
  pattern: rule.resource,
  action: rule.effect,
});

export const fromV1Rule = (rule: V1Rule): PermissionRule => ({
  action: rule.permission,
  resource: rule.pattern,
  effect: rule.action,
});

/** A readable slug from the session id, stable for the session. */
function slug(id: string): string {
  return id.slice(-8).toLowerCase();
}

export function v1Session(info: SessionInfo) {
  return {
    id: info.id,
    slug: slug(info.id),
    projectID: info.projectID,
    directory: info.location.directory,
    path: info.subpath ?? '',
    ...(info.parentID ? { parentID: info.parentID } : {}),
    title: info.title,
    ...(info.agent ? { agent: info.agent } : {}),
    ...(info.model ? { model: info.model } : {}),
    version: V1_VERSION,
    cost: info.cost,
    tokens: info.tokens,
    permission: (info.permissions ?? []).map(toV1Rule),
    ...(info.revert ? { revert: info.revert } : {}),
    time: {
      created: info.time.created,
      updated: info.time.updated,
      ...(info.time.archived ? { archived: info.time.archived } : {}),
    },
  };
}

const base = (message: SessionMessageInfo, sessionID: string, id: string) => ({
  id,
  sessionID,
  messageID: message.id,
});

/** One content entry of an assistant message as a v1 part. */
export function v1ContentPart(message: AssistantMessage, sessionID: string, index: number) {
  const content: AssistantContent = message.content[index];
  const done = message.time.completed;
  const time = { start: message.time.created, ...(done ? { end: done } : {}) };
  const id = entryPartID(message, index);
  if (content.type === 'text')
    return { ...base(message, sessionID, id), type: 'text', text: content.text, time };
  if (content.type === 'reasoning') {
    return { ...base(message, sessionID, id), type: 'reasoning', text: content.text, time };
  }
  return {
    ...base(message, sessionID, id),
    type: 'tool',
    callID: content.id,
    tool: content.name,
    state: v1ToolState(content),
  };
}

function v1ToolState(part: Extract<AssistantContent, { type: 'tool' }>) {
  const state = part.state;
  const start = part.time.ran ?? part.time.created;
  const end = part.time.completed ?? start;
  const text = (content?: Array<{ type: string; text?: string }>) =>
    (content ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('\n');
  switch (state.status) {
    case 'streaming':
      return { status: 'pending', input: {}, raw: state.input };
    case 'running':
      return {
        status: 'running',
        input: state.input,
        title: part.name,
        metadata: state.metadata,
        time: { start },
      };
    case 'completed':
      return {
        status: 'completed',
        input: state.input,
        output: text(state.content),
        title: part.name,
        metadata: state.metadata ?? {},
        time: { start, end },
      };
    case 'error':
      return {
        status: 'error',
        input: state.input,
        error: state.error.message,
        metadata: state.metadata ?? {},
        time: { start, end },
      };
  }
}

export function v1StepStart(message: AssistantMessage, sessionID: string) {
  return { ...base(message, sessionID, partID(message.id, 'start')), type: 'step-start' };
}

export function v1StepFinish(message: AssistantMessage, sessionID: string) {
  return {
    ...base(message, sessionID, partID(message.id, 'finish')),
    type: 'step-finish',
    reason: message.finish ?? 'stop',
    cost: message.cost ?? 0,
    tokens: v1Tokens(message.tokens),
  };
}

/** A v1 part: `{ id, sessionID, messageID, type, … }`. */
export type V1Part = { id: string; [member: string]: unknown };

/** A message's v1 parts, but those a client removed (`DELETE …/part/{partID}`). */
export function v1Parts(message: SessionMessageInfo, sessionID: string): V1Part[] {
  const removed = removedParts(message);
  return allParts(message, sessionID).filter((part) => !removed.has(part.id));
}

function allParts(message: SessionMessageInfo, sessionID: string): V1Part[] {
  if (message.type === 'assistant') {
    const parts: V1Part[] = [v1StepStart(message, sessionID)];
    message.content.forEach((_, index) => parts.push(v1ContentPart(message, sessionID, index)));
    if (message.time.completed) parts.push(v1StepFinish(message, sessionID));
    return parts;
  }
  if (message.type === 'user') {
    const parts: V1Part[] = [
      { ...base(message, sessionID, partID(message.id, 0)), type: 'text', text: message.text },
    ];
    (message.files ?? []).forEach((file, i) =>
      parts.push({
        ...base(message, sessionID, entryPartID(message, i)),
        type: 'file',
        mime: file.mime,
        ...(file.name ? { filename: file.name } : {}),
        url: file.source.type === 'uri' ? file.source.uri : `data:${file.mime};base64,${file.data}`,
      }),
    );
    return parts;
  }
  return [];
}

/** The transcript as v1 `{ info, parts }` pairs: user and assistant messages, and commands the person ran. */
export function v1Messages(messages: SessionMessageInfo[], sessionID: string, directory: string) {
  let parentID: string | undefined;
  let agent = 'build';
  const out: Array<{ info: ReturnType<typeof v1MessageInfo>; parts: object[] }> = [];
  for (const message of messages) {
    if (message.type === 'agent-switched') agent = message.agent;
    if (message.type === 'shell' || message.type === 'compaction') {
      const pair =
        message.type === 'shell'
          ? v1ShellMessages(message, { sessionID, directory })
          : v1CompactionMessages(message, { sessionID, directory });
      out.push(pair.user, pair.assistant);
      continue;
    }
    if (message.type !== 'user' && message.type !== 'assistant') continue;
    if (message.type === 'user') parentID = message.id;
    else agent = message.agent;
    out.push({
      info: v1MessageInfo(message, { sessionID, directory, parentID }, agent),
      parts: v1Parts(message, sessionID),
    });
  }
  return out;
}

export function v1Agent(agent: AgentInfo) {
  return {
    name: agent.id,
    ...(agent.description ? { description: agent.description } : {}),
    mode: agent.mode,
    native: false,
    hidden: agent.hidden,
    ...(agent.color ? { color: agent.color } : {}),
    ...(agent.steps ? { steps: agent.steps } : {}),
    ...(agent.model ? { model: { providerID: agent.model.providerID, modelID: agent.model.id } } : {}),
    ...(agent.system ? { prompt: agent.system } : {}),
    permission: agent.permissions.map(toV1Rule),
    options: {},
  };
}

const NONE = { text: false, audio: false, image: false, video: false, pdf: false };

function v1Model(providerID: string, provider: ProviderConfig, id: string, model: ModelConfig) {
  return {
    id,
    providerID,
    api: { id, url: '', npm: provider.package.replace(/^aisdk:/, '') },
    name: model.name ?? id,
    family: '',
    capabilities: {
      temperature: true,
      reasoning: false,
      attachment: false,
      toolcall: true,
      input: { ...NONE, text: true },
      output: { ...NONE, text: true },
      interleaved: false,
    },
    cost: {
      input: model.cost?.input ?? 0,
      output: model.cost?.output ?? 0,
      cache: { read: model.cost?.cache_read ?? 0, write: model.cost?.cache_write ?? 0 },
    },
    limit: { context: model.limit?.context ?? 0, output: model.limit?.output ?? 0 },
    status: 'active',
    options: {},
    headers: {},
    release_date: '',
    variants: model.variants ?? {},
  };
}

/** A provider as v1 lists it: never credentials or headers, only the base URL of its settings. */
export function v1Provider(id: string, provider: ProviderConfig) {
  const url = provider.settings?.baseURL;
  return {
    id,
    name: provider.name ?? id,
    source: 'config',
    env: [],
    options: typeof url === 'string' ? { baseURL: url } : {},
    models: Object.fromEntries(
      Object.entries(provider.models ?? {}).map(([modelID, model]) => [
        modelID,
        v1Model(id, provider, modelID, model),
      ]),
    ),
  };
}

/** The providers and each one's default model: its first, or the config's `model` (`preferred`) for its provider. */
export function v1Providers(providers: ProviderConfigMap, preferred?: ModelRef) {
  const list = Object.entries(providers).map(([id, provider]) => v1Provider(id, provider));
  const defaults: Record<string, string> = {};
  for (const provider of list) {
    const first = Object.keys(provider.models)[0];
    if (first) defaults[provider.id] = first;
  }
  if (preferred) defaults[preferred.providerID] = preferred.id;
  return { list, defaults };
}

/** The `provider` member of v1's `/config`: what the config declares, without credentials. */
export function v1ConfigProviders(providers: ProviderConfigMap) {
  return Object.fromEntries(
    Object.entries(providers).map(([id, provider]) => {
      const url = provider.settings?.baseURL;
      return [
        id,
        {
          name: provider.name ?? id,
          npm: provider.package.replace(/^aisdk:/, ''),
          options: typeof url === 'string' ? { baseURL: url } : {},
          models: Object.fromEntries(
            Object.entries(provider.models ?? {}).map(([m, model]) => [m, { name: model.name ?? m }]),
          ),
        },
      ];
    }),
  );
}

export function v1Permission(request: PermissionRequest) {
  return {
    id: request.id,
    sessionID: request.sessionID,
    permission: request.permission,
    patterns: request.patterns,
    metadata: request.metadata,
    always: request.always,
    ...(request.tool ? { tool: request.tool } : {}),
  };
}
