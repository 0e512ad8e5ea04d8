import { IsString, MaxLength } from 'class-validator';

export class ProviderParamsDto {
  @IsString()
  @MaxLength(200)
  providerID!: string;
}

export class IntegrationParamsDto {
  @IsString()
  @MaxLength(200)
  integrationID!: string;
}
