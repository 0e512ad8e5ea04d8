import { IsOptional, IsString, MaxLength } from 'class-validator';

export class SavedPermissionsQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  projectID?: string;
}
