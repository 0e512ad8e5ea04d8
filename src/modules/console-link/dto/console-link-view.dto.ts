/** The console link as `/api/info` reports it. */
export class ConsoleLinkStatusDto {
  state!: 'unlinked' | 'linked' | 'signed_out';
  console!: string | null;
  workspace!: string | null;
  /** ISO-8601 */
  since!: string | null;
  /** ISO-8601: when the workspace config was last fetched. */
  configFetchedAt!: string | null;
  /** The last failure to reach the console, while it lasts. */
  problem!: string | null;
}

/** A device sign-in started here, waiting for its approval in the console. */
export class PendingConsoleLoginDto {
  /** The console's origin. */
  console!: string;
  /** The code the console's approval page shows, to compare. */
  userCode!: string;
  /** The console's approval page with the code filled in. */
  url!: string;
  /** ISO-8601 */
  expiresAt!: string;
}

/** `GET /api/console-link` and the answer of its actions. */
export class ConsoleLinkViewDto {
  link!: ConsoleLinkStatusDto;
  pending!: PendingConsoleLoginDto | null;
  /** Why the last sign-in started here did not complete (denied, expired). */
  error!: string | null;
}
