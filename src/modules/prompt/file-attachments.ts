import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidRequestError } from '@/common/errors';
import { DIRECTORY_MIME } from '../runtime/providers/history';
import { listTool } from '../runtime/tools/list.tool';
import { locate } from '../runtime/tools/paths';
import { readText } from '../runtime/tools/read.tool';
import { FileAttachment } from '../sessions/session-message.types';

/** The mime type of a directory attachment, as opencode's clients send it. */
/** Text kept of a mentioned file; the model is shown what the read tool would show of it. */
const MAX_TEXT_BYTES = 512 * 1024;
/** An image or PDF larger than this is refused (providers refuse far smaller ones). */
const MAX_BINARY_BYTES = 20 * 1024 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/**
 * Reads the `file://` attachments of a prompt (an `@file` mention of opencode's TUI arrives as a URI with no
 * data): a text file's content, a directory's listing, an image's or a PDF's bytes. Paths outside the location
 * are refused with a 400 naming the attachment; `data:` attachments and ones that carry data are kept as sent.
 */
export async function readFileAttachments(
  directory: string,
  files: FileAttachment[],
): Promise<FileAttachment[]> {
  return Promise.all(
    files.map((file, index) =>
      file.data === '' && file.source.type === 'uri' && file.source.uri.startsWith('file:')
        ? readOne(directory, file, file.source.uri, index)
        : file,
    ),
  );
}

async function readOne(
  directory: string,
  file: FileAttachment,
  uri: string,
  index: number,
): Promise<FileAttachment> {
  const field = `files.${index}.uri`;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    throw new InvalidRequestError(`files[${index}]: ${uri} is not a file URL`, field);
  }
  const located = locate(directory, path);
  if (located.external) {
    throw new InvalidRequestError(`files[${index}]: ${path} is outside the location ${directory}`, field);
  }
  const info = await stat(located.real).catch(() => null);
  if (!info) throw new InvalidRequestError(`files[${index}]: ${located.display} does not exist`, field);
  const name = file.name ?? located.display;
  if (info.isDirectory()) {
    const listing = await listTool.run(
      { path: located.real },
      { directory, signal: AbortSignal.timeout(5_000) },
    );
    return { ...file, name, mime: DIRECTORY_MIME, data: base64(listing.output) };
  }
  const media = MEDIA_TYPES[extname(located.real).toLowerCase()];
  if (media || /^image\/|^application\/pdf$/.test(file.mime)) {
    if (info.size > MAX_BINARY_BYTES) {
      throw new InvalidRequestError(
        `files[${index}]: ${located.display} is larger than ${MAX_BINARY_BYTES} bytes`,
        field,
      );
    }
    const bytes = await readFile(located.real);
    return { ...file, name, mime: media ?? file.mime, data: bytes.toString('base64') };
  }
  const text = info.size > MAX_TEXT_BYTES * 8 ? null : await readText(located.real).catch(() => null);
  if (text === null) return { ...file, name, mime: 'application/octet-stream' };
  const kept = Buffer.from(text).subarray(0, MAX_TEXT_BYTES);
  return { ...file, name, mime: 'text/plain', data: kept.toString('base64') };
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}
