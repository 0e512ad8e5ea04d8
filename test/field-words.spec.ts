import { fieldWords, formWords, splitFieldMessage } from '../web/shared/field-words';

describe('validation messages in words a person acts on', () => {
  it.each([
    ['rate_limit.requests_per_minute: requests_per_minute must not be less than 1', 'Enter 1 or more.'],
    ['rate_limit.tokens_per_minute: must not be greater than 100000000', 'Enter 100000000 or less.'],
    ['monthly_budget_dollars: must not be negative', 'Enter 0 or more.'],
    ['limit: limit must be an integer number', 'Enter a whole number, without a decimal point.'],
    ['baseURL: must be an http(s) URL', 'Enter a full address that starts with http:// or https://.'],
    [
      'providers.team.settings.baseURL: must be an absolute http(s) URL',
      'Enter a full address that starts with http:// or https://.',
    ],
    ['email: email must be an email', 'Enter an email address, like name@example.com.'],
    ['name: name should not be empty', 'Fill this in.'],
    ['name: name must be shorter than or equal to 100 characters', 'Use at most 100 characters.'],
    ['role: role must be one of the following values: admin, member', 'Choose one of: admin, member.'],
    [
      'monthly_budget_dollars: must be an amount in US dollars',
      'Enter an amount in dollars, like 5 or 12.50.',
    ],
  ])('%s → %s', (message, words) => {
    expect(fieldWords(message)).toBe(words);
  });

  it('a message no rule knows keeps its own words, as a sentence', () => {
    expect(fieldWords('allowed_models: must name at least one model or route')).toBe(
      'Must name at least one model or route.',
    );
    expect(fieldWords('This key was revoked')).toBe('This key was revoked.');
  });

  it('where no field shows it, the field is named so the person can find it', () => {
    expect(formWords('rate_limit.requests_per_minute: must not be less than 1')).toBe(
      'Enter 1 or more (rate_limit.requests_per_minute).',
    );
    expect(formWords('Something went wrong.')).toBe('Something went wrong.');
    expect(splitFieldMessage('a.b: c: d')).toEqual({ field: 'a.b', words: 'c: d' });
  });
});
