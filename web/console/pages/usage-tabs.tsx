/** The Usage tab's two pages: spend as reports, and the gateway's calls one by one. */
export function UsageTabs({ org, current }: { org: string; current: 'spend' | 'requests' }) {
  const link = (path: string, label: string, name: typeof current) => (
    <a href={`${path}?org=${encodeURIComponent(org)}`} aria-current={name === current ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="tabs subtabs" aria-label="Usage">
      {link('/console/usage', 'Spend', 'spend')}
      {link('/console/usage/requests', 'Requests', 'requests')}
    </nav>
  );
}
