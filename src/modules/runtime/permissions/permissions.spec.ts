import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { EventsPublisher } from '@/common/events/events.publisher';
import { decide, evaluate, isToolDisabled } from '@/modules/runtime/permissions/evaluate';
import { PermissionRequestsService } from '@/modules/runtime/permissions/permission-requests.service';
import { PermissionRuleset } from '@/modules/runtime/permissions/permission.types';
import { wildcardMatch } from '@/common/text/wildcard';
import { TestClock } from '../../../../test/helpers/test-clock';

/** The reference's default base of every agent (`Agent.empty` plus the built-in read rules). */
const AGENT: PermissionRuleset = [
  { action: '*', resource: '*', effect: 'allow' },
  { action: 'external_directory', resource: '*', effect: 'ask' },
  { action: 'external_directory', resource: '/tmp/*', effect: 'allow' },
  { action: 'question', resource: '*', effect: 'deny' },
  { action: 'read', resource: '*', effect: 'allow' },
  { action: 'read', resource: '*.env', effect: 'ask' },
  { action: 'read', resource: '*.env.*', effect: 'ask' },
  { action: 'read', resource: '*.env.example', effect: 'allow' },
];

describe('permission rules', () => {
  it.each([
    ['*', 'anything/at/all', true],
    ['*.env', 'config/.env', true],
    ['*.env', '.env.local', false],
    ['src/*.ts', 'src/a/b.ts', true],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['git *', 'git', true],
    ['git *', 'git status', true],
    ['git *', 'gitk', false],
    ['npm run (x)', 'npm run (x)', true],
    ['a.b', 'axb', false],
  ])('wildcard %s on %s → %s', (pattern, value, expected) => {
    expect(wildcardMatch(pattern, value)).toBe(expected);
  });

  it.each([
    ['edit', 'src/a.ts', [], 'allow'],
    ['read', 'src/a.ts', [], 'allow'],
    ['read', 'deploy/.env', [], 'ask'],
    ['read', '.env.production', [], 'ask'],
    ['read', '.env.example', [], 'allow'],
    ['question', '*', [], 'deny'],
    ['external_directory', '/home/me/other/*', [], 'ask'],
    ['external_directory', '/tmp/scratch/*', [], 'allow'],
    // session rules come after the agent's: the last match wins
    ['edit', 'src/a.ts', [{ action: 'edit', resource: '*', effect: 'ask' }], 'ask'],
    ['edit', 'docs/x.md', [{ action: 'edit', resource: 'src/*', effect: 'deny' }], 'allow'],
    ['edit', 'src/x.ts', [{ action: 'edit', resource: 'src/*', effect: 'deny' }], 'deny'],
    ['read', 'deploy/.env', [{ action: 'read', resource: 'deploy/.env', effect: 'allow' }], 'allow'],
    ['bash', 'rm -rf /', [{ action: 'bash', resource: 'rm *', effect: 'deny' }], 'deny'],
    ['bash', 'ls', [{ action: 'bash', resource: 'rm *', effect: 'deny' }], 'allow'],
  ] as const)('%s %s with session rules %j → %s', (action, resource, session, expected) => {
    expect(evaluate(action, resource, AGENT, [...session]).effect).toBe(expected);
  });

  it('asks when no rule matches, and names the deciding rule', () => {
    expect(evaluate('edit', 'a.ts')).toEqual({ effect: 'ask' });
    expect(evaluate('edit', 'a.ts', [{ action: 'e*', resource: '*.ts', effect: 'deny' }])).toEqual({
      effect: 'deny',
      rule: { action: 'e*', resource: '*.ts', effect: 'deny' },
    });
  });

  it('decides a call from all its checks: deny beats ask beats allow, asks grouped by action', () => {
    const session: PermissionRuleset = [{ action: 'edit', resource: '*', effect: 'ask' }];
    expect(decide([{ action: 'read', resource: 'src/a.ts' }], AGENT, session)).toEqual({
      effect: 'allow',
      asks: [],
    });
    expect(
      decide(
        [
          { action: 'edit', resource: '/home/me/x.ts' },
          { action: 'external_directory', resource: '/home/me/*' },
        ],
        AGENT,
        session,
      ),
    ).toEqual({
      effect: 'ask',
      asks: [
        { action: 'edit', resources: ['/home/me/x.ts'] },
        { action: 'external_directory', resources: ['/home/me/*'] },
      ],
    });
    const denied = decide(
      [
        { action: 'edit', resource: 'src/a.ts' },
        { action: 'question', resource: '*' },
      ],
      AGENT,
      session,
    );
    expect(denied).toEqual({
      effect: 'deny',
      denied: {
        check: { action: 'question', resource: '*' },
        rule: { action: 'question', resource: '*', effect: 'deny' },
      },
      asks: [],
    });
  });

  it('withholds a tool only when its action is denied on every resource by the last matching rule', () => {
    const readOnly: PermissionRuleset = [
      { action: '*', resource: '*', effect: 'deny' },
      { action: 'read', resource: '*', effect: 'allow' },
      { action: 'grep', resource: '*', effect: 'allow' },
    ];
    expect(isToolDisabled('edit', readOnly)).toBe(true);
    expect(isToolDisabled('bash', readOnly)).toBe(true);
    expect(isToolDisabled('read', readOnly)).toBe(false);
    expect(isToolDisabled('edit', AGENT, [{ action: 'edit', resource: 'src/*', effect: 'deny' }])).toBe(
      false,
    );
    expect(isToolDisabled('edit', AGENT, [{ action: 'edit', resource: '*', effect: 'deny' }])).toBe(true);
    expect(
      isToolDisabled('edit', readOnly, [{ action: 'edit', resource: 'plans/*.md', effect: 'allow' }]),
    ).toBe(false);
  });
});

describe('PermissionRequestsService', () => {
  let events: OutpostEvent[];
  let requests: PermissionRequestsService;
  const location = { directory: '/work/project' };

  beforeEach(() => {
    const emitter = new EventEmitter2();
    events = [];
    emitter.on(PUBLISHED_EVENT, (event: OutpostEvent) => events.push(event));
    const clock = new TestClock();
    requests = new PermissionRequestsService(new EventsPublisher(emitter, clock), clock);
  });

  const ask = (sessionID: string, permission = 'edit', patterns = ['src/a.ts'], extra = {}) =>
    requests.ask({
      sessionID,
      permission,
      patterns,
      location,
      tool: { messageID: 'msg_1', callID: 'call_1' },
      metadata: { tool: 'edit' },
      ...extra,
    });

  it('publishes permission.asked with the request and lists it until answered once', async () => {
    const { request, answer } = ask('ses_a');
    expect(request.id).toMatch(/^per_[0-9a-f]{16}[0-9A-Za-z]{12}$/);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'permission.asked',
        location,
        data: {
          id: request.id,
          sessionID: 'ses_a',
          permission: 'edit',
          patterns: ['src/a.ts'],
          always: ['src/a.ts'],
          metadata: { tool: 'edit' },
          tool: { messageID: 'msg_1', callID: 'call_1' },
          time: { created: expect.any(Number) },
        },
      }),
    ]);
    expect(requests.list('ses_a')).toEqual([request]);
    expect(requests.list('ses_b')).toEqual([]);

    const once = { reply: 'once', rules: [], byPerson: true };
    expect(requests.reply(request.id, 'once', { sessionID: 'ses_a' })).toEqual(once);
    await expect(answer).resolves.toEqual(once);
    expect(requests.list()).toEqual([]);
    expect(events[1]).toMatchObject({
      type: 'permission.replied',
      location,
      data: { sessionID: 'ses_a', requestID: request.id, reply: 'once' },
    });
  });

  it('always returns allow rules for the session and settles the requests they now cover', async () => {
    const first = ask('ses_a', 'bash', ['git status'], { always: ['git *'] });
    const covered = ask('ses_a', 'bash', ['git log']);
    const other = ask('ses_a', 'bash', ['rm -rf build']);
    const otherSession = ask('ses_b', 'bash', ['git diff']);

    const answer = requests.reply(first.request.id, 'always');
    const rules: PermissionRuleset = [{ action: 'bash', resource: 'git *', effect: 'allow' }];
    expect(answer).toEqual({ reply: 'always', rules, byPerson: true });
    await expect(first.answer).resolves.toEqual({ reply: 'always', rules, byPerson: true });
    await expect(covered.answer).resolves.toEqual({ reply: 'once', rules: [] });
    expect(requests.list().map((r) => r.id)).toEqual([other.request.id, otherSession.request.id]);
    expect(
      evaluate('bash', 'git push', AGENT, [{ action: 'bash', resource: '*', effect: 'ask' }], rules).effect,
    ).toBe('allow');
  });

  it('reject settles with the reason and publishes the reply', async () => {
    const { request, answer } = ask('ses_a');
    requests.reply(request.id, 'reject', { message: 'use the other file' });
    await expect(answer).resolves.toEqual({
      reply: 'reject',
      rules: [],
      reason: 'use the other file',
      byPerson: true,
    });
    expect(events.map((e) => e.type)).toEqual(['permission.asked', 'permission.replied']);
    expect(events[1].data).toMatchObject({ reply: 'reject' });
  });

  it('answers 404 for an unknown request, a settled one, or one of another session', () => {
    const { request } = ask('ses_a');
    expect(() => requests.reply('per_unknown', 'once')).toThrow(
      expect.objectContaining({
        status: 404,
        tag: 'PermissionRequestNotFoundError',
        fields: { requestID: 'per_unknown' },
      }),
    );
    expect(() => requests.reply(request.id, 'once', { sessionID: 'ses_b' })).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    requests.reply(request.id, 'once');
    expect(() => requests.reply(request.id, 'once')).toThrow(expect.objectContaining({ status: 404 }));
  });

  it('rejectAll rejects every pending request, or those of one location', async () => {
    const a = ask('ses_a');
    const b = ask('ses_b', 'read', ['.env'], { location: { directory: '/work/other' } });
    const c = ask('ses_c');

    expect(requests.rejectAll('location reloaded', location)).toBe(2);
    await expect(a.answer).resolves.toEqual({ reply: 'reject', rules: [], reason: 'location reloaded' });
    await expect(c.answer).resolves.toMatchObject({ reply: 'reject' });
    expect(requests.list().map((r) => r.id)).toEqual([b.request.id]);

    expect(requests.rejectAll('shutdown')).toBe(1);
    await expect(b.answer).resolves.toEqual({ reply: 'reject', rules: [], reason: 'shutdown' });
    expect(requests.list()).toEqual([]);
    expect(events.filter((e) => e.type === 'permission.replied')).toHaveLength(3);
  });

  it('an interrupted call withdraws its request', async () => {
    const controller = new AbortController();
    const { request, answer } = ask('ses_a', 'edit', ['src/a.ts'], { signal: controller.signal });
    controller.abort();
    await expect(answer).resolves.toEqual({ reply: 'reject', rules: [], reason: 'interrupted' });
    expect(requests.list()).toEqual([]);
    expect(() => requests.reply(request.id, 'once')).toThrow(expect.objectContaining({ status: 404 }));
  });
});
