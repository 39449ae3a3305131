import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDateTime, OutsideLink, Page, QueryState, safeUrl, toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

/** Version and build, and the update check (off unless MONITOR_UPDATE_CHECK_URL is set). */
export function AboutPage() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const version = useQuery({ queryKey: ['system-version'], queryFn: () => unwrap(api.GET('/api/v1/system/version')) });
  const check = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/system/version/check', { params: { query: { force: true } } })),
    onError: (error) => toast.error(error),
  });
  const result = check.data;
  return (
    <Page title={t('about.title')}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('about.version')}
          </Title>
          <QueryState query={version}>
            {(data) => (
              <Stack gap="xs">
                <Text size="xl" fw={700}>
                  {data.version}
                </Text>
                <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)', gap: '2px 12px', fontSize: 'var(--mantine-font-size-sm)' }}>
                  {(
                    [
                      [t('about.package'), data.package_version],
                      [t('about.node'), data.node_version],
                      [t('about.branch'), data.git_branch ?? '—'],
                      [t('about.commit'), data.git_sha?.slice(0, 12) ?? '—'],
                      [t('about.built'), formatDateTime(data.build_time, timeZone)],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label} style={{ display: 'contents' }}>
                      <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{label}</dt>
                      <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
                    </div>
                  ))}
                </dl>
              </Stack>
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('about.updates')}
          </Title>
          <Stack gap="xs">
            {version.data && !version.data.update_check_enabled ? (
              <Text size="sm" c="dimmed">
                {t('about.checkOff')}
              </Text>
            ) : null}
            <Group>
              <Button variant="light" onClick={() => check.mutate()} loading={check.isPending} disabled={version.data ? !version.data.update_check_enabled : false}>
                {t('about.checkNow')}
              </Button>
            </Group>
            {result ? (
              <Text size="sm" role="status">
                {!result.enabled
                  ? t('about.checkOff')
                  : !result.ok
                    ? t('about.checkFailed', { reason: result.reason ?? '' })
                    : result.update_available
                      ? t('about.updateAvailable', { version: result.latest_version ?? '' })
                      : t('about.upToDate', { version: result.current_version })}{' '}
                {safeUrl(result.release_url) && result.update_available ? (
                  <OutsideLink href={result.release_url}>{t('about.releaseNotes')}</OutsideLink>
                ) : null}
              </Text>
            ) : null}
            {result?.checked_at ? (
              <Text size="xs" c="dimmed">
                {t('about.checkedAt', { time: formatDateTime(result.checked_at, timeZone) })}
              </Text>
            ) : null}
          </Stack>
        </Card>
      </SimpleGrid>
    </Page>
  );
}
