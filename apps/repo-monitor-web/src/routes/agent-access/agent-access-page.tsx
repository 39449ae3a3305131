import { Alert, Badge, Card, Code, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Page, QueryState } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { CopyableCode } from '../../components/copyable-code';
import { apiCurl, mcpCurl, tokenCurl } from './snippets';

/** Read-only agent access: discovery URLs, the MCP endpoint, the client id and copyable examples (never the secret). */
export function AgentAccessPage() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: ['agent-access'], queryFn: () => unwrap(api.GET('/api/v1/agent-access')) });
  return (
    <Page title={t('agentAccess.title')}>
      <Text size="sm" c="dimmed">
        {t('agentAccess.intro')}
      </Text>
      <QueryState query={info}>
        {(data) => (
          <Stack gap="md">
            {data.enabled ? null : (
              <Alert color="yellow" variant="light" title={t('agentAccess.offTitle')}>
                <Text size="sm">{t('agentAccess.offText')}</Text>
                <List size="sm" mt={4}>
                  {data.client_secret_set ? null : <List.Item>{t('agentAccess.needSecret')}</List.Item>}
                  {data.encryption_key_set ? null : <List.Item>{t('agentAccess.needKey')}</List.Item>}
                </List>
              </Alert>
            )}
            {data.issuer_from_public_base_url ? null : (
              <Alert color="blue" variant="light">
                {t('agentAccess.issuerFromHost', { issuer: data.issuer })}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <Card withBorder>
                <Group justify="space-between" mb="xs" gap="xs">
                  <Title order={3} size="h5">
                    {t('agentAccess.client')}
                  </Title>
                  <Badge color={data.enabled ? 'teal' : 'gray'} variant="light">
                    {data.enabled ? t('agentAccess.on') : t('agentAccess.off')}
                  </Badge>
                </Group>
                <Stack gap="sm">
                  <CopyableCode label={t('agentAccess.clientId')} code={data.client_id} />
                  <Stack gap={2}>
                    <Text size="sm" fw={500}>
                      {t('agentAccess.clientSecret')}
                    </Text>
                    <Text size="sm">{data.client_secret_set ? t('agentAccess.secretSet') : t('agentAccess.secretNotSet')}</Text>
                  </Stack>
                  <Text size="sm">{t('agentAccess.scope', { scope: data.scope, minutes: Math.round(data.token_lifetime_seconds / 60) })}</Text>
                  <CopyableCode label={t('agentAccess.tokenEndpoint')} code={data.token_endpoint} />
                  <CopyableCode label={t('agentAccess.mcpEndpoint')} code={data.mcp_endpoint} />
                  <CopyableCode label={t('agentAccess.apiBase')} code={data.api_base_url} />
                </Stack>
              </Card>
              <Card withBorder>
                <Title order={3} size="h5" mb="xs">
                  {t('agentAccess.discovery')}
                </Title>
                <Stack gap="sm">
                  <CopyableCode label={t('agentAccess.authServerMetadata')} code={data.authorization_server_metadata_url} />
                  <CopyableCode label={t('agentAccess.mcpMetadata')} code={data.mcp_resource_metadata_url} />
                  <CopyableCode label={t('agentAccess.apiMetadata')} code={data.api_resource_metadata_url} />
                  <CopyableCode label={t('agentAccess.openapi')} code={data.openapi_url} />
                </Stack>
              </Card>
            </SimpleGrid>
            <Card withBorder>
              <Title order={3} size="h5" mb="xs">
                {t('agentAccess.examples')}
              </Title>
              <Stack gap="sm">
                <CopyableCode label={t('agentAccess.getToken')} code={tokenCurl(data.token_endpoint, data.client_id)} block />
                <CopyableCode label={t('agentAccess.callMcp')} code={mcpCurl(data.mcp_endpoint)} block />
                <CopyableCode label={t('agentAccess.callApi')} code={apiCurl(data.api_base_url)} block />
              </Stack>
            </Card>
            <Card withBorder>
              <Title order={3} size="h5" mb="xs">
                {t('agentAccess.readable')}
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {t('agentAccess.readableText')}
              </Text>
              <Group gap={6}>
                {data.readable_paths.map((path) => (
                  <Code key={path}>{path}</Code>
                ))}
              </Group>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Page>
  );
}
