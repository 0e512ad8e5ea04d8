import { parse as parseYaml } from 'yaml';

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/**
 * A markdown file's YAML front matter (`---` lines around it) and its body. `meta` is `{}` without front matter;
 * a front matter that is not valid YAML, or not a map, gives `error` instead.
 */
export function splitFrontMatter(
  text: string,
): { meta: Record<string, unknown>; body: string } | { error: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { meta: {}, body: text };
  let meta: unknown;
  try {
    meta = parseYaml(match[1]) ?? {};
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { error: `front matter is not valid YAML: ${reason}` };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return { error: 'front matter must be a map of fields' };
  }
  return { meta: meta as Record<string, unknown>, body: match[2] };
}
