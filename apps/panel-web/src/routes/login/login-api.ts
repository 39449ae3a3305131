import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { MutationCallbacks } from '../../components/hooks';

export interface LoginValues {
  username: string;
  password: string;
  /** Empty unless the account has TOTP on (then sent as totp_code). */
  totp_code: string;
}

const logIn = (values: LoginValues) =>
  unwrap(api.POST('/api/auth/login', { body: { username: values.username.trim(), password: values.password, ...(values.totp_code ? { totp_code: values.totp_code } : {}) } }));

/** Signs in; the page stores the token and reacts to throttling and to a TOTP request. */
export function useLogIn(callbacks: MutationCallbacks<typeof logIn> = {}) {
  return useMutation({ mutationFn: logIn, ...callbacks });
}
