import { Body, Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { DeviceFlowService } from './device-flow.service';
import { DeviceTokensService, IssuedTokens } from './device-tokens.service';
import {
  DeviceCodeRequestDto,
  DeviceCodeResponseDto,
  DeviceTokenRequestDto,
  DeviceTokenResponseDto,
  OAuthErrorDto,
} from './dto/device.dto';
import { OAuthError } from './device.errors';
import { HttpRequest } from '@/common/http/http';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type Fields = Record<string, unknown>;

/** A required string field of an OAuth request, else 400 `invalid_request`. */
function field(body: Fields, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0 || value.length > 500) {
    throw new OAuthError('invalid_request', `${name} is required`);
  }
  return value;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === '1';
}

/**
 * The OAuth endpoints of device sign-in. Public (the client has no credential yet); they take JSON (opencode)
 * and form bodies (RFC 8628), and answer errors in the OAuth form `{ error, error_description }`.
 */
@ApiTags('console: device sign-in')
@ApiExtraModels(OAuthErrorDto)
@ApiResponse({
  status: 400,
  description: 'OAuth error (RFC 6749 §5.2, RFC 8628 §3.5)',
  schema: { $ref: getSchemaPath(OAuthErrorDto) },
})
@Controller('console/auth/device')
export class DeviceOAuthController {
  constructor(
    private readonly flow: DeviceFlowService,
    private readonly tokens: DeviceTokensService,
  ) {}

  @Post('code')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'device.code', summary: 'Start a device sign-in (RFC 8628 §3.1)' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: DeviceCodeRequestDto })
  code(@Body() body: Fields | undefined, @Req() request: HttpRequest): Promise<DeviceCodeResponseDto> {
    const fields = body ?? {};
    return this.flow.requestCode(
      field(fields, 'client_id'),
      flag(fields.supports_org_scope),
      request.ip ?? '',
    );
  }

  @Post('token')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'device.token',
    summary: 'Poll with the device grant, or refresh (the refresh token rotates)',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: DeviceTokenRequestDto })
  token(@Body() body: Fields | undefined, @Req() request: HttpRequest): Promise<DeviceTokenResponseDto> {
    const fields = body ?? {};
    const grantType = field(fields, 'grant_type');
    const clientId = field(fields, 'client_id');
    let issued: Promise<IssuedTokens>;
    if (grantType === DEVICE_GRANT) {
      issued = this.flow.poll(field(fields, 'device_code'), clientId, request.headers['user-agent'] ?? null);
    } else if (grantType === 'refresh_token') {
      this.flow.checkClient(clientId);
      issued = this.tokens.refresh(field(fields, 'refresh_token'), clientId);
    } else {
      throw new OAuthError('unsupported_grant_type', `Unsupported grant_type: ${grantType}`);
    }
    return issued;
  }
}
