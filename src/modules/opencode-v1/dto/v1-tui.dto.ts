import { IsIn, IsInt, IsObject, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { SESSION_ID } from '../../sessions/session-ids';

/** `POST /tui/append-prompt`: text added to the prompt of the attached TUI. */
export class V1TuiAppendPromptDto {
  @IsString()
  @MaxLength(100_000)
  text!: string;
}

/** `POST /tui/execute-command`: a TUI command, by its name (`session.new`) or its old one (`session_new`). */
export class V1TuiExecuteCommandDto {
  @IsString()
  @MaxLength(200)
  command!: string;
}

/** `POST /tui/show-toast`. */
export class V1TuiShowToastDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string;

  @IsString()
  @MaxLength(2000)
  message!: string;

  @IsIn(['info', 'success', 'warning', 'error'])
  variant!: 'info' | 'success' | 'warning' | 'error';

  @IsOptional()
  @IsInt()
  @Min(0)
  duration?: number;
}

/** `POST /tui/select-session`. */
export class V1TuiSelectSessionDto {
  @Matches(SESSION_ID, { message: 'sessionID must be a session id (ses_…)' })
  sessionID!: string;
}

/** `POST /tui/publish`: one of the four TUI events, as `{ type, properties }`. */
export class V1TuiPublishDto {
  @IsIn(['tui.prompt.append', 'tui.command.execute', 'tui.toast.show', 'tui.session.select'])
  type!: 'tui.prompt.append' | 'tui.command.execute' | 'tui.toast.show' | 'tui.session.select';

  @IsObject()
  properties!: Record<string, unknown>;
}
