import { Checkbox, Group, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TaskFormApi } from './task-editor-page';

/** A chat's verdict: success, already-done and failure patterns read from the bot's answer. */
export function VerdictFields({ form, index }: { form: TaskFormApi; index: number }) {
  const { t } = useTranslation();
  const field = (name: string) => form.getInputProps(`chats.${index}.${name}`);
  const check = (name: string) => form.getInputProps(`chats.${index}.${name}`, { type: 'checkbox' });
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        {t('tasks.verdict.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('tasks.verdict.hint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" verticalSpacing="xs">
        <Textarea label={t('tasks.verdict.success')} placeholder={'签到成功\n/check.?in success/'} autosize minRows={2} maxRows={6} {...field('verdict_success')} />
        <Textarea label={t('tasks.verdict.alreadyDone')} placeholder={'已经签到\n今日已签'} autosize minRows={2} maxRows={6} {...field('verdict_already_done')} />
        <Textarea label={t('tasks.verdict.failure')} placeholder={'签到失败\n/error|failed/'} autosize minRows={2} maxRows={6} {...field('verdict_failure')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
        <NumberInput label={t('tasks.verdict.timeout')} placeholder="30" min={1} max={300} allowDecimal={false} allowNegative={false} {...field('verdict_timeout')} />
        <TextInput label={t('tasks.verdict.from')} description={t('tasks.verdict.fromHint')} placeholder="@checkin_bot" {...field('verdict_from')} />
      </SimpleGrid>
      <Group gap="md">
        <Checkbox label={t('tasks.verdict.aiFallback')} {...check('verdict_ai_fallback')} />
        <Checkbox label={t('tasks.verdict.rerunAfterWait')} {...check('verdict_rerun_after_wait')} />
      </Group>
    </Stack>
  );
}
