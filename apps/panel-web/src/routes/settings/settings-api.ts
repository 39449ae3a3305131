import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download, Schemas, unwrap } from '../../api/client';
import { MutationCallbacks, SETTINGS_KEY } from '../../components/hooks';

const BACKUP_STATUS = ['backup-status'] as const;
const REMOTE_BACKUPS = ['remote-backups'] as const;

const saveSettings = (patch: Schemas['UpdateSettingsDto']) => unwrap(api.PUT('/api/config/settings', { body: patch }));

/** Saves the changed settings: the saved view becomes the cached settings, then the page's callback, then the backup state (it shows the backup settings) is read again. */
export function useSaveSettings(callbacks: MutationCallbacks<typeof saveSettings> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    ...callbacks,
    onSuccess: (saved, ...rest) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      void callbacks.onSuccess?.(saved, ...rest);
      void queryClient.invalidateQueries({ queryKey: BACKUP_STATUS });
    },
  });
}

const runDeviceKeepalive = (force: boolean) => unwrap(api.POST('/api/config/settings/device-keepalive/run', { body: { force } }));

export function useRunDeviceKeepalive(callbacks: MutationCallbacks<typeof runDeviceKeepalive> = {}) {
  return useMutation({ mutationFn: runDeviceKeepalive, ...callbacks });
}

const testAi = () => unwrap(api.POST('/api/config/ai/test'));

/** Asks the saved AI settings a question. */
export function useTestAi(callbacks: MutationCallbacks<typeof testAi> = {}) {
  return useMutation({ mutationFn: testAi, ...callbacks });
}

// Backups

export function useBackupStatusQuery() {
  return useQuery({ queryKey: BACKUP_STATUS, queryFn: () => unwrap(api.GET('/api/ops/backup/status')) });
}

/** The backups in the WebDAV folder (not retried: a wrong WebDAV setting fails at once, with its error). */
export function useRemoteBackupsQuery() {
  return useQuery({ queryKey: REMOTE_BACKUPS, queryFn: () => unwrap(api.GET('/api/ops/backup/webdav/files')), retry: false });
}

const testWebdav = () => unwrap(api.POST('/api/ops/backup/webdav/test'));

export function useTestWebdav(callbacks: MutationCallbacks<typeof testWebdav> = {}) {
  return useMutation({ mutationFn: testWebdav, ...callbacks });
}

const uploadBackup = () => unwrap(api.POST('/api/ops/backup/export', { params: { query: { target: 'webdav' } } }));

/** Makes a backup and uploads it to WebDAV; after the page's callback the remote list is read again. */
export function useUploadBackup(callbacks: MutationCallbacks<typeof uploadBackup> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadBackup,
    ...callbacks,
    onSuccess: (...args) => {
      void callbacks.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: REMOTE_BACKUPS });
    },
  });
}

/** Makes a backup and downloads it. */
export function downloadBackup(): Promise<void> {
  return download('/api/ops/backup/export?target=download', 'backup.tar.gz', 'POST');
}

/** Downloads one backup from the WebDAV folder. */
export function downloadRemoteBackup(name: string): Promise<void> {
  return download(`/api/ops/backup/webdav/download?name=${encodeURIComponent(name)}`, name);
}

// Configuration transfer

export type ConfigImport = Schemas['ConfigImportDto'];

/** Downloads the configuration (tasks and settings) as JSON. */
export function downloadConfig(): Promise<void> {
  return download('/api/config/export/all', 'tg-signpulse-config.json');
}

const previewImport = (body: ConfigImport) => unwrap(api.POST('/api/config/import-preview', { body }));

/** What importing the document would change, item by item (writes nothing). */
export function usePreviewImport(callbacks: MutationCallbacks<typeof previewImport> = {}) {
  return useMutation({ mutationFn: previewImport, ...callbacks });
}

const importConfig = (body: ConfigImport) => unwrap(api.POST('/api/config/import/all', { body }));

/** Imports the selected items; after the page's callback everything cached is read again (an import can change any of it). */
export function useImportConfig(callbacks: MutationCallbacks<typeof importConfig> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importConfig,
    ...callbacks,
    onSuccess: (...args) => {
      void callbacks.onSuccess?.(...args);
      void queryClient.invalidateQueries();
    },
  });
}
