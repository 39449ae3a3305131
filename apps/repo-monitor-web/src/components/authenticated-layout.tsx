import { Button, Text } from '@mantine/core';
import { IconActivity, IconBell, IconBrandGithub, IconChartBar, IconChartLine, IconGitBranch, IconGitPullRequest, IconInbox, IconInfoCircle, IconKey, IconListDetails, IconPlayerPlay, IconRefreshAlert, IconRobot, IconRoute, IconSettings, IconShieldExclamation, IconStar, IconUser } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ColorSchemePicker, LanguagePicker, LoadingState, Shell, toast } from '@shared/web-ui';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { api, unwrap } from '../api/client';
import { session, useSession } from '../auth/session';

/** The pages behind the sign-in: the shell, and a redirect to /login (then back) when signed out. */
export function AuthenticatedLayout() {
  const { t } = useTranslation();
  const { csrfToken, expiredFrom } = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  // Who is signed in; a 401 here (the cookie expired or was revoked) ends the session in the client.
  const current = useQuery({ queryKey: ['auth', 'session'], queryFn: () => unwrap(api.GET('/api/v1/auth/session')), enabled: csrfToken !== null, staleTime: 60_000 });
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/logout')),
    onSuccess: () => {
      session.signOut();
      queryClient.clear();
      toast.success(t('common.signedOut'));
    },
    onError: (error) => toast.error(error),
  });
  if (!csrfToken) {
    const next = expiredFrom ?? `${location.pathname}${location.search}`;
    const params = new URLSearchParams({ next });
    if (expiredFrom) params.set('expired', '1');
    return <Navigate to={`/login?${params.toString()}`} replace />;
  }
  const icon = { size: 18, stroke: 1.6, 'aria-hidden': true } as const;
  const nav = [
    { to: '/dashboard', label: t('nav.dashboard'), icon: <IconChartBar {...icon} /> },
    { to: '/repositories', label: t('nav.repositories'), icon: <IconGitBranch {...icon} /> },
    { to: '/work-items', label: t('nav.workItems'), icon: <IconGitPullRequest {...icon} /> },
    { to: '/workflow-runs', label: t('nav.workflowRuns'), icon: <IconPlayerPlay {...icon} /> },
    { to: '/security-alerts', label: t('nav.securityAlerts'), icon: <IconShieldExclamation {...icon} /> },
    { to: '/events', label: t('nav.events'), icon: <IconActivity {...icon} /> },
    { to: '/channels', label: t('nav.channels'), icon: <IconBell {...icon} /> },
    { to: '/rules', label: t('nav.rules'), icon: <IconRoute {...icon} /> },
    { to: '/outbox', label: t('nav.outbox'), icon: <IconInbox {...icon} /> },
    { to: '/recovered-deliveries', label: t('nav.recoveredDeliveries'), icon: <IconRefreshAlert {...icon} /> },
    { to: '/releases', label: t('nav.releases'), icon: <IconStar {...icon} /> },
    { to: '/github-app', label: t('nav.githubApp'), icon: <IconBrandGithub {...icon} /> },
    { to: '/ai', label: t('nav.ai'), icon: <IconRobot {...icon} /> },
    { to: '/settings', label: t('nav.settings'), icon: <IconSettings {...icon} /> },
    { to: '/agent-access', label: t('nav.agentAccess'), icon: <IconKey {...icon} /> },
    { to: '/prometheus', label: t('nav.prometheus'), icon: <IconChartLine {...icon} /> },
    { to: '/audit-log', label: t('nav.auditLog'), icon: <IconListDetails {...icon} /> },
    { to: '/account', label: t('nav.account'), icon: <IconUser {...icon} /> },
    { to: '/about', label: t('nav.about'), icon: <IconInfoCircle {...icon} /> },
  ];
  return (
    <Shell
      title={t('appName')}
      nav={nav}
      headerRight={
        <>
          <ColorSchemePicker />
          <LanguagePicker />
        </>
      }
      navFooter={
        <>
          {current.data ? (
            <Text size="xs" c="dimmed" truncate>
              {t('common.signedInAs', { username: current.data.username })}
            </Text>
          ) : null}
          <Button variant="subtle" size="xs" loading={signOut.isPending} onClick={() => signOut.mutate()}>
            {t('common.signOut')}
          </Button>
        </>
      }
    >
      <Suspense fallback={<LoadingState />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}
