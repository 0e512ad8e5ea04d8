export class ServerPathsDto {
  /** Directory for temporary files. */
  tmp: string;
  /** Home directory of the user the server runs as. */
  home: string;
  /** Where the server keeps its data (embedded database, generated password, plugins). */
  data: string;
  /** Where the server reads its configuration files. */
  config: string;
}

/** `ServerInfo`: who this server is and how to reach it. */
export class ServerInfoDto {
  version: string;
  /** Process id of the server. */
  pid: number;
  /** Every URL a client can use to reach this server. */
  urls: string[];
  paths: ServerPathsDto;
  /** True once the database, its migrations and the default location are up. */
  ready: boolean;
}
