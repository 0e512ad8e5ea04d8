/** Words for a failed API call, whatever body the server sent: never raw JSON on a page. */
export function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    if (typeof record.error_description === 'string') return record.error_description;
  }
  if (status === 401) return 'You are signed out. Sign in again.';
  if (status === 403) return 'You do not have permission to do that.';
  if (status === 404) return 'Not found.';
  if (status >= 500) return 'The server could not complete the request. Try again.';
  return `The request failed (HTTP ${status}).`;
}
