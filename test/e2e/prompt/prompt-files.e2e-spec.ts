import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import { api, EventLog, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A project whose provider `scripted` has a text-only model and one that takes images. */
function project(server: ScriptedModelServer): string {
  const dir = projectDir({
    'outpost.json': JSON.stringify({
      provider: {
        scripted: {
          package: 'aisdk:@ai-sdk/openai-compatible',
          settings: { baseURL: server.baseURL, apiKey: 'sk-scripted' },
          models: { small: {}, vision: { modalities: { input: ['text', 'image'] } } },
        },
      },
    }),
    'src/greet.ts': 'export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n',
    'src/util/a.ts': 'export const a = 1;\n',
  });
  writeFileSync(join(dir, 'logo.png'), PNG);
  return dir;
}

/** The user message's content parts of the scripted provider's last request. */
function userParts(server: ScriptedModelServer): Json[] {
  const messages = server.requests.at(-1)!.body.messages as Json[];
  const user = messages.filter((m) => m.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
}

describe('Prompt file parts: @file mentions reach the model with their content', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('inlines a text file the TUI mentions (v1 file part with a file:// URL) as the read tool would show it', async () => {
    const dir = project(server);
    const a = api(t);
    const sessionID = await a.createSession(dir);
    server.script({ text: 'It greets.' });
    const url = pathToFileURL(join(dir, 'src/greet.ts')).href;
    const res = await t.http
      .post(`/session/${sessionID}/message?directory=${encodeURIComponent(dir)}`)
      .set('authorization', basic())
      .send({
        parts: [
          { type: 'text', text: 'What does @src/greet.ts do?' },
          { type: 'file', mime: 'text/plain', filename: 'src/greet.ts', url },
        ],
      });
    expect(res.status).toBe(200);

    expect(userParts(server)).toEqual([
      { type: 'text', text: 'What does @src/greet.ts do?' },
      {
        type: 'text',
        text: `Called the Read tool with the following input: {"filePath":"${join(dir, 'src/greet.ts')}"}`,
      },
      {
        type: 'text',
        text: '     1\texport function greet(name: string) {\n     2\t  return `Hello, ${name}`;\n     3\t}',
      },
    ]);
    // The transcript keeps the file's content and where it came from.
    const user = (await a.messages(sessionID)).find((m) => m.type === 'user')!;
    expect(user.files).toEqual([
      {
        data: Buffer.from('export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n').toString(
          'base64',
        ),
        mime: 'text/plain',
        name: 'src/greet.ts',
        source: { type: 'uri', uri: url },
      },
    ]);
  });

  it('lists a directory, gives an image to a model that takes images and the same note to one that does not, pasted or mentioned', async () => {
    const dir = project(server);
    const a = api(t);
    const files = [
      { uri: pathToFileURL(join(dir, 'src')).href, mime: 'application/x-directory' },
      { uri: pathToFileURL(join(dir, 'logo.png')).href, mime: 'image/png' },
    ];
    const text = await a.createSession(dir);
    server.script({ text: 'ok' });
    expect((await a.prompt(text, { text: 'Look', files })).status).toBe(200);
    await log.idle(text);
    const parts = userParts(server);
    expect(parts.slice(1, 3)).toEqual([
      {
        type: 'text',
        text: `Called the list tool with the following input: {"path":"${join(dir, 'src')}"}`,
      },
      { type: 'text', text: 'greet.ts\nutil/\nutil/a.ts' },
    ]);
    // opencode's note, the same for a mentioned file and a pasted one (below).
    const note = 'ERROR: Cannot read "logo.png" (this model does not support image input). Inform the user.';
    expect(parts[3]).toEqual({ type: 'text', text: note });
    server.script({ text: 'ok' });
    const mark = log.events.length;
    const pasted = `data:image/png;base64,${PNG.toString('base64')}`;
    expect(
      (await a.prompt(text, { text: 'Pasted', files: [{ uri: pasted, name: 'logo.png' }] })).status,
    ).toBe(200);
    await log.idle(text, mark);
    expect(userParts(server)[1]).toEqual({ type: 'text', text: note });
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain('image_url');

    const vision = await a.createSession(dir, { model: { providerID: 'scripted', id: 'vision' } });
    server.script({ text: 'A dot.' });
    await a.prompt(vision, { text: 'Look', files: files.slice(1) });
    await log.idle(vision);
    expect(userParts(server)[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` },
    });
  });

  it('refuses a path outside the location with a 400 naming the part, and keeps data: URLs as sent', async () => {
    const dir = project(server);
    const outside = projectDir({ 'secret.txt': 'do not read\n' });
    const a = api(t);
    const sessionID = await a.createSession(dir);
    const uri = pathToFileURL(join(outside, 'secret.txt')).href;
    const v2 = await a.prompt(sessionID, { text: 'Read', files: [{ uri, mime: 'text/plain' }] });
    expect(v2.status).toBe(400);
    expect(v2.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'files.0.uri' });
    expect(v2.body.message).toContain('outside the location');

    const v1 = await t.http
      .post(`/session/${sessionID}/message?directory=${encodeURIComponent(dir)}`)
      .set('authorization', basic())
      .send({
        parts: [
          { type: 'text', text: 'Read' },
          { type: 'file', mime: 'text/plain', url: uri },
        ],
      });
    expect(v1.status).toBe(400);
    expect(JSON.stringify(v1.body)).toContain('parts[1]');
    expect(JSON.stringify(v1.body)).not.toContain('do not read');
    expect(server.requests.some((r) => JSON.stringify(r.body).includes('do not read'))).toBe(false);

    server.script({ text: 'ok' });
    const data = Buffer.from('inline text').toString('base64');
    await a.prompt(sessionID, { text: 'Inline', files: [{ uri: `data:text/plain;base64,${data}` }] });
    await log.idle(sessionID);
    expect(userParts(server)[1]).toMatchObject({ type: 'text', text: 'inline text' });
  });
});
