import type { QuestionInfo } from '../questions/question.types';
import { ToolError, ToolInputError } from './tool.errors';
import { Tool } from './tool.types';

interface QuestionToolInput {
  questions: unknown[];
}

/** The person dismissed the question: the call fails and the turn ends, as a rejected permission does. */
export class QuestionRejectedError extends ToolError {
  override readonly type = 'QuestionRejected';
}

/**
 * `question`: the model asks the person one or more questions with choices and waits for the answers, which
 * become the tool's output. Checked as the action `question` (the default rules deny it; `build` allows it).
 */
export const questionTool: Tool<QuestionToolInput> = {
  name: 'question',
  action: 'question',
  description:
    'Ask the user questions when you need their decision or information you cannot find yourself: a choice ' +
    'between approaches, a missing requirement, a preference. Each question has the full question text, a short ' +
    'header (at most 30 characters), and options (a label of a few words and a description of what it means); ' +
    'set multiple to true when several options may be chosen. The user may also type an answer of their own. ' +
    'Do not ask what you can find out by reading the code.',
  inputSchema: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        description: 'The questions to ask',
        items: {
          type: 'object',
          properties: {
            question: { type: 'string', description: 'The complete question' },
            header: { type: 'string', description: 'A very short label (max 30 characters)' },
            options: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  label: { type: 'string', description: 'The choice (1-5 words)' },
                  description: { type: 'string', description: 'What the choice means' },
                },
                required: ['label', 'description'],
              },
            },
            multiple: { type: 'boolean', description: 'Whether several options may be chosen' },
          },
          required: ['question', 'header', 'options'],
        },
      },
    },
    required: ['questions'],
    additionalProperties: false,
  },
  permissions: () => [{ action: 'question', resource: '*' }],
  async run(input, ctx) {
    const questions = input.questions.map(parseQuestion);
    if (questions.length === 0) throw new ToolInputError('question: ask at least one question');
    if (!ctx.ask) throw new ToolError('question: no one can be asked here');
    const answers = await ctx.ask(questions);
    const lines = questions.map((q, i) => {
      const answer = answers[i]?.length ? answers[i].join(', ') : '(no answer)';
      return `"${q.question}" = "${answer}"`;
    });
    return {
      output: `The user answered your questions:\n${lines.join('\n')}\nGo on with these answers in mind.`,
      title: `Asked ${questions.length} question${questions.length === 1 ? '' : 's'}`,
      metadata: { answers },
    };
  },
};

function parseQuestion(raw: unknown, index: number): QuestionInfo {
  const q = raw as Partial<QuestionInfo> | null;
  const text = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  const options = Array.isArray(q?.options) ? q.options : undefined;
  if (!q || !text(q.question) || !text(q.header) || !options) {
    throw new ToolInputError(`question: questions[${index}] needs question, header and options`);
  }
  if (!options.every((o) => o && text(o.label) && typeof o.description === 'string')) {
    throw new ToolInputError(`question: each option of questions[${index}] needs a label and a description`);
  }
  const info: QuestionInfo = {
    question: q.question!,
    header: q.header!,
    options: options.map((o) => ({ label: o.label, description: o.description })),
  };
  if (q.multiple === true) info.multiple = true;
  return info;
}
