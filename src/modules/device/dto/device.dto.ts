/** RFC 8628 §3.1, as JSON (opencode) or form fields. */
export class DeviceCodeRequestDto {
  /** A configured client, e.g. `opencode-cli`. */
  client_id!: string;
  /** `true` (or `"true"` in a form): the token is bound to the workspace the person picks. */
  supports_org_scope?: boolean;
}

export class DeviceCodeResponseDto {
  /** At least 256 bits; poll with it. */
  device_code!: string;
  /** `XXXX-XXXX` from `BCDFGHJKLMNPQRSTVWXZ`; matched ignoring case and hyphen. */
  user_code!: string;
  /** `/console/device` (root-relative). */
  verification_uri!: string;
  /** `/console/device?user_code=XXXX-XXXX` (root-relative). */
  verification_uri_complete!: string;
  /** 600. */
  expires_in!: number;
  /** 5. */
  interval!: number;
}

/** The device grant (RFC 8628 §3.4) or the refresh grant (RFC 6749 §6). */
export class DeviceTokenRequestDto {
  /** `urn:ietf:params:oauth:grant-type:device_code` or `refresh_token`. */
  grant_type!: string;
  device_code?: string;
  refresh_token?: string;
  client_id!: string;
}

export class DeviceTokenResponseDto {
  /** `oc_at_…`, valid `expires_in` seconds. */
  access_token!: string;
  token_type!: 'Bearer';
  /** `oc_rt_…`: works once; a second use revokes the whole sign-in. */
  refresh_token!: string;
  /** 3600. */
  expires_in!: number;
  /** The workspace the token is bound to, or null when the client did not ask for one. */
  org_id!: string | null;
}

export class OAuthErrorDto {
  /** `authorization_pending`, `slow_down`, `access_denied`, `expired_token`, `invalid_grant`, `invalid_client`, … */
  error!: string;
  error_description!: string;
  /** With `slow_down`: the interval to use from now on, in seconds. */
  interval?: number;
}

export class DeviceSessionDto {
  /** `dvs_…` */
  id!: string;
  client_id!: string;
  /** The bound workspace, or null. */
  org_id!: string | null;
  user_agent!: string | null;
  created_at!: string;
  last_used_at!: string | null;
  /** True for the sign-in of the token making this request. */
  current!: boolean;
}
