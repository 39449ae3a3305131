import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, EmptyState, formatDateTime, Page, QueryState, toast } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { CopyableCode } from '../../components/copyable-code';
import { useTimeZone } from '../../components/hooks';
import { GithubAppForm } from './github-app-form';
import { webhookUrl } from './github-app-form-values';
import { ManifestFlowForm, ManifestOutcome } from './manifest-flow';

const INSTALLATIONS_PER_PAGE = 20;

/** GitHub App: credentials (env-locked fields read-only), the webhook URL to copy, installations. */
export function GithubAppPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['github-app'], queryFn: () => unwrap(api.GET('/api/v1/github/app')) });
  const save = useMutation({
    mutationFn: (body: Schemas['UpdateGithubAppSettingsDto']) => unwrap(api.PUT('/api/v1/github/app', { body })),
    onSuccess: (next) => {
      queryClient.setQueryData(['github-app'], next);
      toast.success(t('githubApp.saved'));
    },
    onError: (error) => toast.error(error),
  });

  return (
    <Page title={t('githubApp.title')}>
      <ManifestOutcome settings={settings.data} />
      <QueryState query={settings}>
        {(data) => (
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <Card withBorder>
              <Group justify="space-between" mb="xs" gap="xs">
                <Title order={3} size="h5">
                  {t('githubApp.credentials')}
                </Title>
                <Badge color={data.configured ? 'teal' : 'yellow'} variant="light">
                  {data.configured ? t('githubApp.configured') : t('githubApp.notConfigured')}
                </Badge>
              </Group>
              <GithubAppForm key={JSON.stringify(data)} settings={data} saving={save.isPending} onSave={(body) => save.mutate(body)} />
            </Card>
            <Stack gap="md">
              <Card withBorder>
                <Title order={3} size="h5" mb="xs">
                  {t('githubApp.manifest.title')}
                </Title>
                <ManifestFlowForm lockedFields={data.locked_fields} publicBaseUrl={data.public_base_url} />
              </Card>
              <Card withBorder>
                <Title order={3} size="h5" mb="xs">
                  {t('githubApp.webhook')}
                </Title>
                <WebhookUrl publicBaseUrl={data.public_base_url} />
              </Card>
            </Stack>
            <Card withBorder style={{ gridColumn: '1 / -1' }}>
              <Title order={3} size="h5" mb="xs">
                {t('githubApp.installations')}
              </Title>
              <Installations />
            </Card>
          </SimpleGrid>
        )}
      </QueryState>
    </Page>
  );
}

function WebhookUrl({ publicBaseUrl }: { publicBaseUrl: string | null }) {
  const { t } = useTranslation();
  const url = webhookUrl(publicBaseUrl);
  if (!url) {
    return (
      <Alert color="yellow" variant="light">
        {t('githubApp.noPublicUrl')}
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <CopyableCode label={t('githubApp.webhookUrl')} code={url} />
      <Text size="xs" c="dimmed">
        {t('githubApp.webhookHelp')}
      </Text>
    </Stack>
  );
}

function Installations() {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const [page, setPage] = useState(1);
  const installations = useQuery({
    queryKey: ['installations', page],
    queryFn: () => unwrap(api.GET('/api/v1/installations', { params: { query: { page, per_page: INSTALLATIONS_PER_PAGE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <DataTable<Schemas['InstallationDto']>
      caption={t('githubApp.installations')}
      rows={installations.data?.items}
      rowKey={(row) => String(row.id)}
      loading={installations.isPending}
      error={installations.isError && !installations.data ? installations.error : undefined}
      onRetry={() => void installations.refetch()}
      empty={<EmptyState title={t('githubApp.noInstallations')} description={t('githubApp.noInstallationsText')} />}
      paging={installations.data ? { kind: 'pages', page, pageSize: INSTALLATIONS_PER_PAGE, total: installations.data.total, onPage: setPage } : undefined}
      columns={[
        { key: 'account', header: t('githubApp.account'), render: (row) => row.account_login },
        { key: 'type', header: t('githubApp.accountType'), render: (row) => (row.account_type === 'Organization' ? t('githubApp.organization') : t('githubApp.user')) },
        { key: 'repositories', header: t('githubApp.repositories'), render: (row) => (row.repository_selection === 'all' ? t('githubApp.allRepositories') : t('githubApp.selectedRepositories')) },
        {
          key: 'state',
          header: t('githubApp.state'),
          render: (row) =>
            row.removed_at ? (
              <Badge color="gray" variant="light">
                {t('githubApp.removed')}
              </Badge>
            ) : row.suspended ? (
              <Badge color="yellow" variant="light">
                {t('githubApp.suspended')}
              </Badge>
            ) : (
              <Badge color="teal" variant="light">
                {t('githubApp.active')}
              </Badge>
            ),
        },
        { key: 'reconciled', header: t('githubApp.lastSync'), render: (row) => formatDateTime(row.last_reconciled_at, timeZone, false) },
      ]}
    />
  );
}
