import { IsIn, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { PERMISSIONS, Permission } from '../../console-access/console-principal';

import { KeyControlsDto } from './key-controls.dto';

export class CreateKeyDto extends KeyControlsDto {
  @IsString()
  @Length(1, 200)
  name!: string;

  /** `inference`: inference, providers and the workspace config; `all`: also the console API as an admin. */
  @IsIn(PERMISSIONS)
  permission!: Permission;

  /** ISO-8601 time after which the key stops working; omitted: never expires. */
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string;
}
