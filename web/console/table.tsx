import type { ComponentChildren } from 'preact';
import { Loading } from './ui';

/** One column of a `DataTable`. */
export interface Column<T> {
  /** The header, and each cell's `data-label` (what a narrow screen shows before the cell). */
  header: string;
  cell: (row: T) => ComponentChildren;
  /** The class of each cell. */
  class?: string;
  /** The test id of each cell. */
  testId?: (row: T) => string;
}

interface TableProps<T> {
  columns: Array<Column<T> | false>;
  rows: T[];
  rowKey: (row: T) => string;
  /** Said, for screen readers only, above the table. */
  caption?: string;
  /** What stands instead of the table when there is no row: a sentence (muted) or elements; none: the table. */
  empty?: ComponentChildren;
  class?: string;
  /** The name of the scrolling box, which a keyboard then reaches (a wide table). */
  region?: string;
  /** A last column of buttons, under a header only screen readers read ("Action" unless `actionHeader`). */
  action?: (row: T) => ComponentChildren;
  actionHeader?: string;
  /** The class of that column's cells. */
  actionClass?: string;
}

/**
 * The console's table: column headers (`scope="col"`), a row for each item and a cell for each column, in a box
 * that scrolls sideways. `false` in `columns` leaves a column out.
 */
export function DataTable<T>(props: TableProps<T>) {
  const { empty, region, action } = props;
  if (props.rows.length === 0 && empty !== undefined)
    return typeof empty === 'string' ? <p class="muted">{empty}</p> : <>{empty}</>;
  const columns = props.columns.filter((column): column is Column<T> => column !== false);
  return (
    <div class="scroll" {...(region ? { tabIndex: 0, role: 'region', 'aria-label': region } : {})}>
      <table class={props.class}>
        {props.caption ? <caption class="sr">{props.caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.header}
              </th>
            ))}
            {action ? (
              <th scope="col">
                <span class="sr">{props.actionHeader ?? 'Action'}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  data-label={column.header}
                  class={column.class}
                  data-testid={column.testId?.(row)}
                >
                  {column.cell(row)}
                </td>
              ))}
              {action ? <td class={props.actionClass}>{action(row)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The table of rows a page loads (`useLoad`): "Loading…" until they come, or the error in words. */
export function LoadedTable<T>({
  state,
  ...table
}: Omit<TableProps<T>, 'rows'> & { state: { data?: T[]; error?: string; loading: boolean } }) {
  return <Loading state={state}>{(rows) => <DataTable rows={rows} {...table} />}</Loading>;
}
