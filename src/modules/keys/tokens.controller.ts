import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Clock } from '@/common/clock';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { PersonOnly, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { CreateTokenDto } from './dto/create-token.dto';
import { CreatedTokenDto, TokenDto } from './dto/key.dto';
import { tokenView } from './key-views';
import { UserTokensService } from './user-tokens.service';
import { TOKEN_PREFIXES } from '../console-access/token-format';

@ApiTags('console: user tokens')
@Controller('console/api/tokens')
export class TokensController {
  constructor(
    private readonly tokens: UserTokensService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @SignedInOnly()
  @ApiOperation({ operationId: 'token.create', summary: 'Create a user token; its value is shown only here' })
  async create(
    @Body() body: CreateTokenDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<CreatedTokenDto> {
    const { entity, token } = await this.tokens.create(actorOf(principal), personId(principal), body);
    return {
      id: entity.id,
      name: entity.name,
      token,
      prefix: TOKEN_PREFIXES.userToken + entity.publicId,
      expires_at: entity.expiresAt?.toISOString() ?? null,
      created_at: entity.createdAt.toISOString(),
    };
  }

  @Get()
  @PersonOnly()
  @ApiOperation({ operationId: 'token.list' })
  async list(@CurrentPrincipal() principal: ConsolePrincipal): Promise<TokenDto[]> {
    const now = this.clock.now();
    return (await this.tokens.list(personId(principal))).map((token) => tokenView(token, now));
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedInOnly()
  @ApiOperation({ operationId: 'token.revoke' })
  async revoke(@Param('id') id: string, @CurrentPrincipal() principal: ConsolePrincipal): Promise<void> {
    await this.tokens.revoke(actorOf(principal), personId(principal), id);
  }
}
