import type { ServerResponse } from 'node:http';
import { HttpReply } from '../../common/http/http';
import type { SessionExport } from './session-transfer.service';

/**
 * Bytes of an export kept back before the head is sent: a transcript up to this size is checked whole, so
 * an undecodable row still gets a proper 500; a larger one streams with memory bounded by this and a page.
 */
export const EXPORT_HOLD_BYTES = 4 * 1024 * 1024;

/** Resolves once the socket took the chunk or has room again (backpressure). */
function write(response: ServerResponse, chunk: string): Promise<void> {
  if (response.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      response.off('drain', done);
      response.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const closed = () => done(new Error('client went away'));
    response.once('drain', done);
    response.once('close', closed);
  });
}

/**
 * Writes `{ "data": { "info": …, "messages": [ … ] } }` page by page. Until EXPORT_HOLD_BYTES are pending
 * nothing is sent, so a failure is still an error response; after that, a failure cuts the connection, so
 * the client never mistakes a partial document for a whole one.
 */
export async function writeExport(reply: HttpReply, data: SessionExport): Promise<void> {
  const response = reply.raw;
  const held: string[] = [`{"data":{"info":${JSON.stringify(data.info)},"messages":[`];
  let heldBytes = 0;
  let streaming = false;
  let first = true;
  try {
    for await (const page of data.pages) {
      if (page.length === 0) continue;
      const body = page.map((message) => JSON.stringify(message)).join(',');
      const chunk = first ? body : `,${body}`;
      first = false;
      if (streaming) {
        await write(response, chunk);
        continue;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= EXPORT_HOLD_BYTES) {
        // From here on the export writes to the socket itself.
        reply.hijack();
        response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        streaming = true;
        await write(response, held.splice(0).join(''));
      }
    }
  } catch (error) {
    if (streaming) response.destroy(error as Error);
    throw error;
  }
  held.push(']}}');
  if (streaming) response.end(held.join(''));
  else await reply.status(200).type('application/json; charset=utf-8').send(held.join(''));
}
