const ENV_REFERENCE = /\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces every `{env:NAME}` with the variable's value. A missing variable is reported by name through
 * `onMissing`; values never appear in errors or logs.
 */
export function substituteEnv(
  value: string,
  env: NodeJS.ProcessEnv,
  onMissing: (name: string) => never,
): string {
  return value.replace(ENV_REFERENCE, (_match, name: string) => {
    const resolved = env[name];
    if (resolved === undefined) onMissing(name);
    return resolved;
  });
}
