const cache = new Map<string, RegExp>();

/**
 * Whether `value` matches the wildcard `pattern`: `*` is any text (slashes included), `?` one character,
 * everything else literal. A pattern ending in ` *` also matches without the trailing part, so `git *`
 * matches `git` as well as `git status`.
 */
export function wildcardMatch(pattern: string, value: string): boolean {
  let regex = cache.get(pattern);
  if (!regex) {
    let source = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    if (source.endsWith(' .*')) source = `${source.slice(0, -3)}( .*)?`;
    regex = new RegExp(`^${source}$`, 's');
    if (cache.size > 1_000) cache.clear();
    cache.set(pattern, regex);
  }
  return regex.test(value);
}
