/** What one small call through a connection found. */
export class ConnectionTestDto {
  /** Whether the provider answered the call with a success. */
  ok!: boolean;
  /** `conn_…` */
  connection_id!: string;
  connection_name!: string;
  /** The address called: the connection's base URL and its schema's path. */
  url!: string;
  /** The model tried (the connection's first chat model), or null when it has none. */
  model!: string | null;
  /** The provider's HTTP status; null when no answer came. */
  status!: number | null;
  latency_ms!: number;
  /** In words: what answered, or why nothing did and what to check. */
  message!: string;
}
