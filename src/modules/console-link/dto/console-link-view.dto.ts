import { ApiProperty } from '@nestjs/swagger';
import type { LinkStatus } from '../console-link.service';
import type { ConsoleLinkView, PendingLogin } from '../console-login.service';

/** Whether this instance is signed in to a console (also in `GET /api/info` as `console`). */
export class LinkStatusDto implements LinkStatus {
  @ApiProperty({ enum: ['unlinked', 'linked', 'signed_out'] })
  state!: LinkStatus['state'];
  @ApiProperty({ type: String, nullable: true, description: "The console's address" })
  console!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The workspace (org_…) the instance is signed in to',
  })
  workspace!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    description: "The workspace's name, as the console lists it; null until the console has said",
  })
  workspaceName!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO-8601' })
  since!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When the workspace config was last fetched (ISO-8601)',
  })
  configFetchedAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The last failure to reach the console, while it lasts',
  })
  problem!: string | null;
}

export class PendingLoginDto implements PendingLogin {
  console!: string;
  userCode!: string;
  /** The console's approval page with the code filled in. */
  url!: string;
  /** ISO-8601 */
  expiresAt!: string;
}

export class ConsoleLinkViewDto implements ConsoleLinkView {
  link!: LinkStatusDto;
  @ApiProperty({ type: PendingLoginDto, nullable: true })
  pending!: PendingLoginDto | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the last sign-in started here did not complete',
  })
  error!: string | null;
}
