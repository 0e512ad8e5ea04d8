import { join } from 'node:path';
import { PermissionRule, Ruleset } from '../location-config/config.types';
import { AgentInfo } from './agent.types';

export const DEFAULT_AGENT_ID = 'build';

/** Where the server keeps files its tools may touch outside the project (shell output, plan files). */
export interface BuiltinPaths {
  dataDir: string;
  tmpDir: string;
}

const rule = (action: string, resource: string, effect: PermissionRule['effect']): PermissionRule => ({
  action,
  resource,
  effect,
});

/** Reading is allowed, except env files, which ask (their examples are fine). */
const READ_RULES: Ruleset = [
  rule('read', '*', 'allow'),
  rule('read', '*.env', 'ask'),
  rule('read', '*.env.*', 'ask'),
  rule('read', '*.env.example', 'allow'),
];

/** What every agent starts from (the reference's default base). */
export function basePermissions(paths: BuiltinPaths): Ruleset {
  return [
    rule('*', '*', 'allow'),
    rule('external_directory', '*', 'ask'),
    rule('external_directory', join(paths.dataDir, 'shell', '*', '*'), 'allow'),
    rule('external_directory', join(paths.tmpDir, '*'), 'allow'),
    rule('question', '*', 'deny'),
    rule('plan_enter', '*', 'deny'),
    rule('plan_exit', '*', 'deny'),
    ...READ_RULES,
  ];
}

export function emptyAgent(id: string, paths: BuiltinPaths): AgentInfo {
  return {
    id,
    request: { settings: {}, headers: {}, body: {} },
    mode: 'all',
    hidden: false,
    permissions: basePermissions(paths),
  };
}

const EXPLORE_PROMPT = [
  'You are a fast, read-only agent for exploring a codebase.',
  'Find files by pattern, search code for keywords and read what you find; never change anything.',
  'Answer with the paths and the facts the caller asked for, briefly.',
].join('\n');

const COMPACTION_PROMPT =
  'Summarize the conversation so far so that work can continue from the summary alone: the goal, what was done, ' +
  'the files involved, decisions made and what remains.';

const TITLE_PROMPT = [
  'You write the title of a conversation between a user and a coding assistant.',
  "The next message is the user's first one. Answer with a title for the conversation and nothing else:",
  "- at most 50 characters, in the user's language;",
  '- the task or topic (for example "Fix the login redirect loop"), not a greeting or a question back;',
  '- no quotes, no markdown, no closing punctuation.',
].join('\n');

const SUMMARY_PROMPT =
  'Summarize what was done in this conversation in a few sentences, as a note for the user.';

/** A built-in: the empty agent with these fields, and these rules after the default base. */
function builtin(paths: BuiltinPaths, id: string, fields: Partial<AgentInfo>, rules: Ruleset): AgentInfo {
  return { ...emptyAgent(id, paths), ...fields, permissions: [...basePermissions(paths), ...rules] };
}

/** The built-in agents, in listing order: build (default), plan, general, explore, then the hidden ones. */
export function builtinAgents(paths: BuiltinPaths): AgentInfo[] {
  const hidden = (id: string, system: string) =>
    builtin(paths, id, { mode: 'primary', hidden: true, system }, [rule('*', '*', 'deny')]);
  return [
    builtin(
      paths,
      'build',
      {
        name: 'Build',
        description: 'The default agent. Executes tools based on configured permissions.',
        mode: 'primary',
      },
      [rule('question', '*', 'allow'), rule('plan_enter', '*', 'allow')],
    ),
    builtin(
      paths,
      'plan',
      { name: 'Plan', description: 'Plan mode. Disallows all edit tools.', mode: 'primary' },
      [
        rule('question', '*', 'allow'),
        rule('plan_exit', '*', 'allow'),
        rule('external_directory', join(paths.dataDir, 'plans', '*'), 'allow'),
        rule('edit', '*', 'deny'),
        rule('edit', '.opencode/plans/*.md', 'allow'),
        rule('edit', '.outpost/plans/*.md', 'allow'),
        rule('edit', join(paths.dataDir, 'plans', '*.md'), 'allow'),
      ],
    ),
    builtin(
      paths,
      'general',
      {
        name: 'General',
        description:
          'General-purpose agent for researching complex questions and executing multi-step tasks. ' +
          'Use it to run several units of work in parallel.',
        mode: 'subagent',
      },
      [rule('subagent', '*', 'deny')],
    ),
    builtin(
      paths,
      'explore',
      {
        name: 'Explore',
        description:
          'Fast read-only agent for exploring codebases: find files by pattern, search code for keywords, ' +
          'answer questions about the code.',
        mode: 'subagent',
        system: EXPLORE_PROMPT,
      },
      [
        rule('*', '*', 'deny'),
        rule('grep', '*', 'allow'),
        rule('glob', '*', 'allow'),
        ...READ_RULES,
        rule('webfetch', '*', 'allow'),
        rule('websearch', '*', 'allow'),
      ],
    ),
    hidden('compaction', COMPACTION_PROMPT),
    hidden('title', TITLE_PROMPT),
    hidden('summary', SUMMARY_PROMPT),
  ];
}
