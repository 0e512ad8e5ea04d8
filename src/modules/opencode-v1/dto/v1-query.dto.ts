import { IsOptional, IsString, MaxLength } from 'class-validator';

/** What opencode's v1 clients add to every request: the project directory and the workspace. */
export class V1QueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  directory?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  workspace?: string;
}
