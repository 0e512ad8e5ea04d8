import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** What the HTTP parser or a time-out says about a connection, as the tagged body every other error has. */
function describe(code: string | undefined): { status: number; tag: string; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, tag: 'RequestTimeoutError', message: 'The request was not received in time' };
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return {
        status: 408,
        tag: 'RequestTimeoutError',
        message: 'The request headers were not received in time',
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        tag: 'RequestHeaderFieldsTooLargeError',
        message: 'Request headers are too large',
      };
    case 'HPE_URI_TOO_LONG':
      return { status: 414, tag: 'UriTooLongError', message: 'The request URI is too long' };
    default:
      return { status: 400, tag: 'InvalidRequestError', message: 'Malformed HTTP request' };
  }
}

/** Fastify's `clientErrorHandler`: answers on the raw socket, then closes it. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const { status, tag, message } = describe(error.code);
  const body = JSON.stringify({ _tag: tag, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
