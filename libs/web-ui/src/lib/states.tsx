import { Alert, Button, Center, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCodeText, errorMessage, FieldProblem } from './api-error';

/** Field problems of an error: none unless it is an ApiError that names them. */
export function fieldProblemsOf(error: unknown): readonly FieldProblem[] {
  return error instanceof ApiError ? error.fields : [];
}

/**
 * A field problem as a sentence in the page's language: the app's own words for the rule
 * (`fieldRules.<rule>` in its `app` strings: a time zone, a bot token, a proxy...), else the
 * library's (`field.<rule>`), else the service's English sentence. Never the API's field name.
 */
export function useFieldProblemText(): (problem: FieldProblem) => string {
  const { t, i18n } = useTranslation('app');
  return (problem) => {
    const values = { min: problem.min ?? '', max: problem.max ?? '' };
    // `invalid` is the service's own specific sentence (no rule of its own): say that rather than "check this value".
    if (problem.rule === 'invalid' && problem.message) return problem.message;
    if (i18n.exists(`fieldRules.${problem.rule}`, { ns: 'app' })) return t(`fieldRules.${problem.rule}`, values);
    if (i18n.exists(`field.${problem.rule}`, { ns: 'ui' })) return t(`field.${problem.rule}`, { ...values, ns: 'ui' });
    return problem.message;
  };
}

/**
 * The field problems of an error as sentences by form field, for a form's `error` props: `place`
 * turns the API's field (`telegram_api_hash`, `chats.0.actions.1.keywords.0`) into the form's key,
 * or undefined for one the form does not show. Several problems of one field are joined.
 */
export function useFieldErrors(): (error: unknown, place?: (field: string) => string | undefined) => Record<string, string> {
  const text = useFieldProblemText();
  return (error, place = (field) => field) => {
    const errors: Record<string, string> = {};
    for (const problem of fieldProblemsOf(error)) {
      const key = place(problem.field);
      if (key === undefined) continue;
      const sentence = text(problem);
      errors[key] = errors[key] && !errors[key].includes(sentence) ? `${errors[key]} ${sentence}` : sentence;
    }
    return errors;
  };
}

/**
 * errorMessage in the page's language: a refusal that names fields says what each needs (in the
 * page's words, see useFieldProblemText); an error with a code the app translates (`serverError.<code>`
 * in its `app` strings, which may quote the service's `{{message}}`) shows that text, any other the
 * service's message. So a person reads "needs a new login" in their language, not the English of the API.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation('app');
  const fieldText = useFieldProblemText();
  const codeText: ErrorCodeText = (code, error) => {
    const key = `serverError.${code}`;
    return i18n.exists(key, { ns: 'app' }) ? t(key, { message: error.message }) : undefined;
  };
  return (error) => {
    const fields = fieldProblemsOf(error);
    if (fields.length) return [...new Set(fields.map(fieldText))].join(' ');
    return errorMessage(error, codeText);
  };
}

/** An error's message as text (see useErrorMessage), for toasts and inline alerts. */
export function ErrorText({ error }: { error: unknown }) {
  return <>{useErrorMessage()(error)}</>;
}

/** Placeholder rows while a query loads (announced to screen readers). */
export function LoadingState({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation('ui');
  return (
    <Stack gap="xs" role="status" aria-live="polite" aria-label={t('loading')}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

/** The services' error body (or a network failure) as an alert with a retry button. */
export function ErrorState({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation('ui');
  const describe = useErrorMessage();
  const network = !(error instanceof ApiError) && error instanceof TypeError;
  return (
    <Alert color="red" title={title ?? t('error.title')} role="alert" variant="light">
      <Stack gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {network ? t('error.network') : describe(error)}
        </Text>
        {error instanceof ApiError && error.requestId && error.status >= 500 ? (
          <Text size="xs" c="dimmed">
            {t('error.requestId', { id: error.requestId })}
          </Text>
        ) : null}
        {onRetry ? (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('error.retry')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** An empty list: what it would show and, usually, the action that fills it. */
export function EmptyState({ title, description, action }: { title?: string; description?: ReactNode; action?: ReactNode }) {
  const { t } = useTranslation('ui');
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Title order={3} size="h5">
          {title ?? t('empty.title')}
        </Title>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Center>
  );
}

export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** Renders loading, error, empty or the data of a TanStack query. */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  children,
  loadingRows,
}: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
  loadingRows?: number;
}) {
  if (query.isPending) return <LoadingState rows={loadingRows} />;
  if (query.error || query.data === undefined) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <>{empty ?? <EmptyState />}</>;
  return <>{children(query.data)}</>;
}

/** A form's refused submit shown on its fields (see useFieldRefusal). */
export interface FieldRefusal {
  /** What to fix, by field, from the last refusal (a field drops out when it is edited). */
  errors: Readonly<Record<string, string>>;
  /** Puts the error on its fields; false when it names none the form shows (then show it some other way). */
  refuse: (error: unknown) => boolean;
  /** The person edited `field`: its error is gone. */
  edited: (field: string) => void;
  reset: () => void;
}

/**
 * The refusal of a form's last submit on its fields: the fields a 400 names, and the codes that
 * concern one field (`{ wrong_current_password: 'current_password' }`) in the app's words.
 * `place` maps the API's field to the form's key (undefined: the form does not show it).
 */
export function useFieldRefusal(codeFields: Readonly<Record<string, string>> = {}, place?: (field: string) => string | undefined): FieldRefusal {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fieldErrors = useFieldErrors();
  const describe = useErrorMessage();
  return {
    errors,
    refuse: (error) => {
      const placed = fieldErrors(error, place);
      const code = error instanceof ApiError ? error.code : undefined;
      if (code && codeFields[code]) placed[codeFields[code]] = describe(error);
      setErrors(placed);
      return Object.keys(placed).length > 0;
    },
    edited: (field) => setErrors((current) => (field in current ? Object.fromEntries(Object.entries(current).filter(([key]) => key !== field)) : current)),
    reset: () => setErrors({}),
  };
}
