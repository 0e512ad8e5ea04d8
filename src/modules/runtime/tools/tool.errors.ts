/** A failed tool call. The message goes back to the model as the tool's error result. */
export class ToolError extends Error {
  readonly type: string = 'ToolError';
}

export class ToolInputError extends ToolError {
  override readonly type = 'InvalidToolInput';
}

export class ExternalPathError extends ToolError {
  override readonly type = 'ExternalPath';
  constructor(readonly path: string) {
    super(`Path is outside the location and external_directory was not allowed: ${path}`);
  }
}

/** The call was interrupted; `output` holds what it produced until then. */
export class ToolAbortedError extends ToolError {
  override readonly type = 'Aborted';
  constructor(readonly output = '') {
    super('Tool call was interrupted');
  }
}
