import { Anchor, AppShell, Burger, Group, NavLink as MantineNavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  icon?: ReactNode;
  /** A heading the item is listed under; consecutive items with the same group share it. */
  group?: string;
}

/** Consecutive items of the same group (or of none) together, in order. */
function navGroups(nav: readonly NavItem[]): Array<{ group: string | undefined; items: NavItem[] }> {
  const groups: Array<{ group: string | undefined; items: NavItem[] }> = [];
  for (const item of nav) {
    const last = groups[groups.length - 1];
    if (last && last.group === item.group) last.items.push(item);
    else groups.push({ group: item.group, items: [item] });
  }
  return groups;
}

export interface ShellProps {
  title: string;
  nav: readonly NavItem[];
  /** Controls at the right of the header (theme, language, user menu). */
  headerRight?: ReactNode;
  /** Shown at the bottom of the navigation. */
  navFooter?: ReactNode;
  children: ReactNode;
}

/**
 * The layout of every page: a header and a side navigation that becomes an off-canvas drawer
 * (behind a labelled burger button) below the `sm` breakpoint, and a main landmark with a skip link.
 */
export function Shell({ title, nav, headerRight, navFooter, children }: ShellProps) {
  const { t } = useTranslation('ui');
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(() => close(), [location.pathname, close]);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding={{ base: 'xs', sm: 'md' }}>
      <AppShell.Header>
        <Anchor href="#main" className="skip-link">
          {t('nav.skip')}
        </Anchor>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? t('nav.close') : t('nav.open')} aria-expanded={opened} />
            <Title order={1} size="h4" style={{ whiteSpace: 'nowrap' }}>
              {title}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap" visibleFrom="xs">
            {headerRight}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={title}>
        {/* The browser's own scrolling: Mantine's ScrollArea would add ~4 KB gzip to every page for a short list. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          <nav>
            {navGroups(nav).map(({ group, items }, index) => {
              const links = items.map((item) => (
                <MantineNavLink key={item.to} component={NavLink} to={item.to} onClick={close} label={item.label} leftSection={item.icon} active={location.pathname === item.to || location.pathname.startsWith(`${item.to}/`)} />
              ));
              if (!group) return <div key={`ungrouped-${index}`}>{links}</div>;
              const id = `nav-group-${index}`;
              return (
                <div key={id} role="group" aria-labelledby={id}>
                  <Text id={id} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                    {group}
                  </Text>
                  {links}
                </div>
              );
            })}
          </nav>
        </AppShell.Section>
        <AppShell.Section>
          <Stack gap="xs" pt="xs">
            <Group gap="xs" hiddenFrom="xs">
              {headerRight}
            </Group>
            {navFooter}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} style={{ minWidth: 0 }}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
