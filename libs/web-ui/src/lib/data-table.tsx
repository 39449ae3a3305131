import { Button, Card, Checkbox, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from './states';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Hidden in the phone layout's cards (the row's title column already says it). */
  hideOnPhone?: boolean;
}

/** Page-numbered server paging (offset/limit with an exact total). */
export interface PagePaging {
  kind: 'pages';
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** Cursor (keyset) server paging: previous/next, with a total that may be capped. */
export interface CursorPaging {
  kind: 'cursor';
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  total?: number;
  totalCapped?: boolean;
}

export interface DataTableProps<T> {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  paging?: PagePaging | CursorPaging;
  /** Row selection for bulk actions. */
  selection?: { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void; label: (row: T) => string };
  /** Column whose value titles a phone card. */
  titleColumn?: string;
}

/**
 * A table of server data with loading, error and empty states and server paging. Below 48em it
 * becomes a list of cards, so nothing scrolls sideways on a phone.
 */
export function DataTable<T>({ caption, columns, rows, rowKey, loading, error, onRetry, empty, paging, selection, titleColumn }: DataTableProps<T>) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  let body: ReactNode;
  if (loading && !rows) body = <LoadingState rows={5} />;
  else if (error) body = <ErrorState error={error} onRetry={onRetry} />;
  else if (!rows || rows.length === 0) body = empty ?? <EmptyState />;
  else if (phone) {
    const title = columns.find((column) => column.key === titleColumn) ?? columns[0];
    body = (
      <Stack gap="xs" component="ul" aria-label={caption} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => {
          const key = rowKey(row);
          return (
            <Card key={key} component="li" withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <div style={{ minWidth: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>{title.render(row)}</div>
                {selection ? (
                  <Checkbox
                    aria-label={selection.label(row)}
                    checked={selection.selected.has(key)}
                    onChange={(event) => selection.onChange(toggled(selection.selected, key, event.currentTarget.checked))}
                  />
                ) : null}
              </Group>
              <Stack gap={4} mt={4}>
                {columns
                  .filter((column) => column !== title && !column.hideOnPhone)
                  .map((column) => (
                    <Group key={column.key} gap="xs" wrap="nowrap" align="flex-start">
                      <Text size="xs" c="dimmed" style={{ flex: '0 0 38%' }}>
                        {column.header}
                      </Text>
                      <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)' }}>{column.render(row)}</div>
                    </Group>
                  ))}
              </Stack>
            </Card>
          );
        })}
      </Stack>
    );
  } else {
    const allSelected = !!selection && rows.every((row) => selection.selected.has(rowKey(row)));
    body = (
      <Table.ScrollContainer minWidth={0}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-busy={loading || undefined}>
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }} className="visually-hidden">
            {caption}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={caption}
                    checked={allSelected}
                    indeterminate={!allSelected && rows.some((row) => selection.selected.has(rowKey(row)))}
                    onChange={(event) => selection.onChange(event.currentTarget.checked ? new Set(rows.map(rowKey)) : new Set())}
                  />
                </Table.Th>
              ) : null}
              {columns.map((column) => (
                <Table.Th key={column.key} scope="col">
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const key = rowKey(row);
              return (
                <Table.Tr key={key}>
                  {selection ? (
                    <Table.Td>
                      <Checkbox
                        aria-label={selection.label(row)}
                        checked={selection.selected.has(key)}
                        onChange={(event) => selection.onChange(toggled(selection.selected, key, event.currentTarget.checked))}
                      />
                    </Table.Td>
                  ) : null}
                  {columns.map((column) => (
                    <Table.Td key={column.key} style={{ overflowWrap: 'anywhere' }}>
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <Stack gap="sm">
      {body}
      {paging && rows && rows.length > 0 ? <Pager paging={paging} /> : null}
    </Stack>
  );
}

function toggled(selected: ReadonlySet<string>, key: string, on: boolean): Set<string> {
  const next = new Set(selected);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

function Pager({ paging }: { paging: PagePaging | CursorPaging }) {
  const { t, i18n } = useTranslation('ui');
  if (paging.kind === 'pages') {
    const pages = Math.max(1, Math.ceil(paging.total / paging.pageSize));
    return (
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {t('table.total', { count: paging.total })}
        </Text>
        {pages > 1 ? (
          <Pagination
            size="sm"
            total={pages}
            value={paging.page}
            onChange={paging.onPage}
            siblings={0}
            boundaries={1}
            aria-label={t('table.pagination')}
            getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('table.previous') : control === 'next' ? t('table.next') : control })}
          />
        ) : null}
      </Group>
    );
  }
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed">
        {paging.total === undefined ? '' : paging.totalCapped ? t('table.totalAtLeast', { count: paging.total, formatted: new Intl.NumberFormat(i18n.language).format(paging.total) }) : t('table.total', { count: paging.total })}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={!paging.hasPrevious} onClick={paging.onPrevious}>
          {t('table.previous')}
        </Button>
        <Button size="xs" variant="default" disabled={!paging.hasNext} onClick={paging.onNext}>
          {t('table.next')}
        </Button>
      </Group>
    </Group>
  );
}
