import { IsISO8601, IsOptional, IsString, Length } from 'class-validator';

export class CreateTokenDto {
  @IsString()
  @Length(1, 200)
  name!: string;

  /** ISO-8601 time after which the token stops working; omitted: never expires. */
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string;
}
