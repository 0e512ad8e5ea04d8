import { IsOptional, Matches } from 'class-validator';
import { MESSAGE_ID } from '../session-ids';

export class ForkSessionDto {
  /** Copy the history strictly before this message; all of it when absent. */
  @IsOptional()
  @Matches(MESSAGE_ID, { message: 'before must be a message id (msg_…)' })
  before?: string | null;
}
