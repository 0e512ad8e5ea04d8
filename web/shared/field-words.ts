/**
 * A validation message as a person next to the field reads it: what to do, in words. The API's messages name the
 * field and the rule (`rate_limit.requests_per_minute: requests_per_minute must not be less than 1`); a page shows
 * "Enter 1 or more." under the field, and keeps the field's name only where no field shows the message.
 */

/** Known rules, in the validators' words, and what a person should do instead. */
const RULES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^must not be less than (-?[\d.]+)$/, (n) => `Enter ${n} or more.`],
  [/^must not be greater than (-?[\d.]+)$/, (n) => `Enter ${n} or less.`],
  [/^must not be negative$/, () => 'Enter 0 or more.'],
  [/^must be a positive number$/, () => 'Enter a number above 0.'],
  [/^must be an integer(?: number)?$/, () => 'Enter a whole number, without a decimal point.'],
  [/^must be a number(?: conforming to the specified constraints)?$/, () => 'Enter a number.'],
  [/^must be an amount in US dollars.*$/, () => 'Enter an amount in dollars, like 5 or 12.50.'],
  [
    /^must be an (?:absolute )?http\(s\) URL.*$/,
    () => 'Enter a full address that starts with http:// or https://.',
  ],
  [/^must be an email$/, () => 'Enter an email address, like name@example.com.'],
  [/^(?:should|must) not be empty$/, () => 'Fill this in.'],
  [/^is required$/, () => 'Fill this in.'],
  [/^must be longer than or equal to (\d+) characters?$/, (n) => `Use at least ${n} characters.`],
  [/^must be shorter than or equal to (\d+) characters?$/, (n) => `Use at most ${n} characters.`],
  [/^must be one of the following values: (.+)$/, (values) => `Choose one of: ${values}.`],
];

/** The field an API message starts with (`field.path: words`), and the words. */
export function splitFieldMessage(message: string): { field?: string; words: string } {
  const match = /^([\w.@:/+-]+): (.+)$/s.exec(message);
  return match ? { field: match[1], words: match[2] } : { words: message };
}

/** The rule's words without the property the validator put in front (`requests_per_minute must …` → `must …`). */
function withoutProperty(words: string): string {
  return words.replace(/^[A-Za-z_][\w.]*\s+(?=(?:must|should|is required)\b)/, '');
}

/** What to do, as a sentence: "Enter 1 or more." — for a message shown next to its field. */
export function fieldWords(message: string): string {
  const rule = withoutProperty(splitFieldMessage(message).words.trim()).replace(/\.$/, '');
  for (const [pattern, words] of RULES) {
    const match = pattern.exec(rule);
    if (match) return words(...match.slice(1));
  }
  return `${rule.charAt(0).toUpperCase()}${rule.slice(1)}.`;
}

/** The same words for a message no field shows: the field's name is kept so the person can find it. */
export function formWords(message: string, field = splitFieldMessage(message).field): string {
  const words = fieldWords(message);
  return field ? `${words.replace(/\.$/, '')} (${field}).` : words;
}
