import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { at, projectDir, writeFiles } from '../../helpers/project-dir';

const REVIEWER = `---
description: Reviews changes before they land
mode: subagent
model: anthropic/claude-sonnet-4
color: "#44aa88"
steps: 12
permissions:
  edit: deny
  bash:
    "git diff*": allow
---
You review code. Point out bugs first, style last.
`;

describe('agent.list / agent.get', () => {
  let t: TestApp;
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    t = await createTestApp();
    warnings = jest.spyOn(Logger.prototype, 'warn');
  });
  afterAll(async () => {
    warnings.mockRestore();
    await t.close();
  });

  const list = (dir: string) => t.http.get(`/api/agent?${at(dir)}`).set('authorization', basic());
  const get = (dir: string, id: string) =>
    t.http.get(`/api/agent/${id}?${at(dir)}`).set('authorization', basic());
  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((a) => a.id);
  const warned = (text: string) => warnings.mock.calls.some(([message]) => String(message).includes(text));

  it('lists the built-in agents with the reference fields in a { location, data } envelope', async () => {
    const dir = projectDir();
    const res = await list(dir);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['location', 'data']);
    expect(res.body.location).toEqual({
      directory: dir,
      project: { id: expect.any(String), directory: dir, canonical: dir },
    });
    expect(ids(res.body)).toEqual(['build', 'plan', 'general', 'explore', 'compaction', 'title', 'summary']);
    const byId = Object.fromEntries(res.body.data.map((a: { id: string }) => [a.id, a]));
    expect(byId.build).toMatchObject({
      name: 'Build',
      mode: 'primary',
      hidden: false,
      request: { settings: {}, headers: {}, body: {} },
      description: 'The default agent. Executes tools based on configured permissions.',
    });
    expect(byId.build.permissions.slice(0, 2)).toEqual([
      { action: '*', resource: '*', effect: 'allow' },
      { action: 'external_directory', resource: '*', effect: 'ask' },
    ]);
    expect(byId.build.permissions).toContainEqual({ action: 'read', resource: '*.env', effect: 'ask' });
    expect(byId.build.permissions.slice(-2)).toEqual([
      { action: 'question', resource: '*', effect: 'allow' },
      { action: 'plan_enter', resource: '*', effect: 'allow' },
    ]);
    expect(byId.plan.permissions).toContainEqual({ action: 'edit', resource: '*', effect: 'deny' });
    expect(byId.plan.permissions).toContainEqual({
      action: 'edit',
      resource: '.opencode/plans/*.md',
      effect: 'allow',
    });
    expect(byId.general).toMatchObject({ mode: 'subagent', hidden: false });
    expect(byId.general.permissions.at(-1)).toEqual({ action: 'subagent', resource: '*', effect: 'deny' });
    expect(byId.explore).toMatchObject({ mode: 'subagent', system: expect.any(String) });
    expect(byId.explore.permissions).toContainEqual({ action: '*', resource: '*', effect: 'deny' });
    expect(byId.explore.permissions).toContainEqual({ action: 'grep', resource: '*', effect: 'allow' });
    for (const hidden of ['compaction', 'title', 'summary']) {
      expect(byId[hidden]).toMatchObject({ hidden: true, mode: 'primary' });
      expect(byId[hidden].permissions.at(-1)).toEqual({ action: '*', resource: '*', effect: 'deny' });
      expect(byId[hidden].name).toBeUndefined();
    }
  });

  it('reads a markdown agent: front matter fields, body as system prompt', async () => {
    const dir = projectDir({ '.outpost/agents/reviewer.md': REVIEWER });
    const res = await get(dir, 'reviewer');
    expect(res.status).toBe(200);
    expect(res.body.location.directory).toBe(dir);
    expect(res.body.data).toMatchObject({
      id: 'reviewer',
      description: 'Reviews changes before they land',
      mode: 'subagent',
      hidden: false,
      model: { providerID: 'anthropic', id: 'claude-sonnet-4' },
      color: '#44aa88',
      steps: 12,
      system: 'You review code. Point out bugs first, style last.',
    });
    expect(res.body.data.permissions.slice(-2)).toEqual([
      { action: 'edit', resource: '*', effect: 'deny' },
      { action: 'bash', resource: 'git diff*', effect: 'allow' },
    ]);
    expect(ids((await list(dir)).body)).toContain('reviewer');
  });

  it('lets a custom agent override a built-in by id, project over global, opencode paths too', async () => {
    const globalDir = join(t.dataDir, 'config');
    writeFiles(globalDir, {
      'outpost.json': JSON.stringify({ agents: { build: { description: 'global build', steps: 3 } } }),
      'agents/helper.md': '---\ndescription: from the global dir\n---\nHelp.\n',
    });
    const dir = projectDir({
      'outpost.json': JSON.stringify({
        agents: { build: { description: 'project build', color: 'accent' } },
      }),
      '.opencode/agent/plan.md': '---\ndescription: careful planner\n---\nPlan carefully.\n',
    });
    const build = (await get(dir, 'build')).body.data;
    expect(build).toMatchObject({ name: 'Build', description: 'project build', steps: 3, color: 'accent' });
    expect(build.permissions.at(-1)).toEqual({ action: 'plan_enter', resource: '*', effect: 'allow' });
    const plan = (await get(dir, 'plan')).body.data;
    expect(plan).toMatchObject({ name: 'Plan', description: 'careful planner', system: 'Plan carefully.' });
    expect(plan.permissions).toContainEqual({ action: 'edit', resource: '*', effect: 'deny' });
    expect((await get(dir, 'helper')).body.data.description).toBe('from the global dir');
  });

  it('removes a disabled agent (opencode.jsonc with comments and trailing commas)', async () => {
    const dir = projectDir({
      'opencode.jsonc': `{
        // subagents we do not want here
        "agent": { "general": { "disabled": true, }, },
        "permission": { "webfetch": "deny" },
      }`,
    });
    expect(ids((await list(dir)).body)).not.toContain('general');
    const res = await get(dir, 'general');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      _tag: 'AgentNotFoundError',
      message: 'Agent not found: general',
      agentID: 'general',
    });
    expect((await get(dir, 'build')).body.data.permissions.at(-1)).toEqual({
      action: 'webfetch',
      resource: '*',
      effect: 'deny',
    });
  });

  it('reports a broken agent file or config without taking the location down', async () => {
    const dir = projectDir({
      '.outpost/agents/broken.md': '---\ndescription: [unclosed\n---\nbody\n',
      '.outpost/agents/sideways.md': '---\nmode: sideways\n---\nbody\n',
      '.outpost/agents/fine.md': '---\ndescription: still here\n---\nbody\n',
      'outpost.json': '{ "agents": { "oops": ',
    });
    const res = await list(dir);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expect.arrayContaining(['build', 'fine']));
    expect(ids(res.body)).not.toContain('broken');
    expect(ids(res.body)).not.toContain('sideways');
    expect((await get(dir, 'broken')).status).toBe(404);
    expect(warned(join(dir, '.outpost/agents/broken.md'))).toBe(true);
    expect(warned('agents.sideways') || warned('sideways.mode')).toBe(true);
    expect(warned(`${join(dir, 'outpost.json')}: is not valid JSON`)).toBe(true);
  });

  it('answers 404 LocationNotFoundError for an unknown location and 401 without credentials', async () => {
    const res = await list('/no/such/dir');
    expect(res.status).toBe(404);
    expect(res.body._tag).toBe('LocationNotFoundError');
    expect((await get('/no/such/dir', 'build')).body._tag).toBe('LocationNotFoundError');
    expect((await t.http.get('/api/agent')).status).toBe(401);
  });
});
