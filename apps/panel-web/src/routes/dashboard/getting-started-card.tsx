import { Anchor, Badge, Button, Card, Collapse, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccountListQuery, useChannelTestsQuery, useSettingsQuery, useTaskListQuery } from '../../components/hooks';
import { setupSteps } from './getting-started';

/**
 * "Getting started" on the dashboard of a new install: Telegram API credentials, a first account, a
 * first task and a tested notification, each read from the service and linking to where it is done.
 * Gone once every step is done; the person can fold it away meanwhile.
 */
export function GettingStartedCard() {
  const { t } = useTranslation();
  const settings = useSettingsQuery();
  const accounts = useAccountListQuery();
  const tasks = useTaskListQuery();
  const tests = useChannelTestsQuery();
  const [open, setOpen] = useState(true);
  const listId = useId();
  if (!settings.data || !accounts.data || !tasks.data || !tests.data) return null;
  const steps = setupSteps({
    telegramApiId: settings.data.telegram_api_id,
    telegramApiHashSet: settings.data.telegram_api_hash_set,
    accounts: accounts.data.total,
    tasks: tasks.data.total,
    notificationTested: tests.data.tests.some((test) => test.ok),
  });
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  const next = steps.find((step) => !step.done);
  return (
    <Card withBorder component="section" aria-labelledby={`${listId}-title`}>
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={2} size="h4" id={`${listId}-title`}>
          {t('dashboard.setup.title')}
        </Title>
        <Group gap="xs">
          <Badge variant="light" style={{ flexShrink: 0 }}>
            {t('dashboard.setup.progress', { done, total: steps.length })}
          </Badge>
          <Button variant="subtle" size="xs" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((current) => !current)}>
            {open ? t('dashboard.setup.hide') : t('dashboard.setup.show')}
          </Button>
        </Group>
      </Group>
      <Progress value={(done / steps.length) * 100} size="sm" mb="sm" aria-label={t('dashboard.setup.progress', { done, total: steps.length })} />
      <Collapse expanded={open}>
        <Stack gap="sm" component="ol" id={listId} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {steps.map((step, index) => (
            <Group key={step.id} component="li" wrap="nowrap" align="flex-start" gap="sm">
              <ThemeIcon radius="xl" size="md" variant={step.done ? 'filled' : 'light'} color={step.done ? 'teal' : 'gray'} aria-hidden>
                {step.done ? <IconCheck size={16} /> : <Text size="xs" fw={700}>{index + 1}</Text>}
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} td={step.done ? 'line-through' : undefined}>
                  {t(`dashboard.setup.steps.${step.id}.title`)}
                  <Text span size="xs" c="dimmed" fw={400} style={{ whiteSpace: 'nowrap' }}>
                    {' '}
                    ({step.done ? t('dashboard.setup.done') : t('dashboard.setup.todo')})
                  </Text>
                </Text>
                {step.done ? null : (
                  <>
                    <Text size="sm" c="dimmed">
                      {t(`dashboard.setup.steps.${step.id}.hint`)}
                    </Text>
                    {step === next ? (
                      <Button component={Link} to={step.to} size="xs" mt={6}>
                        {t(`dashboard.setup.steps.${step.id}.action`)}
                      </Button>
                    ) : (
                      <Anchor component={Link} to={step.to} size="sm">
                        {t(`dashboard.setup.steps.${step.id}.action`)}
                      </Anchor>
                    )}
                  </>
                )}
              </div>
            </Group>
          ))}
        </Stack>
      </Collapse>
    </Card>
  );
}
