import { Button } from '@mantine/core';
import { IconChartBar, IconHistory, IconActivityHeartbeat, IconInfoCircle, IconListCheck, IconSearch, IconSettings, IconUser, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { ColorSchemePicker, LanguagePicker, LoadingState, Shell } from '@shared/web-ui';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { logOut } from '../auth/log-out';
import { useSession } from '../auth/session';

/** The pages behind the login: the shell, and a redirect to /login (then back) without a token. */
export function AuthenticatedLayout() {
  const { t } = useTranslation();
  const { token, expiredFrom } = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  if (!token) {
    const next = expiredFrom ?? `${location.pathname}${location.search}`;
    const params = new URLSearchParams({ next });
    if (expiredFrom) params.set('expired', '1');
    return <Navigate to={`/login?${params.toString()}`} replace />;
  }
  const icon = { size: 18, stroke: 1.6, 'aria-hidden': true } as const;
  const nav = [
    { to: '/dashboard', label: t('nav.dashboard'), icon: <IconChartBar {...icon} /> },
    { to: '/accounts', label: t('nav.accounts'), icon: <IconUsers {...icon} /> },
    { to: '/tasks', label: t('nav.tasks'), icon: <IconListCheck {...icon} /> },
    { to: '/hits', label: t('nav.hits'), icon: <IconSearch {...icon} /> },
    { to: '/history', label: t('nav.history'), icon: <IconHistory {...icon} /> },
    { to: '/settings', label: t('nav.settings'), icon: <IconSettings {...icon} /> },
    { to: '/profile', label: t('nav.profile'), icon: <IconUser {...icon} /> },
    { to: '/system', label: t('nav.system'), icon: <IconActivityHeartbeat {...icon} /> },
    { to: '/about', label: t('nav.about'), icon: <IconInfoCircle {...icon} /> },
  ];
  const available = new Set(['/dashboard', '/accounts', '/tasks', '/hits', '/history', '/settings', '/profile', '/system', '/about']);
  return (
    <Shell
      title={t('appName')}
      nav={nav.filter((item) => available.has(item.to))}
      headerRight={
        <>
          <ColorSchemePicker />
          <LanguagePicker />
        </>
      }
      navFooter={
        <Button
          variant="subtle"
          size="xs"
          onClick={() => {
            void logOut();
            queryClient.clear();
          }}
        >
          {t('common.logOut')}
        </Button>
      }
    >
      <Suspense fallback={<LoadingState />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}
