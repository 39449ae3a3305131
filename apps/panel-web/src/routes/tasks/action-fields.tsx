import { ActionIcon, Button, Checkbox, Group, NativeSelect, NumberInput, Paper, PasswordInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TaskFormApi } from './task-editor-page';
import { ActionForm, ActionNumber, emptyAction, LIMITS, MATCH_MODES, PUSH_CHANNELS, SETTINGS_PUSH_CHANNELS } from './task-form';

type Context = 'sign' | 'listen' | 'follow_up';

/** The animated emoji Telegram's sendDice accepts (any other is refused). */
export const TELEGRAM_DICE = [
  { emoji: '🎲', name: 'dice' },
  { emoji: '🎯', name: 'darts' },
  { emoji: '🏀', name: 'basketball' },
  { emoji: '⚽', name: 'football' },
  { emoji: '🎳', name: 'bowling' },
  { emoji: '🎰', name: 'slots' },
] as const;

/** Reads a nested list of the form by its path (`chats.0.actions`, `chats.0.actions.1.continue_actions`). */
function listAt(form: TaskFormApi, path: string): ActionForm[] {
  let value: unknown = form.values;
  for (const part of path.split('.')) value = (value as Record<string, unknown>)[part];
  return value as ActionForm[];
}

/** The actions of a chat (or the follow-ups of a listen rule): add, remove, reorder, edit each. */
export function ActionList({ form, path, context, kinds, followUpKinds }: { form: TaskFormApi; path: string; context: Context; kinds: readonly ActionNumber[]; followUpKinds: readonly ActionNumber[] }) {
  const { t } = useTranslation();
  const actions = listAt(form, path);
  const label = (index: number) =>
    context === 'listen' ? t('tasks.editor.rule', { index }) : context === 'follow_up' ? t('tasks.editor.followUp', { index }) : t('tasks.editor.action', { index });
  const removeLabel = (index: number) => (context === 'follow_up' ? t('tasks.editor.removeFollowUp', { index }) : t('tasks.editor.removeAction', { index }));
  const listError = form.errors[path];
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {context === 'listen' ? t('tasks.editor.rules') : context === 'follow_up' ? t('tasks.editor.followUps') : t('tasks.editor.actions')}
      </Text>
      {actions.map((action, index) => (
        <Paper key={index} withBorder p="xs" bg="var(--mantine-color-default-hover)" style={{ minWidth: 0 }}>
          <Stack gap="xs">
            <Group justify="space-between" gap={4} wrap="nowrap">
              <Text size="sm" fw={500}>
                {label(index + 1)}
              </Text>
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="subtle" size="lg" disabled={index === 0} aria-label={t('tasks.editor.moveUp', { index: index + 1 })} onClick={() => form.reorderListItem(path, { from: index, to: index - 1 })}>
                  <IconArrowUp size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  size="lg"
                  disabled={index === actions.length - 1}
                  aria-label={t('tasks.editor.moveDown', { index: index + 1 })}
                  onClick={() => form.reorderListItem(path, { from: index, to: index + 1 })}
                >
                  <IconArrowDown size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" size="lg" disabled={actions.length === 1 && context !== 'follow_up'} aria-label={removeLabel(index + 1)} onClick={() => form.removeListItem(path, index)}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
            <ActionFields form={form} path={`${path}.${index}`} action={action} context={context} kinds={kinds} followUpKinds={followUpKinds} />
          </Stack>
        </Paper>
      ))}
      {listError ? (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} aria-hidden />}
          disabled={actions.length >= LIMITS.actionsPerChat}
          onClick={() => form.insertListItem(path, emptyAction(context === 'listen' ? 8 : 1))}
        >
          {context === 'listen' ? t('tasks.editor.addRule') : context === 'follow_up' ? t('tasks.editor.addFollowUp') : t('tasks.editor.addAction')}
        </Button>
      </Group>
    </Stack>
  );
}

function ActionFields({ form, path, action, context, kinds, followUpKinds }: { form: TaskFormApi; path: string; action: ActionForm; context: Context; kinds: readonly ActionNumber[]; followUpKinds: readonly ActionNumber[] }) {
  const { t } = useTranslation();
  const field = (name: keyof ActionForm) => form.getInputProps(`${path}.${name}`);
  const check = (name: keyof ActionForm) => form.getInputProps(`${path}.${name}`, { type: 'checkbox' });
  const typeField = field('action');
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
        {kinds.length > 1 ? (
          <NativeSelect
            label={t('tasks.editor.actionType')}
           
            data={kinds.map((kind) => ({ value: String(kind), label: t(`tasks.editor.actionTypes.${kind}`) }))}
            value={String(action.action)}
            error={typeField.error}
            onChange={(event) => {
              const kind = Number(event.currentTarget.value) as ActionNumber;
              form.setFieldValue(`${path}.action`, kind);
              if (kind === 2 && !action.dice) form.setFieldValue(`${path}.dice`, '🎲');
            }}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t(`tasks.editor.actionTypes.${action.action}`)}
            {typeField.error ? (
              <Text span c="red" size="sm" role="alert">
                {' '}
                {typeField.error}
              </Text>
            ) : null}
          </Text>
        )}
        {action.action !== 8 ? <TextInput label={t('tasks.editor.delay')} description={t('tasks.editor.delayHint')} {...field('delay')} /> : null}
      </SimpleGrid>

      {action.action === 1 ? (
        <>
          <Textarea label={t('tasks.editor.text')} autosize minRows={1} maxRows={6} maxLength={LIMITS.textLength} description={context === 'follow_up' ? t('tasks.editor.templateHint') : undefined} {...field('text')} />
          {context === 'follow_up' ? (
            <>
              <TextInput label={t('tasks.editor.searchRegex')} ff="monospace" {...field('send_text_search_regex')} />
              <Checkbox label={t('tasks.editor.aiReply')} {...check('ai_reply')} />
              {action.ai_reply ? <Textarea label={t('tasks.editor.aiReplyPrompt')} autosize minRows={1} maxRows={6} {...field('ai_prompt')} /> : null}
            </>
          ) : null}
        </>
      ) : null}
      {action.action === 2 ? (
        <NativeSelect
          label={t('tasks.editor.dice')}
          description={t('tasks.editor.diceHint')}
          w={{ base: '100%', sm: 260 }}
          data={[
            ...(TELEGRAM_DICE.some((entry) => entry.emoji === action.dice) || !action.dice ? [] : [{ value: action.dice, label: action.dice }]),
            ...TELEGRAM_DICE.map((entry) => ({ value: entry.emoji, label: `${entry.emoji} ${t(`tasks.editor.diceNames.${entry.name}`)}` })),
          ]}
          {...field('dice')}
        />
      ) : null}
      {action.action === 3 ? <TextInput label={t('tasks.editor.buttonText')} {...field('text')} /> : null}
      {(action.action === 3 || action.action === 7) && context !== 'listen' ? <Checkbox label={t('tasks.editor.fromReply')} description={t('tasks.editor.fromReplyHint')} {...check('from_reply')} /> : null}
      {action.action >= 4 && action.action <= 7 ? <Textarea label={t('tasks.editor.aiPrompt')} autosize minRows={1} maxRows={6} {...field('ai_prompt')} /> : null}
      {action.action === 9 ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
          <TextInput label={t('tasks.editor.botUsername')} {...field('bot_username')} />
          <TextInput label={t('tasks.editor.commandPrefix')} {...field('command_prefix')} />
          <TextInput label={t('tasks.editor.startParam')} {...field('start_param')} />
          <NumberInput label={t('tasks.editor.maxBatch')} min={1} max={20} allowDecimal={false} allowNegative={false} {...field('max_batch')} />
        </SimpleGrid>
      ) : null}
      {action.action === 8 ? <ListenRuleFields form={form} path={path} action={action} followUpKinds={followUpKinds} /> : null}
    </Stack>
  );
}

function ListenRuleFields({ form, path, action, followUpKinds }: { form: TaskFormApi; path: string; action: ActionForm; followUpKinds: readonly ActionNumber[] }) {
  const { t } = useTranslation();
  const field = (name: keyof ActionForm) => form.getInputProps(`${path}.${name}`);
  const check = (name: keyof ActionForm) => form.getInputProps(`${path}.${name}`, { type: 'checkbox' });
  return (
    <Stack gap="xs">
      <Textarea label={t('tasks.editor.keywords')} description={t('tasks.editor.keywordsHint')} autosize minRows={2} maxRows={8} {...field('keywords')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
        <NativeSelect label={t('tasks.editor.matchMode')} data={MATCH_MODES.map((mode) => ({ value: mode, label: t(`tasks.editor.matchModes.${mode}`) }))} {...field('match_mode')} />
        <TextInput label={t('tasks.editor.senderFilter')} description={t('tasks.editor.senderFilterHint')} {...field('sender_filter')} />
      </SimpleGrid>
      <Group gap="md">
        <Checkbox label={t('tasks.editor.ignoreCase')} {...check('ignore_case')} />
        <Checkbox label={t('tasks.editor.ignoreSelf')} {...check('ignore_self')} />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
        <TextInput label={t('tasks.editor.activeStart')} placeholder="08:00" {...field('active_time_start')} />
        <TextInput label={t('tasks.editor.activeEnd')} placeholder="23:30" {...field('active_time_end')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs" verticalSpacing="xs">
        <NumberInput label={t('tasks.editor.ruleCooldown')} min={0} max={86_400} allowDecimal={false} allowNegative={false} {...field('cooldown')} />
        <NumberInput label={t('tasks.editor.ruleProbability')} min={0} max={1} step={0.1} decimalScale={3} allowNegative={false} {...field('probability')} />
        <NumberInput label={t('tasks.editor.ruleMaxDaily')} min={1} max={100_000} allowDecimal={false} allowNegative={false} {...field('max_daily')} />
      </SimpleGrid>
      <Textarea label={t('tasks.editor.excludeUserIds')} description={t('tasks.editor.excludeUserIdsHint')} autosize minRows={1} maxRows={6} {...field('exclude_user_ids')} />
      <NativeSelect label={t('tasks.editor.pushChannel')} data={PUSH_CHANNELS.map((channel) => ({ value: channel, label: t(`tasks.editor.pushChannels.${channel}`) }))} {...field('push_channel')} />
      {action.push_channel === 'forward' ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
          <TextInput label={t('tasks.editor.forwardChat')} description={t('tasks.editor.chatIdHint')} {...field('forward_chat_id')} />
          <NumberInput label={t('tasks.editor.forwardThread')} min={1} allowDecimal={false} allowNegative={false} {...field('forward_message_thread_id')} />
        </SimpleGrid>
      ) : null}
      {action.push_channel === 'bark' ? <TextInput label={t('tasks.editor.barkUrl')} type="url" placeholder="https://api.day.app/…" {...field('bark_url')} /> : null}
      {action.push_channel === 'custom' ? <TextInput label={t('tasks.editor.customUrl')} type="url" placeholder="https://" {...field('custom_url')} /> : null}
      {(SETTINGS_PUSH_CHANNELS as readonly string[]).includes(action.push_channel) ? (
        <Text size="sm" c="dimmed">
          {t('tasks.editor.settingsChannelHint')}
        </Text>
      ) : null}
      {action.push_channel === 'server_chan' ? <PasswordInput label={t('tasks.editor.serverChanKey')} autoComplete="off" {...field('server_chan_key')} /> : null}
      {action.push_channel === 'continue' ? (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
            <TextInput label={t('tasks.editor.continueChat')} description={t('tasks.editor.chatIdHint')} {...field('continue_chat_id')} />
            <NumberInput label={t('tasks.editor.continueThread')} min={1} allowDecimal={false} allowNegative={false} {...field('continue_message_thread_id')} />
          </SimpleGrid>
          <NumberInput label={t('tasks.editor.continueDeleteAfter')} min={0} max={604_800} allowDecimal={false} allowNegative={false} {...field('continue_delete_after')} />
          <ActionList form={form} path={`${path}.continue_actions`} context="follow_up" kinds={followUpKinds} followUpKinds={followUpKinds} />
        </Stack>
      ) : null}
    </Stack>
  );
}
