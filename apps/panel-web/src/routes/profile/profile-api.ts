import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, Schemas, unwrap } from '../../api/client';
import { MutationCallbacks } from '../../components/hooks';

const ME = ['me'] as const;

export function useMeQuery() {
  return useQuery({ queryKey: ME, queryFn: () => unwrap(api.GET('/api/auth/me')) });
}

const changeUsername = (body: Schemas['ChangeUsernameDto']) => unwrap(api.PUT('/api/auth/username', { body }));
const changePassword = (body: { current_password: string; new_password: string }) => unwrap(api.PUT('/api/auth/password', { body }));
const startTotpSetup = (currentPassword: string) => unwrap(api.POST('/api/auth/totp/setup', { body: { current_password: currentPassword } }));
const enableTotp = (body: { code: string; current_password: string }) => unwrap(api.POST('/api/auth/totp/enable', { body }));
const disableTotp = (code: string) => unwrap(api.POST('/api/auth/totp/disable', { body: { code } }));

/** Runs the page's callback, then reads the profile again. */
function useThenRefreshMe<TCall extends (...args: never[]) => Promise<unknown>>(callbacks: MutationCallbacks<TCall>): MutationCallbacks<TCall> {
  const queryClient = useQueryClient();
  return {
    ...callbacks,
    onSuccess: (...args) => {
      void callbacks.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: ME });
    },
  };
}

export function useChangeUsername(callbacks: MutationCallbacks<typeof changeUsername> = {}) {
  return useMutation({ mutationFn: changeUsername, ...useThenRefreshMe(callbacks) });
}

export function useChangePassword(callbacks: MutationCallbacks<typeof changePassword> = {}) {
  return useMutation({ mutationFn: changePassword, ...callbacks });
}

export function useStartTotpSetup(callbacks: MutationCallbacks<typeof startTotpSetup> = {}) {
  return useMutation({ mutationFn: startTotpSetup, ...callbacks });
}

export function useEnableTotp(callbacks: MutationCallbacks<typeof enableTotp> = {}) {
  return useMutation({ mutationFn: enableTotp, ...useThenRefreshMe(callbacks) });
}

export function useDisableTotp(callbacks: MutationCallbacks<typeof disableTotp> = {}) {
  return useMutation({ mutationFn: disableTotp, ...useThenRefreshMe(callbacks) });
}
