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

/** Whether this instance is signed in to a console (`outpost login`), to which one, and since when. */
export class ConsoleLinkDto {
  /** `unlinked`; `linked`; `signed_out`: the console revoked the sign-in, run `outpost login` again. */
  state: 'unlinked' | 'linked' | 'signed_out';
  console: string | null;
  workspace: string | null;
  /** The workspace's name, as the console lists it; null until the console has said. */
  workspaceName?: string | null;
  since: string | null;
  /** When the workspace config was last fetched (a copy is kept, so a console outage changes nothing). */
  configFetchedAt: string | null;
  /** Why the console could not be reached, while that lasts. */
  problem: string | null;
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
  console: ConsoleLinkDto;
}
