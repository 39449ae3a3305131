// Generated from apps/panel-api/openapi.json by apps/panel-web/scripts/api-types.mjs. Do not edit.

export interface paths {
    "/api/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accounts with status, needs_relogin, remark, proxy and last check (cached up to 5 s) */
        get: operations["AccountsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One account */
        get: operations["AccountsController_get"];
        put?: never;
        post?: never;
        /** Delete an account: stops its listeners, closes its connection, removes its session files */
        delete: operations["AccountsController_remove"];
        options?: never;
        head?: never;
        /** Change the remark or the proxy of an account */
        patch: operations["AccountsController_update"];
        trace?: never;
    };
    "/api/accounts/{account_name}/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's chats for the task editor's picker
         * @description Read-only, from the account's 200 most recent Telegram dialogs (newest first); q filters them by title, username or id. Answered by the account's owner replica.
         */
        get: operations["AccountChatsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Devices (authorizations) logged in to the account */
        get: operations["DevicesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}/devices/{auth_hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Terminate a device session; the current session is refused with 409. Confirm before calling. */
        delete: operations["DevicesController_terminate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}/official-messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages from Telegram (user 777000), newest first; read-only: sends nothing, marks nothing read */
        get: operations["DevicesController_officialMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}/safety": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's safety budget: actions this minute and today against the limits, FloodWaits, paused or not */
        get: operations["SafetyController_safety"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{account_name}/safety/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume the account's automation after a pause (a FloodWait still in force keeps holding actions back until it passes) */
        post: operations["SafetyController_resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/import-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store an existing GramJS string session as an account
         * @description Telegram is not contacted; the status stays null until the next status check.
         */
        post: operations["AccountsController_importSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/login/{account_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Cancel a started phone login: forget it and close its connection (an account it would log in again stays as it was) */
        delete: operations["AccountLoginController_cancelPhone"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/login/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a phone login: Telegram sends a code (in the app, by SMS or call) */
        post: operations["AccountLoginController_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/login/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a phone login with the code (and the 2FA password)
         * @description Answers status password_required when the account has a 2FA password: call again with password. Success stores the session and clears needs_relogin.
         */
        post: operations["AccountLoginController_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/qr-login/{login_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * State of a QR login
         * @description waiting_scan | scanned_wait_confirm | password_required | success | expired | failed. Success stores the session and clears needs_relogin.
         */
        get: operations["AccountLoginController_qrStatus"];
        put?: never;
        post?: never;
        /**
         * Cancel a QR login: forget it and close its connection
         * @description For a closed dialog, or a code replaced by a fresh one before it expires. An account already stored by a finished login stays.
         */
        delete: operations["AccountLoginController_cancelQr"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/qr-login/{login_id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the 2FA password of a QR login in state password_required */
        post: operations["AccountLoginController_qrPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/qr-login/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a QR login; show qr_url as a QR code and poll GET qr-login/{login_id} */
        post: operations["AccountLoginController_startQr"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/status/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check sessions now and wait for the result
         * @description At most 200 accounts, a few at a time, each within timeout_seconds (default 8). Prefer check-jobs for many accounts.
         */
        post: operations["AccountStatusController_check"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/status/check-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a background check job (one at a time, at most 200 accounts) */
        post: operations["AccountStatusController_startJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/status/check-jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status, progress and (partial or final) result of a check job
         * @description Answered by any replica. A job whose replica stopped before it finished is `interrupted`.
         */
        get: operations["AccountStatusController_getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/status/check-jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask a running job to stop: accounts in progress finish, no new one starts (asked of any replica, it reaches the one that runs the job) */
        post: operations["AccountStatusController_cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in and get an access token
         * @description 5 failed attempts within 300 s block the client address for 900 s (429 with Retry-After), even for the right password. Guesses at the account from any address are slowed too: after 5 failures each further one waits longer (up to 60 s), and after 2 wrong TOTP codes with the right password much longer (up to 15 min). A browser that logged in before (the HttpOnly known-device cookie this answer sets) or that sends a live token of the same admin is exempt from the account delay.
         */
        post: operations["AuthController_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log out: this access token stops working at once (other sessions stay) */
        post: operations["AuthController_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The logged-in admin */
        get: operations["AuthController_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the password; earlier tokens stop working, the answer carries a new one */
        put: operations["AuthController_changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/totp/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable TOTP with a current code
         * @description Wrong codes count towards the per-account limit, as failed logins do per address (429 with Retry-After).
         */
        post: operations["AuthController_disableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/totp/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable TOTP with the current password and a code from the authenticator app
         * @description Every other session is signed out (earlier tokens stop working); the answer carries a fresh token for the caller. Wrong passwords and codes count towards the per-account limit (429 with Retry-After).
         */
        post: operations["AuthController_enableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/totp/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a TOTP secret (pending until enabled); returns it, its otpauth URI and a QR code
         * @description Needs the current password. Wrong passwords count towards the per-account limit (429 with Retry-After).
         */
        post: operations["AuthController_setupTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/username": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the username; earlier tokens stop working, the answer carries a new one */
        put: operations["AuthController_changeUsername"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batch/sign-tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable, disable, delete or run up to 100 tasks; a result per name (unknown names reported, the rest done) */
        post: operations["BatchController_apply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/ai/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the saved AI model a short question and report its answer or the failure
         * @description Uses the saved ai_base_url, ai_model and ai_api_key (save them first), through the same client the AI actions use. A failure of the model API answers 200 with ok=false, a classified error_kind (unreachable, unauthorized, rate_limited, bad_response, refused, timeout), the HTTP status when the API answered, and a message of our own: the upstream body is never repeated.
         */
        post: operations["AiTestController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/bot/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test message with the saved bot settings and report the Bot API answer
         * @description Sent whatever the notification switches say. A refusal by Telegram answers 200 with ok=false and its description. Kept as the bot's last test.
         */
        post: operations["NotificationsController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/export/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export tasks, monitors and global, AI and Telegram API settings; secrets masked, no sessions */
        get: operations["ConfigTransferController_exportAll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/export/sign/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export one sign task (secrets masked) */
        get: operations["ConfigTransferController_exportSign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/import-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What an import would create, overwrite, skip or refuse, item by item, with every field mapped, defaulted or dropped; writes nothing */
        post: operations["ConfigTransferController_preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/import/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import the selected items of a configuration document (every item without a selection), all or nothing
         * @description Reads the reference panel's exports (signs and monitors keyed by name), tg-signer monitors and this panel's exports. Secret fields holding ***MASKED***, ***, MASKED or REDACTED (or left out) keep the stored secret. Afterwards the keyword listeners restart; a listener that does not start is reported with ok: false. Accounts must be logged in (again): sessions are never part of the configuration.
         */
        post: operations["ConfigTransferController_importAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/import/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import one sign task (its document, or an export holding exactly one) */
        post: operations["ConfigTransferController_importSign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/notifications/{channel}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test message through one channel with the saved settings and keep the result as its last test
         * @description Sent whatever the notification switches say, in one attempt. A refusal or an unreachable receiver answers 200 with ok=false and error_code.
         */
        post: operations["NotificationsController_testChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/notifications/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last test of every notification channel tested so far (bot, bark, server_chan, ntfy, custom_webhook) */
        get: operations["NotificationsController_lastTests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the global, AI and Telegram API settings; secrets only as *_set flags */
        get: operations["SettingsController_read"];
        /**
         * Change some settings
         * @description Partial update. Absent fields stay as they are. For secrets an empty string keeps the stored value and null clears it. Unknown or out-of-range fields answer 400 and change nothing. Changing webdav_url or ai_base_url to another server (scheme, host or port) while a password or API key is stored needs that secret again (or null to clear it): a stored secret is never sent to a new destination.
         */
        put: operations["SettingsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/settings/device-keepalive/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run device keep-alive now and return per-account results
         * @description Wakes accounts whose last keep-alive is older than device_keepalive_interval_days (every account with force). Runs even when the daily job is disabled.
         */
        post: operations["KeepaliveController_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/sign-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live sign history (server-sent events): `ready`, then `sign_log` per finished run with account_name, task_name, success, message, message_code and message_params (the sentence of the catalogue when the runner or a named error wrote the message, else null and {}), created_at, failure_category
         * @description The server ends a stream with `event: close` and data `{"reason": …}`: `token_revoked` (the token logged out, or the password or username changed; on every replica), `token_expired`, `lagging` (the client read too slowly: more than 1 MiB waiting for it; reconnecting starts afresh) or `shutdown`. One access token may hold APP_EVENTS_MAX_STREAMS_PER_TOKEN (default 10) open streams; one more is answered 429.
         */
        get: operations["SignHistoryStreamController_stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keyword-hits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List keyword hits, newest first; filters account, task, chat, since, until, q; keyset paging with cursor (offset kept)
         * @description Pages follow `next_cursor` (keyset: as fast deep in the list as at the top); `offset` still works but costs more the deeper it goes. `total` is exact up to 10,000 (with `q`: up to 1,000); above that `total_capped` is true and `total` is 10,000 (1,000). `q` is a case-insensitive substring of the text, matched keyword, sender name/username or chat title, in any script; from three characters on it is served by a trigram index. A `q` of one or two characters has no trigram: its total counts the newest 20,000 hits of the other filters, and when there are more `total_capped` is true (`total` is then at least that many).
         */
        get: operations["KeywordHitsController_list"];
        put?: never;
        post?: never;
        /** Delete the hits matching the filters (every hit without filters); answers how many were deleted */
        delete: operations["KeywordHitsController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keyword-hits/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CSV export of the hits matching the filters (UTF-8 with byte-order mark), streamed
         * @description RFC 4180 quoting; cells beginning with = + - @, tab or CR get a leading apostrophe so a spreadsheet does not run them.
         */
        get: operations["KeywordHitsController_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keyword-hits/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Hits grouped by task, account or chat: count and latest hit of each group (same filters), paged by cursor
         * @description Groups come newest latest hit first, `limit` (default 100) per page; `next_cursor` leads to the next page and `total` says how many groups there are. Without a filter or with `account` alone, counts and latest hits come from counters kept with every insert and delete; other filters aggregate the matching hits.
         */
        get: operations["KeywordHitsController_groups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Full backup (tar.gz): uploaded to the saved WebDAV target, otherwise a download
         * @description The archive holds a consistent db.sqlite snapshot (SQLite only; a manifest says when the database is PostgreSQL and not included), sessions/, .signer/ and the settings files; never .admin_bootstrap_password, .scheduler.lock or the JWT secret. Restore: stop the service, extract over the data directory, start, log in with the original account.
         */
        post: operations["BackupsController_export"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/local/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a backup kept on the server (an automatic backup without a WebDAV target, or whose upload failed)
         * @description Replicas: answered by the replica whose data directory holds it, whichever replica is asked.
         */
        get: operations["BackupsController_downloadLocal"];
        put?: never;
        post?: never;
        /**
         * Delete a backup kept on the server
         * @description Replicas: done by the replica whose data directory holds it; one that is no longer running is only taken off the list (the archive went with it).
         */
        delete: operations["BackupsController_deleteLocal"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Backup state: WebDAV and automatic backup settings, recent local automatic backups, sizes of key paths */
        get: operations["BackupsController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/webdav/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stream one .tar.gz from the saved WebDAV folder; only a plain safe file name is accepted */
        get: operations["BackupsController_downloadWebDav"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/webdav/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the .tar.gz backups in the saved WebDAV folder (PROPFIND), newest first */
        get: operations["BackupsController_listWebDav"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/backup/webdav/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test the saved WebDAV target (reachability, credentials, folder) */
        post: operations["BackupsController_testWebDav"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/cluster": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The replicas on this database, the leader, and the owner and fencing epoch of every account (one replica owning all on SQLite) */
        get: operations["ClusterController_cluster"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Process and heap memory figures with the memory monitor samples */
        get: operations["OpsController_memoryReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/runtime-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** State of the scheduler, listeners, automatic backup and other running parts */
        get: operations["OpsController_runtime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/scheduled-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every scheduled job (sign jobs, keep-alive, maintenance, automatic backup) with its next run time
         * @description Jobs are registered only on the instance that holds the scheduler lock. On another instance the system jobs appear for information with runs_here=false and no next run; sign jobs are listed by the holder only.
         */
        get: operations["ScheduledJobsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Local version, Git SHA, branch, build time and Node version */
        get: operations["OpsController_version"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/version/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compare with the latest release of the release feed (cached; APP_UPDATE_CHECK=0 disables; failures answer 200 with ok=false) */
        post: operations["OpsController_checkVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finished runs of every task, newest first, filtered and paged by the server
         * @description Filters: account, task, status (success/failure), failure_category, since/until (days in the configured time zone, inclusive).
         */
        get: operations["DashboardController_runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One finished run with its step log */
        get: operations["DashboardController_run"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sign and listen tasks, filtered by account, enabled and execution mode */
        get: operations["SignTasksController_list"];
        put?: never;
        /** Create a task */
        post: operations["SignTasksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a task */
        get: operations["SignTasksController_get"];
        /** Replace a task (the whole document; last_run is kept) */
        put: operations["SignTasksController_replace"];
        post?: never;
        /** Delete a task (its jobs are removed; its history stays) */
        delete: operations["SignTasksController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Copy a task under a new name (without its last run) */
        post: operations["SignTasksController_clone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a task (its jobs are removed) */
        post: operations["SignTasksController_disable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a task (its jobs are registered) */
        post: operations["SignTasksController_enable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Finished runs of the task with their flow logs (persistent), newest first */
        get: operations["RunsController_taskHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/recipe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A task as a single shareable recipe JSON document (no name, accounts, state or times) */
        get: operations["TaskRecipesController_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a task now for its accounts (or one of them); follow it with run/status */
        post: operations["RunsController_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/run/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the task's active runs to stop (checked between steps and during every wait) */
        post: operations["RunsController_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/{name}/run/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** In-memory status of the task's run: state, phase, failure_category and the flow log */
        get: operations["RunsController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/runs/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs in progress (phase, account, task) on every replica */
        get: operations["RunsController_active"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sign-tasks/schedule-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The next run times of a schedule (unsaved), in the configured time zone
         * @description Computed with the scheduler's own code, and refused with the same 400 a task save gives for the same schedule fields.
         */
        post: operations["SchedulePreviewController_preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Today's successes and failures and the last days' runs and keyword hits per day, counted in the configured time zone */
        get: operations["DashboardController_stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/task-recipes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The built-in recipes for common check-in bots, each a task body with its success / already-done / failure patterns */
        get: operations["TaskRecipesController_catalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/task-recipes/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a task from a recipe document, with a name and accounts of this panel */
        post: operations["TaskRecipesController_import"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Basic liveness */
        get: operations["HealthController_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Container liveness check */
        get: operations["HealthController_healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics; needs `Authorization: Bearer <APP_METRICS_TOKEN>` when that token is set */
        get: operations["MetricsController_scrape"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Startup complete and database reachable; 503 otherwise
         * @description Without a token: status, database, read_only, data_directory (writable, error code) and scheduler_lock (enabled, held). With a valid access token also the details (scheduler lock holder with host name and pid, instance id, the cluster: the id of this replica, whether it leads and its account leases with their epochs, and any other detail).
         */
        get: operations["HealthController_readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AbnormalAccountDto: {
            account_name: string;
            code: string;
            message: string;
        };
        AccessTokenDto: {
            /** @description JWT (HS256); send it as Authorization: Bearer <access_token> */
            access_token: string;
            /** @description Lifetime of the token in seconds */
            expires_in: number;
            /** @enum {string} */
            token_type: "bearer";
        };
        AccountChatDto: {
            /**
             * @description The chat id a task uses: a user id, "-…" for a basic group, "-100…" for a channel or supergroup
             * @example -1001234567890
             */
            id: string;
            /**
             * @description forum: a supergroup with topics (a task may name a topic id)
             * @enum {string}
             */
            kind: "user" | "group" | "channel" | "forum";
            /** @example Daily check-in */
            title: string;
            /** @description Public @username, without the @ */
            username?: string;
        };
        AccountChatListDto: {
            account_name: string;
            /** @description Newest dialogs first, from the account's most recent dialogs only */
            chats: components["schemas"]["AccountChatDto"][];
            /** @description More chats matched than the answer holds, or the dialog list was cut at its bound: narrow the search */
            truncated: boolean;
        };
        AccountCheckResultDto: {
            account_name: string;
            /** Format: date-time */
            checked_at: string;
            /** @enum {string} */
            code: "OK" | "ACCOUNT_NOT_FOUND" | "ACCOUNT_SESSION_INVALID" | "CLIENT_INIT_FAILED" | "TIMEOUT" | "CONNECTION_ERROR" | "STORAGE_PERMISSION_DENIED" | "FLOOD_WAIT" | "STATUS_CHECK_FAILED";
            message: string;
            needs_relogin: boolean;
            ok: boolean;
            /** @enum {string} */
            status: "connected" | "invalid" | "checking" | "error" | "not_found";
        };
        AccountDto: {
            /** @example main */
            account_name: string;
            /** Format: date-time */
            created_at: string;
            /** @description False when the session file is missing (log in again) */
            has_session: boolean;
            last_check: components["schemas"]["AccountLastCheckDto"] | null;
            needs_relogin: boolean;
            /**
             * @description Proxy URL; password and MTProxy secret masked
             * @example socks5://user:***@127.0.0.1:1080
             */
            proxy: string | null;
            remark: string | null;
            /**
             * @description null until the first status check (for example after import-session)
             * @enum {string|null}
             */
            status: "connected" | "invalid" | "checking" | "error" | "not_found" | null;
            /** Format: date-time */
            updated_at: string;
            user: components["schemas"]["AccountUserDto"] | null;
        };
        AccountLastCheckDto: {
            /** Format: date-time */
            checked_at: string;
            /** @example OK */
            code: string;
            message: string;
        };
        AccountListDto: {
            accounts: components["schemas"]["AccountDto"][];
            total: number;
        };
        AccountSafetyDto: {
            account_name: string;
            /** @description Every Telegram call of the account today, reads included */
            calls_today: number;
            day_limit: number;
            /** @description Actions today (UTC) */
            day_used: number;
            /**
             * Format: date-time
             * @description No action before this time (a FloodWait in force)
             */
            flood_wait_until: string | null;
            /** @description Latest FloodWaits, newest first (at most 20) */
            flood_waits: components["schemas"]["FloodWaitDto"][];
            minute_limit: number;
            /** @description Actions (messages, dice, clicks, deletions) in the last 60 s */
            minute_used: number;
            /** @example FloodWait of 900 s on sendMessage */
            pause_reason: string | null;
            /** @description True while the account's automation is paused after a long FloodWait */
            paused: boolean;
            /** Format: date-time */
            paused_at: string | null;
            /** @description Actions refused today: budget used up, paused, or a listener reply that would have waited too long */
            refused_today: number;
        };
        AccountUserDto: {
            first_name: string | null;
            id: string;
            phone: string | null;
            username: string | null;
        };
        ActiveRunDto: {
            account_name: string;
            phase: string;
            phase_detail: string | null;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts phaseDetail) that `phase_detail` is, to say it in the reader's language
             * @enum {string|null}
             */
            phase_detail_code: "checking_account" | "waiting_lock" | "cooldown" | "action" | "reading_answer" | "retrying" | "cancel_requested" | null;
            /** @description The values the coded sentence names (empty without a code) */
            phase_detail_params: {
                [key: string]: string;
            };
            /** @description The replica running it (replicas on PostgreSQL; on one instance always that instance) */
            replica_id: string;
            run_id: string;
            /** Format: date-time */
            started_at: string;
            task_name: string;
            wait_seconds: number | null;
        };
        ActiveRunListDto: {
            /** @description Replicas that failed or did not answer: their runs are missing from `runs` (always empty on one instance) */
            failures: components["schemas"]["ReplicaFailureDto"][];
            /** @description The runs in progress on every live replica */
            runs: components["schemas"]["ActiveRunDto"][];
            total: number;
        };
        AiTestResultDto: {
            /** @description The model's answer, at most 200 characters */
            answer?: string;
            /** @description The saved base URL (null: the OpenAI API) */
            base_url: string | null;
            /** @description Why the test failed, in our words (the upstream body is not repeated) */
            error?: string;
            /**
             * @description What kind of failure
             * @enum {string}
             */
            error_kind?: "timeout" | "unreachable" | "unauthorized" | "rate_limited" | "bad_response" | "refused" | "error";
            /** @description Milliseconds until the answer or the failure */
            latency_ms: number;
            /** @description The saved model the question went to */
            model: string;
            /** @description true when the model answered */
            ok: boolean;
            /** @description The HTTP status the model API answered, when it answered */
            status?: number;
        };
        /** @description Every error of panel-api */
        ApiErrorBody: {
            /**
             * @description What went wrong, for a program: stable across versions and languages (docs/panel-api-errors.md)
             * @example task_not_found
             * @enum {string}
             */
            code: "validation_failed" | "invalid_json" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "gone" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "request_refused" | "internal_error" | "service_unavailable" | "invalid_credentials" | "totp_required" | "totp_invalid" | "wrong_current_password" | "wrong_totp_code" | "username_taken" | "totp_already_enabled" | "totp_not_set_up" | "totp_not_enabled" | "admin_not_found" | "account_not_found" | "account_exists" | "needs_relogin" | "login_not_found" | "login_code_invalid" | "check_job_not_found" | "check_job_running" | "check_job_not_running" | "device_not_found" | "current_session" | "flood_wait" | "telegram_target_not_found" | "telegram_unreachable" | "telegram_failed" | "telegram_unavailable" | "telegram_timeout" | "task_not_found" | "task_exists" | "task_busy" | "task_not_runnable" | "run_not_found" | "bot_not_configured" | "channel_not_configured" | "ai_not_configured" | "webdav_not_configured" | "webdav_target_required" | "backup_busy" | "backup_not_found" | "webdav_failed" | "keepalive_busy";
            /**
             * @description The status text
             * @example Not Found
             */
            error: string;
            /** @description On validation_failed: each field that breaks a rule, for a form to show on that field */
            fields?: {
                /**
                 * @description The field as the request names it; nested fields joined with dots
                 * @example chats.0.actions.1.keywords
                 */
                field: string;
                /**
                 * @description The upper limit of the rule, when it has one
                 * @example 64
                 */
                max?: number;
                /**
                 * @description A plain sentence naming what to fix, without API names
                 * @example Use at most 64 characters.
                 */
                message: string;
                /** @description The lower limit of the rule, when it has one */
                min?: number;
                /**
                 * @description The rule it breaks, stable for translations: required, too_long, too_short, too_many, too_few, too_small, too_large, range, integer, number, type, one_of, url, email, format, unknown_field, invalid, or a service-specific one
                 * @example too_long
                 */
                rule: string;
            }[];
            /**
             * @description What went wrong, for a person
             * @example Task daily not found
             */
            message: string;
            /**
             * @description The HTTP status again
             * @example 404
             */
            statusCode: number;
        };
        AutoBackupRunDto: {
            /** @enum {string} */
            destination: "webdav" | "local" | "none";
            error: string | null;
            file_name: string | null;
            finished_at: string;
            /** @description Whether the failure notice reached the bot */
            notified: boolean;
            ok: boolean;
            pruned_remote: string[];
            remote_path: string | null;
            started_at: string;
        };
        BackupSizesDto: {
            /** @description db.sqlite with its -wal and -shm (0 on PostgreSQL) */
            database_bytes: number;
            local_backups_bytes: number;
            sessions_bytes: number;
            settings_bytes: number;
            signer_bytes: number;
            signer_history_bytes: number;
        };
        BackupStatusDto: {
            auto_backup_enabled: boolean;
            auto_backup_interval_hours: number;
            auto_backup_keep: number;
            /** @enum {string} */
            database_driver: "sqlite" | "postgres";
            last_auto_backup: components["schemas"]["AutoBackupRunDto"] | null;
            /** @description Automatic backups kept on this server, newest first */
            local_backups: components["schemas"]["LocalBackupFileDto"][];
            next_auto_backup_at: string | null;
            sizes: components["schemas"]["BackupSizesDto"];
            webdav_configured: boolean;
            /** @description Remote folder of the saved target */
            webdav_folder: string | null;
        };
        BatchItemResultDto: {
            message?: string;
            name: string;
            ok: boolean;
            /** @enum {string} */
            result: "done" | "not_found" | "invalid" | "failed" | "already_running";
        };
        BatchResultDto: {
            action: string;
            failed: number;
            results: components["schemas"]["BatchItemResultDto"][];
            succeeded: number;
        };
        BatchTasksDto: {
            /** @enum {string} */
            action: "enable" | "disable" | "delete" | "run";
            names: string[];
        };
        BotTestResultDto: {
            /** @description The saved chat the message went to */
            chat_id: string;
            /** @description Telegram's description, or the network failure */
            description?: string;
            /** @description Ids of the messages Telegram accepted */
            message_ids: number[];
            /** @description true when the Bot API accepted the test message */
            ok: boolean;
            /** @description Seconds Telegram asked to wait (429) */
            retry_after_seconds?: number;
            /** @description HTTP status of the Bot API answer */
            status?: number;
            /** @description Telegram's error_code when it refused */
            telegram_error_code?: number;
        };
        CancelResultDto: {
            /** @description Runs asked to stop (they stop at the next step or wait) */
            cancelled: number;
            /** @description Replicas: those that could not be asked to stop their runs of the task (empty on one instance) */
            failures: components["schemas"]["ReplicaFailureDto"][];
            task_name: string;
        };
        CategoryCountDto: {
            /** @enum {string} */
            category: "none" | "session_invalid" | "flood_wait" | "ai_timeout" | "ai_error" | "button_not_found" | "target_not_found" | "network_proxy" | "timeout" | "strong_failure" | "bot_refused" | "unconfirmed" | "safety_limit" | "unknown";
            count: number;
        };
        ChangePasswordDto: {
            /** Format: password */
            current_password: string;
            /**
             * Format: password
             * @description The password rule of both apps: 12 to 256 characters
             */
            new_password: string;
        };
        ChangeUsernameDto: {
            /** Format: password */
            current_password: string;
            /**
             * @description Letters, digits and _ . @ -; at most 64 characters
             * @example owner
             */
            new_username: string;
        };
        ChannelTestDto: {
            /** @enum {string} */
            channel: "bot" | "bark" | "server_chan" | "ntfy" | "discord" | "slack" | "teams" | "gotify" | "email" | "custom_webhook";
            /** @description What the receiver said when it refused (never a network error) */
            detail?: string | null;
            /**
             * @description Why it failed (a stable code the web app explains)
             * @enum {string|null}
             */
            error_code?: "http_error" | "rate_limited" | "timeout" | "network_error" | "invalid_url" | "private_target_refused" | "redirect_refused" | "dns_failed" | "rejected_by_receiver" | "encryption_required" | null;
            /** @description true when the receiver accepted the test message */
            ok: boolean;
            /** @description The receiver's HTTP status, when it answered */
            status?: number | null;
            /** @description When the test ran (ISO 8601, UTC) */
            tested_at: string;
        };
        ChannelTestListDto: {
            /** @description The last test of every channel tested so far */
            tests: components["schemas"]["ChannelTestDto"][];
        };
        ChatVerdictDto: {
            /** @description Ask the configured model to classify an answer no pattern matched */
            ai_fallback?: boolean;
            /**
             * @example [
             *       {
             *         "mode": "contains",
             *         "pattern": "今日已签"
             *       }
             *     ]
             */
            already_done?: components["schemas"]["VerdictPatternDto"][];
            /**
             * @example [
             *       {
             *         "mode": "regex",
             *         "pattern": "失败|error"
             *       }
             *     ]
             */
            failure?: components["schemas"]["VerdictPatternDto"][];
            /**
             * @description In a group: whose messages count besides replies to ours (a user id or @username)
             * @example @checkin_bot
             */
            from?: string;
            /**
             * @description An answer that names a wait runs the task once more after it (at most once a day)
             * @default true
             */
            rerun_after_wait: boolean;
            /**
             * @example [
             *       {
             *         "mode": "contains",
             *         "pattern": "签到成功"
             *       }
             *     ]
             */
            success?: components["schemas"]["VerdictPatternDto"][];
            /** @default 30 */
            timeout_seconds: number;
        };
        CheckJobDto: {
            account_names: string[];
            /** Format: date-time */
            created_at: string;
            error: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** Format: uuid */
            job_id: string;
            progress: components["schemas"]["CheckJobProgressDto"];
            /** @description Partial while running */
            result: components["schemas"]["CheckSummaryDto"];
            /** @enum {string} */
            status: "running" | "canceling" | "canceled" | "completed" | "failed" | "interrupted";
            timeout_seconds: number;
            /** Format: date-time */
            updated_at: string;
        };
        CheckJobProgressDto: {
            done: number;
            total: number;
        };
        CheckJobStartedDto: {
            /** Format: uuid */
            job_id: string;
            /** @example running */
            status: string;
            total: number;
        };
        CheckSummaryDto: {
            /** @description Accounts with any other result */
            abnormal: number;
            abnormal_accounts: components["schemas"]["AbnormalAccountDto"][];
            /** @description Accounts whose session works */
            normal: number;
            results: components["schemas"]["AccountCheckResultDto"][];
            total: number;
        };
        CloneTaskDto: {
            /** @example daily-checkin-copy */
            new_name: string;
        };
        ClusterAccountDto: {
            /** @description Fencing epoch of the lease: raised at every change of owner (0 before the first) */
            epoch: number;
            name: string;
            /** @description The live replica holding the lease; null between owners */
            owner: string | null;
        };
        ClusterDto: {
            accounts: components["schemas"]["ClusterAccountDto"][];
            /** @description Whether replicas share the accounts (PostgreSQL); false on SQLite, where one instance owns every account */
            enabled: boolean;
            /** @description The replica that answered */
            replica_id: string;
            /** @description Live replicas only (a heartbeat within the lease period) */
            replicas: components["schemas"]["ClusterReplicaDto"][];
        };
        ClusterReplicaDto: {
            /** @description The accounts whose Telegram sessions this replica uses now */
            accounts: string[];
            /**
             * @description APP_CLUSTER_ADDRESS, or http://<hostname>:<PORT>
             * @example http://10.0.3.7:8000
             */
            address: string;
            /**
             * @description APP_CLUSTER_REPLICA_ID, or <hostname>-<random>
             * @example panel-api-7d9f-0
             */
            id: string;
            /** Format: date-time */
            last_heartbeat_at: string;
            /** @description Whether this replica runs the system jobs (keep-alive, maintenance, automatic backups) */
            leader: boolean;
            /** @example 1.4.0 */
            version: string;
        };
        ConfigImportDto: {
            /** @description The configuration JSON: the reference panel's export (signs and monitors keyed by name), this panel's export, or its earlier list form; as a JSON string or an object */
            config_json: string | {
                [key: string]: unknown;
            };
            /**
             * @description The account for items that name none (tg-signer monitors, tasks without an account)
             * @example main
             */
            default_account?: string;
            /**
             * @description Replace tasks that exist; otherwise they are skipped (settings are applied either way, as in the reference panel)
             * @default false
             */
            overwrite: boolean;
            /**
             * @description Keys of the preview's items to import, all or nothing; without it every item is imported and any refused item stops the import
             * @example [
             *       "signs:daily_checkin",
             *       "monitors:auto_reply",
             *       "settings"
             *     ]
             */
            selected?: string[];
        };
        DashboardStatsDto: {
            /** @description Oldest first, today last */
            days: components["schemas"]["DayCountDto"][];
            /** @description Failed runs of the whole series by category, most first */
            failure_categories: components["schemas"]["CategoryCountDto"][];
            /** @example Asia/Shanghai */
            time_zone: string;
            /**
             * @description Today in the configured time zone
             * @example 2026-11-23
             */
            today: string;
            /** @description Runs today the bot answered were already done (counted in today_success) */
            today_already_done: number;
            /** @description Failed runs today */
            today_failure: number;
            /** @description Keyword hits today */
            today_keyword_hits: number;
            /** @description Successful runs today */
            today_success: number;
            /** @description Runs today the bot did not confirm (counted in today_failure) */
            today_unconfirmed: number;
        };
        DayCountDto: {
            /** @description Of the successes: the bot said the check-in was already done */
            already_done: number;
            /**
             * @description Day in the configured time zone
             * @example 2026-11-23
             */
            day: string;
            failure: number;
            keyword_hits: number;
            success: number;
            /** @description Of the failures: the bot did not confirm (no answer, or no pattern matched) */
            unconfirmed: number;
        };
        DeviceDto: {
            /** Format: date-time */
            active_at: string;
            app_name: string;
            app_version: string;
            /**
             * @description 64-bit authorization hash as a decimal string; "0" is the current session
             * @example -5823094582341
             */
            auth_hash: string;
            country: string;
            /** Format: date-time */
            created_at: string;
            /** @description The session panel-api itself uses; it cannot be terminated here */
            current: boolean;
            device_model: string;
            ip: string;
            /** @example North Holland, Netherlands */
            location: string;
            /** @description An official Telegram client */
            official_app: boolean;
            platform: string;
            region: string;
            system_version: string;
        };
        DeviceListDto: {
            account_name: string;
            devices: components["schemas"]["DeviceDto"][];
        };
        FloodWaitDto: {
            /** Format: date-time */
            at: string;
            /**
             * @description The call Telegram answered with the FloodWait
             * @example sendMessage
             */
            method: string;
            /** @description Seconds Telegram asked to wait */
            seconds: number;
        };
        FlowLogEntryDto: {
            /** Format: date-time */
            at: string;
            /**
             * @description A line the runner wrote itself: its stable code, to say it in the reader's language (absent on lines that carry an error's text, and on older runs)
             * @enum {string}
             */
            code?: "wait_before_action" | "sent_text" | "sent_dice" | "using_previous_reply" | "nothing_to_send" | "bots_capped" | "sent_to_bot" | "pressed_keyboard" | "clicked" | "clicked_answered" | "reply" | "no_reply" | "model_answered" | "waiting_lock" | "verdict" | "bot_failed_retry" | "step_retry" | "deletion_scheduled" | "run_ended_verdict" | "run_succeeded" | "run_failed" | "run_interrupted" | "run_error";
            /** @enum {string} */
            level: "info" | "warn" | "error";
            message: string;
            /**
             * @description The values the code's sentence names
             * @example {
             *       "seconds": 3
             *     }
             */
            params?: {
                [key: string]: string | number;
            };
            /** @example chat 1 action 2 */
            step: string | null;
        };
        HistoryEntryDto: {
            account_name: string;
            attempts: number;
            failure_category: string;
            /** Format: date-time */
            finished_at: string;
            flow_log: components["schemas"]["FlowLogEntryDto"][];
            message: string;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts runMessage) when the runner or a named error wrote the message: say it in the reader's language, with `message` as the detail; null for a bot's answer or an uncoded error text
             * @enum {string|null}
             */
            message_code: "completed" | "no_answer" | "run_cancelled" | "run_timeout" | "run_shutdown" | "run_released" | "interrupted_replica_stopped" | "interrupted_lease_not_renewed" | "telegram_flood_wait" | "telegram_session_invalid" | "telegram_timeout" | "telegram_aborted" | "telegram_not_configured" | "telegram_unreachable" | "telegram_shut_down" | "telegram_message_missing" | "telegram_no_button" | "telegram_button_not_pressable" | "telegram_answered" | "needs_relogin" | "account_missing" | "action_not_in_sign_run" | "no_message_with_button" | "reply_without_buttons" | "reply_without_button" | "no_reply_to_press" | "reply_gone" | "no_image_to_choose" | "image_without_options" | "model_matches_no_option" | "no_question" | "no_image_to_read" | "no_message_with_buttons" | "model_matches_no_button" | "regex_without_group" | "no_start_argument" | "no_start_link" | "no_downloadable_image" | "safety_paused" | "safety_keepalive_paused" | "safety_daily_cap" | "safety_busy" | "ai_not_configured" | "ai_empty_answer" | "ai_cancelled" | "ai_timeout" | "ai_unreachable_code" | "ai_unreachable" | "ai_unauthorized" | "ai_rate_limited" | "ai_http_error" | "ai_not_openai" | "ai_failed" | null;
            /**
             * @description The values the sentence of `message_code` names (empty without a code)
             * @example {
             *       "seconds": "37"
             *     }
             */
            message_params: {
                [key: string]: string;
            };
            run_id: string;
            /** Format: date-time */
            started_at: string;
            /** @enum {string} */
            state: "finished" | "cancelled" | "timeout";
            success: boolean;
            task_name: string;
            trigger: string;
            /**
             * @description What the bot's answer said (tasks with verdict patterns); null when the task declares none
             * @enum {string|null}
             */
            verdict: "success" | "already_done" | "failed" | "unconfirmed" | null;
            /** @description The answer that decided the verdict (one line, at most 500 characters) */
            verdict_text: string | null;
        };
        HistoryListDto: {
            history: components["schemas"]["HistoryEntryDto"][];
            task_name: string;
        };
        ImportCountsDto: {
            create: number;
            overwrite: number;
            refuse: number;
            skip: number;
            unchanged: number;
            update: number;
        };
        ImportItemDto: {
            /** @description Accounts the task runs for ("*" = every account) */
            accounts: string[];
            /** @enum {string} */
            action: "create" | "overwrite" | "update" | "unchanged" | "skip" | "refuse";
            /** @description Every default filled in, and why */
            defaults_applied: string[];
            /**
             * @description What `selected` names to import this item
             * @example signs:daily_checkin
             */
            key: string;
            /** @description Every field taken, with its new name or form where it changes */
            mapped_fields: string[];
            /** @description The task name here; null for settings */
            name: string | null;
            /** @description Why the item cannot be imported (action refuse) */
            problems: string[];
            reason: string | null;
            /** @enum {string} */
            section: "signs" | "monitors" | "settings";
            /** @description Keys of the document read into this item (per-account copies are merged) */
            source_keys: string[];
            /** @description Fields without an equivalent here */
            unmapped_fields: components["schemas"]["UnmappedFieldDto"][];
            warnings: string[];
        };
        ImportPreviewDto: {
            counts: components["schemas"]["ImportCountsDto"];
            items: components["schemas"]["ImportItemDto"][];
            overwrite: boolean;
            /** @description What stops the import: problems of the document, then of each refused (selected) item */
            problems: string[];
            /** @description Whether importing the selection (every item without one) would be accepted */
            valid: boolean;
        };
        ImportRecipeDto: {
            /** @example main */
            account_name?: string;
            account_names?: string[];
            /**
             * @description Name of the new task
             * @example daily-checkin
             */
            name: string;
            recipe: components["schemas"]["RecipeDocumentDto"];
        };
        ImportResultDto: {
            created: components["schemas"]["ImportItemDto"][];
            note: string;
            overwritten: components["schemas"]["ImportItemDto"][];
            /** @description Listener restart and other steps after the import */
            post_import: components["schemas"]["PostImportResultDto"][];
            /** @description The settings item; null when the document has no settings */
            settings: components["schemas"]["ImportItemDto"] | null;
            /** @description Not written: existing (overwrite=false), not selected */
            skipped: components["schemas"]["ImportItemDto"][];
        };
        ImportSessionDto: {
            /**
             * @description letters (any script, e.g. 主号), digits, "_", "-" or "."; 1-64 characters; no leading dot; not status, login, qr-login or import-session
             * @example main
             */
            account_name: string;
            /**
             * @description Replace the session of an existing account (otherwise 409)
             * @default false
             */
            overwrite: boolean;
            /** @example socks5://user:pass@127.0.0.1:1080 */
            proxy?: string;
            remark?: string;
            /** @description A GramJS (or Telethon) string session */
            session_string: string;
        };
        KeepaliveAccountResultDto: {
            account_name: string;
            /** @example OK */
            code: string | null;
            /** Format: date-time */
            last_keepalive_at: string | null;
            message: string;
            /** @enum {string} */
            outcome: "woken" | "skipped_not_due" | "skipped_needs_relogin" | "failed";
        };
        KeepaliveRunDto: {
            /**
             * @description Wake every account, not only those whose last keep-alive is older than the interval
             * @default false
             */
            force: boolean;
        };
        KeepaliveRunResultDto: {
            failed: number;
            /** @description Replicas: those that failed or did not answer; their accounts are not in results (empty on one instance) */
            failures: components["schemas"]["ReplicaFailureDto"][];
            /** Format: date-time */
            finished_at: string;
            results: components["schemas"]["KeepaliveAccountResultDto"][];
            skipped: number;
            /** Format: date-time */
            started_at: string;
            /** @enum {string} */
            trigger: "schedule" | "manual";
            woken: number;
        };
        KeywordHitDeleteResultDto: {
            deleted: number;
        };
        KeywordHitDto: {
            account_name: string;
            chat_id: string;
            chat_title: string | null;
            created_at: string;
            /** @description When the message was sent (UTC, ISO 8601) */
            hit_at: string;
            id: number;
            matched_keyword: string;
            message_id: number;
            message_thread_id: number | null;
            /** @enum {string} */
            push_channel: "telegram" | "forward" | "bark" | "custom" | "server_chan" | "continue" | "ntfy" | "discord" | "slack" | "teams" | "gotify" | "email";
            push_error: string | null;
            /** @enum {string} */
            push_status: "pending" | "sent" | "failed" | "skipped";
            sender_id: string | null;
            sender_name: string | null;
            sender_username: string | null;
            task_name: string;
            text: string;
            url: string | null;
        };
        KeywordHitGroupDto: {
            count: number;
            /** @description The task name, account name or chat id */
            key: string;
            latest_hit: components["schemas"]["KeywordHitDto"];
            /** @description Chat title (group_by=chat) */
            title: string | null;
        };
        KeywordHitGroupsDto: {
            /** @enum {string} */
            group_by: "task" | "account" | "chat";
            /** @description One page of groups, the one with the latest hit first (by that hit's hit_at, then id) */
            groups: components["schemas"]["KeywordHitGroupDto"][];
            /** @description The page size used */
            limit: number;
            /** @description Pass as `cursor` for the next page of groups; null on the last page */
            next_cursor: string | null;
            /** @description How many groups match the filters (exact; the same on every page) */
            total: number;
        };
        KeywordHitPageDto: {
            /** @description Newest first (hit_at, then id) */
            items: components["schemas"]["KeywordHitDto"][];
            limit: number;
            /** @description Pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
            /** @description The offset asked for (0 with a cursor) */
            offset: number;
            /** @description Hits matching the filters: exact up to 10,000, with `q` up to 1,000; when `total_capped` is true at least this many match (show "10,000+" or "1,000+"): 10,000, with `q` 1,000, or, for a `q` of one or two characters, the matches among the newest 20,000 hits of the other filters */
            total: number;
            /** @description True when `total` is a lower bound: more than 10,000 hits match (with `q`: more than 1,000), or a one- or two-character `q` was counted over the newest 20,000 hits only */
            total_capped: boolean;
        };
        LocalBackupFileDto: {
            /** @description Whether it can be downloaded: false when the replica that held it is no longer running (the archive went with its data directory) */
            available: boolean;
            modified_at: string;
            name: string;
            /** @description Replicas on PostgreSQL: the replica whose data directory holds the archive; null on one instance */
            replica_id: string | null;
            size_bytes: number;
        };
        LocalizedTextDto: {
            en: string;
            zh: string;
        };
        LoginDto: {
            /** Format: password */
            password: string;
            /**
             * @description Six-digit code; required only when TOTP is enabled
             * @example 123456
             */
            totp_code?: string;
            /** @example admin */
            username: string;
        };
        LoginStartDto: {
            /**
             * @description letters (any script, e.g. 主号), digits, "_", "-" or "."; 1-64 characters; no leading dot; not status, login, qr-login or import-session
             * @example main
             */
            account_name: string;
            /** @example +31612345678 */
            phone_number: string;
            /** @example socks5://127.0.0.1:1080 */
            proxy?: string;
        };
        LoginStartResultDto: {
            account_name: string;
            /** @description Where Telegram sent the code: app (official messages), sms, call, … */
            code_type: string;
            /** @example code_sent */
            status: string;
        };
        LoginVerifyDto: {
            /**
             * @description letters (any script, e.g. 主号), digits, "_", "-" or "."; 1-64 characters; no leading dot; not status, login, qr-login or import-session
             * @example main
             */
            account_name: string;
            /** @description Two-step verification password, when the account has one */
            password?: string;
            /** @example 12345 */
            phone_code: string;
        };
        LoginVerifyResultDto: {
            account?: components["schemas"]["AccountDto"];
            account_name: string;
            /** @description Hint of the 2FA password when status is password_required */
            password_hint?: string;
            /** @enum {string} */
            status: "success" | "password_required";
        };
        MeDto: {
            /** Format: date-time */
            created_at: string;
            totp_enabled: boolean;
            /** Format: date-time */
            updated_at: string;
            username: string;
        };
        MemoryReportDto: {
            current: components["schemas"]["MemorySampleDto"];
            peak_rss_bytes: number;
            running: boolean;
            sample_interval_seconds: number;
            /** @description The last hour of samples, oldest first */
            samples: components["schemas"]["MemorySampleDto"][];
            started_at: string | null;
        };
        MemorySampleDto: {
            array_buffers_bytes: number;
            at: string;
            external_bytes: number;
            heap_total_bytes: number;
            heap_used_bytes: number;
            rss_bytes: number;
        };
        OfficialMessageDto: {
            /** Format: date-time */
            date: string;
            id: number;
            text: string;
        };
        OfficialMessageListDto: {
            account_name: string;
            messages: components["schemas"]["OfficialMessageDto"][];
        };
        PostImportResultDto: {
            error: string | null;
            /** @example keyword-listeners */
            name: string;
            /** @description false when the step failed, e.g. a keyword listener that did not start */
            ok: boolean;
        };
        QrLoginPasswordDto: {
            password: string;
        };
        QrLoginStartDto: {
            /**
             * @description letters (any script, e.g. 主号), digits, "_", "-" or "."; 1-64 characters; no leading dot; not status, login, qr-login or import-session
             * @example main
             */
            account_name: string;
            /** @example socks5://127.0.0.1:1080 */
            proxy?: string;
        };
        QrLoginStatusDto: {
            account?: components["schemas"]["AccountDto"];
            account_name: string;
            error?: string;
            /** Format: date-time */
            expires_at?: string;
            login_id: string;
            password_hint?: string;
            /** @example tg://login?token=… */
            qr_url?: string;
            /** @enum {string} */
            state: "waiting_scan" | "scanned_wait_confirm" | "password_required" | "success" | "expired" | "failed";
        };
        RecipeDocumentDto: {
            /** @example signpulse-task-recipe */
            format: string;
            /** @description The task without name and accounts */
            task: {
                [key: string]: unknown;
            };
            /** @example daily-checkin */
            title?: string;
            /** @example 1 */
            version: number;
        };
        RemoteBackupFileDto: {
            modified_at: string | null;
            name: string;
            size_bytes: number;
        };
        RemoteBackupListDto: {
            /** @description .tar.gz files, newest first */
            files: components["schemas"]["RemoteBackupFileDto"][];
            folder: string;
        };
        ReplicaFailureDto: {
            /**
             * @description The error code the replica answered (service_unavailable when it did not answer)
             * @example service_unavailable
             */
            code: string;
            message: string;
            replica_id: string;
        };
        RunDetailDto: {
            account_name: string;
            attempts: number;
            failure_category: string;
            /** Format: date-time */
            finished_at: string;
            flow_log: components["schemas"]["FlowLogEntryDto"][];
            message: string;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts runMessage) when the runner or a named error wrote the message: say it in the reader's language, with `message` as the detail; null for a bot's answer or an uncoded error text
             * @enum {string|null}
             */
            message_code: "completed" | "no_answer" | "run_cancelled" | "run_timeout" | "run_shutdown" | "run_released" | "interrupted_replica_stopped" | "interrupted_lease_not_renewed" | "telegram_flood_wait" | "telegram_session_invalid" | "telegram_timeout" | "telegram_aborted" | "telegram_not_configured" | "telegram_unreachable" | "telegram_shut_down" | "telegram_message_missing" | "telegram_no_button" | "telegram_button_not_pressable" | "telegram_answered" | "needs_relogin" | "account_missing" | "action_not_in_sign_run" | "no_message_with_button" | "reply_without_buttons" | "reply_without_button" | "no_reply_to_press" | "reply_gone" | "no_image_to_choose" | "image_without_options" | "model_matches_no_option" | "no_question" | "no_image_to_read" | "no_message_with_buttons" | "model_matches_no_button" | "regex_without_group" | "no_start_argument" | "no_start_link" | "no_downloadable_image" | "safety_paused" | "safety_keepalive_paused" | "safety_daily_cap" | "safety_busy" | "ai_not_configured" | "ai_empty_answer" | "ai_cancelled" | "ai_timeout" | "ai_unreachable_code" | "ai_unreachable" | "ai_unauthorized" | "ai_rate_limited" | "ai_http_error" | "ai_not_openai" | "ai_failed" | null;
            /**
             * @description The values the sentence of `message_code` names (empty without a code)
             * @example {
             *       "seconds": "37"
             *     }
             */
            message_params: {
                [key: string]: string;
            };
            run_id: string;
            /** Format: date-time */
            started_at: string;
            /** @enum {string} */
            state: "finished" | "cancelled" | "timeout";
            success: boolean;
            task_name: string;
            trigger: string;
            /**
             * @description What the bot's answer said (tasks with verdict patterns); null when the task declares none
             * @enum {string|null}
             */
            verdict: "success" | "already_done" | "failed" | "unconfirmed" | null;
            /** @description The answer that decided the verdict (one line, at most 500 characters) */
            verdict_text: string | null;
        };
        RunFailureDto: {
            account_name: string;
            /**
             * @description The error code the owner answered (or service_unavailable when it did not answer)
             * @example service_unavailable
             */
            code: string;
            message: string;
        };
        RunListDto: {
            items: components["schemas"]["RunListItemDto"][];
            limit: number;
            offset: number;
            /**
             * @description The time zone the day filters were read in (settings.timezone)
             * @example Asia/Shanghai
             */
            time_zone: string;
            /** @description Runs matching the filter */
            total: number;
        };
        RunListItemDto: {
            account_name: string;
            attempts: number;
            /**
             * Format: date-time
             * @description When the run was recorded (its end)
             */
            created_at: string;
            failure_category: string;
            message: string;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts runMessage) when the runner or a named error wrote the message: say it in the reader's language, with `message` as the detail; null for a bot's answer or an uncoded error text
             * @enum {string|null}
             */
            message_code: "completed" | "no_answer" | "run_cancelled" | "run_timeout" | "run_shutdown" | "run_released" | "interrupted_replica_stopped" | "interrupted_lease_not_renewed" | "telegram_flood_wait" | "telegram_session_invalid" | "telegram_timeout" | "telegram_aborted" | "telegram_not_configured" | "telegram_unreachable" | "telegram_shut_down" | "telegram_message_missing" | "telegram_no_button" | "telegram_button_not_pressable" | "telegram_answered" | "needs_relogin" | "account_missing" | "action_not_in_sign_run" | "no_message_with_button" | "reply_without_buttons" | "reply_without_button" | "no_reply_to_press" | "reply_gone" | "no_image_to_choose" | "image_without_options" | "model_matches_no_option" | "no_question" | "no_image_to_read" | "no_message_with_buttons" | "model_matches_no_button" | "regex_without_group" | "no_start_argument" | "no_start_link" | "no_downloadable_image" | "safety_paused" | "safety_keepalive_paused" | "safety_daily_cap" | "safety_busy" | "ai_not_configured" | "ai_empty_answer" | "ai_cancelled" | "ai_timeout" | "ai_unreachable_code" | "ai_unreachable" | "ai_unauthorized" | "ai_rate_limited" | "ai_http_error" | "ai_not_openai" | "ai_failed" | null;
            /**
             * @description The values the sentence of `message_code` names (empty without a code)
             * @example {
             *       "seconds": "37"
             *     }
             */
            message_params: {
                [key: string]: string;
            };
            run_id: string;
            /** @enum {string} */
            state: "finished" | "cancelled" | "timeout";
            success: boolean;
            task_name: string;
            trigger: string;
            /**
             * @description What the bot's answer said (tasks with verdict patterns); null when the task declares none
             * @enum {string|null}
             */
            verdict: "success" | "already_done" | "failed" | "unconfirmed" | null;
            /** @description The answer that decided the verdict (one line, at most 500 characters) */
            verdict_text: string | null;
        };
        RunStartedDto: {
            /** @description Replicas: accounts whose owner failed to start the run while others started (empty on one instance) */
            failures: components["schemas"]["RunFailureDto"][];
            runs: components["schemas"]["StartedRunDto"][];
            task_name: string;
        };
        RunStatusDto: {
            account_name: string | null;
            attempts: number;
            error: string | null;
            /**
             * @description The sentence of the catalogue (runMessage) that `error` is, to say it in the reader's language; null for an uncoded error text
             * @enum {string|null}
             */
            error_code: "completed" | "no_answer" | "run_cancelled" | "run_timeout" | "run_shutdown" | "run_released" | "interrupted_replica_stopped" | "interrupted_lease_not_renewed" | "telegram_flood_wait" | "telegram_session_invalid" | "telegram_timeout" | "telegram_aborted" | "telegram_not_configured" | "telegram_unreachable" | "telegram_shut_down" | "telegram_message_missing" | "telegram_no_button" | "telegram_button_not_pressable" | "telegram_answered" | "needs_relogin" | "account_missing" | "action_not_in_sign_run" | "no_message_with_button" | "reply_without_buttons" | "reply_without_button" | "no_reply_to_press" | "reply_gone" | "no_image_to_choose" | "image_without_options" | "model_matches_no_option" | "no_question" | "no_image_to_read" | "no_message_with_buttons" | "model_matches_no_button" | "regex_without_group" | "no_start_argument" | "no_start_link" | "no_downloadable_image" | "safety_paused" | "safety_keepalive_paused" | "safety_daily_cap" | "safety_busy" | "ai_not_configured" | "ai_empty_answer" | "ai_cancelled" | "ai_timeout" | "ai_unreachable_code" | "ai_unreachable" | "ai_unauthorized" | "ai_rate_limited" | "ai_http_error" | "ai_not_openai" | "ai_failed" | null;
            /** @description The values the coded sentence names (empty without a code) */
            error_params: {
                [key: string]: string;
            };
            /** @enum {string} */
            failure_category: "none" | "session_invalid" | "flood_wait" | "ai_timeout" | "ai_error" | "button_not_found" | "target_not_found" | "network_proxy" | "timeout" | "strong_failure" | "bot_refused" | "unconfirmed" | "safety_limit" | "unknown";
            /** Format: date-time */
            finished_at: string | null;
            /** @description In-memory flow log; empty about 60 s after the end (history keeps it) */
            logs: components["schemas"]["FlowLogEntryDto"][];
            output: string | null;
            /** @enum {string|null} */
            phase: "starting" | "checking_account" | "waiting_lock" | "cooldown" | "running" | "finalizing" | null;
            phase_detail: string | null;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts phaseDetail) that `phase_detail` is, to say it in the reader's language
             * @enum {string|null}
             */
            phase_detail_code: "checking_account" | "waiting_lock" | "cooldown" | "action" | "reading_answer" | "retrying" | "cancel_requested" | null;
            /** @description The values the coded sentence names (empty without a code) */
            phase_detail_params: {
                [key: string]: string;
            };
            run_id: string | null;
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            state: "idle" | "running" | "finished" | "cancelled" | "stale" | "timeout" | "interrupted";
            success: boolean | null;
            task_name: string;
            timeout_seconds: number;
            trigger: string | null;
            /**
             * @description What the bot's answer said (tasks with verdict patterns); null when the task declares none
             * @enum {string|null}
             */
            verdict: "success" | "already_done" | "failed" | "unconfirmed" | null;
            /** @description The answer that decided the verdict (one line, at most 500 characters) */
            verdict_text: string | null;
            wait_seconds: number | null;
        };
        RunTaskDto: {
            /** @description Run for this account only (it must be one of the task's accounts) */
            account_name?: string;
        };
        RuntimeComponentStatusDto: {
            details?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            state: "running" | "idle" | "disabled" | "stopped" | "degraded" | "error";
        };
        RuntimeStatusDto: {
            /** @description One entry per feature that reports its state (scheduler, listeners, automatic backup, …) */
            components: {
                [key: string]: components["schemas"]["RuntimeComponentStatusDto"];
            };
            /** @enum {string} */
            database_driver: "sqlite" | "postgres";
            pid: number;
            started_at: string;
            uptime_seconds: number;
        };
        ScheduledJobDto: {
            /** @example sign-main-daily-checkin */
            id: string;
            /** @enum {string} */
            kind: "cron" | "interval";
            /** Format: date-time */
            next_run_at: string | null;
            /** @description False for a system job listed for information on an instance without the scheduler lock: it is not registered here */
            runs_here: boolean;
            /** @example 0 0 8 * * * */
            schedule: string | null;
            time_zone: string | null;
            /** @enum {string} */
            type: "sign" | "system";
        };
        ScheduledJobListDto: {
            jobs: components["schemas"]["ScheduledJobDto"][];
            /** @description Whether this instance holds the scheduler lock (always true with APP_SCHEDULER_LOCK=0) */
            lock_held: boolean;
            total: number;
        };
        SchedulePreviewDto: {
            /**
             * @description The 6-field cron expression the scheduler registers
             * @example 0 0 8 * * *
             */
            cron: string;
            runs: components["schemas"]["UpcomingRunDto"][];
            /**
             * @description The configured time zone the schedule is read in
             * @example Asia/Shanghai
             */
            time_zone: string;
        };
        SchedulePreviewRequestDto: {
            /** @default 5 */
            count: number;
            /**
             * @description listen tasks have no schedule
             * @enum {string}
             */
            execution_mode: "fixed" | "range";
            /** @default 0 */
            random_seconds: number;
            /**
             * @description range mode: HH:MM[:SS]
             * @example 09:30
             */
            range_end?: string;
            /**
             * @description range mode: HH:MM[:SS]
             * @example 08:00
             */
            range_start?: string;
            /**
             * @description fixed mode: 5- or 6-field cron, or HH:MM[:SS]
             * @example 0 8 * * *
             */
            sign_at?: string;
        };
        SettingsViewDto: {
            ai_api_key_set: boolean;
            ai_base_url: string | null;
            ai_model: string | null;
            auto_backup_enabled: boolean;
            auto_backup_interval_hours: number;
            auto_backup_keep: number;
            bot_chat_id: string | null;
            bot_notify_admin_login: boolean;
            bot_notify_backup_failure: boolean;
            bot_notify_enabled: boolean;
            bot_notify_session_invalid: boolean;
            bot_notify_task_failure: boolean;
            bot_notify_task_success: boolean;
            bot_token_set: boolean;
            device_keepalive_enabled: boolean;
            device_keepalive_interval_days: number;
            /** @enum {string} */
            notify_language: "en" | "zh";
            push_bark_url_set: boolean;
            push_discord_url_set: boolean;
            push_email_from: string | null;
            push_email_smtp_host: string | null;
            push_email_smtp_password_set: boolean;
            push_email_smtp_port: number;
            /** @enum {string} */
            push_email_smtp_security: "starttls" | "tls" | "none";
            push_email_smtp_username: string | null;
            /** @description Recipients, separated by commas */
            push_email_to: string | null;
            push_gotify_token_set: boolean;
            push_gotify_url: string | null;
            push_notify_admin_login: boolean;
            push_notify_backup_failure: boolean;
            push_notify_session_invalid: boolean;
            push_notify_task_failure: boolean;
            push_notify_task_success: boolean;
            push_ntfy_token_set: boolean;
            push_ntfy_url: string | null;
            push_server_chan_key_set: boolean;
            push_slack_url_set: boolean;
            push_teams_url_set: boolean;
            safety_flood_pause_seconds: number;
            safety_jitter_ms: number;
            safety_min_spacing_seconds: number;
            safety_per_day: number;
            safety_per_minute: number;
            telegram_api_hash_set: boolean;
            telegram_api_id: number | null;
            timezone: string;
            webdav_dir: string;
            webdav_password_set: boolean;
            webdav_url: string | null;
            webdav_username: string | null;
            webhook_secret_set: boolean;
            webhook_url: string | null;
        };
        SignTaskDto: {
            /** @example main */
            account_name?: string;
            /** @description Several accounts; ["*"] = every account */
            account_names?: string[];
            chats: components["schemas"]["TaskChatDto"][];
            /** Format: date-time */
            created_at: string;
            /** @default true */
            enabled: boolean;
            /** @enum {string} */
            execution_mode: "fixed" | "range" | "listen";
            last_run: components["schemas"]["TaskLastRunDto"] | null;
            /**
             * @description Any display name (emoji and punctuation allowed): 1-64 characters, no control characters, no leading or trailing spaces
             * @example daily-checkin
             */
            name: string;
            /** @default true */
            notify_on_failure: boolean;
            /** @default false */
            notify_on_success: boolean;
            /** @default 0 */
            random_seconds: number;
            /** @example 09:30 */
            range_end?: string;
            /** @example 08:00 */
            range_start?: string;
            /** @default 3 */
            retry_count: number;
            /**
             * @description 5- or 6-field cron, or HH:MM[:SS]; required in fixed mode
             * @example 0 8 * * *
             */
            sign_at?: string;
            /** @description Seconds between the chats of one run */
            sign_interval?: number;
            /** Format: date-time */
            updated_at: string;
        };
        SignTaskInputDto: {
            /** @example main */
            account_name?: string;
            /** @description Several accounts; ["*"] = every account */
            account_names?: string[];
            chats: components["schemas"]["TaskChatDto"][];
            /** @default true */
            enabled: boolean;
            /** @enum {string} */
            execution_mode: "fixed" | "range" | "listen";
            /**
             * @description Any display name (emoji and punctuation allowed): 1-64 characters, no control characters, no leading or trailing spaces
             * @example daily-checkin
             */
            name: string;
            /** @default true */
            notify_on_failure: boolean;
            /** @default false */
            notify_on_success: boolean;
            /** @default 0 */
            random_seconds: number;
            /** @example 09:30 */
            range_end?: string;
            /** @example 08:00 */
            range_start?: string;
            /** @default 3 */
            retry_count: number;
            /**
             * @description 5- or 6-field cron, or HH:MM[:SS]; required in fixed mode
             * @example 0 8 * * *
             */
            sign_at?: string;
            /** @description Seconds between the chats of one run */
            sign_interval?: number;
        };
        SignTaskListDto: {
            tasks: components["schemas"]["SignTaskDto"][];
            total: number;
        };
        StartedRunDto: {
            account_name: string;
            run_id: string;
        };
        StatusCheckDto: {
            /** @description Accounts to check; every account when absent or empty */
            account_names?: string[];
            /**
             * @description Deadline per account, in seconds
             * @default 8
             */
            timeout_seconds: number;
        };
        TaskActionDto: {
            /**
             * @description 1 text, 2 dice, 3 click button, 4-7 AI, 8 keyword listen, 9 follow deep link (listen follow-up)
             * @enum {number}
             */
            action: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
            /** @example 23:30 */
            active_time_end?: string;
            /** @example 08:00 */
            active_time_start?: string;
            /** @description Actions 4-7: extra instructions for the model */
            ai_prompt?: string;
            /** @description Action 1 as a listen follow-up: send the model's reply to the hit message (ai_prompt = its instructions) */
            ai_reply?: boolean;
            bark_url?: string;
            /**
             * @description Action 9: the bot to start (default: the bot of a deep link in the message)
             * @example RedPacketBot
             */
            bot_username?: string;
            /**
             * @description Action 9: the command sent to the bot
             * @example /start
             */
            command_prefix?: string;
            /** @description push_channel continue: actions run in continue_chat_id */
            continue_actions?: components["schemas"]["TaskActionDto"][];
            continue_chat_id?: number | string;
            /** @description Seconds after which messages sent by the follow-ups are deleted (0 = at once) */
            continue_delete_after?: number;
            continue_message_thread_id?: number;
            /** @description Action 8: seconds after a hit during which the rule ignores further hits */
            cooldown?: number;
            custom_url?: string;
            /** @description Seconds before the step, or a random range "a-b" */
            delay?: number | string;
            /** @example 🎲 */
            dice?: string;
            /** @description Action 8: user ids whose messages never trigger the rule */
            exclude_user_ids?: string[];
            forward_chat_id?: number | string;
            forward_message_thread_id?: number;
            /** @description Actions 3 and 7: press the button on the bot's reply to the chat's previous action (reply-to mode) */
            from_reply?: boolean;
            /** @default true */
            ignore_case: boolean;
            /** @default true */
            ignore_self: boolean;
            keywords?: string[];
            /** @enum {string} */
            match_mode?: "contains" | "exact" | "regex" | "all";
            /**
             * @description Action 9: at most this many bots started per hit
             * @default 5
             */
            max_batch: number;
            /** @description Action 8: at most this many hits acted on per day */
            max_daily?: number;
            /** @description Action 8: chance that a hit is acted on (1 = always) */
            probability?: number;
            /** @enum {string} */
            push_channel?: "telegram" | "forward" | "bark" | "custom" | "server_chan" | "continue" | "ntfy" | "discord" | "slack" | "teams" | "gotify" | "email";
            /** @description Action 1 as a listen follow-up: send the first capture group of this expression in the hit message (else text) */
            send_text_search_regex?: string;
            /** @description Only these senders (ids, @usernames, names, or me for the account itself; comma separated) */
            sender_filter?: string;
            server_chan_key?: string;
            /**
             * @description Action 9: start argument (template) when the message has no deep link
             * @example {keyword}
             */
            start_param?: string;
            /** @description Action 1: text to send; action 3: button text to click */
            text?: string;
        };
        TaskChatDto: {
            /** @description Seconds between actions */
            action_interval?: number;
            actions: components["schemas"]["TaskActionDto"][];
            chat_id: number | string;
            /** @description Seconds after which sent messages are deleted */
            delete_after?: number;
            /** @description Forum topic */
            message_thread_id?: number;
            name?: string;
            /** @description How to read the bot's answer to the chat's last action */
            verdict?: components["schemas"]["ChatVerdictDto"];
        };
        TaskLastRunDto: {
            account_name: string;
            /** Format: date-time */
            at: string;
            failure_category: string;
            message: string;
            success: boolean;
        };
        TaskRecipeDto: {
            description: components["schemas"]["LocalizedTextDto"];
            /** @example send-command */
            id: string;
            /** @description A task body without name and accounts (see POST /api/sign-tasks) */
            task: {
                [key: string]: unknown;
            };
            title: components["schemas"]["LocalizedTextDto"];
        };
        TaskRecipeListDto: {
            recipes: components["schemas"]["TaskRecipeDto"][];
        };
        TaskRunStatusDto: {
            account_name: string | null;
            attempts: number;
            error: string | null;
            /**
             * @description The sentence of the catalogue (runMessage) that `error` is, to say it in the reader's language; null for an uncoded error text
             * @enum {string|null}
             */
            error_code: "completed" | "no_answer" | "run_cancelled" | "run_timeout" | "run_shutdown" | "run_released" | "interrupted_replica_stopped" | "interrupted_lease_not_renewed" | "telegram_flood_wait" | "telegram_session_invalid" | "telegram_timeout" | "telegram_aborted" | "telegram_not_configured" | "telegram_unreachable" | "telegram_shut_down" | "telegram_message_missing" | "telegram_no_button" | "telegram_button_not_pressable" | "telegram_answered" | "needs_relogin" | "account_missing" | "action_not_in_sign_run" | "no_message_with_button" | "reply_without_buttons" | "reply_without_button" | "no_reply_to_press" | "reply_gone" | "no_image_to_choose" | "image_without_options" | "model_matches_no_option" | "no_question" | "no_image_to_read" | "no_message_with_buttons" | "model_matches_no_button" | "regex_without_group" | "no_start_argument" | "no_start_link" | "no_downloadable_image" | "safety_paused" | "safety_keepalive_paused" | "safety_daily_cap" | "safety_busy" | "ai_not_configured" | "ai_empty_answer" | "ai_cancelled" | "ai_timeout" | "ai_unreachable_code" | "ai_unreachable" | "ai_unauthorized" | "ai_rate_limited" | "ai_http_error" | "ai_not_openai" | "ai_failed" | null;
            /** @description The values the coded sentence names (empty without a code) */
            error_params: {
                [key: string]: string;
            };
            /** @enum {string} */
            failure_category: "none" | "session_invalid" | "flood_wait" | "ai_timeout" | "ai_error" | "button_not_found" | "target_not_found" | "network_proxy" | "timeout" | "strong_failure" | "bot_refused" | "unconfirmed" | "safety_limit" | "unknown";
            /** Format: date-time */
            finished_at: string | null;
            /** @description In-memory flow log; empty about 60 s after the end (history keeps it) */
            logs: components["schemas"]["FlowLogEntryDto"][];
            output: string | null;
            /** @enum {string|null} */
            phase: "starting" | "checking_account" | "waiting_lock" | "cooldown" | "running" | "finalizing" | null;
            phase_detail: string | null;
            /**
             * @description The sentence of the catalogue (@shared/panel-texts phaseDetail) that `phase_detail` is, to say it in the reader's language
             * @enum {string|null}
             */
            phase_detail_code: "checking_account" | "waiting_lock" | "cooldown" | "action" | "reading_answer" | "retrying" | "cancel_requested" | null;
            /** @description The values the coded sentence names (empty without a code) */
            phase_detail_params: {
                [key: string]: string;
            };
            run_id: string | null;
            /** @description One entry per account of the task still in memory */
            runs: components["schemas"]["RunStatusDto"][];
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            state: "idle" | "running" | "finished" | "cancelled" | "stale" | "timeout" | "interrupted";
            success: boolean | null;
            task_name: string;
            timeout_seconds: number;
            trigger: string | null;
            /**
             * @description What the bot's answer said (tasks with verdict patterns); null when the task declares none
             * @enum {string|null}
             */
            verdict: "success" | "already_done" | "failed" | "unconfirmed" | null;
            /** @description The answer that decided the verdict (one line, at most 500 characters) */
            verdict_text: string | null;
            wait_seconds: number | null;
        };
        TotpCodeDto: {
            /** @example 123456 */
            code: string;
        };
        TotpEnabledDto: {
            /** @description A fresh token for the caller: enabling TOTP signs out every other session, this one continues with it */
            access_token: string;
            /** @description Lifetime of the token in seconds */
            expires_in: number;
            /** @enum {string} */
            token_type: "bearer";
            /** @enum {boolean} */
            totp_enabled: true;
        };
        TotpEnableDto: {
            /**
             * @description A code from the authenticator app for the pending secret
             * @example 123456
             */
            code: string;
            /**
             * Format: password
             * @description The current password
             */
            current_password: string;
        };
        TotpSetupDto: {
            /** @example otpauth://totp/SignPulse:admin?secret=...&issuer=SignPulse */
            otpauth_uri: string;
            /** @description The otpauth URI as a PNG QR code data URL */
            qr_code_data_url: string;
            /** @description Base32 secret, for manual entry */
            secret: string;
        };
        TotpSetupRequestDto: {
            /**
             * Format: password
             * @description The current password: a token alone cannot set up a second factor
             */
            current_password: string;
        };
        TotpStatusDto: {
            totp_enabled: boolean;
        };
        UnmappedFieldDto: {
            /** @example chats[0].source_account */
            field: string;
            /** @description Why it has no equivalent and what happens instead */
            note: string;
        };
        UpcomingRunDto: {
            /**
             * Format: date-time
             * @description When the job fires (UTC)
             */
            fires_at: string;
            /**
             * Format: date-time
             * @description The latest the run may start after its random wait (random_seconds, or up to range_end); equals fires_at without one
             */
            latest_start: string;
        };
        UpdateAccountDto: {
            /**
             * @description socks5://, socks4://, http:// URL, mtproxy://<secret>@host:port or tg://proxy?server=&port=&secret=; null or "" removes it
             * @example socks5://user:pass@127.0.0.1:1080
             */
            proxy?: string | null;
            /** @description null or "" clears it */
            remark?: string | null;
        };
        UpdateCheckResultDto: {
            /** @description true when this answer came from the cache */
            cached: boolean;
            checked_at: string | null;
            current_version: string;
            /** @description false when APP_UPDATE_CHECK=0 */
            enabled: boolean;
            latest_version: string | null;
            /** @description false when the check failed; the reason says why (the request still answers 200) */
            ok: boolean;
            published_at: string | null;
            reason: string | null;
            release_url: string | null;
            update_available: boolean | null;
        };
        UpdateSettingsDto: {
            /** @description Secret, write-only. An empty string keeps the stored value; null clears it. */
            ai_api_key?: string | null;
            /** @description OpenAI-compatible base URL. null or an empty string clears it. */
            ai_base_url?: string | null;
            /** @description null or an empty string clears it. */
            ai_model?: string | null;
            /** @default false */
            auto_backup_enabled: boolean;
            /** @default 24 */
            auto_backup_interval_hours: number;
            /**
             * @description Remote automatic backups kept.
             * @default 7
             */
            auto_backup_keep: number;
            /** @description Numeric chat id or @channel. null or an empty string clears it. */
            bot_chat_id?: string | null;
            /**
             * @description Notify on every panel login.
             * @default false
             */
            bot_notify_admin_login: boolean;
            /**
             * @description Bot notice when an automatic backup fails.
             * @default true
             */
            bot_notify_backup_failure: boolean;
            /**
             * @description Master switch of bot notifications.
             * @default false
             */
            bot_notify_enabled: boolean;
            /**
             * @description Notify when an account session becomes invalid.
             * @default true
             */
            bot_notify_session_invalid: boolean;
            /** @default true */
            bot_notify_task_failure: boolean;
            /** @default false */
            bot_notify_task_success: boolean;
            /** @description Bot API token. Secret, write-only. An empty string keeps the stored value; null clears it. */
            bot_token?: string | null;
            /** @default true */
            device_keepalive_enabled: boolean;
            /** @default 30 */
            device_keepalive_interval_days: number;
            /**
             * @description The language of the notifications (bot, push channels, webhook): en (English) or zh (Simplified Chinese).
             * @default en
             * @enum {string}
             */
            notify_language: "en" | "zh";
            /** @description Bark device URL (https://api.day.app/<device key>). Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_bark_url?: string | null;
            /** @description Discord incoming webhook URL (https://discord.com/api/webhooks/<id>/<token>). Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_discord_url?: string | null;
            /** @description Sender: panel@example.com or "Name <panel@example.com>". null or an empty string clears it. */
            push_email_from?: string | null;
            /** @description SMTP server host name of the email channel. null or an empty string clears it. */
            push_email_smtp_host?: string | null;
            /** @description SMTP password. Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_email_smtp_password?: string | null;
            /**
             * @description SMTP server port (587 for STARTTLS, 465 for TLS).
             * @default 587
             */
            push_email_smtp_port: number;
            /**
             * @description starttls (required on a plain port), tls (from the first byte) or none (only to a local server, with APP_OUTBOUND_ALLOW_PRIVATE=1).
             * @default starttls
             * @enum {string}
             */
            push_email_smtp_security: "starttls" | "tls" | "none";
            /** @description SMTP login (optional). null or an empty string clears it. */
            push_email_smtp_username?: string | null;
            /** @description Recipients, 1 to 20 addresses separated by commas. null or an empty string clears it. */
            push_email_to?: string | null;
            /** @description Gotify application token. Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_gotify_token?: string | null;
            /** @description Gotify server URL (https://gotify.example.org). null or an empty string clears it. */
            push_gotify_url?: string | null;
            /**
             * @description Push channels and webhook: every panel login.
             * @default false
             */
            push_notify_admin_login: boolean;
            /**
             * @description Push channels and webhook: failed automatic backups.
             * @default true
             */
            push_notify_backup_failure: boolean;
            /**
             * @description Push channels and webhook: an account session became invalid.
             * @default true
             */
            push_notify_session_invalid: boolean;
            /**
             * @description Push channels and webhook: failed task runs.
             * @default true
             */
            push_notify_task_failure: boolean;
            /**
             * @description Push channels and webhook: successful task runs.
             * @default false
             */
            push_notify_task_success: boolean;
            /** @description ntfy access token (optional). Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_ntfy_token?: string | null;
            /** @description ntfy topic URL (https://ntfy.sh/<topic>). null or an empty string clears it. */
            push_ntfy_url?: string | null;
            /** @description ServerChan SendKey. Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_server_chan_key?: string | null;
            /** @description Slack incoming webhook URL (https://hooks.slack.com/services/...). Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_slack_url?: string | null;
            /** @description Microsoft Teams Workflows webhook URL ("When a Teams webhook request is received"). Secret, write-only. An empty string keeps the stored value; null clears it. */
            push_teams_url?: string | null;
            /**
             * @description Safety governor: a FloodWait longer than this pauses the account's automation until resumed.
             * @default 600
             */
            safety_flood_pause_seconds: number;
            /**
             * @description Safety governor: random milliseconds added to every wait it imposes.
             * @default 1500
             */
            safety_jitter_ms: number;
            /**
             * @description Safety governor: seconds between two actions of an account in one chat.
             * @default 3
             */
            safety_min_spacing_seconds: number;
            /**
             * @description Safety governor: actions per account per day (UTC).
             * @default 500
             */
            safety_per_day: number;
            /**
             * @description Safety governor: actions (messages, dice, clicks, deletions) per account per minute.
             * @default 20
             */
            safety_per_minute: number;
            /** @description Telegram api_hash (32 hex). Secret, write-only. An empty string keeps the stored value; null clears it. */
            telegram_api_hash?: string | null;
            /** @description Telegram api_id from my.telegram.org. */
            telegram_api_id?: number | null;
            /**
             * @description IANA time zone of the schedules.
             * @default UTC
             * @example Europe/Berlin
             */
            timezone: string;
            /**
             * @description Remote folder of the backups.
             * @default tg-signpulse-backups
             */
            webdav_dir: string;
            /** @description Secret, write-only. An empty string keeps the stored value; null clears it. */
            webdav_password?: string | null;
            /** @description WebDAV base URL. null or an empty string clears it. */
            webdav_url?: string | null;
            /** @description null or an empty string clears it. */
            webdav_username?: string | null;
            /** @description Signing secret of the custom webhook (at least 16 characters). Secret, write-only. An empty string keeps the stored value; null clears it. */
            webhook_secret?: string | null;
            /** @description Custom webhook URL: notices are POSTed as signed JSON. null or an empty string clears it. */
            webhook_url?: string | null;
        };
        VerdictPatternDto: {
            /**
             * @description contains: the answer contains the text (any case); regex: an RE2 expression (any case)
             * @enum {string}
             */
            mode: "contains" | "regex";
            /** @example 签到成功 */
            pattern: string;
        };
        VersionInfoDto: {
            build_time: string | null;
            git_branch: string | null;
            git_sha: string | null;
            /** @example v20.19.0 */
            node_version: string;
            /** @example 1.4.0 */
            package_version: string;
            /** @example node */
            runtime: string;
            /**
             * @description APP_VERSION when set (and not 0.0.0), else the package version
             * @example 1.4.0
             */
            version: string;
        };
        WebDavTestResultDto: {
            /** @description Why the test failed */
            error?: string;
            folder: string;
            /** @description Whether the folder exists yet (an upload creates it) */
            folder_exists?: boolean;
            ok: boolean;
        };
        WebDavUploadResultDto: {
            /** @enum {string} */
            database: "included" | "not-included-postgres";
            /** @enum {string} */
            destination: "webdav";
            /** @example backup-20240131-120000.tar.gz */
            file_name: string;
            /** @example /tg-signpulse-backups/backup-20240131-120000.tar.gz */
            remote_path: string;
            size_bytes: number;
            /** @description Address of the uploaded file (without credentials) */
            url: string;
        };
    };
    responses: {
        /** @description The service is starting or shutting down; try again after Retry-After */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    AccountsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountListDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDto"];
                };
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAccountDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDto"];
                };
            };
            /** @description Invalid name, remark or proxy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountChatsController_list: {
        parameters: {
            query?: {
                /** @description At most this many chats in the answer */
                limit?: number;
                /** @description Only chats whose title or username contains this (case-insensitive) */
                q?: string;
            };
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountChatListDto"];
                };
            };
            /** @description Invalid account name, q longer than 64 characters, or limit outside 1..100 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The account needs_relogin (its session is invalid or missing) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram could not be reached */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description Telegram did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    DevicesController_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceListDto"];
                };
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The account needs_relogin (its session is invalid or missing) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram could not be reached */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description Telegram did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    DevicesController_terminate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
                auth_hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Terminated */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid account name or auth_hash */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The account needs_relogin (its session is invalid or missing) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram could not be reached */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description Telegram did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    DevicesController_officialMessages: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialMessageListDto"];
                };
            };
            /** @description Invalid account name or limit outside 1..100 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The account needs_relogin (its session is invalid or missing) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram could not be reached */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description Telegram did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    SafetyController_safety: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountSafetyDto"];
                };
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SafetyController_resume: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountSafetyDto"];
                };
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountsController_importSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportSessionDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDto"];
                };
            };
            /** @description Invalid account name, session string or proxy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The account exists and overwrite is not true */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_cancelPhone: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Forgotten */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The name is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No login in progress for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_start: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginStartDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginStartResultDto"];
                };
            };
            /** @description Invalid account name, phone number or proxy, or Telegram refused the number */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_verify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginVerifyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginVerifyResultDto"];
                };
            };
            /** @description Wrong or expired code, or wrong password */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No login was started for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_qrStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                login_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QrLoginStatusDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Unknown or forgotten login id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_cancelQr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                login_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Forgotten */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description login_id is not a login id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Unknown or forgotten login id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_qrPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                login_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QrLoginPasswordDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QrLoginStatusDto"];
                };
            };
            /** @description Wrong password, or the login does not wait for one */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Unknown or forgotten login id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountLoginController_startQr: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QrLoginStartDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QrLoginStatusDto"];
                };
            };
            /** @description Invalid account name or proxy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Telegram asks to wait (Retry-After header) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountStatusController_check: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusCheckDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckSummaryDto"];
                };
            };
            /** @description Invalid names, timeout out of 1..20, or more than 200 accounts */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountStatusController_startJob: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusCheckDto"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckJobStartedDto"];
                };
            };
            /** @description Invalid names, timeout out of 1..20, or more than 200 accounts */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Another check job is running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountStatusController_getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckJobDto"];
                };
            };
            /** @description job_id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such job */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AccountStatusController_cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckJobDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No such job */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The job is not running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenDto"];
                };
            };
            /** @description Malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Wrong username, password or TOTP code, or TOTP code missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many failed logins from this address, or guesses at the account come too fast; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token is revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenDto"];
                };
            };
            /** @description Invalid new password */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description current_password is wrong */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many wrong passwords or codes for this account; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_disableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TotpCodeDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpStatusDto"];
                };
            };
            /** @description Malformed, wrong or already used code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description TOTP is not enabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many wrong passwords or codes for this account; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_enableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TotpEnableDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpEnabledDto"];
                };
            };
            /** @description Malformed, wrong or already used code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description current_password is wrong */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Already enabled, or no pending secret */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many wrong passwords or codes for this account; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_setupTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TotpSetupRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpSetupDto"];
                };
            };
            /** @description Malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description current_password is wrong */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description TOTP is already enabled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many wrong passwords or codes for this account; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_changeUsername: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeUsernameDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenDto"];
                };
            };
            /** @description Invalid new username */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description current_password is wrong */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Username taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4096 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Too many wrong passwords or codes for this account; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BatchController_apply: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchTasksDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResultDto"];
                };
            };
            /** @description Unknown action, no names or more than 100 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiTestController_test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiTestResultDto"];
                };
            };
            /** @description ai_model or ai_api_key is not saved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotTestResultDto"];
                };
            };
            /** @description bot_token or bot_chat_id is not saved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ConfigTransferController_exportAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ConfigTransferController_exportSign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Name of the sign task */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No sign task of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ConfigTransferController_preview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfigImportDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportPreviewDto"];
                };
            };
            /** @description config_json is not a JSON object */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4194304 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ConfigTransferController_importAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfigImportDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResultDto"];
                };
            };
            /** @description Every problem found; nothing was changed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4194304 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ConfigTransferController_importSign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfigImportDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResultDto"];
                };
            };
            /** @description Every problem found; nothing was changed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 4194304 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_testChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel to test */
                channel: "bot" | "bark" | "server_chan" | "ntfy" | "discord" | "slack" | "teams" | "gotify" | "email" | "custom_webhook";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelTestDto"];
                };
            };
            /** @description An unknown channel, or the channel is not configured (channel_not_configured) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_lastTests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelTestListDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SettingsController_read: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsViewDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SettingsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSettingsDto"];
            };
        };
        responses: {
            /** @description The settings after the change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsViewDto"];
                };
            };
            /** @description Unknown or invalid field, or a URL moved to another server without its secret; nothing was changed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    KeepaliveController_run: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeepaliveRunDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeepaliveRunResultDto"];
                };
            };
            /** @description Invalid body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description A keep-alive run is already in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignHistoryStreamController_stream: {
        parameters: {
            query: {
                /** @description The access token (EventSource cannot send an Authorization header) */
                token: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An endless text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid token (pass it as ?token=) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description This token already holds the maximum number of open streams (APP_EVENTS_MAX_STREAMS_PER_TOKEN) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    KeywordHitsController_list: {
        parameters: {
            query?: {
                /** @description Account name (exact) */
                account?: string;
                /** @description Chat id (exact), e.g. -1001234567890 */
                chat?: string;
                /** @description Keyset paging: `next_cursor` of the previous page; the page starts right after its last hit */
                cursor?: string;
                limit?: number;
                /** @description Offset paging, kept for older clients; prefer `cursor` (not both) */
                offset?: number;
                /** @description Text search in the message, matched keyword, sender and chat title */
                q?: string;
                /** @description Hits at or after this time (ISO 8601) */
                since?: string;
                /** @description Task name (exact) */
                task?: string;
                /** @description Hits before this time (ISO 8601) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeywordHitPageDto"];
                };
            };
            /** @description Invalid filter (unknown parameter, bad time, since after until, limit out of range) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    KeywordHitsController_delete: {
        parameters: {
            query?: {
                /** @description Account name (exact) */
                account?: string;
                /** @description Chat id (exact), e.g. -1001234567890 */
                chat?: string;
                /** @description Text search in the message, matched keyword, sender and chat title */
                q?: string;
                /** @description Hits at or after this time (ISO 8601) */
                since?: string;
                /** @description Task name (exact) */
                task?: string;
                /** @description Hits before this time (ISO 8601) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeywordHitDeleteResultDto"];
                };
            };
            /** @description Invalid filter (unknown parameter, bad time, since after until, limit out of range) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    KeywordHitsController_export: {
        parameters: {
            query?: {
                /** @description Account name (exact) */
                account?: string;
                /** @description Chat id (exact), e.g. -1001234567890 */
                chat?: string;
                /** @description Text search in the message, matched keyword, sender and chat title */
                q?: string;
                /** @description Hits at or after this time (ISO 8601) */
                since?: string;
                /** @description Task name (exact) */
                task?: string;
                /** @description Hits before this time (ISO 8601) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid filter (unknown parameter, bad time, since after until, limit out of range) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    KeywordHitsController_groups: {
        parameters: {
            query: {
                /** @description Account name (exact) */
                account?: string;
                /** @description Chat id (exact), e.g. -1001234567890 */
                chat?: string;
                /** @description `next_cursor` of the previous page of groups; the page starts right after its last group */
                cursor?: string;
                group_by: "task" | "account" | "chat";
                /** @description Groups per page */
                limit?: number;
                /** @description Text search in the message, matched keyword, sender and chat title */
                q?: string;
                /** @description Hits at or after this time (ISO 8601) */
                since?: string;
                /** @description Task name (exact) */
                task?: string;
                /** @description Hits before this time (ISO 8601) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeywordHitGroupsDto"];
                };
            };
            /** @description Invalid filter (unknown parameter, bad time, since after until, limit out of range) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BackupsController_export: {
        parameters: {
            query?: {
                /** @description auto: upload when a WebDAV target is saved, else download; download/webdav force one of them */
                target?: "auto" | "download" | "webdav";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON when uploaded to WebDAV; the archive itself (application/gzip) when downloaded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": components["schemas"]["WebDavUploadResultDto"];
                    "application/json": components["schemas"]["WebDavUploadResultDto"];
                };
            };
            /** @description Unknown target */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the WebDAV server answered 404 (the folder is missing) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Another backup is being created, or target=webdav without a saved WebDAV target */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the WebDAV server refused or failed the request */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BackupsController_downloadLocal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A plain file name ending in .tar.gz */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unsafe name */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description no such local backup, or the replica that held it is no longer running */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the replica that holds it did not answer; or the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    BackupsController_deleteLocal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A plain file name ending in .tar.gz */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unsafe name */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description no such local backup */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the replica that holds it did not answer; or the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
        };
    };
    BackupsController_status: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackupStatusDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BackupsController_downloadWebDav: {
        parameters: {
            query: {
                /** @description A plain file name ending in .tar.gz */
                name: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unsafe name, or no WebDAV target is saved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description no such file in the WebDAV folder */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the WebDAV server refused or failed the request */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BackupsController_listWebDav: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemoteBackupListDto"];
                };
            };
            /** @description No WebDAV target is saved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the WebDAV folder does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description the WebDAV server refused or failed the request */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BackupsController_testWebDav: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ok=false with the reason when the server cannot be used */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebDavTestResultDto"];
                };
            };
            /** @description No WebDAV target is saved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ClusterController_cluster: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OpsController_memoryReport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryReportDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OpsController_runtime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeStatusDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ScheduledJobsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledJobListDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OpsController_version: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionInfoDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OpsController_checkVersion: {
        parameters: {
            query?: {
                /** @description Ask the release feed even when a cached answer exists */
                force?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateCheckResultDto"];
                };
            };
            /** @description The request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DashboardController_runs: {
        parameters: {
            query?: {
                /** @description Account name */
                account?: string;
                failure_category?: "none" | "session_invalid" | "flood_wait" | "ai_timeout" | "ai_error" | "button_not_found" | "target_not_found" | "network_proxy" | "timeout" | "strong_failure" | "bot_refused" | "unconfirmed" | "safety_limit" | "unknown";
                limit?: number;
                offset?: number;
                /** @description First day (YYYY-MM-DD) in the configured time zone, inclusive */
                since?: string;
                status?: "success" | "failure";
                /** @description Task name */
                task?: string;
                /** @description Last day (YYYY-MM-DD) in the configured time zone, inclusive */
                until?: string;
                /** @description What the bot's answer said (runs of tasks with verdict patterns) */
                verdict?: "success" | "already_done" | "failed" | "unconfirmed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunListDto"];
                };
            };
            /** @description Unknown parameter, bad day, since after until, limit or offset out of range */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DashboardController_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDetailDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No run with this id was recorded */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_list: {
        parameters: {
            query?: {
                /** @description Only tasks that run for this account (including "*" tasks) */
                account?: string;
                enabled?: "true" | "false";
                execution_mode?: "fixed" | "range" | "listen";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskListDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignTaskInputDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description A task with this name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 524288 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_replace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignTaskInputDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 524288 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_clone: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CloneTaskDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description new_name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_disable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No task of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SignTasksController_enable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Invalid task (every problem is listed) or a name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description No task of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RunsController_taskHistory: {
        parameters: {
            query?: {
                account?: string;
                limit?: number;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryListDto"];
                };
            };
            /** @description A task name that is not path-safe or bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    TaskRecipesController_export: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeDocumentDto"];
                };
            };
            /** @description A task name that is not path-safe */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RunsController_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunTaskDto"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunStartedDto"];
                };
            };
            /** @description A task name that is not path-safe or bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The task is already running */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RunsController_cancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelResultDto"];
                };
            };
            /** @description A task name that is not path-safe or bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RunsController_status: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskRunStatusDto"];
                };
            };
            /** @description A task name that is not path-safe or bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RunsController_active: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveRunListDto"];
                };
            };
            /** @description A task name that is not path-safe or bad input */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SchedulePreviewController_preview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SchedulePreviewRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePreviewDto"];
                };
            };
            /** @description A schedule a task save would refuse (every problem is listed) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description The request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DashboardController_stats: {
        parameters: {
            query?: {
                /** @description Days in the per-day series, today included */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardStatsDto"];
                };
            };
            /** @description days out of range */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    TaskRecipesController_catalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskRecipeListDto"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    TaskRecipesController_import: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportRecipeDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignTaskDto"];
                };
            };
            /** @description Not a recipe document, or the task it holds is invalid (every problem is listed) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description A task with this name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            /** @description Body larger than 524288 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    HealthController_health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "starting" | "shutting_down";
                    };
                };
            };
        };
    };
    HealthController_healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "starting" | "shutting_down";
                    };
                };
            };
        };
    };
    MetricsController_scrape: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description APP_METRICS_TOKEN is set and the bearer token is missing or wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    HealthController_readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready: the readiness report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not ready (starting, stopping or a failed check): the same report */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
}
