/** Hand-built transfer data with every kind of content, for the import/export tests. */
import { descendingId } from '@/common/ids';

let counter = 0;
/** A `msg_` id that sorts after every earlier one (16 hex + 12 base62). */
export function msgId(): string {
  counter += 1;
  return `msg_${(0x10000000000n + BigInt(counter)).toString(16).padStart(16, '0')}abcdefABCDEF`;
}

export function sessionId(): string {
  return descendingId('ses');
}

const T = Date.UTC(2026, 2, 1, 12, 0, 0);

export function fullInfo(id: string, directory: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    projectID: 'ignored',
    agent: 'build',
    model: { id: 'claude', providerID: 'anthropic', variant: 'high' },
    cost: 0.25,
    tokens: { input: 100, output: 50, reasoning: 5, cache: { read: 7, write: 3 } },
    outcome: 'succeeded',
    time: { created: T, updated: T + 5000, idle: T + 5000, viewed: T + 6000 },
    title: 'Fix the login bug',
    location: { directory },
    metadata: { ticket: 'SEC-1' },
    permissions: [{ action: 'bash', resource: 'rm *', effect: 'deny' }],
    ...extra,
  };
}

/** One message of every variant and every content kind, all settled. */
export function fullMessages() {
  const ids = Array.from({ length: 11 }, msgId);
  const mention = (text: string) => ({ start: 0, end: text.length, text });
  return [
    {
      id: ids[0],
      type: 'user',
      time: { created: T + 1 },
      metadata: { client: 'tui' },
      text: 'please read @secret.txt with @reviewer',
      files: [
        {
          data: 'c2VjcmV0',
          mime: 'text/plain',
          source: { type: 'uri', uri: 'file:///home/me/secret.txt' },
          name: 'secret.txt',
          description: 'the secret',
          mention: mention('@secret.txt'),
        },
      ],
      agents: [{ name: 'reviewer', mention: mention('@reviewer') }],
      skills: [{ id: 'skl_1', name: 'deploy', text: 'how to deploy', mention: mention('/deploy') }],
    },
    { id: ids[1], type: 'synthetic', time: { created: T + 2 }, text: 'continue', description: 'auto' },
    { id: ids[2], type: 'system', time: { created: T + 3 }, text: 'you are helpful', description: 'env' },
    { id: ids[3], type: 'skill', time: { created: T + 4 }, skill: 'skl_1', name: 'deploy', text: 'step 1' },
    {
      id: ids[4],
      type: 'shell',
      time: { created: T + 5, completed: T + 6 },
      shellID: 'sh_1',
      command: 'cat ~/.ssh/id_rsa',
      status: 'exited',
      exit: 0,
      output: { output: '-----BEGIN KEY-----', cursor: 19, size: 19, truncated: false },
    },
    { id: ids[5], type: 'agent-switched', time: { created: T + 7 }, agent: 'plan', previous: 'build' },
    {
      id: ids[6],
      type: 'model-switched',
      time: { created: T + 8 },
      model: { id: 'gpt', providerID: 'openai' },
      previous: { id: 'claude', providerID: 'anthropic', variant: 'high' },
    },
    {
      id: ids[7],
      type: 'location-switched',
      time: { created: T + 9 },
      location: { directory: '/home/me/other' },
      projectID: 'prj',
      subpath: 'web',
      previous: { directory: '/home/me/project' },
    },
    {
      id: ids[8],
      type: 'compaction',
      time: { created: T + 10 },
      status: 'completed',
      reason: 'auto',
      summary: 'we fixed login',
      recent: 'last words',
    },
    {
      id: ids[9],
      type: 'assistant',
      time: { created: T + 11, completed: T + 20 },
      metadata: { trace: 'abc' },
      agent: 'build',
      model: { id: 'claude', providerID: 'anthropic' },
      content: [
        { type: 'reasoning', text: 'I should read it', state: { signature: 'sig' }, time: { start: 1 } },
        { type: 'text', text: 'Here is the file', state: { id: 'x' } },
        {
          type: 'tool',
          id: 'call_1',
          name: 'read',
          executed: true,
          providerState: { p: 1 },
          providerResultState: { r: 2 },
          state: {
            status: 'completed',
            input: { path: '/home/me/secret.txt' },
            content: [
              { type: 'text', text: 'secret contents' },
              { type: 'file', uri: 'file:///home/me/a.png', mime: 'image/png', name: 'a.png' },
            ],
            metadata: { lines: 1 },
          },
          time: { created: T + 12, ran: T + 13, completed: T + 15 },
        },
        {
          type: 'tool',
          id: 'call_2',
          name: 'bash',
          state: {
            status: 'error',
            input: { command: 'rm -rf /' },
            error: { type: 'denied', message: 'rm -rf / was denied' },
            content: [{ type: 'text', text: 'partial' }],
            metadata: { exit: 1 },
          },
          time: { created: T + 16, completed: T + 17 },
        },
      ],
      finish: 'tool-calls',
      cost: 0.125,
      tokens: { input: 100, output: 50, reasoning: 5, cache: { read: 7, write: 3 } },
    },
    { id: ids[10], type: 'user', time: { created: T + 21 }, text: '' },
  ];
}
