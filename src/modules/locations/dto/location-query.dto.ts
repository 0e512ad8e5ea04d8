import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';

/** `Location.PublicRef` as a deepObject query: `location[directory]=/abs/path`. */
export class LocationRefDto {
  /** Absolute path of the project directory. */
  @IsOptional()
  @IsString()
  directory?: string | null;

  /** Sent by older opencode clients; ignored. */
  @IsOptional()
  @IsString()
  workspace?: string;
}

export class LocationQueryDto {
  @IsOptional()
  @ValidateNested()
  @Type(() => LocationRefDto)
  location?: LocationRefDto | null;
}
