import type { ChatVerdictRules } from '../common/verdict';

/**
 * The task document as it is stored (the `sign_tasks` table; `.signer/tasks/<name>.json` before) and served by the API. Field
 * names are those of the panel users migrate from (panel-api-details.md), so its exports import here.
 */

export type ExecutionMode = 'fixed' | 'range' | 'listen';

/** 1 text, 2 dice, 3 click button, 4 AI picks the option in an image, 5 AI answers a calculation, 6 AI OCR → reply, 7 AI calculation → click, 8 keyword listen, 9 follow a bot deep link (listen follow-up only). */
export type ActionNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export const SIGN_ACTIONS: readonly ActionNumber[] = [1, 2, 3, 4, 5, 6, 7];
export const FOLLOW_UP_ACTIONS: readonly ActionNumber[] = [1, 2, 3, 4, 5, 6, 7, 9];
export const LISTEN_ACTION: ActionNumber = 8;
export const DEEP_LINK_ACTION: ActionNumber = 9;

export type MatchMode = 'contains' | 'exact' | 'regex' | 'all';
/** The last six send through the channel of that name saved in the settings (its credentials stay there). */
export type PushChannel = 'telegram' | 'forward' | 'bark' | 'custom' | 'server_chan' | 'continue' | SettingsPushChannel;

export const MATCH_MODES: readonly MatchMode[] = ['contains', 'exact', 'regex', 'all'];
export const SETTINGS_PUSH_CHANNELS = ['ntfy', 'discord', 'slack', 'teams', 'gotify', 'email'] as const;
export type SettingsPushChannel = (typeof SETTINGS_PUSH_CHANNELS)[number];
export const PUSH_CHANNELS: readonly PushChannel[] = ['telegram', 'forward', 'bark', 'custom', 'server_chan', 'continue', ...SETTINGS_PUSH_CHANNELS];

/** A chat as Telegram knows it: a numeric id (`-100…` for channels) or `@username`. */
export type ChatId = number | string;

/**
 * One step. Which fields apply depends on `action`; validation (task-validation.ts) refuses fields
 * an action does not know only where a wrong field would change behaviour silently.
 */
export interface TaskAction {
  action: ActionNumber;
  /** Seconds to wait before this step: a number, or a random range written `"a-b"`. */
  delay?: number | string;
  /** 1: the text to send; 3: the button text to click. */
  text?: string;
  /**
   * 1 as a listen follow-up: send the first capture group of this expression found in the hit
   * message (tg-signer's `send_text_search_regex`); `text` is sent when it does not match.
   */
  send_text_search_regex?: string;
  /** 1 as a listen follow-up: send the model's reply to the hit message, with `ai_prompt` as its instructions. */
  ai_reply?: boolean;
  /** 2: the dice emoji. */
  dice?: string;
  /** 4-7: extra instructions for the model. */
  ai_prompt?: string;
  /** 3 and 7: press the button on the bot's reply to this chat's previous action (reply-to mode), not on the newest message that has it. */
  from_reply?: boolean;

  // Action 8 (keyword listen rule).
  keywords?: string[];
  match_mode?: MatchMode;
  ignore_case?: boolean;
  ignore_self?: boolean;
  /** Only messages from these senders: a user id, `@username`, display name or `me` (the account itself), comma separated. */
  sender_filter?: string;
  active_time_start?: string;
  active_time_end?: string;
  push_channel?: PushChannel;
  forward_chat_id?: ChatId;
  forward_message_thread_id?: number;
  bark_url?: string;
  custom_url?: string;
  server_chan_key?: string;
  continue_chat_id?: ChatId;
  continue_message_thread_id?: number;
  continue_actions?: TaskAction[];
  /** Seconds after which the messages the follow-ups sent are deleted (0 = at once; kept when absent). */
  continue_delete_after?: number;
  /** Seconds after a hit during which this rule ignores further hits (as tg-signer forks write it). */
  cooldown?: number;
  /** Chance (0-1) that a hit is acted on; 1 when absent. */
  probability?: number;
  /** At most this many hits acted on per day (in the configured time zone). */
  max_daily?: number;
  /** Senders (user ids) whose messages never trigger the rule. */
  exclude_user_ids?: Array<number | string>;

  // Action 9 (follow a bot deep link), as the panel users migrate from writes it.
  /** The bot to start; by default the bot of a `t.me/<bot>?start=` link in the hit message. */
  bot_username?: string;
  /** The command sent to the bot, `/start` by default. */
  command_prefix?: string;
  /** The start argument when the message has no deep link; a template, `{keyword}` by default. */
  start_param?: string;
  /** At most this many bots started per hit (default 5, as in the panel users migrate from). */
  max_batch?: number;
}

export interface TaskChat {
  chat_id: ChatId;
  name?: string;
  /** Forum topic. */
  message_thread_id?: number;
  /** Seconds between the actions of this chat. */
  action_interval?: number;
  /** Seconds after which the messages the run sent are deleted (kept when absent). */
  delete_after?: number;
  actions: TaskAction[];
  /** Success, already-done and failure patterns read from the bot's answer to the chat's last action (issue 35). */
  verdict?: ChatVerdictRules;
}

export interface TaskLastRun {
  at: string;
  account_name: string;
  success: boolean;
  message: string;
  failure_category: string;
  /** What the bot's answer said, when the task declares patterns. */
  verdict?: string | null;
}

export interface SignTask {
  name: string;
  /** One account, or … */
  account_name?: string;
  /** … several (`"*"` = every account). */
  account_names?: string[];
  /** 5- or 6-field cron expression, or `HH:MM[:SS]` (daily). Required in `fixed` mode. */
  sign_at?: string;
  /** Extra random delay (0..random_seconds) before a scheduled run. */
  random_seconds: number;
  /** Seconds between the chats of one run (the panel users migrate from waits 1 s). */
  sign_interval?: number;
  execution_mode: ExecutionMode;
  /** `range` mode: fires at range_start (`HH:MM[:SS]`) and waits a random time up to range_end. */
  range_start?: string;
  range_end?: string;
  enabled: boolean;
  retry_count: number;
  notify_on_failure: boolean;
  notify_on_success: boolean;
  last_run: TaskLastRun | null;
  chats: TaskChat[];
  created_at: string;
  updated_at: string;
}

/** What a client sends to create or replace a task; the server keeps last_run and the timestamps. */
export type SignTaskInput = Omit<SignTask, 'last_run' | 'created_at' | 'updated_at' | 'random_seconds' | 'enabled' | 'retry_count' | 'notify_on_failure' | 'notify_on_success'> &
  Partial<Pick<SignTask, 'random_seconds' | 'enabled' | 'retry_count' | 'notify_on_failure' | 'notify_on_success'>>;

export type TaskChangeType = 'created' | 'updated' | 'deleted' | 'enabled' | 'disabled' | 'imported' | 'last_run';

/** Emitted after every write of the task store (listeners and the scheduler re-sync on it). */
export interface TaskChange {
  type: TaskChangeType;
  /** The tasks the change touched. */
  names: string[];
}

export const TASK_LIMITS = {
  retryCount: { min: 0, max: 99, default: 3 },
  randomSeconds: { min: 0, max: 86_400 },
  delaySeconds: { max: 3_600 },
  actionInterval: { max: 3_600 },
  deleteAfter: { max: 86_400 * 7 },
  chats: 50,
  actionsPerChat: 50,
  keywords: 100,
  accounts: 500,
  textLength: 4_096,
  signInterval: { max: 3_600 },
  maxBatch: { max: 20, default: 5 },
  ruleCooldown: { max: 86_400 },
  maxDaily: { max: 100_000 },
  excludeUserIds: 500,
} as const;
