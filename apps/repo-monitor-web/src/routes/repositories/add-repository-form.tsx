import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, toast } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { MAX_EXTERNAL_REPOSITORIES, parseFullName } from './repository-filter';

/** Adds an external public repository; shows "n of 20", is disabled at the cap and shows the API's 400/409 message. */
export function AddRepositoryForm({ externalCount }: { externalCount: number | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const add = useMutation({
    mutationFn: (fullName: string) => unwrap(api.POST('/api/v1/repositories', { body: { full_name: fullName } })),
    onSuccess: (repository) => {
      toast.success(t('repositories.added', { name: repository.full_name }));
      setValue('');
      void queryClient.invalidateQueries({ queryKey: ['repositories'] });
    },
  });
  const atCap = externalCount !== undefined && externalCount >= MAX_EXTERNAL_REPOSITORIES;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fullName = parseFullName(value);
    setInvalid(!fullName);
    if (fullName) add.mutate(fullName);
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-repository-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="add-repository-title">
          {t('repositories.addTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('repositories.addHelp')}{' '}
          {externalCount !== undefined
            ? t('repositories.externalCount', {
                count: externalCount,
                max: MAX_EXTERNAL_REPOSITORIES,
              })
            : null}
        </Text>
        {atCap ? (
          <Alert color="yellow" role="status">
            {t('repositories.atCap', { max: MAX_EXTERNAL_REPOSITORIES })}
          </Alert>
        ) : null}
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label={t('repositories.addLabel')}
            placeholder="octocat/Hello-World"
            value={value}
            maxLength={300}
            disabled={atCap}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setInvalid(false);
              add.reset();
            }}
            error={invalid ? t('repositories.addInvalid') : add.isError ? errorMessage(add.error) : undefined}
            style={{ flex: '1 1 14rem', minWidth: 0 }}
          />
          <Button type="submit" disabled={atCap} loading={add.isPending}>
            {t('repositories.addButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
