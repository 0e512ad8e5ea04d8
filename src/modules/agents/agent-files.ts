import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { splitFrontMatter } from '@/common/text/front-matter';
import { parseAgentConfig } from '../location-config/config-validation';
import { AgentConfig, ConfigProblem } from '../location-config/config.types';

/** Agent folders inside a project root (and inside the global config dir). */
export const PROJECT_AGENT_DIRS = ['.opencode/agent', '.opencode/agents', '.outpost/agents'];
/** The global config dir also takes agents directly under it, as opencode's `~/.config/opencode/agent/`. */
export const GLOBAL_AGENT_DIRS = ['agent', 'agents', ...PROJECT_AGENT_DIRS];

export interface AgentFile {
  id: string;
  file: string;
  config: AgentConfig;
}

/**
 * One markdown agent: YAML front matter (`description`, `mode`, `model`, `color`, `steps`, `hidden`,
 * `permissions`, `disabled`) and the body as the system prompt. The file name is the agent id.
 */
export function parseAgentFile(file: string, text: string, problems: ConfigProblem[]): AgentFile | undefined {
  const id = basename(file, '.md');
  const split = splitFrontMatter(text);
  if ('error' in split) {
    problems.push({ file, message: split.error });
    return undefined;
  }
  const { meta, body } = split;
  const found: Array<{ path: string; message: string }> = [];
  const config = parseAgentConfig(meta, id, found);
  for (const problem of found) problems.push({ file, path: problem.path, message: problem.message });
  if (!config) return undefined;
  const system = body.trim();
  if (system && config.system === undefined) config.system = system;
  return { id, file, config };
}

/** Every `*.md` of the given folders under `base`, in folder order, then by name. Missing folders are fine. */
export async function readAgentFiles(
  base: string,
  dirs: string[],
  problems: ConfigProblem[],
): Promise<AgentFile[]> {
  const agents: AgentFile[] = [];
  for (const dir of dirs) {
    const folder = join(base, dir);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
      const file = join(folder, name);
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        problems.push({ file, message: `cannot be read (${error.code ?? error.message})` });
        return undefined;
      });
      if (text === undefined) continue;
      const agent = parseAgentFile(file, text, problems);
      if (agent) agents.push(agent);
    }
  }
  return agents;
}
