import { SessionMessageDto } from '../../prompt/dto/session-message.dto';
import { SessionInfoDto } from '../../sessions/dto/session-info.dto';

/** `SessionTransfer.Data`: the session and its settled messages in transcript order. */
export class SessionTransferDataDto {
  info!: SessionInfoDto;
  messages!: SessionMessageDto[];
}

export class SessionExportDto {
  data!: SessionTransferDataDto;
}
