import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { splitFrontMatter } from '@/common/text/front-matter';

/** Skill folders inside a project root or location: `<dir>/<name>/SKILL.md`, as opencode reads them. */
export const PROJECT_SKILL_DIRS = ['.opencode/skill', '.opencode/skills', '.claude/skills'];
/** The global config dir also takes skills directly under it (`~/.config/opencode/skill/`). */
export const GLOBAL_SKILL_DIRS = ['skill', 'skills', ...PROJECT_SKILL_DIRS];

/** A skill as opencode lists it (`GET /skill`): `location` is the path of its SKILL.md, `content` its body. */
export interface SkillInfo {
  name: string;
  description?: string;
  location: string;
  content: string;
}

/** One SKILL.md: front matter `name` (else the folder's name) and `description`, the body the instructions. */
export function parseSkillFile(path: string, text: string): SkillInfo | undefined {
  const split = splitFrontMatter(text);
  if ('error' in split) return undefined;
  const { meta, body } = split;
  const given = typeof meta.name === 'string' ? meta.name.trim() : '';
  const name = given || dirname(path).split(/[\\/]/).at(-1)!;
  const description = typeof meta.description === 'string' ? meta.description.trim() : '';
  return { name, ...(description ? { description } : {}), location: path, content: body.trim() };
}

/** The skills of the given folders under each base, later ones replacing earlier ones by name, sorted by name. */
export async function readSkills(sources: Array<{ base: string; dirs: string[] }>): Promise<SkillInfo[]> {
  const skills = new Map<string, SkillInfo>();
  for (const { base, dirs } of sources) {
    for (const dir of dirs) {
      const folder = join(base, dir);
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const path = join(folder, name, 'SKILL.md');
        const text = await readFile(path, 'utf8').catch(() => undefined);
        const skill = text === undefined ? undefined : parseSkillFile(path, text);
        if (skill) skills.set(skill.name, skill);
      }
    }
  }
  return [...skills.values()].sort((a, b) => a.name.localeCompare(b.name));
}
