import { ApiProperty } from '@nestjs/swagger';

export class WellKnownAuthDto {
  /** The command opencode runs on the person's machine; what it prints is the token. */
  command!: string[];
  /** The variable opencode keeps the token in (its configs use it as `{env:…}`). */
  env!: string;
}

/** What `opencode auth login <console>` reads. */
export class OpencodeWellKnownDto {
  auth!: WellKnownAuthDto;
  /** An opencode config merged into the person's: the gateway's providers, keyed by the token. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  config!: Record<string, unknown>;
}
