/**
 * ModelStep against the scripted model server, for each provider package: text, tool calls, reasoning and usage
 * streamed back and priced, and what is sent (system, history, tools, credentials).
 */
import { microCentsToDollars } from '@/common/money';
import { cost } from '@/modules/runtime/providers/cost';
import { PromptMessage } from '@/modules/runtime/providers/history';
import { StepEvent, ToolSpec } from '@/modules/runtime/providers/step.types';
import {
  FAST,
  PROTOCOLS,
  quietNestLogger,
  useScriptedProviders,
  user,
} from '../../../../test/helpers/model-step-fixture';
// Set by useScriptedProviders() before each test.
import { registry, server, step } from '../../../../test/helpers/model-step-fixture';

const READ_TOOL: ToolSpec = {
  name: 'read',
  description: 'Read a file',
  inputSchema: {
    type: 'object',
    properties: { filePath: { type: 'string' } },
    required: ['filePath'],
    additionalProperties: false,
  },
};

describe('ModelStep against the scripted model server', () => {
  quietNestLogger();
  useScriptedProviders();

  describe.each(PROTOCOLS)('$package', ({ protocol, providerID }) => {
    const model = () => registry.resolve({ providerID, id: 'm-1' }).language;

    it('streams text deltas, returns the finish reason and usage, and sends system, history, tools and credentials', async () => {
      server.script({ text: ['Hel', 'lo', '!'], usage: { input: 120, output: 8 } });
      const events: StepEvent[] = [];
      const history: PromptMessage[] = [
        user('first question'),
        { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
        user('say hello'),
      ];

      const result = await step.run(
        {
          model: model(),
          system: 'You are a careful coding agent.',
          messages: history,
          tools: [READ_TOOL],
          onEvent: (event) => events.push(event),
        },
        FAST,
      );

      expect(result).toMatchObject({ status: 'completed', finish: 'stop', text: 'Hello!', attempts: 1 });
      expect(result.tokens).toEqual({ input: 120, output: 8, reasoning: 0, cache: { read: 0, write: 0 } });
      expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
        'Hel',
        'lo',
        '!',
      ]);
      expect(events[0].type).toBe('text-start');
      expect(events[events.length - 1].type).toBe('text-end');

      expect(server.requests).toHaveLength(1);
      const { body, headers, protocol: seen } = server.requests[0];
      expect(seen).toBe(protocol);
      expect(body.stream).toBe(true);
      expect(body.model).toBe('m-1');
      expect(headers['x-team']).toBe('team-blue');
      if (protocol === 'openai') {
        expect(headers.authorization).toBe('Bearer sk-scripted-secret');
        expect(body.messages).toEqual([
          { role: 'system', content: 'You are a careful coding agent.' },
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'say hello' },
        ]);
        expect(body.tools).toEqual([
          {
            type: 'function',
            function: expect.objectContaining({ name: 'read', parameters: READ_TOOL.inputSchema }),
          },
        ]);
      } else {
        expect(headers['x-api-key']).toBe('sk-scripted-secret');
        expect(body.system).toEqual([{ type: 'text', text: 'You are a careful coding agent.' }]);
        expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
        expect(JSON.stringify(body.messages)).toContain('first answer');
        expect(body.tools).toEqual([
          expect.objectContaining({ name: 'read', input_schema: READ_TOOL.inputSchema }),
        ]);
      }
    });

    it('returns tool calls and sends their results back on the next step', async () => {
      server.script(
        {
          text: 'Let me look.',
          toolCalls: [{ id: 'call_a', name: 'read', input: { filePath: 'src/a.ts' } }],
        },
        { text: 'The file exports a.', usage: { input: 200, output: 10 } },
      );
      const events: StepEvent[] = [];
      const first = await step.run(
        {
          model: model(),
          messages: [user('what is in a.ts?')],
          tools: [READ_TOOL],
          onEvent: (e) => events.push(e),
        },
        FAST,
      );

      expect(first.status).toBe('completed');
      expect(first.finish).toBe('tool-calls');
      expect(first.toolCalls).toEqual([{ id: 'call_a', name: 'read', input: { filePath: 'src/a.ts' } }]);
      const types = events.map((e) => e.type);
      expect(types).toContain('tool-input-start');
      expect(types).toContain('tool-input-delta');
      expect(types.indexOf('tool-call')).toBeGreaterThan(types.indexOf('tool-input-start'));

      const second = await step.run(
        {
          model: model(),
          messages: [
            user('what is in a.ts?'),
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'Let me look.' },
                {
                  type: 'tool-call',
                  toolCallId: 'call_a',
                  toolName: 'read',
                  input: { filePath: 'src/a.ts' },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'call_a',
                  toolName: 'read',
                  output: { type: 'text', value: '1: export const a = 1;' },
                },
              ],
            },
          ],
          tools: [READ_TOOL],
        },
        FAST,
      );
      expect(second).toMatchObject({ status: 'completed', finish: 'stop', text: 'The file exports a.' });

      const sent = JSON.stringify(server.requests[1].body.messages);
      expect(sent).toContain('call_a');
      expect(sent).toContain('export const a = 1;');
      if (protocol === 'openai') {
        const toolMessage = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
        expect(toolMessage).toMatchObject({ tool_call_id: 'call_a', content: '1: export const a = 1;' });
      } else {
        expect(sent).toContain('"type":"tool_result"');
      }
    });

    it('reports tool calls whose arguments are not valid JSON as invalid', async () => {
      server.script({ toolCalls: [{ id: 'call_bad', name: 'read', arguments: '{"filePath": ' }] });
      const result = await step.run({ model: model(), messages: [user('go')], tools: [READ_TOOL] }, FAST);
      expect(result.status).toBe('completed');
      expect(result.toolCalls).toHaveLength(1);
      expect(result.toolCalls[0]).toMatchObject({ id: 'call_bad', name: 'read' });
      expect(result.toolCalls[0].invalid).toEqual(expect.any(String));
    });

    it('streams reasoning separately from text', async () => {
      server.script({ reasoning: ['think ', 'hard'], text: 'done' });
      const events: StepEvent[] = [];
      const result = await step.run(
        { model: model(), messages: [user('go')], onEvent: (e) => events.push(e) },
        FAST,
      );
      if (protocol === 'anthropic' || providerID === 'local') {
        expect(result.reasoning).toBe('think hard');
        expect(events.some((e) => e.type === 'reasoning-delta')).toBe(true);
      }
      expect(result.text).toBe('done');
    });

    it('counts cached input separately and prices the step from the model config', async () => {
      server.script({ text: 'ok', usage: { input: 1_000, output: 500, cacheRead: 4_000 } });
      const result = await step.run({ model: model(), messages: [user('go')] }, FAST);

      expect(result.tokens).toMatchObject({ input: 1_000, output: 500, cache: { read: 4_000, write: 0 } });
      const price = registry.model({ providerID, id: 'm-1' }).cost;
      // 1000 × $3/M + 500 × $15/M + 4000 × $0.30/M = $0.003 + $0.0075 + $0.0012 = $0.0117
      expect(cost(price, result.tokens)).toBe(1_170_000);
      expect(microCentsToDollars(cost(price, result.tokens))).toBeCloseTo(0.0117, 10);
    });
  });
});
