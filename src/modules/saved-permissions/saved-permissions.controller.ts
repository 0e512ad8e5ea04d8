import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
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
}
