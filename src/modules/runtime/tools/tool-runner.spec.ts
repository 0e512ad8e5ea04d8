import { EventEmitter2 } from '@nestjs/event-emitter';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { OutboundHttp } from '@/common/net/outbound-http';
import { EventsPublisher } from '@/common/events/events.publisher';
import { PermissionRequestsService } from '@/modules/runtime/permissions/permission-requests.service';
import { QuestionRequestsService } from '@/modules/runtime/questions/question-requests.service';
import { PermissionRequest, PermissionRuleset } from '@/modules/runtime/permissions/permission.types';
import { BUILTIN_TOOLS } from '@/modules/runtime/tools/builtin-tools';
import { commandPattern, ToolCallRequest, ToolRunner } from '@/modules/runtime/tools/tool-runner';
import { TestClock } from '../../../../test/helpers/test-clock';

const AGENT: PermissionRuleset = [
  { action: '*', resource: '*', effect: 'allow' },
  { action: 'external_directory', resource: '*', effect: 'ask' },
];

describe('ToolRunner: one tool call under the permission rules', () => {
  let root: string;
  let location: string;
  let outside: string;
  let requests: PermissionRequestsService;
  let runner: ToolRunner;
  let asked: PermissionRequest[];
  let replyWith: ((request: PermissionRequest) => void) | undefined;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'outpost-runner-'));
    location = join(root, 'project');
    outside = join(root, 'elsewhere');
    await mkdir(join(location, 'src'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(location, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(outside, 'notes.txt'), 'outside notes\n');

    const emitter = new EventEmitter2();
    const clock = new TestClock();
    const publisher = new EventsPublisher(emitter, clock);
    requests = new PermissionRequestsService(publisher, clock);
    runner = new ToolRunner(
      requests,
      OutboundHttp.fromEnv({}),
      new QuestionRequestsService(publisher, clock),
    );
    asked = [];
    replyWith = undefined;
    emitter.on(PUBLISHED_EVENT, (event: OutpostEvent) => {
      if (event.type !== 'permission.asked') return;
      const request = event.data as PermissionRequest;
      asked.push(request);
      replyWith?.(request);
    });
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read every outcome variant's members
  const call = (name: string, input: unknown, extra: Partial<ToolCallRequest> = {}): Promise<any> =>
    runner.run({
      call: { id: 'call_1', name, input },
      tools: BUILTIN_TOOLS,
      directory: location,
      rulesets: [AGENT],
      sessionID: 'ses_1',
      messageID: 'msg_1',
      location: { directory: location },
      signal: new AbortController().signal,
      ...extra,
    });

  it('runs an allowed call without asking', async () => {
    const outcome = await call('read', { filePath: 'src/a.ts' });
    expect(outcome).toMatchObject({ status: 'completed', rules: [] });
    expect(outcome.result.output).toContain('export const a = 1;');
    expect(asked).toEqual([]);
  });

  it('answers a denied call with an error the model sees, and does not run it', async () => {
    const outcome = await call(
      'edit',
      { filePath: 'src/a.ts', oldString: '1', newString: '2' },
      { rulesets: [AGENT, [{ action: 'edit', resource: 'src/*', effect: 'deny' }]] },
    );
    expect(outcome).toMatchObject({
      status: 'error',
      error: { type: 'PermissionDenied', message: 'Permission denied: edit src/a.ts is not allowed' },
    });
    expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('asks before an edit under an ask rule and runs it when the person replies once', async () => {
    replyWith = (request) => requests.reply(request.id, 'once');
    const onAsk = jest.fn();
    const outcome = await call(
      'edit',
      { filePath: 'src/a.ts', oldString: '1', newString: '2' },
      { rulesets: [AGENT, [{ action: 'edit', resource: '*', effect: 'ask' }]], onAsk },
    );
    expect(outcome).toMatchObject({ status: 'completed', rules: [] });
    expect(asked).toEqual([
      expect.objectContaining({
        sessionID: 'ses_1',
        permission: 'edit',
        patterns: ['src/a.ts'],
        tool: { messageID: 'msg_1', callID: 'call_1' },
      }),
    ]);
    expect(onAsk).toHaveBeenCalledWith(asked[0].id);
    expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });

  it('returns the allow rules of an always reply, for a command its program and sub-command', async () => {
    replyWith = (request) => requests.reply(request.id, 'always');
    const outcome = await call(
      'bash',
      { command: 'echo hi there' },
      { rulesets: [AGENT, [{ action: 'bash', resource: '*', effect: 'ask' }]] },
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.rules).toEqual([{ action: 'bash', resource: 'echo hi *', effect: 'allow' }]);
    expect(commandPattern('ls -la')).toBe('ls *');
    expect(commandPattern('git status -s')).toBe('git status *');
  });

  it('does not run a rejected call and tells the model why', async () => {
    replyWith = (request) => requests.reply(request.id, 'reject', { message: 'not that file' });
    const outcome = await call(
      'write',
      { filePath: 'src/b.ts', content: 'x' },
      { rulesets: [AGENT, [{ action: 'edit', resource: '*', effect: 'ask' }]] },
    );
    expect(outcome).toMatchObject({
      status: 'error',
      error: { type: 'PermissionRejected', message: 'The user rejected edit on src/b.ts: not that file' },
    });
    expect(existsSync(join(location, 'src', 'b.ts'))).toBe(false);
  });

  it('asks external_directory for a path outside the location, then runs it there', async () => {
    replyWith = (request) => requests.reply(request.id, 'once');
    const outcome = await call('read', { filePath: join(outside, 'notes.txt') });
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([
      ['external_directory', [join(outside, '*')]],
    ]);
    expect(outcome.status).toBe('completed');
    expect(outcome.result.output).toContain('outside notes');
  });

  it('refuses a path outside the location when external_directory is denied', async () => {
    const outcome = await call(
      'write',
      { filePath: join(outside, 'new.txt'), content: 'x' },
      { rulesets: [AGENT, [{ action: 'external_directory', resource: '*', effect: 'deny' }]] },
    );
    expect(outcome).toMatchObject({ status: 'error', error: { type: 'PermissionDenied' } });
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('reports unknown tools, invalid input, unparsable arguments and tool failures as errors', async () => {
    expect(await call('teleport', {})).toMatchObject({ status: 'error', error: { type: 'UnknownTool' } });
    expect(await call('read', { path: 'x' })).toMatchObject({
      status: 'error',
      error: { type: 'InvalidToolInput', message: 'read: "filePath" is required' },
    });
    const invalid = await runner.run({
      call: { id: 'c', name: 'read', input: '{"filePath": ', invalid: 'JSON parse error' },
      tools: BUILTIN_TOOLS,
      directory: location,
      rulesets: [AGENT],
      sessionID: 'ses_1',
      messageID: 'msg_1',
      signal: new AbortController().signal,
    });
    expect(invalid).toMatchObject({
      status: 'error',
      error: { type: 'InvalidToolInput', message: 'JSON parse error' },
    });
    expect(await call('edit', { filePath: 'src/a.ts', oldString: 'zzz', newString: 'y' })).toMatchObject({
      status: 'error',
      error: { type: 'ToolError', message: 'oldString was not found in src/a.ts' },
    });
  });

  it('is interrupted while waiting for an answer, withdrawing the request', async () => {
    const controller = new AbortController();
    replyWith = () => controller.abort();
    const outcome = await call(
      'edit',
      { filePath: 'src/a.ts', oldString: '1', newString: '2' },
      { rulesets: [AGENT, [{ action: 'edit', resource: '*', effect: 'ask' }]], signal: controller.signal },
    );
    expect(outcome.status).toBe('interrupted');
    expect(requests.list()).toEqual([]);
    expect(await readFile(join(location, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('is interrupted while the tool runs', async () => {
    const controller = new AbortController();
    const marker = join(location, 'started');
    const running = call('bash', { command: `touch ${marker}; sleep 30` }, { signal: controller.signal });
    while (!existsSync(marker)) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await running).toMatchObject({ status: 'interrupted' });
  });
});
