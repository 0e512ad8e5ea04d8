import { IsString, MaxLength, MinLength } from 'class-validator';

export class SavedPermissionParamsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  id!: string;
}
