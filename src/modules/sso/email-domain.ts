/** Whether an email is in one of the allowed domains (exactly, not their subdomains); any domain when none are set. */
export function emailDomainAllowed(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return domains.includes(domain);
}

/** `example.com, Corp.example.org` → `['example.com', 'corp.example.org']`; undefined for a bad entry. */
export function parseDomains(text: string | undefined): string[] | undefined {
  const domains = (text ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  const name = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
  return domains.every((domain) => name.test(domain)) ? [...new Set(domains)] : undefined;
}
