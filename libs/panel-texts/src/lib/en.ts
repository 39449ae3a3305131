/**
 * The sentences panel-api writes and panel-web shows, in English: the one catalogue both import
 * (zh.ts has exactly the same keys). Parameters are `{{name}}`, as i18next writes them.
 *
 * `runMessage`, `phaseDetail` and `keepalive` are also the English text the service stores and
 * answers beside the code (runs recorded before codes existed are read back into code and
 * parameters by these templates), so a template's English must not change without a reason.
 */
export const en = {
  /** A run's result message when the runner or an error wrote it (never a bot's answer). */
  runMessage: {
    completed: 'completed',
    no_answer: 'no answer from the bot',
    run_cancelled: 'The run was cancelled',
    run_timeout: 'The run took longer than its time limit',
    // The run was going when its service stopped (a restart, a deploy): recorded as `interrupted`.
    run_shutdown: 'Interrupted: the service stopped while the run was going',
    // Replicas: this replica gave the account up while the run was going (recorded as `interrupted`).
    run_released: 'Interrupted: the account moved to another replica while the run was going',
    interrupted_replica_stopped: 'Interrupted: replica {{replica}} stopped (its lease on {{account}} expired) while running the run due at {{due}}',
    interrupted_lease_not_renewed:
      'Interrupted: this replica ({{replica}}) stopped it (its lease on {{account}} was not renewed in time: a pause, the database out of reach, or a restart) while running the run due at {{due}}',
    telegram_flood_wait: 'Telegram asks to wait {{seconds}} s before the next request',
    telegram_session_invalid: 'The session is no longer valid ({{reason}}); log in again',
    telegram_timeout: 'Telegram did not answer within {{seconds}} s',
    telegram_aborted: 'The request was cancelled',
    telegram_not_configured: 'Telegram API id and hash are not configured (settings: telegram_api_id, telegram_api_hash)',
    telegram_unreachable: 'Cannot reach Telegram ({{reason}})',
    telegram_shut_down: 'The Telegram gateway is shut down',
    telegram_message_missing: 'Message {{message}} not found',
    telegram_no_button: 'No button "{{text}}" on message {{message}}',
    telegram_button_not_pressable: 'Button "{{text}}" cannot be pressed',
    telegram_answered: 'Telegram answered {{code}}',
    needs_relogin: 'Account {{account}} needs_relogin: {{reason}}. Log in again (phone or QR login).',
    account_missing: 'Account {{account}} does not exist',
    action_not_in_sign_run: 'Action {{action}} cannot run in a sign run',
    no_message_with_button: 'No recent message in {{chat}} has a button "{{text}}"',
    reply_without_buttons: 'The bot\'s reply to the previous action has no button "{{text}}" (it has none)',
    reply_without_button: 'The bot\'s reply to the previous action has no button "{{text}}" (it has {{buttons}})',
    no_reply_to_press: 'The previous action in {{chat}} got no reply to press a button on',
    reply_gone: 'The bot\'s reply to the previous action (message {{message}}) is gone',
    no_image_to_choose: 'No recent image in {{chat}} to choose from',
    image_without_options: 'The image message has no option buttons',
    model_matches_no_option: 'The model answered "{{answer}}", which matches no option ({{options}})',
    no_question: 'No recent question in {{chat}}',
    no_image_to_read: 'No recent image in {{chat}} to read',
    no_message_with_buttons: 'No recent message with buttons in {{chat}}',
    model_matches_no_button: 'The model answered "{{answer}}", which matches no button ({{options}})',
    regex_without_group: 'send_text_search_regex {{regex}} matched but has no capture group',
    no_start_argument: 'No start argument: the message has no deep link and start_param is empty',
    no_start_link: 'No t.me/<bot>?start=<arg> link in the message',
    no_downloadable_image: 'Message {{message}} has no downloadable image',
    safety_paused: 'The automation of {{account}} is paused ({{reason}}); resume it on the accounts page',
    safety_keepalive_paused: 'The automation of {{account}} is paused; the keep-alive waits until it is resumed',
    safety_daily_cap: '{{account}} used its daily budget of {{limit}} actions',
    safety_busy: '{{account}} would have to wait {{seconds}} s for its action budget',
    ai_not_configured: 'AI settings are incomplete: set ai_model and ai_api_key (and ai_base_url for a non-OpenAI server)',
    ai_empty_answer: 'The model gave an empty answer',
    ai_cancelled: 'The AI request was cancelled',
    ai_timeout: 'The model did not answer within {{seconds}} s',
    ai_unreachable_code: 'The model API could not be reached ({{code}}); check ai_base_url',
    ai_unreachable: 'The model API could not be reached; check ai_base_url',
    ai_unauthorized: 'The model API refused the key (HTTP {{status}}); check ai_api_key',
    ai_rate_limited: 'The model API is rate limiting or out of quota (HTTP 429); try again later',
    ai_http_error: 'The model API answered HTTP {{status}}; check ai_base_url and ai_model',
    ai_not_openai: 'The model API gave an answer that is not one of an OpenAI-compatible API',
    ai_failed: 'The model API failed in an unexpected way',
  },
  /** The phases of a running run. */
  phase: { starting: 'Starting', checking_account: 'Checking the account', waiting_lock: 'Waiting for the account', cooldown: 'Cooldown', running: 'Running steps', finalizing: 'Finishing' },
  /** What a running run is doing within its phase (the run drawer, the dashboard). */
  phaseDetail: {
    checking_account: 'account {{account}}',
    waiting_lock: 'another run of {{account}} is in progress',
    cooldown: 'per-account cooldown',
    action: '{{step}} (action {{action}}) in {{chat}}',
    reading_answer: '{{step}}: reading the bot\'s answer in {{chat}}',
    retrying: 'retrying {{step}}',
    cancel_requested: 'cancel requested',
  },
  /** Why the device keep-alive left an account alone. */
  keepalive: {
    skipped_needs_relogin: 'The account needs a new login',
    skipped_not_due: 'Woken recently enough',
  },
  /** How a run ended, by the bot's verdict (notification titles). */
  verdictTitle: {
    success: 'signed in',
    already_done: 'already signed in today',
    failed: 'the bot refused',
    unconfirmed: 'not confirmed by the bot',
  },
  /** The bot's verdict on a run, as a word. */
  verdict: { success: 'success', already_done: 'already done', failed: 'failed', unconfirmed: 'not confirmed' },
  /** Why a run failed (the service's failure categories). */
  category: {
    none: 'None',
    session_invalid: 'Session invalid',
    flood_wait: 'Flood wait',
    ai_timeout: 'AI timeout',
    ai_error: 'AI error',
    button_not_found: 'Button not found',
    target_not_found: 'Chat not found',
    network_proxy: 'Network or proxy',
    timeout: 'Timed out',
    strong_failure: 'Permanent failure',
    bot_refused: 'Bot refused',
    unconfirmed: 'Not confirmed by the bot',
    safety_limit: 'Safety limit',
    unknown: 'Other',
  },
  /** The notifications the panel sends (Telegram bot, push channels, webhook), in the language of the settings. */
  notice: {
    taskSucceeded: 'Sign task {{task}} succeeded',
    taskFailed: 'Sign task {{task}} failed',
    taskVerdict: 'Sign task {{task}}: {{verdict}}',
    account: 'Account: {{account}}',
    category: 'Category: {{category}}',
    verdict: 'Verdict: {{verdict}}',
    result: 'Result: {{result}}',
    sessionInvalidTitle: 'Telegram session invalid',
    reason: 'Reason: {{reason}}',
    time: 'Time: {{time}}',
    sessionInvalidHint: 'Log in again (phone or QR login) to resume its tasks and listeners.',
    adminLoginTitle: 'Admin login',
    user: 'User: {{user}}',
    clientIp: 'Client IP: {{ip}}',
    backupFailedTitle: 'Automatic backup failed',
    backupKept: 'The archive was kept on the server: {{path}}',
    pausedTitle: 'Automation of {{account}} paused',
    pausedFloodWait: 'Telegram asked to wait {{seconds}} s (FloodWait on {{method}}).',
    pausedHint: 'Its tasks, listener replies and keep-alive wait until you resume it on the accounts page.',
    testTitle: 'Test notification',
    testBody: 'The panel can reach this channel. Sent at {{time}}',
  },
};

/** The shape every language of the catalogue has. */
export type PanelTexts = typeof en;
