import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PayloadTooLargeError } from '../errors';

/** A body kept in a temporary file: its chunks read back, and the folder to remove once the request is answered. */
export interface SpooledBody {
  chunks: AsyncIterable<Buffer>;
  remove: () => Promise<void>;
}

/**
 * Writes a large body to a temporary file (mode 0600) as fast as it arrives, so that the request is received
 * within the server's request timeout however slowly its route then reads it: memory holds a chunk, the route reads
 * the file at its own pace. Past `limit` bytes the rest is drained unread and the answer is a 413 naming `setting`.
 */
export async function spoolBody(
  payload: IncomingMessage,
  limit: number,
  setting: string,
): Promise<SpooledBody> {
  const folder = await mkdtemp(join(tmpdir(), 'outpost-body-'));
  const path = join(folder, 'body');
  const remove = () => rm(folder, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const file = createWriteStream(path, { mode: 0o600 });
      let size = 0;
      const fail = (error: Error) => {
        payload.removeAllListeners('data');
        payload.resume(); // drain what is in flight; the reply closes the connection
        file.destroy();
        reject(error);
      };
      payload.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) return fail(new PayloadTooLargeError(limit, setting));
        if (!file.write(chunk)) {
          payload.pause();
          file.once('drain', () => payload.resume());
        }
      });
      payload.on('end', () => file.end());
      payload.on('error', fail);
      file.on('error', fail);
      file.on('finish', resolve);
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { chunks: createReadStream(path, { highWaterMark: 256 * 1024 }), remove };
}
