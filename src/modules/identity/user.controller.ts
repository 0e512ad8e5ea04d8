import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { ConsolePrincipal } from '../console-access/console-principal';
import { UserDto } from './dto/auth.dto';

@ApiTags('console: sign-in')
@Controller('console/api/user')
export class UserController {
  @Get()
  @ApiOperation({
    operationId: 'user.get',
    summary: 'Who the credential acts as: the person, or the service account of a key',
  })
  get(@CurrentPrincipal() principal: ConsolePrincipal): UserDto {
    // Everything needed came with the credential check, so this costs no further query.
    return {
      id: principal.userId ?? principal.serviceAccountId ?? '',
      email: principal.email,
      name: principal.name,
    };
  }
}
