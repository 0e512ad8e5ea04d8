import { microCentsToDollars } from '@/common/money';
import { ApiKeyEntity } from './api-key.entity';
import { iso, statusOf } from './credential-status';
import { CreatedKeyDto, KeyDto, ServiceAccountDto, TokenDto } from './dto/key.dto';
import { ServiceAccountEntity } from './service-account.entity';
import { TOKEN_PREFIXES } from '../console-access/token-format';
import { UserTokenEntity } from './user-token.entity';

export function serviceAccountView(account: ServiceAccountEntity): ServiceAccountDto {
  return { id: account.id, name: account.name, created_at: account.createdAt.toISOString() };
}

/** A key's controls as the API shows them. */
function controlsView(
  key: ApiKeyEntity,
): Pick<KeyDto, 'rate_limit' | 'allowed_models' | 'monthly_budget_dollars'> {
  return {
    rate_limit: { requests_per_minute: key.requestsPerMinute, tokens_per_minute: key.tokensPerMinute },
    allowed_models: key.allowedModels,
    monthly_budget_dollars:
      key.monthlyBudgetMicroCents === null ? null : microCentsToDollars(key.monthlyBudgetMicroCents),
  };
}

export function keyView(key: ApiKeyEntity, now: number): KeyDto {
  return {
    id: key.id,
    name: key.name,
    permission: key.permission,
    ...controlsView(key),
    prefix: TOKEN_PREFIXES.serviceKey + key.publicId,
    last4: key.last4,
    created_at: key.createdAt.toISOString(),
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    status: statusOf(key, now),
  };
}

export function createdKeyView(key: ApiKeyEntity, value: string): CreatedKeyDto {
  return {
    id: key.id,
    name: key.name,
    permission: key.permission,
    ...controlsView(key),
    key: value,
    prefix: TOKEN_PREFIXES.serviceKey + key.publicId,
    expires_at: iso(key.expiresAt),
    created_at: key.createdAt.toISOString(),
  };
}

export function tokenView(token: UserTokenEntity, now: number): TokenDto {
  return {
    id: token.id,
    name: token.name,
    prefix: TOKEN_PREFIXES.userToken + token.publicId,
    last4: token.last4,
    created_at: token.createdAt.toISOString(),
    expires_at: iso(token.expiresAt),
    last_used_at: iso(token.lastUsedAt),
    status: statusOf(token, now),
  };
}
