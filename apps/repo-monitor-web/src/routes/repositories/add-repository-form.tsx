import { Alert, Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, toast, useErrorMessage } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { parseFullName } from './repository-filter';

/** The reasons POST /api/v1/repositories gives in details.reason, each with its own sentence. */
const REFUSAL_REASONS = ['no_token', 'not_found', 'limit', 'unreachable', 'rate_limited', 'token_rejected', 'github_error'] as const;

/**
 * Adds an external public repository: explained instead of offered while MONITOR_EXTERNAL_PAT is
 * unset; shows "n of 20", is disabled at the cap, and says why GitHub refused, on the field.
 */
export function AddRepositoryForm() {
  const { t } = useTranslation();
  const describe = useErrorMessage();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const access = useQuery({
    queryKey: ['repositories', 'external-access'],
    queryFn: () => unwrap(api.GET('/api/v1/repositories/external')),
  });
  const add = useMutation({
    mutationFn: (fullName: string) => unwrap(api.POST('/api/v1/repositories', { body: { full_name: fullName } })),
    onSuccess: (repository) => {
      toast.success(t('repositories.added', { name: repository.full_name }));
      setValue('');
      void queryClient.invalidateQueries({ queryKey: ['repositories'] });
    },
  });
  const refusal = (error: unknown, fullName: string): string => {
    if (!(error instanceof ApiError)) return describe(error);
    const reason = error.details?.['reason'];
    if (typeof reason === 'string' && (REFUSAL_REASONS as readonly string[]).includes(reason)) {
      if (reason === 'rate_limited' && error.retryAfterSeconds !== undefined) {
        return t('repositories.refused.rate_limited_for', { count: Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) });
      }
      return t(`repositories.refused.${reason}`, { name: fullName, max: access.data?.limit ?? 20 });
    }
    if (error.status === 400) return t('repositories.addInvalid');
    return describe(error);
  };
  const limit = access.data?.limit ?? 20;
  const atCap = access.data !== undefined && access.data.count >= access.data.limit;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fullName = parseFullName(value);
    setInvalid(!fullName);
    if (fullName) add.mutate(fullName);
  };
  const heading = (
    <Title order={2} size="h4" id="add-repository-title">
      {t('repositories.addTitle')}
    </Title>
  );
  if (access.data && !access.data.token_configured) {
    return (
      <section aria-labelledby="add-repository-title">
        <Stack gap="xs">
          {heading}
          <Alert color="blue" role="status" title={t('repositories.noTokenTitle')}>
            <Text size="sm">
              {t('repositories.noTokenBefore')} <Code>MONITOR_EXTERNAL_PAT</Code> {t('repositories.noTokenAfter')}
            </Text>
          </Alert>
        </Stack>
      </section>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby="add-repository-title">
      <Stack gap="xs">
        {heading}
        <Text size="sm" c="dimmed">
          {t('repositories.addHelp')}{' '}
          {access.data !== undefined ? t('repositories.externalCount', { count: access.data.count, max: limit }) : null}
        </Text>
        {atCap ? (
          <Alert color="yellow" role="status">
            {t('repositories.atCap', { max: limit })}
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
            error={invalid ? t('repositories.addInvalid') : add.isError ? refusal(add.error, add.variables ?? value) : undefined}
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
