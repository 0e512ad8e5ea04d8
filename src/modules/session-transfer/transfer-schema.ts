import { storable } from '@/common/http/storable-input';
/**
 * Checks of the transfer shapes (`Session.Info`, the `Session.Message.Info` union, reference §4.9–4.10),
 * written by hand so a failure names its exact path (`messages.12.type`) and 10,000 messages check fast.
 * Objects are closed: an unknown member is a failure, like a wrong type or a missing required member.
 */
import { SESSION_ID } from '../sessions/session-ids';

export class SchemaFailure extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

type Check = (value: unknown, path: string) => void;
interface Optional {
  optional: Check;
}
type Shape = Record<string, Check | Optional>;

const fail = (path: string, reason: string): never => {
  throw new SchemaFailure(path, reason);
};
const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const UNSTORABLE = 'must not contain a NUL character or a lone UTF-16 surrogate';

export const str: Check = (v, p) => {
  if (typeof v !== 'string') fail(p, 'must be a string');
  if (!storable(v as string)) fail(p, UNSTORABLE);
};
const num: Check = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(p, 'must be a non-negative number');
};
const int: Check = (v, p) => {
  if (!Number.isSafeInteger(v) || (v as number) < 0) fail(p, 'must be a non-negative integer');
};
const signedInt: Check = (v, p) => {
  if (!Number.isSafeInteger(v)) fail(p, 'must be an integer');
};
const bool: Check = (v, p) => {
  if (typeof v !== 'boolean') fail(p, 'must be a boolean');
};
const json: Check = (v, p) => {
  if (typeof v === 'string') str(v, p);
  else if (Array.isArray(v)) v.forEach((element, index) => json(element, at(p, index)));
  else if (isObject(v))
    for (const [key, member] of Object.entries(v)) {
      if (!storable(key)) fail(p, UNSTORABLE);
      json(member, at(p, key));
    }
};
const jsonObject: Check = (v, p) => {
  if (!isObject(v)) fail(p, 'must be an object');
  json(v, p);
};
const opt = (check: Check): Optional => ({ optional: check });
const oneOf =
  (...values: string[]): Check =>
  (v, p) => {
    if (typeof v !== 'string' || !values.includes(v)) fail(p, `must be one of ${values.join(', ')}`);
  };
const matching =
  (pattern: RegExp, max = 64): Check =>
  (v, p) => {
    if (typeof v !== 'string' || !pattern.test(v) || v.length > max) fail(p, `must match ${pattern}`);
  };
const array =
  (item: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) fail(p, 'must be an array');
    (v as unknown[]).forEach((element, index) => item(element, at(p, index)));
  };

export function object(shape: Shape): Check {
  const entries = Object.entries(shape);
  return (value, path) => {
    if (!isObject(value)) fail(path, 'must be an object');
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!(key in shape)) fail(at(path, key), 'is not allowed');
    for (const [key, check] of entries) {
      const member = record[key];
      if (typeof check === 'function') {
        if (member === undefined) fail(at(path, key), 'is required');
        check(member, at(path, key));
      } else if (member !== undefined) check.optional(member, at(path, key));
    }
  };
}

/** A union tagged by `tag`: an unknown tag fails at `<path>.<tag>`. */
function tagged(tag: string, variants: Record<string, Shape>): Check {
  const checks = new Map(
    Object.entries(variants).map(([name, shape]) => [name, object({ [tag]: str, ...shape })]),
  );
  return (value, path) => {
    if (!isObject(value)) fail(path, 'must be an object');
    const name = (value as Record<string, unknown>)[tag];
    const check = typeof name === 'string' ? checks.get(name) : undefined;
    if (!check) fail(at(path, tag), `must be one of ${[...checks.keys()].join(', ')}`);
    check!(value, path);
  };
}

const MESSAGE_ID = /^msg/;
const modelRef = object({ id: str, providerID: str, variant: opt(str) });
const tokens = object({
  input: int,
  output: int,
  reasoning: int,
  cache: object({ read: int, write: int }),
});
const mention = object({ start: int, end: int, text: str });
const errorInfo = object({ type: str, message: str, status: opt(signedInt) });
const directory = object({ directory: str });

const file = object({
  data: str,
  mime: str,
  source: tagged('type', { inline: {}, uri: { uri: str } }),
  name: opt(str),
  description: opt(str),
  mention: opt(mention),
});

const toolContent = tagged('type', {
  text: { text: str },
  file: { uri: str, mime: str, name: opt(str) },
});

const toolState = tagged('status', {
  streaming: { input: str },
  running: { input: jsonObject, metadata: jsonObject },
  completed: { input: jsonObject, content: array(toolContent), metadata: opt(jsonObject) },
  error: { input: jsonObject, error: errorInfo, content: opt(array(toolContent)), metadata: opt(jsonObject) },
});

const content = tagged('type', {
  text: { text: str, state: opt(json), native: opt(json) },
  reasoning: { text: str, state: opt(json), time: opt(json), native: opt(json) },
  tool: {
    id: str,
    name: str,
    executed: opt(bool),
    providerState: opt(json),
    providerResultState: opt(json),
    state: toolState,
    time: object({ created: int, ran: opt(int), completed: opt(int) }),
    native: opt(json),
  },
});

const base: Shape = {
  id: matching(MESSAGE_ID),
  metadata: opt(jsonObject),
  time: object({ created: int, completed: opt(int) }),
};

const message = tagged('type', {
  user: {
    ...base,
    text: str,
    files: opt(array(file)),
    agents: opt(array(object({ name: str, mention: opt(mention) }))),
    skills: opt(array(object({ id: str, name: str, text: str, mention: opt(mention) }))),
  },
  synthetic: { ...base, text: str, description: opt(str) },
  system: { ...base, text: str, description: opt(str) },
  skill: { ...base, skill: str, name: str, text: str },
  shell: {
    ...base,
    shellID: str,
    command: str,
    status: oneOf('running', 'exited', 'timeout', 'killed'),
    exit: opt(signedInt),
    output: opt(object({ output: str, cursor: int, size: int, truncated: bool })),
  },
  'agent-switched': { ...base, agent: str, previous: opt(str) },
  'model-switched': { ...base, model: modelRef, previous: opt(modelRef) },
  'location-switched': {
    ...base,
    location: directory,
    projectID: opt(str),
    subpath: opt(str),
    previous: opt(directory),
  },
  compaction: {
    ...base,
    status: oneOf('running', 'completed', 'failed'),
    reason: oneOf('auto', 'manual'),
    summary: opt(str),
    recent: opt(str),
    error: opt(str),
  },
  assistant: {
    ...base,
    agent: str,
    model: modelRef,
    content: array(content),
    snapshot: opt(object({ start: opt(str), end: opt(str), files: opt(array(str)) })),
    finish: opt(oneOf('stop', 'length', 'tool-calls', 'content-filter', 'error', 'unknown')),
    cost: opt(num),
    tokens: opt(tokens),
    error: opt(errorInfo),
    retry: opt(object({ attempt: int, at: int, error: str })),
  },
});

const rule = object({ action: str, resource: str, effect: oneOf('allow', 'deny', 'ask') });

/** `Session.Info` as an export carries it; members this server derives or does not keep are accepted. */
const sessionInfo = object({
  id: matching(SESSION_ID),
  parentID: opt(matching(SESSION_ID)),
  fork: opt(jsonObject),
  projectID: opt(str),
  agent: opt(str),
  model: opt(modelRef),
  cost: num,
  tokens,
  steps: opt(int),
  outcome: opt(oneOf('succeeded', 'failed', 'interrupted')),
  time: object({ created: int, updated: int, idle: opt(int), viewed: opt(int), archived: opt(int) }),
  title: opt(str),
  location: opt(directory),
  subpath: opt(str),
  metadata: opt(jsonObject),
  permissions: opt(array(rule)),
  revert: opt(jsonObject),
});

/** Throws a SchemaFailure naming the path when the value is not a `Session.Message.Info`. */
export function checkMessage(value: unknown, path: string): void {
  message(value, path);
}

export function checkSessionInfo(value: unknown, path: string): void {
  sessionInfo(value, path);
}
