import { InvalidRequestError } from '@/common/errors';
import { parseJson, StreamedBody } from '@/common/http/body-parsers';
import { ImportPart, ImportReader } from './import-reader';

/** The parts of an import's body as its bytes arrive (ImportReader): one value in memory at a time. */
export async function* importParts(body: StreamedBody): AsyncGenerator<ImportPart> {
  const reader = new ImportReader();
  for await (const chunk of body) yield* reader.push(chunk);
  reader.end();
}

/**
 * A part's JSON, read as every JSON body is (`parseJson`: no `__proto__` keys, no NUL, nesting at most 64 deep),
 * a failure naming the part (`messages.12`).
 */
export function parsePart(text: string, field: string): unknown {
  if (text === '') throw new InvalidRequestError(`${field}: a value is missing`, field, 'Body');
  try {
    return parseJson(text, field);
  } catch (error) {
    // A NUL names its own field; malformed or too deep JSON names the part.
    if (!(error instanceof InvalidRequestError) || error.message.startsWith(field)) throw error;
    throw new InvalidRequestError(`${field}: ${error.message}`, field, 'Body');
  }
}
