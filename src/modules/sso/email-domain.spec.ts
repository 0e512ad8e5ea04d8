import { emailDomainAllowed, parseDomains } from './email-domain';

describe('emailDomainAllowed', () => {
  it('allows any email when no domain is set', () => {
    expect(emailDomainAllowed('ann@anywhere.test', [])).toBe(true);
  });

  it('allows the listed domains, whatever the case', () => {
    expect(emailDomainAllowed('Ann@Example.COM', ['example.com'])).toBe(true);
    expect(emailDomainAllowed('bob@corp.example.org', ['example.com', 'corp.example.org'])).toBe(true);
  });

  it('refuses other domains, subdomains and look-alikes', () => {
    expect(emailDomainAllowed('eve@evil.test', ['example.com'])).toBe(false);
    expect(emailDomainAllowed('eve@sub.example.com', ['example.com'])).toBe(false);
    expect(emailDomainAllowed('eve@example.com.evil.test', ['example.com'])).toBe(false);
    expect(emailDomainAllowed('eve@notexample.com', ['example.com'])).toBe(false);
  });

  it('takes the domain after the last @', () => {
    expect(emailDomainAllowed('"eve@example.com"@evil.test', ['example.com'])).toBe(false);
    expect(emailDomainAllowed('no-at-sign', ['example.com'])).toBe(false);
  });
});

describe('parseDomains', () => {
  it('reads a comma-separated list, lower-cased, without a leading @', () => {
    expect(parseDomains(' Example.com, @corp.example.org ,,')).toEqual(['example.com', 'corp.example.org']);
    expect(parseDomains(undefined)).toEqual([]);
  });

  it('refuses what is not a domain name', () => {
    expect(parseDomains('example.com, *.example.org')).toBeUndefined();
    expect(parseDomains('localhost')).toBeUndefined();
  });
});
