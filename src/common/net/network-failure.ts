/** Network failures a person can act on, by the code Node or undici gives them. */
const WORDS: Record<string, string> = {
  ECONNREFUSED: 'nothing answers at that address and port (connection refused)',
  ENOTFOUND: 'the host name does not resolve (is it spelled right?)',
  EAI_AGAIN: 'the host name could not be resolved just now (DNS)',
  ECONNRESET: 'the server closed the connection',
  ETIMEDOUT: 'the address did not answer in time',
  EHOSTUNREACH: 'the host cannot be reached from this server',
  ENETUNREACH: 'the network of that address cannot be reached from this server',
  UND_ERR_CONNECT_TIMEOUT: 'the address did not accept a connection in time',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not start answering in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped answering half way',
  UND_ERR_SOCKET: 'the connection broke',
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another name",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not signed by a known authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
};

/**
 * Why a call to an address failed, in words (`nothing answers at that address and port (connection refused)`):
 * the first known code along the error's causes (read by shape: errors of other realms are not `instanceof`), else
 * the error's own message.
 */
export function networkFailure(error: unknown): string {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    seen.add(current);
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && WORDS[code]) return WORDS[code];
    current = cause;
  }
  return error instanceof Error ? error.message : String(error);
}
