import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `Model.Ref`: a model of a provider, with an optional variant. */
export class ModelRefDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  id!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  providerID!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  variant?: string | null;
}
