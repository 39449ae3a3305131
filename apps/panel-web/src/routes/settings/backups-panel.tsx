import { Badge, Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { EmptyState, ErrorState, formatDateTime, LoadingState, QueryState, toast } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { FormBinding, IntegerField, SecretSetting, SwitchField, TextField } from './form-binding';
import { downloadBackup, downloadRemoteBackup, useBackupStatusQuery, useRemoteBackupsQuery, useTestWebdav, useUploadBackup } from './settings-api';
import { Section, TestButton, TestResult } from './settings-parts';

/** 1536 -> "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** WebDAV target and automatic backups (part of the settings form), the backup state, backups now and the remote list. */
export function BackupsPanel({ form, dirty }: { form: FormBinding; dirty: boolean }) {
  const { t } = useTranslation();
  const timeZone = form.view.timezone;
  const status = useBackupStatusQuery();
  const webdavSaved = status.data?.webdav_configured ?? false;
  const test = useTestWebdav({ onError: (error) => toast.error(error) });
  const [downloading, setDownloading] = useState<string | null>(null);
  const fetchFile = async (key: string, action: () => Promise<void>) => {
    setDownloading(key);
    try {
      await action();
    } catch (error) {
      toast.error(error);
    } finally {
      setDownloading(null);
    }
  };
  const upload = useUploadBackup({
    onSuccess: (result) => {
      toast.success(t('settings.backups.uploaded', { name: result.file_name, size: formatBytes(result.size_bytes) }));
    },
    onError: (error) => toast.error(error),
  });

  return (
    <>
      <Section
        title={t('settings.webdav.title')}
        intro={t('settings.webdav.intro')}
        actions={<TestButton label={t('settings.webdav.test')} dirty={dirty} loading={test.isPending} onClick={() => test.mutate()} disabled={!form.view.webdav_url} />}
      >
        <TextField form={form} name="webdav_url" label={t('settings.webdav.url')} placeholder="https://dav.example.com/remote.php/dav/files/me" inputMode="url" />
        <TextField form={form} name="webdav_username" label={t('settings.webdav.username')} />
        <SecretSetting form={form} name="webdav_password" label={t('settings.webdav.password')} />
        <TextField form={form} name="webdav_dir" label={t('settings.webdav.dir')} />
        {test.data ? (
          <TestResult ok={test.data.ok} title={test.data.ok ? t('settings.webdav.ok') : t('settings.webdav.failed')}>
            {test.data.ok ? (test.data.folder_exists ? t('settings.webdav.folderExists', { folder: test.data.folder }) : t('settings.webdav.folderMissing', { folder: test.data.folder })) : test.data.error}
          </TestResult>
        ) : null}
      </Section>
      <Section title={t('settings.autoBackup.title')} intro={t('settings.autoBackup.intro')}>
        <SwitchField form={form} name="auto_backup_enabled" label={t('settings.autoBackup.enabled')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <IntegerField form={form} name="auto_backup_interval_hours" label={t('settings.autoBackup.interval')} />
          <IntegerField form={form} name="auto_backup_keep" label={t('settings.autoBackup.keep')} />
        </SimpleGrid>
        <QueryState query={status} loadingRows={2}>
          {(data) => <BackupStatus status={data} timeZone={timeZone} />}
        </QueryState>
      </Section>
      <Section
        title={t('settings.backups.title')}
        intro={t('settings.backups.intro')}
        actions={
          <>
            <Button loading={downloading === 'export'} onClick={() => void fetchFile('export', downloadBackup)}>
              {t('settings.backups.download')}
            </Button>
            <Button variant="light" loading={upload.isPending} disabled={!webdavSaved} onClick={() => upload.mutate()}>
              {t('settings.backups.upload')}
            </Button>
          </>
        }
      >
        <Text size="sm">{t('settings.backups.restore')}</Text>
      </Section>
      <Section title={t('settings.remote.title')}>
        {status.isPending ? <LoadingState rows={1} /> : webdavSaved ? <RemoteBackups timeZone={timeZone} downloading={downloading} fetchFile={fetchFile} /> : <EmptyState title={t('settings.remote.notConfigured')} description={t('settings.remote.notConfiguredHint')} />}
      </Section>
    </>
  );
}

function BackupStatus({ status, timeZone }: { status: Schemas['BackupStatusDto']; timeZone: string }) {
  const { t } = useTranslation();
  const last = status.last_auto_backup;
  return (
    <Stack gap={4}>
      <Text size="sm">
        {t('settings.autoBackup.next')}: {status.auto_backup_enabled ? formatDateTime(status.next_auto_backup_at, timeZone) : t('settings.autoBackup.off')}
      </Text>
      <Group gap="xs">
        <Text size="sm">{t('settings.autoBackup.last')}:</Text>
        {last ? (
          <>
            <Badge color={last.ok ? 'teal' : 'red'} variant="light">
              {last.ok ? t('settings.autoBackup.ok') : t('settings.autoBackup.failed')}
            </Badge>
            <Text size="sm">
              {formatDateTime(last.finished_at, timeZone)} · {t(`settings.autoBackup.destinations.${last.destination}`)}
            </Text>
          </>
        ) : (
          <Text size="sm">{t('settings.autoBackup.never')}</Text>
        )}
      </Group>
      {last?.error ? (
        <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
          {last.error}
        </Text>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('settings.autoBackup.sizes', {
          database: formatBytes(status.sizes.database_bytes),
          sessions: formatBytes(status.sizes.sessions_bytes),
          signer: formatBytes(status.sizes.signer_bytes),
          local: formatBytes(status.sizes.local_backups_bytes),
        })}
      </Text>
      {status.local_backups.length > 0 ? (
        <Text size="sm" c="dimmed">
          {t('settings.autoBackup.local', { count: status.local_backups.length })}
        </Text>
      ) : null}
    </Stack>
  );
}

function RemoteBackups({ timeZone, downloading, fetchFile }: { timeZone: string; downloading: string | null; fetchFile: (key: string, action: () => Promise<void>) => Promise<void> }) {
  const { t } = useTranslation();
  const remote = useRemoteBackupsQuery();
  if (remote.isPending) return <LoadingState rows={2} />;
  if (remote.error || !remote.data) return <ErrorState error={remote.error} onRetry={() => void remote.refetch()} />;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('settings.remote.folder', { folder: remote.data.folder })}
        </Text>
        <Button size="xs" variant="default" loading={remote.isFetching} onClick={() => void remote.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      {remote.data.files.length === 0 ? (
        <EmptyState title={t('settings.remote.empty')} description={t('settings.remote.emptyHint')} />
      ) : (
        <Table.ScrollContainer minWidth={0}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.remote.name')}</Table.Th>
                <Table.Th>{t('settings.remote.size')}</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">{t('common.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {remote.data.files.map((file) => (
                <Table.Tr key={file.name}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {file.name}
                    <Text size="xs" c="dimmed">
                      {formatDateTime(file.modified_at, timeZone)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(file.size_bytes)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      aria-label={t('settings.remote.downloadName', { name: file.name })}
                      loading={downloading === file.name}
                      onClick={() => void fetchFile(file.name, () => downloadRemoteBackup(file.name))}
                    >
                      {t('settings.remote.download')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
