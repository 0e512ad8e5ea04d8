import { Logger } from '@nestjs/common';
import { toPromptMessages, TranscriptMessage } from '@/modules/runtime/providers/history';
import { ModelStep } from '@/modules/runtime/providers/model-step';
import { ProviderRegistry } from '@/modules/runtime/providers/provider-registry';
import { StepEvent } from '@/modules/runtime/providers/step.types';
import { BUILTIN_TOOLS, toolSpec } from '@/modules/runtime/tools/builtin-tools';
import { ScriptedModelServer } from '../../../../test/helpers/scripted-model-server';
import { TestClock } from '../../../../test/helpers/test-clock';

const FAST = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 };

describe('the transcript sent back to the provider', () => {
  let server: ScriptedModelServer;
  let registry: ProviderRegistry;
  const step = new ModelStep(new TestClock());

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));

  beforeEach(async () => {
    server = await ScriptedModelServer.start();
    registry = new ProviderRegistry({
      openai: {
        package: 'aisdk:@ai-sdk/openai-compatible',
        settings: { baseURL: server.baseURL },
        models: { m: {} },
      },
      anthropic: {
        package: 'aisdk:@ai-sdk/anthropic',
        settings: { baseURL: server.baseURL, apiKey: 'k' },
        models: { m: {} },
      },
    });
  });

  afterEach(() => server.close());

  it.each(['openai', 'anthropic'])(
    '%s: a recorded step (reasoning with its state, text, tool calls and results) round-trips',
    async (providerID) => {
      server.script(
        {
          reasoning: 'I should read it.',
          text: 'Reading.',
          toolCalls: [
            { id: 'call_read', name: 'read', input: { filePath: 'a.ts' } },
            { id: 'call_bash', name: 'bash', input: { command: 'npm test' } },
            { id: 'call_edit', name: 'edit', input: { filePath: 'a.ts', oldString: 'x', newString: 'y' } },
          ],
        },
        { text: 'All done.' },
      );
      const model = registry.resolve({ providerID, id: 'm' }).language;
      const events: StepEvent[] = [];
      const first = await step.run(
        {
          model,
          messages: [{ role: 'user', content: [{ type: 'text', text: 'fix a.ts' }] }],
          tools: BUILTIN_TOOLS.map(toolSpec),
          onEvent: (e) => events.push(e),
        },
        FAST,
      );
      const reasoningEnd = events.find((e) => e.type === 'reasoning-end') as { state?: unknown } | undefined;
      if (providerID === 'anthropic') {
        expect(reasoningEnd?.state).toEqual({ anthropic: { signature: 'scripted-signature' } });
      }

      const [read, bash, edit] = first.toolCalls;
      const transcript: TranscriptMessage[] = [
        {
          type: 'user',
          text: 'fix a.ts',
          files: [{ data: Buffer.from('hello').toString('base64'), mime: 'text/plain', name: 'n.txt' }],
        },
        { type: 'agent-switched', agent: 'build' },
        {
          type: 'assistant',
          content: [
            { type: 'reasoning', text: first.reasoning, state: reasoningEnd?.state },
            { type: 'text', text: first.text },
            {
              type: 'tool',
              id: read.id,
              name: read.name,
              state: {
                status: 'completed',
                input: read.input,
                content: [{ type: 'text', text: '1\tconst x = 1;' }],
              },
            },
            {
              type: 'tool',
              id: bash.id,
              name: bash.name,
              state: {
                status: 'error',
                input: bash.input,
                error: { type: 'PermissionDenied', message: 'denied' },
              },
            },
            { type: 'tool', id: edit.id, name: edit.name, state: { status: 'running', input: edit.input } },
          ],
        },
        { type: 'shell', command: 'git status', output: { output: 'clean' } },
        { type: 'synthetic', text: 'Continue.' },
      ];

      const second = await step.run({ model, messages: toPromptMessages(transcript), tools: [] }, FAST);
      expect(second.text).toBe('All done.');

      const sent = server.requests[1].body.messages;
      const text = JSON.stringify(sent);
      expect(text).toContain('const x = 1;');
      expect(text).toContain('The tool call was interrupted before it finished.');
      expect(text).toContain('The user ran `git status`:\\nclean');
      expect(text).toContain('Continue.');
      expect(text).not.toContain('agent-switched');
      if (providerID === 'openai') {
        expect(sent.map((m: { role: string }) => m.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'tool',
          'tool',
          'user',
          'user',
        ]);
        expect(sent[1].tool_calls.map((c: { id: string }) => c.id)).toEqual([
          'call_read',
          'call_bash',
          'call_edit',
        ]);
        expect(sent[3]).toMatchObject({ tool_call_id: 'call_bash', content: 'denied' });
      } else {
        expect(sent.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
        expect(sent[1].content[0]).toEqual({
          type: 'thinking',
          thinking: 'I should read it.',
          signature: 'scripted-signature',
        });
        expect(sent[1].content.filter((c: { type: string }) => c.type === 'tool_use')).toHaveLength(3);
        const results = sent[2].content.filter((c: { type: string }) => c.type === 'tool_result');
        expect(
          results.map((r: { tool_use_id: string; is_error?: boolean }) => [
            r.tool_use_id,
            r.is_error ?? false,
          ]),
        ).toEqual([
          ['call_read', false],
          ['call_bash', true],
          ['call_edit', true],
        ]);
        expect(JSON.stringify(sent[0])).toContain('"media_type":"text/plain"');
      }
    },
  );
});
