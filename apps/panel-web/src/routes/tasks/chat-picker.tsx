import { Badge, ComboboxParsedItem, Group, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useErrorMessage } from '@shared/web-ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { AccountChat, useAccountChatsQuery } from './tasks-api';
import type { TaskFormApi } from './task-editor-page';

type Account = Schemas['AccountListDto']['accounts'][number];

/** Whether the service holds a working session of the account (its chat list can be read). */
export function isConnected(account: Account): boolean {
  return account.has_session && !account.needs_relogin && account.status !== 'invalid';
}

/** The account whose chats the picker offers: the first chosen one that is connected (any connected one for "all accounts"). */
export function pickerAccount(accounts: readonly Account[], chosen: readonly string[], all: boolean): { name?: string; reason?: 'none_chosen' | 'offline' } {
  const candidates = all ? accounts : chosen.map((name) => accounts.find((account) => account.account_name === name)).filter((account): account is Account => account !== undefined);
  if (candidates.length === 0) return { reason: 'none_chosen' };
  const connected = candidates.find(isConnected);
  return connected ? { name: connected.account_name } : { reason: 'offline' };
}

/**
 * A searchable list of the account's chats: choosing one fills the chat id and (when empty) the label.
 * Typing an id by hand below stays possible; when the list cannot be read, a sentence says so.
 */
export function ChatPicker({ form, index, account }: { form: TaskFormApi; index: number; account: string }) {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<AccountChat | null>(null);
  // After a choice the box shows the chat's title: that is not a new search.
  const [q] = useDebouncedValue(picked && search === picked.title ? '' : search.trim().slice(0, 64), 300);
  const chats = useAccountChatsQuery(account, q);
  const byId = useMemo(() => new Map((chats.data?.chats ?? []).map((chat) => [chat.id, chat])), [chats.data]);
  const chatId = form.values.chats[index]?.chat_id ?? '';
  const data = useMemo(() => {
    const list = [...byId.values()];
    if (picked && !byId.has(picked.id)) list.unshift(picked);
    return list.map((chat) => ({ value: chat.id, label: chat.title }));
  }, [byId, picked]);
  const known = (id: string) => byId.get(id) ?? (picked?.id === id ? picked : undefined);

  const filter = ({ options, search: typed }: { options: ComboboxParsedItem[]; search: string }) => {
    const needle = typed.trim().toLowerCase().replace(/^@/, '');
    if (!needle || (picked && typed === picked.title)) return options;
    return options.filter((option) => {
      if (!('value' in option)) return false;
      const chat = known(option.value);
      return option.label.toLowerCase().includes(needle) || option.value.includes(needle) || (chat?.username?.toLowerCase().includes(needle) ?? false);
    });
  };

  if (chats.isError) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('tasks.editor.pickChatFailed', { account })} {describeError(chats.error)}
      </Text>
    );
  }
  // Nothing to list is said under the field, not as an empty list: an open listbox without options
  // is an accessibility violation (axe: aria-required-children), so Mantine hides the dropdown then.
  const nothingListed = search.trim() !== '' && !(picked && search === picked.title) && filter({ options: data, search }).length === 0;
  const description = chats.data?.truncated
    ? t('tasks.editor.pickChatTruncated')
    : nothingListed
      ? t(chats.isFetching ? 'tasks.editor.pickChatLoading' : 'tasks.editor.pickChatNone')
      : t('tasks.editor.pickChatHint');
  return (
    <Select
      label={t('tasks.editor.pickChat', { account })}
      description={description}
      placeholder={chats.isPending ? t('tasks.editor.pickChatLoading') : t('tasks.editor.pickChatPlaceholder')}
      data={data}
      value={known(chatId) ? chatId : null}
      searchable
      clearable={false}
      searchValue={search}
      onSearchChange={setSearch}
      filter={filter}
      renderOption={({ option }) => {
        const chat = known(option.value);
        return (
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {option.label}
              {chat?.username ? <Text span size="xs" c="dimmed">{` @${chat.username}`}</Text> : null}
            </Text>
            {chat ? (
              <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                {t(`tasks.editor.chatKinds.${chat.kind}`)}
              </Badge>
            ) : null}
          </Group>
        );
      }}
      onChange={(id) => {
        const chat = id === null ? undefined : known(id);
        if (!chat) return;
        setPicked(chat);
        form.setFieldValue(`chats.${index}.chat_id`, chat.id);
        if (!form.getValues().chats[index]?.name.trim()) form.setFieldValue(`chats.${index}.name`, chat.title);
      }}
    />
  );
}
