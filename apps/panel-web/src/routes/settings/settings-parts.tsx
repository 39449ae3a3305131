import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Section({ title, intro, children, actions }: { title: string; intro?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card withBorder mb="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {title}
        </Title>
        {intro ? (
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        ) : null}
        {children}
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Stack>
    </Card>
  );
}

/** A test button for saved settings: while the form has unsaved changes it says to save first. */
export function TestButton({ label, dirty, loading, onClick, disabled }: { label: string; dirty: boolean; loading: boolean; onClick: () => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Button variant="light" loading={loading} disabled={dirty || disabled} onClick={onClick}>
        {label}
      </Button>
      {dirty ? (
        <Text size="xs" c="dimmed">
          {t('settings.saveFirst')}
        </Text>
      ) : null}
    </Stack>
  );
}

export function TestResult({ ok, title, children }: { ok: boolean; title: string; children?: ReactNode }) {
  return (
    <Alert color={ok ? 'teal' : 'red'} title={title} role="status" variant="light">
      {children ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {children}
        </Text>
      ) : null}
    </Alert>
  );
}

