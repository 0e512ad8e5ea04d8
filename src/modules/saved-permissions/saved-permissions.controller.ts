import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { SavedPermissionParamsDto } from './dto/saved-permission-params.dto';
import { SavedPermissionNotFoundError } from './saved-permissions.errors';
import { SavedPermissionsQueryDto } from './dto/saved-permissions-query.dto';

const SAVED_PERMISSIONS_RESPONSE = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'projectID', 'action', 'resource'],
        properties: {
          id: { type: 'string' },
          projectID: { type: 'string' },
          action: { type: 'string' },
          resource: { type: 'string' },
        },
      },
    },
  },
};

/** opencode's v2 `permission.saved.list`, answered truthfully with nothing: `always` answers stay on the session. */
@ApiTags('session')
@Controller('api')
export class SavedPermissionsController {
  @Get('permission/saved')
  @ApiOperation({
    operationId: 'permission.saved.list',
    summary: "A project's saved permissions (Outpost keeps `always` answers on the session: none)",
  })
  @ApiOkResponse({ schema: SAVED_PERMISSIONS_RESPONSE })
  savedPermissions(@Query() _query: SavedPermissionsQueryDto) {
    return { data: [] as never[] };
  }

  @Delete('permission/saved/:id')
  @ApiOperation({
    operationId: 'permission.saved.remove',
    summary: 'Forget a saved permission (Outpost saves none, so every id is unknown: 404)',
  })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Forgotten (what opencode answers; Outpost saves none, so never)' })
  @ApiErrorResponse(404, 'SavedPermissionNotFoundError', 'no saved permission has that id')
  removeSaved(@Param() params: SavedPermissionParamsDto): never {
    throw new SavedPermissionNotFoundError(params.id);
  }
}
