import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Clock } from '@/common/clock';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { ApiKeysService } from './api-keys.service';
import { CreateKeyDto } from './dto/create-key.dto';
import { UpdateKeyDto } from './dto/key-controls.dto';
import { CreateServiceAccountDto, UpdateServiceAccountDto } from './dto/create-service-account.dto';
import { CreatedKeyDto, KeyDto, ServiceAccountDto } from './dto/key.dto';
import { createdKeyView, keyView, serviceAccountView } from './key-views';
import { ServiceAccountsService } from './service-accounts.service';

@ApiTags('console: service accounts')
@Controller('console/api/orgs/:org/service-accounts')
export class ServiceAccountsController {
  constructor(
    private readonly accounts: ServiceAccountsService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'serviceAccount.create',
    summary: 'Add a service account (owners and admins)',
  })
  async create(
    @Param('org') org: string,
    @Body() body: CreateServiceAccountDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<ServiceAccountDto> {
    return serviceAccountView(await this.accounts.create(actorOf(principal), org, body.name));
  }

  @Get()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'serviceAccount.list' })
  async list(@Param('org') org: string): Promise<ServiceAccountDto[]> {
    return (await this.accounts.list(org)).map(serviceAccountView);
  }

  @Patch(':sa')
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'serviceAccount.update',
    summary: 'Rename a service account (owners and admins)',
  })
  async rename(
    @Param('org') org: string,
    @Param('sa') sa: string,
    @Body() body: UpdateServiceAccountDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<ServiceAccountDto> {
    return serviceAccountView(await this.accounts.rename(actorOf(principal), org, sa, body.name));
  }

  @Delete(':sa')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'serviceAccount.remove',
    summary: 'Remove a service account and revoke all its keys',
  })
  async remove(
    @Param('org') org: string,
    @Param('sa') sa: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.accounts.remove(actorOf(principal), org, sa);
  }

  @Post(':sa/keys')
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'serviceAccount.key.create',
    summary: 'Create a key; its value is shown only here',
  })
  async createKey(
    @Param('org') org: string,
    @Param('sa') sa: string,
    @Body() body: CreateKeyDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<CreatedKeyDto> {
    await this.accounts.get(org, sa);
    const { entity, key } = await this.keys.create(
      actorOf(principal),
      { workspaceId: org, serviceAccountId: sa },
      body,
    );
    return createdKeyView(entity, key);
  }

  @Get(':sa/keys')
  @OrgRole('admin')
  @ApiOperation({ operationId: 'serviceAccount.key.list' })
  async listKeys(@Param('org') org: string, @Param('sa') sa: string): Promise<KeyDto[]> {
    await this.accounts.get(org, sa);
    const now = this.clock.now();
    return (await this.keys.list({ workspaceId: org, serviceAccountId: sa })).map((key) => keyView(key, now));
  }

  @Patch(':sa/keys/:id')
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'serviceAccount.key.update',
    summary: "Rename a service account's key or change its gateway controls (rate limit, allowed models)",
  })
  async updateKey(
    @Param('org') org: string,
    @Param('sa') sa: string,
    @Param('id') id: string,
    @Body() body: UpdateKeyDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<KeyDto> {
    await this.accounts.get(org, sa);
    const owner = { workspaceId: org, serviceAccountId: sa };
    return keyView(await this.keys.update(actorOf(principal), owner, id, body), this.clock.now());
  }

  @Delete(':sa/keys/:id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'serviceAccount.key.revoke' })
  async revokeKey(
    @Param('org') org: string,
    @Param('sa') sa: string,
    @Param('id') id: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.keys.revoke(actorOf(principal), { workspaceId: org, serviceAccountId: sa }, id);
  }
}
