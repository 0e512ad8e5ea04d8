import { ApiProperty } from '@nestjs/swagger';
import { LocationPublicInfoDto } from '../../locations/dto/location-public-info.dto';
import { PermissionRequestDto } from '../../prompt/dto/session-message.dto';

export class InstanceHealthDto {
  healthy!: true;
}

export class ProviderApiDto {
  type!: 'aisdk';
  /** The AI SDK package, e.g. `@ai-sdk/openai-compatible`. */
  package!: string;
  /** The base URL, when the provider sets one. */
  url?: string;
}

export class RequestExtrasDto {
  headers!: Record<string, string>;
  body!: Record<string, unknown>;
}

/** `Provider.V2.Info`: never settings other than the base URL, never headers. */
export class ProviderViewDto {
  id!: string;
  name!: string;
  api!: ProviderApiDto;
  request!: RequestExtrasDto;
}

export class ModelApiDto extends ProviderApiDto {
  id!: string;
}

export class ModelCapabilitiesDto {
  tools!: boolean;
  input!: string[];
  output!: string[];
}

export class ModelVariantDto {
  id!: string;
  headers!: Record<string, string>;
  body!: Record<string, unknown>;
}

export class ModelCacheCostDto {
  read!: number;
  write!: number;
}

/** USD per million tokens. */
export class ModelCostDto {
  input!: number;
  output!: number;
  cache!: ModelCacheCostDto;
}

export class ModelLimitDto {
  context!: number;
  output!: number;
}

export class ModelReleaseDto {
  released!: number;
}

/** `Model.V2.Info`. */
export class ModelViewDto {
  id!: string;
  providerID!: string;
  name!: string;
  api!: ModelApiDto;
  capabilities!: ModelCapabilitiesDto;
  request!: RequestExtrasDto;
  variants!: ModelVariantDto[];
  time!: ModelReleaseDto;
  cost!: ModelCostDto[];
  status!: 'active';
  enabled!: boolean;
  limit!: ModelLimitDto;
}

export class ModelListDto {
  location!: LocationPublicInfoDto;
  data!: ModelViewDto[];
}

export class ProviderListDto {
  location!: LocationPublicInfoDto;
  data!: ProviderViewDto[];
}

export class LocationPermissionRequestsDto {
  location!: LocationPublicInfoDto;
  data!: PermissionRequestDto[];
}

/** Commands, skills, references, integrations, questions: Outpost has none of its own. */
export class EmptyLocationListDto {
  location!: LocationPublicInfoDto;
  @ApiProperty({ type: 'array', items: { type: 'object' }, maxItems: 0 })
  data!: never[];
}

export class ProviderResponseDto {
  location!: LocationPublicInfoDto;
  data!: ProviderViewDto;
}
