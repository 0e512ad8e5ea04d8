import { execFile } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TEST_PASSWORD, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';

const run = promisify(execFile);

jest.setTimeout(120_000);

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("the released SDK's v2 operations (@opencode-ai/sdk 1.19.3, built with directory)", () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;
  let out: Out;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, { 'src/main.ts': 'export {};\n', 'README.md': '# p\n' });
    // A link inside the location that leads out of it.
    symlinkSync('/etc', join(project, 'outside'));
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
    // The turn of the prompt, then the summary session.compact asks for.
    model.script({ text: ['Hello ', 'there.'] }, { text: 'SDK summary.' });
    const { stdout } = await run(process.execPath, [
      join(__dirname, 'sdk-v2-client.mjs'),
      t.url,
      TEST_PASSWORD,
      project,
    ]);
    out = JSON.parse(stdout) as Out;
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it("the event subscription receives server.connected and the session's turn", () => {
    const types = out.events.map((e: Out) => e.type);
    expect(types[0]).toBe('server.connected');
    expect(types).toEqual(
      expect.arrayContaining(['session.execution.started', 'session.message.part.delta', 'session.idle']),
    );
    expect(out.prompt).toMatchObject({ status: 200, data: { data: { admittedSeq: expect.any(Number) } } });
  });

  it('session.message answers one message, and a missing one is a 404', () => {
    expect(out.message).toMatchObject({
      status: 200,
      data: { data: { type: 'assistant', content: [{ type: 'text', text: 'Hello there.' }] } },
    });
    expect(out.missingMessage).toMatchObject({ status: 404, error: { _tag: 'MessageNotFoundError' } });
  });

  it('session.context is the transcript the next turn sees', () => {
    expect(out.context.status).toBe(200);
    expect(out.context.data.data.map((m: Out) => m.type)).toEqual(
      out.messages.data.data.map((m: Out) => m.type),
    );
    expect(out.context.data.data.map((m: Out) => m.type)).toEqual(
      expect.arrayContaining(['user', 'assistant']),
    );
  });

  it('session.history gives the durable events in seq order, in pages', () => {
    expect(out.history.status).toBe(200);
    const events = out.history.data.data as Out[];
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'session.next.prompted',
        'session.next.step.started',
        'session.next.text.ended',
      ]),
    );
    expect(events.map((e) => e.durable.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.find((e) => e.type === 'session.next.text.ended')!.data.text).toBe('Hello there.');
    expect(out.history.data.hasMore).toBe(false);
    expect(out.historyPage.data).toMatchObject({ data: [{ durable: { seq: 2 } }], hasMore: true });
  });

  it("the session's event stream replays its history", () => {
    const types = out.sessionEvents.map((e: Out) => e.type);
    expect(types[0]).toBe('session.next.prompted');
    expect(types).toContain('session.next.step.ended');
  });

  it('saved permissions, questions and terminals are empty lists', () => {
    expect(out.savedPermissions).toMatchObject({ status: 200, data: { data: [] } });
    expect(out.questions).toMatchObject({ status: 200, data: { data: [] } });
    expect(out.ptyList).toMatchObject({ status: 200, data: { location: { directory: project }, data: [] } });
  });

  it('fs.list lists inside the location only', () => {
    expect(out.fsList.status).toBe(200);
    expect(out.fsList.data.data).toEqual(
      expect.arrayContaining([
        { path: 'README.md', type: 'file' },
        { path: 'src', type: 'directory' },
      ]),
    );
    expect(out.fsListSub.data.data).toEqual([{ path: 'src/main.ts', type: 'file' }]);
    for (const escape of [out.fsEscape, out.fsLinkOut]) {
      expect(escape).toMatchObject({
        status: 400,
        error: { _tag: 'InvalidRequestError', field: 'path', kind: 'Query' },
      });
    }
    expect(out.fsList.data.data.map((e: Out) => e.path)).not.toContain('outside');
  });

  it("fs.find (the TUI's file picker) finds by name, best first, inside the location only", () => {
    expect(out.fsFind.status).toBe(200);
    expect(out.fsFind.data.data).toEqual([{ path: 'src/main.ts', type: 'file' }]);
    expect(out.fsFindDirs.data.data).toEqual([{ path: 'src', type: 'directory' }]);
    expect(out.fsFindBad).toMatchObject({
      status: 400,
      error: { _tag: 'InvalidRequestError', field: 'limit' },
    });
  });

  it('session.compact stores a summary the model wrote; revert stage, commit and clear answer', () => {
    expect(out.compact.status).toBe(204);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Provide a detailed summary');
    expect(out.revertStage).toMatchObject({ status: 200, data: { data: { messageID: expect.any(String) } } });
    expect(out.revertCommit.status).toBe(204);
    expect(out.revertClear.status).toBe(204);
  });

  it('each operation is in /docs/instance.json with the operation id the SDK uses', async () => {
    const doc = (await t.http.get('/docs/instance.json')).body as Out;
    const ids = Object.values(doc.paths as Out).flatMap((item: Out) =>
      Object.values(item).map((op: Out) => op.operationId),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        'session.message',
        'session.context',
        'session.history',
        'session.events',
        'permission.saved.list',
        'session.question.list',
        'fs.list',
        'fs.find',
        'pty.list',
        'session.compact',
        'session.revert.stage',
        'session.revert.commit',
        'session.revert.clear',
      ]),
    );
    const history = doc.paths['/api/session/{sessionID}/history'].get.responses['200'];
    expect(history.content['application/json'].schema.required).toEqual(['data', 'hasMore']);
  });
});
