import type { Schemas } from '../../api/client';

export type Channel = Schemas['NotificationChannelDto'];
export type ChannelKind = Channel['kind'];

/** The kinds of notification a channel can be limited to (the service's list; none chosen means all). */
export const EVENT_KINDS = [
  'issues',
  'pull_request',
  'workflow_run',
  'release',
  'star',
  'watch',
  'dependabot_alert',
  'code_scanning_alert',
  'secret_scanning_alert',
  'pr_review',
  'digest',
  'report',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface ChannelFormValues {
  kind: ChannelKind;
  name: string;
  enabled: boolean;
  chat_id: string;
  url: string;
  /** Bot token (telegram) or signing secret (webhook). Empty: keep the saved one, or generate one for a new webhook. */
  secret: string;
  allow_private: boolean;
  event_kinds: EventKind[];
}

export function emptyChannelForm(kind: ChannelKind = 'telegram'): ChannelFormValues {
  return { kind, name: '', enabled: true, chat_id: '', url: '', secret: '', allow_private: false, event_kinds: [] };
}

export function channelFormFrom(channel: Channel): ChannelFormValues {
  return {
    kind: channel.kind,
    name: channel.name,
    enabled: channel.enabled,
    chat_id: channel.chat_id ?? '',
    url: channel.url ?? '',
    secret: '',
    allow_private: channel.allow_private,
    event_kinds: channel.event_kinds.filter((kind): kind is EventKind => (EVENT_KINDS as readonly string[]).includes(kind)),
  };
}

const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/;
const STANDARD_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

/** Keys of the problems the form shows under each field (translated by the page). */
export type ChannelFormErrors = Partial<Record<'name' | 'chat_id' | 'url' | 'secret', string>>;

/**
 * What is wrong with the form before it is sent (the service checks again): the same rules as the
 * API, so a person sees them next to the field instead of in a toast.
 */
export function validateChannelForm(values: ChannelFormValues, mode: 'create' | 'edit'): ChannelFormErrors {
  const errors: ChannelFormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  else if (values.name.trim().length > 100) errors.name = 'nameTooLong';
  if (values.kind === 'telegram') {
    if (!CHAT_ID.test(values.chat_id.trim())) errors.chat_id = 'chatIdInvalid';
    if (mode === 'create' && !values.secret) errors.secret = 'tokenRequired';
    else if (values.secret && values.secret.length < 16) errors.secret = 'tokenTooShort';
  } else {
    let url: URL | undefined;
    try {
      url = new URL(values.url.trim());
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) errors.url = 'urlInvalid';
    else if (url.protocol === 'http:' && !values.allow_private) errors.url = 'urlHttpNeedsPrivate';
    if (values.secret && !STANDARD_WEBHOOK_SECRET.test(values.secret)) errors.secret = 'secretFormat';
  }
  return errors;
}

export type CreateChannelBody = Schemas['CreateNotificationChannelDto'];
export type UpdateChannelBody = Schemas['UpdateNotificationChannelDto'];

/** The create request: only the fields of the chosen kind; no secret on a webhook means "generate one". */
export function createChannelBody(values: ChannelFormValues): CreateChannelBody {
  const common = { kind: values.kind, name: values.name.trim(), enabled: values.enabled, event_kinds: values.event_kinds };
  // allow_private is part of every body (the schema gives it a default); it only matters for webhooks.
  if (values.kind === 'telegram') return { ...common, chat_id: values.chat_id.trim(), secret: values.secret, allow_private: false };
  return { ...common, url: values.url.trim(), allow_private: values.allow_private, ...(values.secret ? { secret: values.secret } : {}) };
}

/** The update request: an empty secret is left out, so the saved one is kept (there is no "cleared" secret). */
export function updateChannelBody(values: ChannelFormValues): UpdateChannelBody {
  const common = { name: values.name.trim(), enabled: values.enabled, event_kinds: values.event_kinds, ...(values.secret ? { secret: values.secret } : {}) };
  if (values.kind === 'telegram') return { ...common, chat_id: values.chat_id.trim(), allow_private: false };
  return { ...common, url: values.url.trim(), allow_private: values.allow_private };
}
