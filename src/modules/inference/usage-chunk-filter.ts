/**
 * The gateway asks a chat stream for its usage (`stream_options.include_usage`) to meter it; a caller who did not
 * ask must not get the extra last event (`"choices":[]` with `usage`), which some clients choke on. This drops it
 * from the stream as it passes, holding back only an event cut in half between two chunks.
 */
export class UsageChunkFilter {
  private pending = '';

  /** The chunk as the caller should get it (possibly empty). */
  pass(chunk: Buffer): Buffer {
    const text = this.pending + chunk.toString('utf8');
    const end = text.lastIndexOf('\n\n');
    if (end < 0) {
      this.pending = text;
      return Buffer.alloc(0);
    }
    this.pending = text.slice(end + 2);
    const events = text.slice(0, end + 2);
    if (!events.includes('"usage"')) return Buffer.from(events);
    return Buffer.from(
      events
        .split(/(?<=\n\n)/)
        .filter((event) => !(event.includes('"usage"') && /"choices"\s*:\s*\[\s*\]/.test(event)))
        .join(''),
    );
  }

  /** What is left at the end of the stream. */
  rest(): Buffer {
    return Buffer.from(this.pending);
  }
}
