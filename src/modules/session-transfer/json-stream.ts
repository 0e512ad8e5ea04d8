import { Readable } from 'node:stream';
import type { SessionExport } from './session-transfer.service';

/** Text gathered before it is handed to the stream: a hundred-odd typical messages per write. */
export const EXPORT_CHUNK_CHARS = 128 * 1024;

/** `{ "data": { "info": …, "messages": [ … ] } }`, built as the messages come. */
async function* exportText(data: SessionExport): AsyncGenerator<string> {
  // The head goes out at once, before the first page is read: from here on a failure cuts the response.
  yield `{"data":{"info":${JSON.stringify(data.info)},"messages":[`;
  let chunk = '';
  let separator = '';
  for await (const page of data.pages) {
    for (const message of page) {
      chunk += separator + JSON.stringify(message);
      separator = ',';
      if (chunk.length >= EXPORT_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  }
  yield `${chunk}]}}`;
}

/**
 * The export as a byte stream that reads the next messages only when the client has taken the previous
 * ones (backpressure): memory holds a page of rows and a chunk or two, whatever the transcript's size.
 */
export function exportStream(data: SessionExport): Readable {
  return Readable.from(exportText(data), { objectMode: false, highWaterMark: EXPORT_CHUNK_CHARS });
}
