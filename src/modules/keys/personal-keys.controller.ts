import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Clock } from '@/common/clock';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { OrgRole, PersonOnly, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { ApiKeysService } from './api-keys.service';
import { CreateKeyDto } from './dto/create-key.dto';
import { UpdateKeyDto } from './dto/key-controls.dto';
import { CreatedKeyDto, KeyDto } from './dto/key.dto';
import { createdKeyView, keyView } from './key-views';

/** A person's own keys in a workspace: they act as that person, with that person's role. */
@ApiTags('console: personal keys')
@Controller('console/api/orgs/:org/keys')
export class PersonalKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @SignedInOnly()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'personalKey.create',
    summary: 'Create a personal key; its value is shown only here',
  })
  async create(
    @Param('org') org: string,
    @Body() body: CreateKeyDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<CreatedKeyDto> {
    const owner = { workspaceId: org, userId: personId(principal) };
    const { entity, key } = await this.keys.create(actorOf(principal), owner, body);
    return createdKeyView(entity, key);
  }

  @Get()
  @PersonOnly()
  @OrgRole('member')
  @ApiOperation({ operationId: 'personalKey.list', summary: "The caller's own keys in this workspace" })
  async list(@Param('org') org: string, @CurrentPrincipal() principal: ConsolePrincipal): Promise<KeyDto[]> {
    const now = this.clock.now();
    return (await this.keys.list({ workspaceId: org, userId: personId(principal) })).map((key) =>
      keyView(key, now),
    );
  }

  @Patch(':id')
  @SignedInOnly()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'personalKey.update',
    summary: "Rename one of the caller's keys or change its gateway controls (rate limit, allowed models)",
  })
  async update(
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() body: UpdateKeyDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<KeyDto> {
    const owner = { workspaceId: org, userId: personId(principal) };
    return keyView(await this.keys.update(actorOf(principal), owner, id, body), this.clock.now());
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('member')
  @ApiOperation({ operationId: 'personalKey.revoke' })
  async revoke(
    @Param('org') org: string,
    @Param('id') id: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.keys.revoke(actorOf(principal), { workspaceId: org, userId: personId(principal) }, id);
  }
}
