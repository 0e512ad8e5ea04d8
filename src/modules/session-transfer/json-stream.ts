import type { Response } from 'express';
import type { SessionExport } from './session-transfer.service';

/** Resolves once the socket took the chunk or has room again (backpressure). */
function write(response: Response, chunk: string): Promise<void> {
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
 * Writes `{ "data": { "info": …, "messages": [ … ] } }` page by page. A failure once the head is sent
 * cannot become an error body: the connection is cut, so the client never mistakes a partial document
 * for a whole one.
 */
export async function writeExport(response: Response, data: SessionExport): Promise<void> {
  response.status(200).type('application/json');
  try {
    await write(response, `{"data":{"info":${JSON.stringify(data.info)},"messages":[`);
    let first = true;
    for await (const page of data.pages) {
      if (page.length === 0) continue;
      const body = page.map((message) => JSON.stringify(message)).join(',');
      await write(response, first ? body : `,${body}`);
      first = false;
    }
    response.end(']}}');
  } catch (error) {
    response.destroy(error as Error);
    throw error;
  }
}
