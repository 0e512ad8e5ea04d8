import { Body, Controller, Delete, Param, Patch, Put, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  V1AuthDto,
  V1AuthParamsDto,
  V1PartDto,
  V1PartParamsDto,
  V1ProjectParamsDto,
  V1ProjectUpdateDto,
} from './dto/v1-edit.dto';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';
import { V1InstanceService } from './v1-instance.service';
import { V1PartsService } from './v1-parts.service';
import { V1SettingsService } from './v1-settings.service';

/**
 * opencode 1.18.33's writes to what its clients show: a stored message's parts, a project's name and icon, the
 * config files, and the API keys of providers (`PUT/DELETE /auth/{providerID}`).
 */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1EditsController {
  constructor(
    private readonly parts: V1PartsService,
    private readonly instance: V1InstanceService,
    private readonly settings: V1SettingsService,
  ) {}

  @Delete('session/:sessionID/message/:messageID/part/:partID')
  removePart(@Param() params: V1PartParamsDto, @Query() _query: V1QueryDto): Promise<true> {
    return this.parts.remove(params.sessionID, params.messageID, params.partID);
  }

  @Patch('session/:sessionID/message/:messageID/part/:partID')
  updatePart(@Param() params: V1PartParamsDto, @Body() body: V1PartDto, @Query() _query: V1QueryDto) {
    return this.parts.update(params.sessionID, params.messageID, params.partID, body);
  }

  @Patch('project/:projectID')
  updateProject(
    @Param() params: V1ProjectParamsDto,
    @Body() body: V1ProjectUpdateDto,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ) {
    return this.instance.updateProject(
      params.projectID,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.icon ? { icon: { ...body.icon } } : {}),
        ...(body.commands ? { commands: { ...body.commands } } : {}),
      },
      directory,
    );
  }

  /** The body (an opencode config) merged into the location's `opencode.json`; answers the file's config. */
  @Patch('config')
  updateConfig(
    @Body() body: Record<string, unknown>,
    @Query() _query: V1QueryDto,
    @V1Directory() directory?: string,
  ) {
    return this.settings.updateConfig(body, directory);
  }

  /** The body merged into opencode's global config file, which every location reads. */
  @Patch('global/config')
  updateGlobalConfig(@Body() body: Record<string, unknown>, @Query() _query: V1QueryDto) {
    return this.settings.updateGlobalConfig(body);
  }

  /** The key is kept in the data folder, never logged or answered. */
  @Put('auth/:providerID')
  setAuth(@Param() params: V1AuthParamsDto, @Body() body: V1AuthDto, @Query() _query: V1QueryDto): true {
    return this.settings.setKey(params.providerID, body.key);
  }

  @Delete('auth/:providerID')
  removeAuth(@Param() params: V1AuthParamsDto, @Query() _query: V1QueryDto): true {
    return this.settings.removeKey(params.providerID);
  }
}
