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

/**
 * The outcome GitHub's redirect brought back to this page, if any. Anyone can link here with any
 * query, so nothing from it is shown as text: `created` only says to ask the service (see
 * ManifestOutcome), and a failure is one of the known reasons or `unknown`.
 */
export function manifestOutcome(params: URLSearchParams): { kind: 'created' } | { kind: 'error'; reason: string } | null {
  const state = params.get('manifest');
  if (state === 'created') return { kind: 'created' };
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

/**
 * The notice for GitHub's return. "Created" is shown only as the service confirms it: the App
 * settings it answers (`settings`, undefined while loading) say an App is configured, and the slug
 * shown is the stored one, never the one in the URL.
 */
export function ManifestOutcome({ settings }: { settings: Pick<Schemas['GithubAppSettingsDto'], 'configured' | 'app_slug'> | undefined }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const outcome = manifestOutcome(params);
  if (!outcome) return null;
  const dismiss = () => setParams({}, { replace: true });
  if (outcome.kind === 'created') {
    if (!settings) return null;
    if (!settings.configured) {
      return (
        <Alert color="yellow" variant="light" title={t('githubApp.manifest.failed')} withCloseButton closeButtonLabel={t('common.close')} onClose={dismiss} role="status">
          {t('githubApp.manifest.notConfirmed')}
        </Alert>
      );
    }
    return (
      <Alert color="teal" variant="light" title={t('githubApp.manifest.created')} withCloseButton closeButtonLabel={t('common.close')} onClose={dismiss} role="status">
        {settings.app_slug ? t('githubApp.manifest.createdText', { slug: settings.app_slug }) : t('githubApp.manifest.createdTextNoSlug')}
      </Alert>
    );
  }
  return (
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
