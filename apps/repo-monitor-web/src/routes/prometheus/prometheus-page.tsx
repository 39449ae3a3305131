import { Alert, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Page, QueryState } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { CopyableCode } from '../../components/copyable-code';

/** Prometheus metrics: whether they are served, whether a token guards them, and a scrape job to copy. */
export function PrometheusPage() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: ['metrics-info'], queryFn: () => unwrap(api.GET('/api/v1/system/metrics')) });
  return (
    <Page title={t('prometheus.title')}>
      <QueryState query={info}>
        {(data) => (
          <Stack gap="md">
            {data.enabled ? null : (
              <Alert color="yellow" variant="light">
                {t('prometheus.disabled')}
              </Alert>
            )}
            {data.enabled && !data.token_set ? (
              <Alert color="orange" variant="light" title={t('prometheus.openTitle')}>
                {t('prometheus.openText')}
              </Alert>
            ) : null}
            <Card withBorder>
              <Group justify="space-between" mb="xs" gap="xs">
                <Title order={3} size="h5">
                  {t('prometheus.endpoint')}
                </Title>
                <Group gap={6}>
                  <Badge variant="light" color={data.enabled ? 'teal' : 'gray'}>
                    {data.enabled ? t('prometheus.served') : t('prometheus.notServed')}
                  </Badge>
                  <Badge variant="light" color={data.token_set ? 'teal' : 'orange'}>
                    {data.token_set ? t('prometheus.tokenSet') : t('prometheus.tokenNotSet')}
                  </Badge>
                </Group>
              </Group>
              <Stack gap="sm">
                <CopyableCode label={t('prometheus.scrapeUrl')} code={data.scrape_url} />
                {data.token_set ? <Text size="sm">{t('prometheus.tokenHelp')}</Text> : null}
              </Stack>
            </Card>
            <Card withBorder>
              <Title order={3} size="h5" mb="xs">
                {t('prometheus.scrapeConfig')}
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {t('prometheus.scrapeConfigHelp')}
              </Text>
              <CopyableCode label="prometheus.yml" code={data.prometheus_scrape_config} block />
            </Card>
          </Stack>
        )}
      </QueryState>
    </Page>
  );
}
