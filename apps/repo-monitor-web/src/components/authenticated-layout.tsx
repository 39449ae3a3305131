import { Button, Text } from '@mantine/core';
import { IconActivity, IconBell, IconBrandGithub, IconChartBar, IconChartLine, IconGitBranch, IconGitPullRequest, IconInbox, IconInfoCircle, IconKey, IconListDetails, IconPlayerPlay, IconRefreshAlert, IconRobot, IconRoute, IconSettings, IconShieldExclamation, IconStar, IconTemplate, IconUser, IconWebhook } from '@tabler/icons-react';
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
  // The navigation, grouped: what happened, how it reaches people, what it is connected to, the admin's own pages.
  const activity = t('nav.groups.activity');
  const delivery = t('nav.groups.delivery');
  const integrations = t('nav.groups.integrations');
  const admin = t('nav.groups.admin');
  const nav = [
    { to: '/dashboard', label: t('nav.dashboard'), icon: <IconChartBar {...icon} /> },
    { to: '/events', label: t('nav.events'), icon: <IconActivity {...icon} />, group: activity },
    { to: '/repositories', label: t('nav.repositories'), icon: <IconGitBranch {...icon} />, group: activity },
    { to: '/work-items', label: t('nav.workItems'), icon: <IconGitPullRequest {...icon} />, group: activity },
    { to: '/workflow-runs', label: t('nav.workflowRuns'), icon: <IconPlayerPlay {...icon} />, group: activity },
    { to: '/security-alerts', label: t('nav.securityAlerts'), icon: <IconShieldExclamation {...icon} />, group: activity },
    { to: '/releases', label: t('nav.releases'), icon: <IconStar {...icon} />, group: activity },
    { to: '/deliveries', label: t('nav.deliveries'), icon: <IconWebhook {...icon} />, group: delivery },
    { to: '/recovered-deliveries', label: t('nav.recoveredDeliveries'), icon: <IconRefreshAlert {...icon} />, group: delivery },
    { to: '/channels', label: t('nav.channels'), icon: <IconBell {...icon} />, group: delivery },
    { to: '/rules', label: t('nav.rules'), icon: <IconRoute {...icon} />, group: delivery },
    { to: '/templates', label: t('nav.templates'), icon: <IconTemplate {...icon} />, group: delivery },
    { to: '/outbox', label: t('nav.outbox'), icon: <IconInbox {...icon} />, group: delivery },
    { to: '/github-app', label: t('nav.githubApp'), icon: <IconBrandGithub {...icon} />, group: integrations },
    { to: '/ai', label: t('nav.ai'), icon: <IconRobot {...icon} />, group: integrations },
    { to: '/agent-access', label: t('nav.agentAccess'), icon: <IconKey {...icon} />, group: integrations },
    { to: '/prometheus', label: t('nav.prometheus'), icon: <IconChartLine {...icon} />, group: integrations },
    { to: '/settings', label: t('nav.settings'), icon: <IconSettings {...icon} />, group: admin },
    { to: '/audit-log', label: t('nav.auditLog'), icon: <IconListDetails {...icon} />, group: admin },
    { to: '/account', label: t('nav.account'), icon: <IconUser {...icon} />, group: admin },
    { to: '/about', label: t('nav.about'), icon: <IconInfoCircle {...icon} />, group: admin },
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
