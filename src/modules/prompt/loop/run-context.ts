/** What a run needs from its drain: the session, the interrupt signal, and the steer inputs at a boundary. */
export interface RunContext {
  sessionID: string;
  signal: AbortSignal;
  /** Whether input may be waiting for the next boundary (something was admitted since the last look). */
  waiting(): boolean;
  /**
   * Whether the drain still holds the session, asked before the run writes a step or runs a tool. False when
   * another process took the drain over; the signal is aborted then, and the run writes nothing more.
   */
  owned(): Promise<boolean>;
  /** Takes the steering inputs (and moves) waiting at this step boundary; the count of prompts taken. */
  boundary(): Promise<number>;
}
