import { IsObject, IsString, Matches, MaxLength } from 'class-validator';

/** `POST /mcp` (`mcp.add`): a server for this location until it reloads; `config` as in `opencode.json`'s `mcp`. */
export class V1McpAddDto {
  @IsString()
  @MaxLength(100)
  @Matches(/^[^\s/]+$/, { message: 'name must have no spaces or slashes' })
  name!: string;

  @IsObject()
  config!: Record<string, unknown>;
}

/** `POST /mcp/{name}/auth/callback` (`mcp.auth.callback`): the code the authorization server gave the browser. */
export class V1McpAuthCodeDto {
  @IsString()
  @MaxLength(4096)
  code!: string;
}
