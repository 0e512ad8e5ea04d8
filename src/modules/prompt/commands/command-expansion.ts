import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';

/** `` !`cmd` `` in a template: the command's output takes its place. */
const SHELL = /!`([^`]+)`/g;
/** `@path` not inside a word or code span (opencode's pattern): the file is attached. */
const FILE_REFERENCE = /(?<![\w`])@(\.?[^\s`,.]*(?:\.[^\s`,.]+)*)/g;

/** Runs one template command in the location; the text to inline (its output, or why it did not run). */
export type TemplateShell = (command: string) => Promise<string>;

/** Every `` !`cmd` `` of the text replaced by what `shell` gives for it, in order. */
export async function runTemplateShell(text: string, shell: TemplateShell): Promise<string> {
  const outputs: string[] = [];
  for (const match of text.matchAll(SHELL)) outputs.push(await shell(match[1].trim()));
  let index = 0;
  return text.replace(SHELL, () => outputs[index++]);
}

/**
 * The files a template's `@path` references name: paths relative to the location, kept when they
 * exist inside it, in order and once each. The reference stays in the text; the file is attached beside it.
 */
export async function referencedFiles(text: string, directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const match of text.matchAll(FILE_REFERENCE)) {
    const name = match[1];
    if (!name) continue;
    const path = resolve(directory, name);
    const inside = relative(directory, path);
    if (inside.startsWith('..') || isAbsolute(inside) || found.includes(path)) continue;
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      found.push(path);
  }
  return found;
}
