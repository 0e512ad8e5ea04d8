import { InvalidRequestError } from '@/common/errors';
import { ALLOW_VARIABLE } from '@/common/net/outbound.config';
import { InternalAddressError, OutboundPolicy } from '@/common/net/outbound-policy';

/**
 * A base URL whose host is, or now resolves to, an internal address is a 400 naming `base_url`, unless the
 * operator allows it. A host that does not resolve yet is accepted: every call checks again.
 */
export async function checkReachable(outbound: OutboundPolicy, baseUrl: string): Promise<void> {
  try {
    await outbound.addresses(new URL(baseUrl).hostname);
  } catch (error) {
    if (!(error instanceof InternalAddressError)) return;
    throw new InvalidRequestError(
      `base_url: ${error.message}; the server's operator can allow it with ${ALLOW_VARIABLE}`,
      'base_url',
    );
  }
}
