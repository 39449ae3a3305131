import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, OutsideLink, Page, safeUrl, useUrlParams } from '@shared/web-ui';
import { ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { readReleasesQuery, ReleasesQuery, SEARCH_MAX_LENGTH, writeReleasesQuery } from './releases-query';

const PER_PAGE = 25;
/** Typing pauses this long before the search goes to the URL (and the server). */
const SEARCH_DELAY_MS = 400;

type Release = Schemas['StarredReleaseDto'];

/** A link to GitHub that opens in a new tab and says so to screen readers. */
function GitHubLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useTranslation();
  if (!safeUrl(href)) return <OutsideLink href={href}>{children}</OutsideLink>;
  return (
    <OutsideLink href={href} style={{ overflowWrap: 'anywhere' }}>
      {children}
      <IconExternalLink size={14} stroke={1.5} aria-hidden="true" style={{ marginInlineStart: 4, verticalAlign: 'middle' }} />
      <span className="visually-hidden"> {t('releases.newTab')}</span>
    </OutsideLink>
  );
}

/** The repositories the starred user has starred, each with the latest release seen; searched and paged by the server. */
export function ReleasesPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const [params, setParams] = useUrlParams();
  const current = readReleasesQuery(params);
  const update = (change: Partial<ReleasesQuery>) => setParams((latest) => writeReleasesQuery(readReleasesQuery(latest), change), { replace: 'q' in change });

  const [search, setSearch] = useState(current.q ?? '');
  const urlSearch = current.q ?? '';
  useEffect(() => setSearch(urlSearch), [urlSearch]);
  useEffect(() => {
    if (search.trim() === urlSearch) return undefined;
    const timer = setTimeout(() => update({ q: search.trim() || undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // Only a change of the typed text starts the delay (not a re-render with new params).
  }, [search]);

  const query = { page: current.page, per_page: PER_PAGE, ...(current.q ? { q: current.q } : {}) };
  const releases = useQuery({
    queryKey: ['starred-releases', query],
    queryFn: () => unwrap(api.GET('/api/v1/starred-releases', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const data = releases.data;

  if (data && data.username === null) {
    return (
      <Page title={t('releases.title')}>
        <EmptyState
          title={t('releases.offTitle')}
          description={t('releases.offBody')}
          action={
            <Button component={Link} to="/settings">
              {t('releases.openSettings')}
            </Button>
          }
        />
      </Page>
    );
  }

  const empty = current.q ? (
    <EmptyState
      title={t('releases.noMatch', { q: current.q })}
      action={
        <Button variant="default" onClick={() => update({ q: undefined })}>
          {t('releases.clearSearch')}
        </Button>
      }
    />
  ) : (
    <EmptyState title={t('releases.empty')} description={data?.username ? t('releases.emptyBody', { username: data.username }) : undefined} />
  );

  return (
    <Page title={t('releases.title')}>
      {data?.username ? (
        <Stack gap={4}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('releases.watching', { username: data.username })}
          </Text>
          <Text size="sm" c="dimmed">
            {data.list_checked_at ? t('releases.listFetched', { time: formatDateTime(data.list_checked_at, timeZone) }) : t('releases.listNotFetched')}
          </Text>
          <Anchor component={Link} to="/settings" size="sm">
            {t('releases.change')}
          </Anchor>
        </Stack>
      ) : null}
      <TextInput
        type="search"
        label={t('releases.search')}
        description={t('releases.searchHint')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maxLength={SEARCH_MAX_LENGTH}
        maw={420}
      />
      <DataTable<Release>
        caption={t('releases.caption')}
        rows={data?.items}
        rowKey={(row) => row.repository_full_name}
        loading={releases.isPending || releases.isPlaceholderData}
        error={releases.isError && !data ? releases.error : undefined}
        onRetry={() => void releases.refetch()}
        titleColumn="repository"
        empty={empty}
        paging={data ? { kind: 'pages', page: current.page, pageSize: PER_PAGE, total: data.total, onPage: (page) => update({ page }) } : undefined}
        columns={[
          { key: 'repository', header: t('releases.repository'), render: (row) => <GitHubLink href={row.repository_url}>{row.repository_full_name}</GitHubLink> },
          {
            key: 'release',
            header: t('releases.latestRelease'),
            render: (row) =>
              row.last_release_tag && row.last_release_url ? (
                <GitHubLink href={row.last_release_url}>{row.last_release_tag}</GitHubLink>
              ) : (
                <Text span size="sm" c="dimmed">
                  {row.last_release_tag ?? t('releases.noRelease')}
                </Text>
              ),
          },
          {
            key: 'checked',
            header: t('releases.checked'),
            render: (row) =>
              row.last_checked_at ? (
                formatDateTime(row.last_checked_at, timeZone)
              ) : (
                <Text span size="sm" c="dimmed">
                  {t('releases.notChecked')}
                </Text>
              ),
          },
        ]}
      />
    </Page>
  );
}
