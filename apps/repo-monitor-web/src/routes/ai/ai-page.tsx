import { Badge, Button, Card, Drawer, Group, List, Select, SimpleGrid, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, EmptyState, ErrorState, formatDateTime, LoadingState, OutsideLink, Page, QueryState, safeUrl, toast } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, Schemas, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { AiSettingsForm } from './ai-settings-form';

const TABS = ['settings', 'reviews', 'digests'] as const;
type Tab = (typeof TABS)[number];
const PER_PAGE = 20;

/** AI: connection and features (env-locked fields read-only), review settings, reviews and digests. */
export function AiPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'settings';
  return (
    <Page title={t('ai.title')}>
      {/* Every tab stays mounted (hidden when not shown), so an edit in one is still there after a look at another. */}
      <Tabs value={tab} onChange={(next) => setParams(next && next !== 'settings' ? { tab: next } : {}, { replace: true })}>
        <Tabs.List>
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`ai.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <SettingsTab />
        </Tabs.Panel>
        <Tabs.Panel value="reviews" pt="md">
          <ReviewsTab />
        </Tabs.Panel>
        <Tabs.Panel value="digests" pt="md">
          <DigestsTab />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}

function SettingsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['ai-config'], queryFn: () => unwrap(api.GET('/api/v1/ai/config')) });
  const save = useMutation({
    mutationFn: (body: Schemas['UpdateAiSettingsDto']) => unwrap(api.PUT('/api/v1/ai/config', { body })),
    onSuccess: (next) => {
      queryClient.setQueryData(['ai-config'], next);
      toast.success(t('ai.saved'));
    },
    onError: (error) => toast.error(error),
  });
  const review = useQuery({ queryKey: ['ai-review-settings'], queryFn: () => unwrap(api.GET('/api/v1/ai/review-settings')) });
  const saveReview = useMutation({
    mutationFn: (post_comment: boolean) => unwrap(api.PUT('/api/v1/ai/review-settings', { body: { post_comment } })),
    onSuccess: (next) => {
      queryClient.setQueryData(['ai-review-settings'], next);
      toast.success(next.post_comment ? t('ai.commentOn') : t('ai.commentOff'));
    },
    onError: (error) => toast.error(error),
  });
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('ai.connection')}
        </Title>
        <QueryState query={settings}>{(data) => <AiSettingsForm key={JSON.stringify(data)} settings={data} saving={save.isPending} onSave={(body) => save.mutate(body)} />}</QueryState>
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('ai.reviewSettings')}
        </Title>
        <QueryState query={review}>
          {(data) => (
            <Switch
              label={t('ai.postComment')}
              description={t('ai.postCommentHelp')}
              checked={data.post_comment}
              disabled={saveReview.isPending}
              onChange={(event) => saveReview.mutate(event.currentTarget.checked)}
            />
          )}
        </QueryState>
      </Card>
    </SimpleGrid>
  );
}

type Review = Schemas['PrReviewDto'];
const REVIEW_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
const REVIEW_COLOR: Record<string, string> = { pending: 'blue', running: 'cyan', completed: 'teal', failed: 'red' };
const RISK_COLOR: Record<string, string> = { low: 'teal', medium: 'yellow', high: 'red' };

function ReviewsTab() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<(typeof REVIEW_STATUSES)[number] | undefined>();
  const [open, setOpen] = useState<Review | null>(null);
  const reviews = useQuery({
    queryKey: ['ai-reviews', page, status],
    queryFn: () => unwrap(api.GET('/api/v1/ai/reviews', { params: { query: { page, per_page: PER_PAGE, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <Stack gap="sm">
      <Select
        label={t('ai.reviewStatus')}
        w={{ base: '100%', xs: 220 }}
        allowDeselect={false}
        value={status ?? ''}
        data={[{ value: '', label: t('ai.allStatuses') }, ...REVIEW_STATUSES.map((value) => ({ value, label: t(`ai.status.${value}`) }))]}
        onChange={(value) => {
          setStatus((value || undefined) as typeof status);
          setPage(1);
        }}
      />
      <DataTable<Review>
        caption={t('ai.reviews')}
        rows={reviews.data?.items}
        rowKey={(row) => String(row.id)}
        loading={reviews.isPending}
        error={reviews.isError && !reviews.data ? reviews.error : undefined}
        onRetry={() => void reviews.refetch()}
        titleColumn="pr"
        empty={<EmptyState title={t('ai.noReviews')} description={t('ai.noReviewsText')} />}
        paging={reviews.data ? { kind: 'pages', page, pageSize: PER_PAGE, total: reviews.data.total, onPage: setPage } : undefined}
        columns={[
          {
            key: 'pr',
            header: t('ai.pullRequest'),
            render: (row) => (
              <Button variant="subtle" size="compact-sm" h="auto" py={2} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} onClick={() => setOpen(row)}>
                {`${row.repository}#${row.pr_number} ${row.title}`}
              </Button>
            ),
          },
          {
            key: 'status',
            header: t('ai.reviewStatus'),
            render: (row) => (
              <Badge variant="light" color={REVIEW_COLOR[row.status]}>
                {t(`ai.status.${row.status}`)}
              </Badge>
            ),
          },
          { key: 'score', header: t('ai.score'), render: (row) => (row.score === null ? '—' : String(row.score)) },
          {
            key: 'risk',
            header: t('ai.mergeRisk'),
            render: (row) =>
              row.merge_risk ? (
                <Badge variant="light" color={RISK_COLOR[row.merge_risk]}>
                  {t(`ai.risk.${row.merge_risk}`)}
                </Badge>
              ) : (
                '—'
              ),
          },
          { key: 'created', header: t('ai.created'), render: (row) => formatDateTime(row.created_at, timeZone, false) },
        ]}
      />
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="lg" title={open ? `${open.repository}#${open.pr_number}` : ''}>
        {open ? <ReviewDetail id={open.id} /> : null}
      </Drawer>
    </Stack>
  );
}

function ReviewDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const review = useQuery({ queryKey: ['ai-review', id], queryFn: () => unwrap(api.GET('/api/v1/ai/reviews/{id}', { params: { path: { id } } })) });
  if (review.isPending) return <LoadingState />;
  if (review.error || !review.data) return <ErrorState error={review.error} onRetry={() => void review.refetch()} />;
  const data = review.data;
  const list = (title: string, items: string[]) =>
    items.length ? (
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <List size="sm" spacing={2}>
          {items.map((item, index) => (
            <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
              {item}
            </List.Item>
          ))}
        </List>
      </Stack>
    ) : null;
  return (
    <Stack gap="sm">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {data.title}
      </Text>
      <Group gap="xs">
        <Badge variant="light" color={REVIEW_COLOR[data.status]}>
          {t(`ai.status.${data.status}`)}
        </Badge>
        {data.merge_risk ? (
          <Badge variant="light" color={RISK_COLOR[data.merge_risk]}>
            {t('ai.mergeRiskIs', { risk: t(`ai.risk.${data.merge_risk}`) })}
          </Badge>
        ) : null}
        {data.score !== null ? <Badge variant="outline">{t('ai.scoreIs', { score: data.score })}</Badge> : null}
      </Group>
      <Text size="xs" c="dimmed">
        {[data.model, formatDateTime(data.completed_at ?? data.created_at, timeZone), data.diff_truncated ? t('ai.diffTruncated', { chars: data.diff_chars }) : null].filter(Boolean).join(' · ')}
      </Text>
      {data.summary ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {data.summary}
        </Text>
      ) : null}
      {list(t('ai.securityRisks'), data.security_risks)}
      {list(t('ai.breakingRisks'), data.breaking_risks)}
      {list(t('ai.suggestions'), data.suggestions)}
      {list(t('ai.missingTests'), data.missing_tests)}
      {data.error_message ? (
        <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
          {data.error_message}
        </Text>
      ) : null}
      {safeUrl(data.html_url) ? (
        <OutsideLink href={data.html_url} size="sm">
          {t('ai.openOnGithub')}
        </OutsideLink>
      ) : null}
    </Stack>
  );
}

type Digest = Schemas['DigestDto'];

/** The day a digest covers, as the service names it: the end of its period in the configured time zone (YYYY-MM-DD). */
export function digestDay(digest: Pick<Digest, 'period_end'>, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(digest.period_end));
  } catch {
    return digest.period_end.slice(0, 10);
  }
}
const PERIODS = ['daily', 'weekly', 'monthly'] as const;

export function DigestsTab() {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('daily');
  const [open, setOpen] = useState<Digest | null>(null);
  // The service writes titles and reasons in English; the console says them in the page's language
  // (and drops the body's first line when it only repeats the English title the drawer already shows).
  const titleOf = (digest: Digest) => t('ai.digestName', { period: t(`ai.period.${digest.period}`), day: digestDay(digest, timeZone) });
  const reasonOf = (reason: string) => (i18n.exists(`ai.fallbackReasons.${reason}`) ? t(`ai.fallbackReasons.${reason}`) : reason.replace(/_/g, ' '));
  const digests = useQuery({
    queryKey: ['digests', page],
    queryFn: () => unwrap(api.GET('/api/v1/digests', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
  });
  const produce = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/digests', { body: { period } })),
    onSuccess: (digest) => {
      toast.success(t('ai.produced', { period: t(`ai.period.${digest.period}`) }));
      setOpen(digest);
      void queryClient.invalidateQueries({ queryKey: ['digests'] });
    },
    onError: (error) => toast.error(error),
  });
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm">
        <Select label={t('ai.periodLabel')} w={{ base: '100%', xs: 180 }} allowDeselect={false} value={period} data={PERIODS.map((value) => ({ value, label: t(`ai.period.${value}`) }))} onChange={(value) => value && setPeriod(value as typeof period)} />
        <Button loading={produce.isPending} onClick={() => produce.mutate()}>
          {t('ai.produceNow')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('ai.produceHelp')}
      </Text>
      <DataTable<Digest>
        caption={t('ai.digests')}
        rows={digests.data?.items}
        rowKey={(row) => String(row.id)}
        loading={digests.isPending}
        error={digests.isError && !digests.data ? digests.error : undefined}
        onRetry={() => void digests.refetch()}
        titleColumn="title"
        empty={<EmptyState title={t('ai.noDigests')} description={t('ai.noDigestsText')} />}
        paging={digests.data ? { kind: 'pages', page, pageSize: PER_PAGE, total: digests.data.total, onPage: setPage } : undefined}
        columns={[
          {
            key: 'title',
            header: t('ai.digestTitle'),
            render: (row) => (
              <Button variant="subtle" size="compact-sm" h="auto" py={2} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} onClick={() => setOpen(row)}>
                {titleOf(row)}
              </Button>
            ),
          },
          { key: 'period', header: t('ai.periodLabel'), render: (row) => t(`ai.period.${row.period}`) },
          { key: 'source', header: t('ai.source'), render: (row) => t(`ai.sourceKind.${row.source}`) },
          { key: 'created', header: t('ai.created'), render: (row) => formatDateTime(row.created_at, timeZone, false) },
        ]}
      />
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="lg" title={open ? titleOf(open) : ''}>
        {open ? (
          <Stack gap="sm">
            <Text size="xs" c="dimmed">
              {`${formatDateTime(open.period_start, timeZone, false)} – ${formatDateTime(open.period_end, timeZone, false)} · ${t(`ai.sourceKind.${open.source}`)}`}
            </Text>
            {open.fallback_reason ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('ai.fallback', { reason: reasonOf(open.fallback_reason) })}
              </Text>
            ) : null}
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {open.body.startsWith(`${open.title}\n`) ? open.body.slice(open.title.length + 1) : open.body}
            </Text>
          </Stack>
        ) : null}
      </Drawer>
    </Stack>
  );
}
