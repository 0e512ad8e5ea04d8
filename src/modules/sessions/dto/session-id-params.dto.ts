import { Matches } from 'class-validator';
import { SESSION_ID } from '../session-ids';

export class SessionIdParamsDto {
  @Matches(SESSION_ID, { message: 'sessionID must be a session id (ses_…)' })
  sessionID!: string;
}
