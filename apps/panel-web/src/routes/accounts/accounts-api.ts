import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, Schemas, unwrap } from '../../api/client';
import { useAccountListQuery } from '../../components/hooks';

export type Account = Schemas['AccountDto'];
export type CheckJob = Schemas['CheckJobDto'];

export const ACCOUNTS_KEY = ['accounts'] as const;

/** The shared account list (one cache entry for every page, see components/hooks). */
export function useAccounts() {
  return useAccountListQuery();
}

/** Refreshes every view of the accounts (this page, the history filters, the dashboard figures). */
export function useRefreshAccounts(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    void queryClient.invalidateQueries({ queryKey: ['stats', 'dashboard'] });
  };
}

/** Seconds each account's check may take (the service's default). */
const CHECK_TIMEOUT_SECONDS = 8;

const path = (accountName: string) => ({ path: { account_name: accountName } });

export const accountsApi = {
  update: (accountName: string, body: Schemas['UpdateAccountDto']) => unwrap(api.PATCH('/api/accounts/{account_name}', { params: path(accountName), body })),
  remove: (accountName: string) => unwrap(api.DELETE('/api/accounts/{account_name}', { params: path(accountName) })),
  importSession: (body: Schemas['ImportSessionDto']) => unwrap(api.POST('/api/accounts/import-session', { body })),
  checkNow: (accountName: string) => unwrap(api.POST('/api/accounts/status/check', { body: { account_names: [accountName], timeout_seconds: CHECK_TIMEOUT_SECONDS } })),
  startCheckJob: () => unwrap(api.POST('/api/accounts/status/check-jobs', { body: { timeout_seconds: CHECK_TIMEOUT_SECONDS } })),
  checkJob: (jobId: string) => unwrap(api.GET('/api/accounts/status/check-jobs/{job_id}', { params: { path: { job_id: jobId } } })),
  cancelCheckJob: (jobId: string) => unwrap(api.POST('/api/accounts/status/check-jobs/{job_id}/cancel', { params: { path: { job_id: jobId } } })),
  devices: (accountName: string) => unwrap(api.GET('/api/accounts/{account_name}/devices', { params: path(accountName) })),
  terminateDevice: (accountName: string, authHash: string) =>
    unwrap(api.DELETE('/api/accounts/{account_name}/devices/{auth_hash}', { params: { path: { account_name: accountName, auth_hash: authHash } } })),
  officialMessages: (accountName: string) => unwrap(api.GET('/api/accounts/{account_name}/official-messages', { params: { ...path(accountName), query: { limit: 50 } } })),
  startPhoneLogin: (body: Schemas['LoginStartDto']) => unwrap(api.POST('/api/accounts/login/start', { body })),
  verifyPhoneLogin: (body: Schemas['LoginVerifyDto']) => unwrap(api.POST('/api/accounts/login/verify', { body })),
  cancelPhoneLogin: (accountName: string) => unwrap(api.DELETE('/api/accounts/login/{account_name}', { params: path(accountName) })),
  startQrLogin: (body: Schemas['QrLoginStartDto']) => unwrap(api.POST('/api/accounts/qr-login/start', { body })),
  qrLogin: (loginId: string) => unwrap(api.GET('/api/accounts/qr-login/{login_id}', { params: { path: { login_id: loginId } } })),
  qrPassword: (loginId: string, password: string) => unwrap(api.POST('/api/accounts/qr-login/{login_id}/password', { params: { path: { login_id: loginId } }, body: { password } })),
  cancelQrLogin: (loginId: string) => unwrap(api.DELETE('/api/accounts/qr-login/{login_id}', { params: { path: { login_id: loginId } } })),
};

/** A job that still changes (polled until it settles). */
export function isJobActive(job: { status: string } | undefined): boolean {
  return job?.status === 'running' || job?.status === 'canceling';
}

/** A check job, polled every second until it settles (the page and its progress panel share it). */
export function useCheckJob(jobId: string | null) {
  return useQuery({
    queryKey: ['check-job', jobId],
    queryFn: () => accountsApi.checkJob(jobId ?? ''),
    enabled: jobId !== null,
    refetchInterval: (query) => (query.state.data === undefined || isJobActive(query.state.data) ? 1000 : false),
  });
}
