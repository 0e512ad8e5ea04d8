import { LocationPublicInfoDto } from '../../locations/dto/location-public-info.dto';

export class PermissionRuleDto {
  action: string;
  /** A glob. */
  resource: string;
  effect: 'allow' | 'deny' | 'ask';
}

export class ModelRefDto {
  id: string;
  providerID: string;
  variant?: string;
}

export class ProviderRequestDto {
  settings: Record<string, unknown>;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** `Agent.Info`. */
export class AgentInfoDto {
  id: string;
  name?: string;
  model?: ModelRefDto;
  request: ProviderRequestDto;
  /** The system prompt. */
  system?: string;
  description?: string;
  mode: 'subagent' | 'primary' | 'all';
  hidden: boolean;
  /** `#RRGGBB` or primary | secondary | accent | success | warning | error | info. */
  color?: string;
  /** Most steps per turn. */
  steps?: number;
  /** Evaluated in order; the last matching rule wins. */
  permissions: PermissionRuleDto[];
}

export class AgentListResponseDto {
  location: LocationPublicInfoDto;
  data: AgentInfoDto[];
}

export class AgentResponseDto {
  location: LocationPublicInfoDto;
  data: AgentInfoDto;
}
