import { Badge, Button, Card, Group, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { confirmAction, EmptyState, formatDateTime, QueryState, toast } from '@shared/web-ui';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTimeZone } from '../../components/hooks';
import { Page } from '../../components/page';
import { AddAccountDialog, LoginMethod } from './add-account-dialog';
import { Account, accountsApi, isJobActive, useAccounts, useCheckJob, useRefreshAccounts } from './accounts-api';
import { CheckJobPanel } from './check-job';
import { DevicesDrawer } from './devices-drawer';
import { SafetyDrawer } from './safety-drawer';
import { EditAccountDialog } from './edit-account-dialog';
import { StatusBadge, useCheckCode } from './status';

/** Accounts: status, check one or all, add (phone code, QR, session string), edit, devices, delete. */
export function AccountsPage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const refreshAccounts = useRefreshAccounts();
  const checkCode = useCheckCode();
  const [params, setParams] = useSearchParams();
  // `?add=phone|qr|session` (the dashboard's checklist links here) opens the add dialog at once.
  const [adding, setAdding] = useState<{ method: LoginMethod; relogin?: string } | null>(() => {
    const method = params.get('add');
    return method === 'phone' || method === 'qr' || method === 'session' ? { method } : null;
  });
  const [editing, setEditing] = useState<Account | null>(null);
  const [devicesOf, setDevicesOf] = useState<string | null>(null);
  const [safetyOf, setSafetyOf] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useCheckJob(jobId);
  const jobRunning = jobId !== null && (job.data === undefined ? !job.error : isJobActive(job.data));

  const startJob = useMutation({
    mutationFn: () => accountsApi.startCheckJob(),
    onSuccess: (job) => setJobId(job.job_id),
    onError: (error) => toast.error(error),
  });
  const checkOne = useMutation({
    mutationFn: (name: string) => accountsApi.checkNow(name),
    onSuccess: (summary, name) => {
      refreshAccounts();
      const result = summary.results[0];
      if (result?.ok) toast.success(t('accounts.checkedOk', { name }));
      else toast.error(new Error(t('accounts.checkedProblem', { name, problem: result ? checkCode(result.code) : '' })));
    },
    onError: (error) => toast.error(error),
  });
  const remove = useMutation({
    mutationFn: (name: string) => accountsApi.remove(name),
    onSuccess: (_result, name) => {
      refreshAccounts();
      toast.success(t('accounts.deleted', { name }));
    },
    onError: (error) => toast.error(error),
  });
  const askDelete = async (account: Account) => {
    const yes = await confirmAction({
      title: t('accounts.deleteTitle', { name: account.account_name }),
      message: t('accounts.deleteMessage'),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
    });
    if (yes) remove.mutate(account.account_name);
  };

  const addMenu = (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button rightSection={<IconChevronDown size={16} aria-hidden />}>{t('accounts.add')}</Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => setAdding({ method: 'phone' })}>{t('accounts.byPhone')}</Menu.Item>
        <Menu.Item onClick={() => setAdding({ method: 'qr' })}>{t('accounts.byQr')}</Menu.Item>
        <Menu.Item onClick={() => setAdding({ method: 'session' })}>{t('accounts.bySession')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
  const hasAccounts = (accounts.data?.accounts.length ?? 0) > 0;

  return (
    <Page
      title={t('accounts.title')}
      actions={
        <>
          {hasAccounts ? (
            <Button variant="default" loading={startJob.isPending} disabled={jobRunning} onClick={() => startJob.mutate()}>
              {t('accounts.checkAll')}
            </Button>
          ) : null}
          {addMenu}
        </>
      }
    >
      {jobId ? <CheckJobPanel key={jobId} jobId={jobId} onDismiss={() => setJobId(null)} /> : null}
      <QueryState
        query={accounts}
        loadingRows={4}
        isEmpty={(data) => data.accounts.length === 0}
        empty={
          <EmptyState
            title={t('accounts.empty')}
            description={t('accounts.emptyHint')}
            action={
              <Group justify="center" gap="xs">
                <Button onClick={() => setAdding({ method: 'phone' })}>{t('accounts.byPhone')}</Button>
                <Button variant="light" onClick={() => setAdding({ method: 'qr' })}>
                  {t('accounts.byQr')}
                </Button>
              </Group>
            }
          />
        }
      >
        {(data) => (
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" component="ul" aria-label={t('accounts.title')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.accounts.map((account) => (
              <AccountCard
                key={account.account_name}
                account={account}
                checking={checkOne.isPending && checkOne.variables === account.account_name}
                deleting={remove.isPending && remove.variables === account.account_name}
                onCheck={() => checkOne.mutate(account.account_name)}
                onDevices={() => setDevicesOf(account.account_name)}
                onSafety={() => setSafetyOf(account.account_name)}
                onEdit={() => setEditing(account)}
                onRelogin={() => setAdding({ method: 'phone', relogin: account.account_name })}
                onDelete={() => void askDelete(account)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryState>
      {adding ? (
        <AddAccountDialog
          opened
          method={adding.method}
          relogin={adding.relogin}
          onMethod={(method) => setAdding({ ...adding, method })}
          onClose={() => {
            setAdding(null);
            if (params.has('add')) setParams({}, { replace: true });
          }}
        />
      ) : null}
      <EditAccountDialog account={editing} onClose={() => setEditing(null)} />
      <DevicesDrawer accountName={devicesOf} onClose={() => setDevicesOf(null)} />
      <SafetyDrawer accountName={safetyOf} onClose={() => setSafetyOf(null)} />
    </Page>
  );
}

function AccountCard({
  account,
  checking,
  deleting,
  onCheck,
  onDevices,
  onSafety,
  onEdit,
  onRelogin,
  onDelete,
}: {
  account: Account;
  checking: boolean;
  deleting: boolean;
  onCheck: () => void;
  onDevices: () => void;
  onSafety: () => void;
  onEdit: () => void;
  onRelogin: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const checkCode = useCheckCode();
  const name = account.account_name;
  const user = account.user;
  const who = user ? [user.first_name, user.username ? `@${user.username}` : null, user.phone ? `+${user.phone.replace(/^\+/, '')}` : null].filter(Boolean).join(' · ') : null;
  const needsLogin = account.needs_relogin || !account.has_session;
  return (
    <Card component="li" withBorder padding="md" aria-label={name}>
      <Stack gap={6} h="100%">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Title order={3} size="h5" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {name}
          </Title>
          <Group gap={4} justify="flex-end">
            <StatusBadge status={checking ? 'checking' : account.status} />
            {account.needs_relogin ? (
              <Badge color="red" variant="filled">
                {t('accounts.needsRelogin')}
              </Badge>
            ) : null}
          </Group>
        </Group>
        {who ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {who}
          </Text>
        ) : null}
        <Text size="sm" c={account.remark ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {account.remark ? t('accounts.remarkLine', { remark: account.remark }) : t('accounts.noRemark')}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {account.proxy ? t('accounts.proxyLine', { proxy: account.proxy }) : t('accounts.noProxy')}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {account.last_check
            ? t('accounts.lastCheck', { time: formatDateTime(account.last_check.checked_at, timeZone), result: checkCode(account.last_check.code) })
            : t('accounts.neverChecked')}
        </Text>
        <Group gap="xs" mt="auto" pt="xs">
          {needsLogin ? (
            <Button size="xs" color="red" onClick={onRelogin} aria-label={t('accounts.reloginLabel', { name })}>
              {t('accounts.relogin')}
            </Button>
          ) : null}
          <Button size="xs" variant="light" loading={checking} onClick={onCheck} aria-label={t('accounts.checkLabel', { name })}>
            {t('accounts.check')}
          </Button>
          <Button size="xs" variant="light" onClick={onDevices} aria-label={t('accounts.devicesLabel', { name })}>
            {t('accounts.devices')}
          </Button>
          <Button size="xs" variant="light" onClick={onSafety} aria-label={t('accounts.safetyLabel', { name })}>
            {t('accounts.safety')}
          </Button>
          <Button size="xs" variant="light" onClick={onEdit} aria-label={t('accounts.editLabel', { name })}>
            {t('common.edit')}
          </Button>
          <Button size="xs" variant="subtle" color="red" loading={deleting} onClick={onDelete} aria-label={t('accounts.deleteLabel', { name })}>
            {t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
