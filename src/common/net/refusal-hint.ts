/** What a model provider's refusal usually means, so the person knows where to look. */
export function refusalHint(status: number): string {
  if (status === 401 || status === 403) return 'Check the credential.';
  if (status === 404) return 'Check the base URL (it usually ends in /v1) and the model id.';
  if (status === 400 || status === 422) return "Check the model id and the provider's API kind.";
  if (status === 429) return 'The provider limits calls just now; the provider itself works.';
  return 'The provider failed; try again later.';
}
