import { Inject, Injectable } from '@nestjs/common';
import { applyEdits, modify, parse, ParseError } from 'jsonc-parser';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConflictError, InvalidRequestError } from '@/common/errors';
import { writeWholeFile } from '@/common/fs/whole-file';
import { ResolvedLocation } from '../locations/location.types';
import { deepMerge, FieldProblem, isRecord, parseConfigDocument } from './config-validation';
import { locationConfigConfig, LocationConfigConfig } from './location-config.config';

/** The location's opencode file (the one there is, `opencode.json` when there is none). */
const PROJECT_FILES = ['opencode.json', 'opencode.jsonc'];
/** opencode's global file, as opencode picks it to write. */
const GLOBAL_FILES = ['opencode.jsonc', 'opencode.json', 'config.json'];

/** More checks of a merged document than the file reader's (the providers' own, from the runtime). */
export type DocumentCheck = (document: Record<string, unknown>) => FieldProblem[];

/**
 * Writes opencode config into the files the config reader reads (opencode's `config.update`,
 * `global.config.update`): the patch deep-merged into the file, checked as a loaded file is, written in place
 * with its comments and formatting kept. Nothing is copied from other layers, so a secret stays in the file the
 * person put it in.
 */
@Injectable()
export class ConfigFilesService {
  constructor(@Inject(locationConfigConfig.KEY) private readonly settings: LocationConfigConfig) {}

  projectFile(location: ResolvedLocation): string {
    return pick(location.directory, PROJECT_FILES);
  }

  /** opencode's global config file (`$XDG_CONFIG_HOME/opencode/`), which every location reads first. */
  globalFile(): string {
    return pick(this.settings.opencodeGlobalDir, GLOBAL_FILES, 'opencode.json');
  }

  /**
   * Merges `patch` into `file` and answers the file's document as written. A patch that makes the document wrong
   * is a 400 naming the first new problem's field (a problem the file already had does not refuse the change).
   */
  async merge(
    file: string,
    patch: unknown,
    check: DocumentCheck = () => [],
  ): Promise<Record<string, unknown>> {
    if (!isRecord(patch)) throw new InvalidRequestError('Body must be a JSON object (an opencode config)');
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}\n';
      throw error;
    });
    const errors: ParseError[] = [];
    const current = parse(text, errors, { allowTrailingComma: true }) as unknown;
    if (errors.length > 0 || !isRecord(current)) {
      throw new ConflictError(`${file} is not a JSON object; fix it, then update the config again`, 'config');
    }
    const merged = deepMerge(current, patch);
    const before = new Set(problemsOf(current, file, check).map(key));
    const added = problemsOf(merged, file, check).find((problem) => !before.has(key(problem)));
    if (added) {
      const where = added.path ? `${added.path}: ` : '';
      throw new InvalidRequestError(`${where}${added.message}`, added.path || undefined);
    }
    if (Object.keys(patch).length === 0) return merged; // nothing to write: no file made for it
    let out = text;
    for (const member of Object.keys(patch)) {
      out = applyEdits(
        out,
        modify(out, [member], merged[member], {
          formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
        }),
      );
    }
    await mkdir(dirname(file), { recursive: true });
    // Keep the file's mode: a config holding keys may be private to its owner.
    const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
    await writeWholeFile(file, out, mode);
    return merged;
  }
}

function pick(dir: string, names: string[], fallback = names[0]): string {
  const found = names.find((name) => existsSync(join(dir, name)));
  return join(dir, found ?? fallback);
}

function problemsOf(document: Record<string, unknown>, file: string, check: DocumentCheck): FieldProblem[] {
  return [...parseConfigDocument(document, dirname(file)).problems, ...check(document)];
}

const key = (problem: FieldProblem) => `${problem.path}\u0000${problem.message}`;
