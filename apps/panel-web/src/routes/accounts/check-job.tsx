import { Alert, Button, Card, Group, List, Progress, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ErrorText, toast } from '@shared/web-ui';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, CheckJob, isJobActive, useCheckJob, useRefreshAccounts } from './accounts-api';
import { useCheckCode } from './status';

/**
 * The background check of every account: progress while it runs (the list refreshes as accounts
 * finish), cancel, then the accounts that are not fine with the reason.
 */
export function CheckJobPanel({ jobId, onDismiss }: { jobId: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const checkCode = useCheckCode();
  const refreshAccounts = useRefreshAccounts();
  const job = useCheckJob(jobId);
  const cancel = useMutation({ mutationFn: () => accountsApi.cancelCheckJob(jobId), onError: (error) => toast.error(error) });

  // The list follows the job: each finished account refreshes it, the end says how it went.
  const seen = useRef<{ done: number; status: string; announced: boolean } | null>(null);
  useEffect(() => {
    const data = job.data;
    if (!data) return;
    const before = seen.current;
    const settled = !isJobActive(data);
    seen.current = { done: data.progress.done, status: data.status, announced: settled };
    if (!before || before.done !== data.progress.done || before.status !== data.status) refreshAccounts();
    // A small job may already be over at the first answer; it is announced once either way.
    if (settled && !before?.announced) announce(data);
  }, [job.data]);
  const announce = (data: CheckJob) => {
    if (data.status === 'completed') toast.success(t('accounts.checkDone', { normal: data.result.normal, abnormal: data.result.abnormal }));
    else if (data.status === 'canceled') toast.info(t('accounts.checkCanceled', { done: data.progress.done, total: data.progress.total }));
    else if (data.status === 'interrupted') toast.error(t('accounts.checkInterrupted', { done: data.progress.done, total: data.progress.total }));
    else toast.error(data.error ?? t('accounts.checkFailed'));
  };

  if (job.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('accounts.checkFailed')} withCloseButton closeButtonLabel={t('common.close')} onClose={onDismiss}>
        <ErrorText error={job.error} />
      </Alert>
    );
  }
  const data = job.data;
  const active = !data || isJobActive(data);
  const done = data?.progress.done ?? 0;
  const total = data?.progress.total ?? 0;
  const percent = total === 0 ? (active ? 0 : 100) : Math.round((done / total) * 100);
  return (
    <Card withBorder padding="sm" role="region" aria-label={t('accounts.checkAllTitle')}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600} role="status" aria-live="polite">
            {active ? t('accounts.checkProgress', { done, total }) : t(`accounts.jobStatus.${data?.status ?? 'running'}`, { done, total, count: total })}
          </Text>
          {active ? (
            <Button size="xs" variant="default" loading={cancel.isPending} disabled={data?.status === 'canceling'} onClick={() => cancel.mutate()}>
              {data?.status === 'canceling' ? t('accounts.canceling') : t('accounts.cancelCheck')}
            </Button>
          ) : (
            <Button size="xs" variant="subtle" onClick={onDismiss}>
              {t('common.close')}
            </Button>
          )}
        </Group>
        <Progress value={percent} aria-label={t('accounts.checkProgress', { done, total })} animated={active} />
        {data && !active && data.result.abnormal_accounts.length > 0 ? (
          <List size="sm" spacing={2}>
            {data.result.abnormal_accounts.map((item) => (
              <List.Item key={item.account_name} style={{ overflowWrap: 'anywhere' }}>
                {item.account_name}: {checkCode(item.code)}
              </List.Item>
            ))}
          </List>
        ) : null}
      </Stack>
    </Card>
  );
}
