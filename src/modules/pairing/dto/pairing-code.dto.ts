/** `PairingCode`: a single-use code and the link that redeems it. */
export class PairingCodeDto {
  /** Opaque, URL-safe, at least 128 bits of randomness. */
  code: string;
  /** Seconds until the code expires. */
  expires_in: number;
  /** The full `/auth/connect/<code>` link. */
  url: string;
}
