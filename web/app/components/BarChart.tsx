/** A horizontal bar chart in plain SVG-free markup: one row a label, a bar and its value. */
export function Bars({
  label,
  rows,
}: {
  label: string;
  rows: Array<{ key: string; label: string; value: number; shown: string }>;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  if (rows.length === 0) return <p class="muted">Nothing yet.</p>;
  return (
    <table class="bars" aria-label={label}>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            <td class="bar-cell">
              <span class="bar" style={{ width: `${(row.value / max) * 100}%` }} />
            </td>
            <td class="bar-value">{row.shown}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Columns by day (oldest left), as SVG, with a title on each column for its exact value. */
export function DayColumns({ label, days }: { label: string; days: Array<{ date: string; value: number }> }) {
  const max = Math.max(1, ...days.map((d) => d.value));
  const width = Math.max(days.length, 1) * 12;
  return (
    <figure class="days">
      <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" role="img" aria-label={label}>
        {days.map((day, i) => {
          const height = (day.value / max) * 96;
          return (
            <rect
              key={day.date}
              x={i * 12 + 1}
              y={100 - height}
              width={10}
              height={Math.max(height, 0.5)}
              rx={1.5}
            >
              <title>
                {day.date}: {day.value} steps
              </title>
            </rect>
          );
        })}
      </svg>
      <figcaption class="muted small">
        <span>{days[0]?.date}</span>
        <span>{days.at(-1)?.date}</span>
      </figcaption>
    </figure>
  );
}
