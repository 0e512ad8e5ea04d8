import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class PluginCheckDto {
  /** One configured package plugin (its spec or package name); absent or null: all of them. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(300)
  target?: string | null;
}
