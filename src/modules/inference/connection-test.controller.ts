import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConnectionTester } from './connection-tester';
import { ConnectionTestDto } from './dto/connection-test.dto';

/**
 * "Test" on a connection (the console's settings): served with the gateway, whose path it tries. Owners and
 * admins, signed in, as for changing a connection.
 */
@ApiTags('console: connections')
@Controller('console/api/orgs/:org/connections')
export class ConnectionTestController {
  constructor(private readonly tester: ConnectionTester) {}

  @Post(':id/test')
  @HttpCode(200)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'connections.test',
    summary: 'Try a connection with one small real call: what answered, or why nothing did (within 5 s)',
  })
  @ApiErrorResponse(404, 'NotFound', 'no such connection in this workspace')
  test(@Param('org') org: string, @Param('id') id: string): Promise<ConnectionTestDto> {
    return this.tester.test(org, id);
  }
}
