import { writeWholeFileSync } from './whole-file';

/**
 * Writes a file only its owner may read (mode 0600), whole or not at all: a temporary file renamed over it, so a
 * reader never sees half of it and the secret is never readable by others, not even for a moment.
 */
export function writePrivateFile(file: string, text: string): void {
  writeWholeFileSync(file, text, 0o600);
}
