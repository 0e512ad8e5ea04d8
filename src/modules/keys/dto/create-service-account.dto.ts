import { IsString, Length } from 'class-validator';

export class CreateServiceAccountDto {
  /** e.g. `ci` or `release-bot`. */
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class UpdateServiceAccountDto {
  /** The new name; keys, usage and budget stay with the account. */
  @IsString()
  @Length(1, 200)
  name!: string;
}
