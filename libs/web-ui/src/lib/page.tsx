import { Group, Stack, Title } from '@mantine/core';
import { ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** A page: its heading (and the document title, "<page> · <appName>"), actions beside it, then the content. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  // `appName` is each app's own string (namespace `app`).
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('appName')}`;
  }, [title, t]);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2} size="h3">
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}
