import { useState } from 'preact/hooks';

const OTHER = '\u0000other';

/** A directory: one of the known locations, or another absolute path typed in. */
export function LocationChooser({
  id,
  label,
  known,
  value,
  onChange,
}: {
  id: string;
  label: string;
  known: string[];
  value: string;
  onChange: (directory: string) => void;
}) {
  const [other, setOther] = useState(known.length === 0 || (value !== '' && !known.includes(value)));
  return (
    <div class="location-chooser">
      <label for={id}>{label}</label>
      {known.length > 0 && (
        <select
          id={other ? undefined : id}
          aria-label={other ? `${label}: known locations` : undefined}
          value={other ? OTHER : value}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            setOther(chosen === OTHER);
            onChange(chosen === OTHER ? '' : chosen);
          }}
        >
          {!other && value === '' && <option value="">Choose a directory…</option>}
          {known.map((directory) => (
            <option key={directory} value={directory}>
              {directory}
            </option>
          ))}
          <option value={OTHER}>Another directory…</option>
        </select>
      )}
      {other && (
        <input
          id={id}
          type="text"
          placeholder="/absolute/path/to/project"
          pattern="/.*"
          required
          value={value}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      )}
    </div>
  );
}
