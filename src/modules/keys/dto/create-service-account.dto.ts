import { IsString, Length } from 'class-validator';

export class CreateServiceAccountDto {
  /** e.g. `ci` or `release-bot`. */
  @IsString()
  @Length(1, 200)
  name!: string;
}
