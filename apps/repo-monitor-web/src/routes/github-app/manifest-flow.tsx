import { Alert, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@shared/web-ui';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, Schemas, unwrap } from '../../api/client';

/** Reasons the service's callback gives in `?manifest=error&reason=…`; the page names each in words. */
export const MANIFEST_ERRORS = [
  'invalid_request',
  'session_required',
  'invalid_state',
  'state_expired',
  'fields_locked',
  'encryption_unavailable',
  'code_refused',
  'github_unreachable',
  'unexpected_answer',
  'invalid_key',
] as const;

/** The outcome GitHub's redirect brought back to this page, if any. */
export function manifestOutcome(params: URLSearchParams): { kind: 'created'; slug: string | null } | { kind: 'error'; reason: string } | null {
  const state = params.get('manifest');
  if (state === 'created') return { kind: 'created', slug: params.get('app_slug') };
  if (state === 'error') {
    const reason = params.get('reason') ?? '';
    return { kind: 'error', reason: (MANIFEST_ERRORS as readonly string[]).includes(reason) ? reason : 'unknown' };
  }
  return null;
}

/**
 * GitHub's App manifest flow: GitHub only takes the manifest as a form POSTed by the browser itself
 * (a top-level navigation), so the page builds that form and submits it; GitHub then sends the
 * browser back to the service, which stores the App and returns here with the outcome.
 */
export function postManifest(start: Schemas['ManifestFlowStartDto']): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = start.post_url;
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'manifest';
  field.value = JSON.stringify(start.manifest);
  form.append(field);
  document.body.append(form);
  form.submit();
}

export function ManifestOutcome() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const outcome = manifestOutcome(params);
  if (!outcome) return null;
  const dismiss = () => setParams({}, { replace: true });
  return outcome.kind === 'created' ? (
    <Alert color="teal" variant="light" title={t('githubApp.manifest.created')} withCloseButton closeButtonLabel={t('common.close')} onClose={dismiss} role="status">
      {outcome.slug ? t('githubApp.manifest.createdText', { slug: outcome.slug }) : t('githubApp.manifest.createdTextNoSlug')}
    </Alert>
  ) : (
    <Alert color="red" variant="light" title={t('githubApp.manifest.failed')} withCloseButton closeButtonLabel={t('common.close')} onClose={dismiss} role="alert">
      {t(`githubApp.manifest.reason.${outcome.reason}`)}
    </Alert>
  );
}

/** "Create GitHub App": name and organization (both optional), then off to GitHub. */
export function ManifestFlowForm({ lockedFields, publicBaseUrl }: { lockedFields: readonly string[]; publicBaseUrl: string | null }) {
  const { t } = useTranslation();
  const [organization, setOrganization] = useState('');
  const [name, setName] = useState('');
  const [prComments, setPrComments] = useState(false);
  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/github/app/manifest', {
          body: { ...(organization.trim() ? { organization: organization.trim() } : {}), ...(name.trim() ? { name: name.trim() } : {}), allow_pr_comments: prComments },
        }),
      ),
    onSuccess: (result) => postManifest(result),
    onError: (error) => toast.error(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate();
  };
  // The service refuses while the environment sets a credential (the public base URL may come from it).
  if (lockedFields.some((field) => field !== 'public_base_url')) {
    return (
      <Text size="sm" c="dimmed">
        {t('githubApp.manifest.locked')}
      </Text>
    );
  }
  return (
    <form onSubmit={submit} aria-label={t('githubApp.manifest.title')}>
      <Stack gap="xs">
        <Text size="sm">{t('githubApp.manifest.intro')}</Text>
        <TextInput label={t('githubApp.manifest.name')} description={t('githubApp.manifest.nameHelp')} maxLength={34} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <TextInput label={t('githubApp.manifest.organization')} description={t('githubApp.manifest.organizationHelp')} value={organization} onChange={(event) => setOrganization(event.currentTarget.value)} />
        <Checkbox label={t('githubApp.manifest.prComments')} description={t('githubApp.manifest.prCommentsHelp')} checked={prComments} onChange={(event) => setPrComments(event.currentTarget.checked)} />
        {publicBaseUrl ? null : (
          <Text size="sm" c="orange.9">
            {t('githubApp.manifest.needsBaseUrl')}
          </Text>
        )}
        <div>
          <Button type="submit" loading={start.isPending} disabled={!publicBaseUrl}>
            {t('githubApp.manifest.create')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
