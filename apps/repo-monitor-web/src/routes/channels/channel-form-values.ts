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

/** Kinds whose whole webhook URL is the secret: the console only ever sees it shortened, so an edit leaves it empty to keep it. */
export const SECRET_URL_KINDS: readonly ChannelKind[] = ['discord', 'slack', 'teams', 'bark'];
/** Every kind the form offers, in the order it shows them. */
export const FORM_KINDS: readonly ChannelKind[] = ['telegram', 'http_webhook', 'discord', 'slack', 'teams', 'ntfy', 'gotify', 'bark', 'email'];
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export interface ChannelFormValues {
  kind: ChannelKind;
  name: string;
  enabled: boolean;
  chat_id: string;
  /** telegram: the default forum topic; empty for the chat itself. */
  message_thread_id: string;
  url: string;
  /**
   * telegram: bot token; http_webhook: signing secret; ntfy: access token; gotify: app token; email:
   * SMTP password. Empty: keep the saved one (or, for a new webhook, generate one).
   */
  secret: string;
  allow_private: boolean;
  event_kinds: EventKind[];
  smtp_host: string;
  smtp_port: string;
  smtp_security: SmtpSecurity;
  smtp_username: string;
  email_from: string;
  /** Addresses separated by commas, spaces or lines. */
  email_to: string;
}

export function emptyChannelForm(kind: ChannelKind = 'telegram'): ChannelFormValues {
  return {
    kind,
    name: '',
    enabled: true,
    chat_id: '',
    message_thread_id: '',
    url: '',
    secret: '',
    allow_private: false,
    event_kinds: [],
    smtp_host: '',
    smtp_port: '587',
    smtp_security: 'starttls',
    smtp_username: '',
    email_from: '',
    email_to: '',
  };
}

export function channelFormFrom(channel: Channel): ChannelFormValues {
  return {
    ...emptyChannelForm(channel.kind),
    name: channel.name,
    enabled: channel.enabled,
    chat_id: channel.chat_id ?? '',
    message_thread_id: channel.message_thread_id === null ? '' : String(channel.message_thread_id),
    // The saved URL of these kinds carries a token and is only shown shortened: empty keeps it.
    url: SECRET_URL_KINDS.includes(channel.kind) ? '' : (channel.url ?? ''),
    allow_private: channel.allow_private,
    event_kinds: channel.event_kinds.filter((kind): kind is EventKind => (EVENT_KINDS as readonly string[]).includes(kind)),
    smtp_host: channel.smtp_host ?? '',
    smtp_port: channel.smtp_port === null ? '587' : String(channel.smtp_port),
    smtp_security: channel.smtp_security ?? 'starttls',
    smtp_username: channel.smtp_username ?? '',
    email_from: channel.email_from ?? '',
    email_to: (channel.email_to ?? []).join(', '),
  };
}

const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/;
const STANDARD_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;
const DISCORD_WEBHOOK_PATH = /^\/api\/webhooks\/\d{1,25}\/[A-Za-z0-9_-]{10,200}\/?$/;
const NTFY_TOKEN = /^tk_[A-Za-z0-9]{16,64}$/;
const GOTIFY_TOKEN = /^[A-Za-z0-9._-]{8,128}$/;
const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/;

/** The recipients written in the form, one address each. */
export function emailRecipients(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/** The fields the form shows a problem under (the service's field names are the same). */
export const CHANNEL_FORM_FIELDS = ['name', 'chat_id', 'message_thread_id', 'url', 'secret', 'smtp_host', 'smtp_port', 'smtp_security', 'email_from', 'email_to'] as const;

/** Keys of the problems the form shows under each field (translated by the page). */
export type ChannelFormErrors = Partial<Record<(typeof CHANNEL_FORM_FIELDS)[number], string>>;

function urlProblem(values: ChannelFormValues): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(values.url.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return 'urlInvalid';
  if (url.protocol === 'http:' && !values.allow_private) return 'urlHttpNeedsPrivate';
  if (url.username || url.password) return 'urlCredentials';
  if (values.url.includes('…')) return 'urlShortened';
  if (values.kind === 'discord' && !DISCORD_WEBHOOK_PATH.test(url.pathname)) return 'urlDiscord';
  return undefined;
}

/**
 * What is wrong with the form before it is sent (the service checks again): the same rules as the
 * API, so a person sees them next to the field instead of in a toast.
 */
export function validateChannelForm(values: ChannelFormValues, mode: 'create' | 'edit'): ChannelFormErrors {
  const errors: ChannelFormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  else if (values.name.trim().length > 100) errors.name = 'nameTooLong';
  switch (values.kind) {
    case 'telegram': {
      if (!CHAT_ID.test(values.chat_id.trim())) errors.chat_id = 'chatIdInvalid';
      if (mode === 'create' && !values.secret) errors.secret = 'tokenRequired';
      else if (values.secret && values.secret.length < 16) errors.secret = 'tokenTooShort';
      const topic = values.message_thread_id.trim();
      if (topic !== '' && !(/^\d{1,10}$/.test(topic) && Number(topic) >= 1 && Number(topic) <= 2_147_483_647)) errors.message_thread_id = 'topicInvalid';
      break;
    }
    case 'email': {
      if (!HOST.test(values.smtp_host.trim())) errors.smtp_host = 'smtpHostInvalid';
      const port = Number(values.smtp_port);
      if (!/^\d{1,5}$/.test(values.smtp_port.trim()) || port < 1 || port > 65535) errors.smtp_port = 'smtpPortInvalid';
      if (values.smtp_security === 'none' && !values.allow_private) errors.smtp_security = 'smtpNoneNeedsPrivate';
      if (!EMAIL.test(values.email_from.trim())) errors.email_from = 'emailInvalid';
      const recipients = emailRecipients(values.email_to);
      if (recipients.length === 0) errors.email_to = 'recipientsRequired';
      else if (recipients.length > 20) errors.email_to = 'recipientsTooMany';
      else if (recipients.some((address) => !EMAIL.test(address))) errors.email_to = 'recipientInvalid';
      break;
    }
    default: {
      const keepsSavedUrl = mode === 'edit' && SECRET_URL_KINDS.includes(values.kind) && values.url.trim() === '';
      if (!keepsSavedUrl) {
        const problem = urlProblem(values);
        if (problem) errors.url = problem;
      }
      if (values.kind === 'http_webhook' && values.secret && !STANDARD_WEBHOOK_SECRET.test(values.secret)) errors.secret = 'secretFormat';
      if (values.kind === 'ntfy' && values.secret && !NTFY_TOKEN.test(values.secret)) errors.secret = 'ntfyToken';
      if (values.kind === 'gotify') {
        if (mode === 'create' && !values.secret) errors.secret = 'gotifyTokenRequired';
        else if (values.secret && !GOTIFY_TOKEN.test(values.secret)) errors.secret = 'gotifyToken';
      }
    }
  }
  return errors;
}

export type CreateChannelBody = Schemas['CreateNotificationChannelDto'];
export type UpdateChannelBody = Schemas['UpdateNotificationChannelDto'];

/** The fields of the chosen kind (besides the common ones); `secret` only when one is typed. */
function kindFields(values: ChannelFormValues, mode: 'create' | 'edit'): Omit<Partial<CreateChannelBody>, 'allow_private' | 'message_thread_id'> & { allow_private: boolean; message_thread_id?: number | null } {
  const secret = values.secret ? { secret: values.secret } : {};
  switch (values.kind) {
    case 'telegram': {
      const topic = values.message_thread_id.trim();
      const thread = topic === '' ? (mode === 'edit' ? { message_thread_id: null } : {}) : { message_thread_id: Number(topic) };
      return { chat_id: values.chat_id.trim(), allow_private: false, ...thread, ...secret };
    }
    case 'email':
      return {
        smtp_host: values.smtp_host.trim(),
        smtp_port: Number(values.smtp_port),
        smtp_security: values.smtp_security,
        ...(values.smtp_username.trim() ? { smtp_username: values.smtp_username.trim() } : {}),
        email_from: values.email_from.trim(),
        email_to: emailRecipients(values.email_to),
        allow_private: values.allow_private,
        ...secret,
      };
    case 'discord':
    case 'slack':
    case 'teams':
    case 'bark':
      // The URL is the secret; an edit that leaves it empty keeps the saved one.
      return { ...(values.url.trim() ? { url: values.url.trim() } : {}), allow_private: values.allow_private };
    default:
      return { url: values.url.trim(), allow_private: values.allow_private, ...secret };
  }
}

/** The create request: only the fields of the chosen kind; no secret on a webhook means "generate one". */
export function createChannelBody(values: ChannelFormValues): CreateChannelBody {
  const fields = kindFields(values, 'create');
  return { kind: values.kind, name: values.name.trim(), enabled: values.enabled, event_kinds: values.event_kinds, ...fields } as CreateChannelBody;
}

/** The update request: an empty secret is left out, so the saved one is kept (there is no "cleared" secret). */
export function updateChannelBody(values: ChannelFormValues): UpdateChannelBody {
  return { name: values.name.trim(), enabled: values.enabled, event_kinds: values.event_kinds, ...kindFields(values, 'edit') };
}
