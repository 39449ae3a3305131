// Generated from apps/repo-monitor/openapi.json by apps/repo-monitor-web/scripts/api-types.mjs. Do not edit.

export interface paths {
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth authorization server metadata (RFC 8414); served even when agent access is not configured */
        get: operations["OAuthController_authorizationServer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected resource metadata (RFC 9728) of the read API; served even when agent access is not configured */
        get: operations["OAuthController_protectedResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/api/v1": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected resource metadata (RFC 9728) of the read API at /api/v1 */
        get: operations["OAuthController_apiResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected resource metadata (RFC 9728) of the MCP endpoint at /mcp; the MCP 401 points here */
        get: operations["OAuthController_mcpResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How agents reach this service: discovery URLs, token endpoint, MCP endpoint, client id, whether a secret is set */
        get: operations["AgentAccessInfoController_agentAccess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Effective AI settings; the API key only as api_key_set */
        get: operations["AiSettingsController_get"];
        /** Change unlocked AI settings; applies without restart */
        put: operations["AiSettingsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/review-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether reviews keep a comment on the pull request */
        get: operations["AiController_reviewSettings"];
        /** Turn the single, updated-in-place PR review comment on or off (default off) */
        put: operations["AiController_updateReviewSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AI pull-request reviews and security audits, newest first */
        get: operations["AiController_listReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/reviews/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One AI pull-request review */
        get: operations["AiController_getReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connectivity test: one fixed minimal message (no repository data) to the effective endpoint
         * @description Unlocked fields may carry unsaved form values; a base_url other than the effective one needs an api_key in the request (400 otherwise), so a stored key never goes to an unsaved address. Writes nothing and changes no runtime state. A failure is ok: false with kind (unreachable, unauthorized, rate_limited, bad_response, timeout), upstream_status (the HTTP status the endpoint answered, if any), the finer error_code, and a message of our own: the endpoint’s answer body is never echoed.
         */
        post: operations["AiController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admin actions, newest first; narrowed by action (or family) and by who acted */
        get: operations["AuditLogController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in
         * @description Sets the HttpOnly session cookie (SameSite=Lax): `__Host-monitor_session` with Secure when the request arrived over https (TLS, X-Forwarded-Proto from a trusted proxy, or an https public base URL), else `monitor_session`. Returns the csrf_token to send as X-CSRF-Token on writes. Only application/json bodies; cross-site requests are 403.
         */
        post: operations["AuthController_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: ends this session and clears the cookie */
        post: operations["AuthController_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the admin password; every other session is signed out */
        post: operations["AuthController_changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current session */
        get: operations["AuthController_session"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the second factor (TOTP) is on, or set up and waiting to be turned on */
        get: operations["AuthController_totpStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/totp/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn the second factor off with the current password and a current code */
        post: operations["AuthController_disableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/totp/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn the second factor on with the current password and a code; every other session is signed out */
        post: operations["AuthController_enableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/totp/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a TOTP secret for an authenticator app (not in force until turned on with a code)
         * @description Answers the secret and its otpauth:// URI once; a later setup replaces a secret not yet turned on. Needs MONITOR_ENCRYPTION_KEY.
         */
        post: operations["AuthController_setupTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The console dashboard: onboarding checklist, tiles, events and notifications per day over 14 days, outbox health, recent activity
         * @description Admin session only: it shows notification deliveries, which agent tokens may not read.
         */
        get: operations["DashboardController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Accepted webhook deliveries, newest first, without their payloads */
        get: operations["DeliveriesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deliveries/rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Requests to POST /webhooks/github that were refused, newest first: the reason, never the body (the newest 500 are kept) */
        get: operations["DeliveriesController_rejected"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/digests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Produced digests and reports, newest first */
        get: operations["DigestsController_list"];
        put?: never;
        /** Produce a digest for the period ending now and send it (AI when available, else the template) */
        post: operations["DigestsController_produce"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recorded events, newest first, filtered by repository, category, kind, time and text */
        get: operations["EventsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}/routing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which rules matched the event and where it went, or why it was not sent */
        get: operations["EventRoutingController_routing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/app": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GitHub App settings (secrets only as *_set flags) and which fields the environment locks */
        get: operations["GithubAppSettingsController_get"];
        /**
         * Change unlocked GitHub App settings; applies without restart
         * @description null clears a stored field.
         */
        put: operations["GithubAppSettingsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/app/manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start creating the GitHub App in one click (GitHub App manifest flow)
         * @description Answers the manifest for this service and the GitHub URL to POST it to (a form with one field, `manifest`, as a top-level navigation). GitHub sends the browser back to GET /api/v1/github/app/manifest/callback, which stores the App and redirects to /github-app. The state is single-use, bound to this session and expires after 15 minutes; a new start replaces an unfinished one.
         */
        post: operations["GithubAppManifestController_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/app/manifest/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where GitHub sends the browser back after the App was created
         * @description Needs the admin session that started the flow (the cookie comes along with GitHub’s redirect) and its state. Exchanges the code with POST {api}/app-manifests/{code}/conversions, stores the App, and redirects (303) to /github-app?manifest=created&app_slug=… (on the public base URL; a relative redirect when none is set, never one built from the Host header), or to /github-app?manifest=error&reason=… (invalid_request, session_required, invalid_state, state_expired, fields_locked, encryption_unavailable, code_refused, github_unreachable, unexpected_answer, invalid_key). Every outcome is a redirect, never a JSON body.
         */
        get: operations["GithubAppManifestController_callback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/installations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GitHub App installations */
        get: operations["InstallationsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Notification channels (secrets only as secret_set) */
        get: operations["NotificationChannelsController_list"];
        put?: never;
        /**
         * Create a channel: telegram, http_webhook, discord, slack, teams, ntfy, bark, gotify or email
         * @description A webhook channel without a secret gets a generated Standard Webhooks secret (whsec_…), answered once in secret.
         */
        post: operations["NotificationChannelsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One notification channel */
        get: operations["NotificationChannelsController_get"];
        put?: never;
        post?: never;
        /** Delete a channel */
        delete: operations["NotificationChannelsController_remove"];
        options?: never;
        head?: never;
        /** Change a channel; fields left out stay as they are */
        patch: operations["NotificationChannelsController_update"];
        trace?: never;
    };
    "/api/v1/notification-channels/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a webhook channel's signing secret with a generated Standard Webhooks secret
         * @description The new whsec_ secret is answered once in secret and signs every delivery from now on; the old one stops working at once.
         */
        post: operations["NotificationChannelsController_rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one test message through the channel and report the result */
        post: operations["NotificationChannelsController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-channels/{id}/toggle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable or disable a channel */
        post: operations["NotificationChannelsController_toggle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Routing rules, in the order they are consulted
         * @description With no enabled rule every channel's kind filter decides; once one is enabled, an event goes only where rules send it.
         */
        get: operations["NotificationRulesController_list"];
        put?: never;
        /** Add a rule at the end of the order */
        post: operations["NotificationRulesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One rule */
        get: operations["NotificationRulesController_get"];
        put?: never;
        post?: never;
        /** Delete a rule */
        delete: operations["NotificationRulesController_remove"];
        options?: never;
        head?: never;
        /** Change a rule; fields left out stay as they are, match and route are replaced whole */
        patch: operations["NotificationRulesController_update"];
        trace?: never;
    };
    "/api/v1/notification-rules/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay the latest 50 routed events through the given (or the stored) rules; sends and changes nothing */
        post: operations["NotificationRulesDryRunController_dryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-rules/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every rule, in order, as a document POST /import takes back */
        get: operations["NotificationRulesController_exportRules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-rules/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace every rule with the given ones, in their order (all or nothing) */
        post: operations["NotificationRulesController_importRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-rules/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put the rules in a new order (every rule id, once) */
        post: operations["NotificationRulesController_reorder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Message templates of channels and rules
         * @description An event kind without a template gets the default message.
         */
        get: operations["NotificationTemplatesController_list"];
        /**
         * Set the template of a channel or rule for an event kind (created or replaced)
         * @description Mustache, logic-less: {{value}} is escaped for the channel (Telegram HTML, Discord Markdown, Slack mrkdwn, plain text); {{{value}}}, partials and delimiter changes are refused. The rendered text is cut to the channel's length limit. A rule's template applies to what the rule routes and comes before the channel's.
         */
        put: operations["NotificationTemplatesController_save"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Reset to the default: delete the template */
        delete: operations["NotificationTemplatesController_reset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-templates/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Render a template (or the default) for a channel against a recent recorded event; changes nothing */
        post: operations["NotificationTemplatesController_preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The notification outbox, newest first */
        get: operations["NotificationsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/outbox/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One outbox entry: attempts, last error, next try and what it says */
        get: operations["NotificationsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/outbox/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a dead entry again now, with a fresh backoff schedule */
        post: operations["NotificationsController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/outbox/retry-dead": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send every dead entry (of one channel, or all) again now, each with a fresh backoff schedule */
        post: operations["NotificationsController_retryDead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/recovered-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Failed deliveries found by the redelivery sweep, newest first, with the last sweep */
        get: operations["RecoveredDeliveriesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/recovered-deliveries/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the redelivery sweep now and answer what it did
         * @description skipped tells why it did not run: disabled, not_configured (no GitHub App), running_elsewhere (another instance is sweeping).
         */
        post: operations["RecoveredDeliveriesController_check"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/repositories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Watched repositories by name, filtered by status, source and text */
        get: operations["RepositoriesController_list"];
        put?: never;
        /**
         * Watch an external public repository through MONITOR_EXTERNAL_PAT (at most 20)
         * @description Every refusal names its reason in details.reason: no_token, not_found, limit, unreachable, rate_limited, token_rejected, github_error.
         */
        post: operations["ExternalRepositoriesController_addExternal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/repositories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One repository */
        get: operations["RepositoriesController_get"];
        put?: never;
        post?: never;
        /** Stop watching: marked removed, history kept, no notifications */
        delete: operations["RepositoriesController_remove"];
        options?: never;
        head?: never;
        /** Turn notifications per kind of event on or off */
        patch: operations["RepositoriesController_updateToggles"];
        trace?: never;
    };
    "/api/v1/repositories/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Watch the repository again (notifications on) */
        post: operations["RepositoriesController_activate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/repositories/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Keep the records but send no notifications */
        post: operations["RepositoriesController_archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/repositories/external": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether external repositories can be added: MONITOR_EXTERNAL_PAT set, how many are watched, the limit */
        get: operations["ExternalRepositoriesController_externalAccess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/security-alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dependabot, code scanning and secret scanning alerts */
        get: operations["SecurityAlertsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/security-alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Ignore an alert (no more notifications for it) or stop ignoring it */
        patch: operations["SecurityAlertsController_update"];
        trace?: never;
    };
    "/api/v1/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the admin account
         * @description Only from a loopback client with a loopback Host header, unless MONITOR_SETUP_ALLOW_REMOTE=true. 404 once an admin exists.
         */
        post: operations["SetupController_setup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether an admin exists and whether this client may run setup */
        get: operations["SetupController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/starred-releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Starred repositories watched for new releases, by name, with the latest release seen */
        get: operations["StarredReleasesController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether Prometheus metrics are on and need a token, the scrape path, and a scrape config to copy */
        get: operations["AgentAccessInfoController_metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** General settings: time zone, digest and reports, retention, aggregation, starred user */
        get: operations["SystemSettingsController_get"];
        /** Change general settings (partial); applies without restart */
        put: operations["SystemSettingsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Local version and build data */
        get: operations["SystemVersionController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/version/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks MONITOR_UPDATE_CHECK_URL for a newer release; failures are soft (ok: false), answers are cached */
        post: operations["SystemVersionController_check"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/work-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issues and pull requests, most recently updated first */
        get: operations["WorkItemsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflow-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workflow runs, most recently updated first */
        get: operations["WorkflowRunsController_list"];
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
        /** Liveness: the process answers */
        get: operations["HealthController_healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Not offered: the MCP endpoint is stateless (no server-sent event stream); 405 */
        get: operations["McpController_stream"];
        put?: never;
        /**
         * Read-only MCP server (JSON-RPC over streamable HTTP) with the agent token
         * @description Tools: list_repositories, list_events, list_work_items, list_alerts, get_digest. 401 without a valid agent token.
         */
        post: operations["McpController_handle"];
        /** Not offered: there are no MCP sessions to end; 405 */
        delete: operations["McpController_end"];
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
        /** Prometheus metrics; needs `Authorization: Bearer <MONITOR_METRICS_TOKEN>` when that token is set */
        get: operations["MetricsController_scrape"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization endpoint: no response type is offered (agents use client_credentials at /oauth/token); always 400 unsupported_response_type
         * @description Published because RFC 8414 clients (the MCP SDK among them) require an authorization_endpoint in the metadata. It never redirects: without a registered redirect URI the error is answered directly (RFC 6749 §4.1.2.1).
         */
        get: operations["OAuthController_authorize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a read-only agent token (client_credentials)
         * @description Form-encoded `grant_type=client_credentials` with client_secret_basic (Authorization: Basic) or client_secret_post (client_id and client_secret in the form). Answers an HS256 token valid for one hour with scope `read`, bound to this issuer; an optional `resource` (RFC 8707) names the read API or the MCP endpoint, anything else is 400 invalid_target. 400 unauthorized_client when MONITOR_OAUTH_CLIENT_SECRET is not set; 401 invalid_client; 400 invalid_request, unsupported_grant_type, invalid_scope; 429 rate_limited (Retry-After) past 20 issued tokens a minute per client, or 20 failed client authentications a minute per address.
         */
        post: operations["OAuthController_token"];
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
        /** Readiness: startup complete and database reachable; 503 otherwise */
        get: operations["HealthController_readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receives a GitHub App webhook delivery
         * @description Verifies X-Hub-Signature-256 over the raw body (current and previous secret) before the body is parsed, stores the delivery, then answers 202; processing is asynchronous. Every event name is accepted; kinds that are not handled are stored and ignored. 413 over 1 MiB, 503 webhook_not_configured without a secret, 401 invalid_signature, 429 rate_limited (Retry-After) for an address past 20 bad signatures a minute (correctly signed deliveries still pass), 400 without X-GitHub-Delivery / X-GitHub-Event or with a body that is not a JSON object.
         */
        post: operations["WebhooksController_receive"];
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
        AddExternalRepositoryDto: {
            /**
             * @description A public repository watched through MONITOR_EXTERNAL_PAT (at most 20)
             * @example octocat/Hello-World
             */
            full_name: string;
        };
        AgentAccessInfoDto: {
            /** @description The read API an agent token may call (audience of the default token) */
            api_base_url: string;
            /** @description RFC 9728 metadata of the read API */
            api_resource_metadata_url: string;
            /** @description RFC 8414 authorization server metadata */
            authorization_server_metadata_url: string;
            /** @description MONITOR_OAUTH_CLIENT_ID (default repo-monitor-agent) */
            client_id: string;
            /** @description Whether MONITOR_OAUTH_CLIENT_SECRET is set; the secret itself is never shown */
            client_secret_set: boolean;
            /** @description Tokens can be issued: MONITOR_OAUTH_CLIENT_SECRET and MONITOR_ENCRYPTION_KEY are both set */
            enabled: boolean;
            /** @description Whether MONITOR_ENCRYPTION_KEY is set (tokens are signed with a key derived from it) */
            encryption_key_set: boolean;
            /** @description The issuer tokens are bound to: the public base URL, else the origin of this request */
            issuer: string;
            /** @description false: no public base URL is set, so the issuer follows the Host a client uses */
            issuer_from_public_base_url: boolean;
            /** @description The MCP endpoint (Streamable HTTP) */
            mcp_endpoint: string;
            /** @description RFC 9728 metadata of the MCP endpoint */
            mcp_resource_metadata_url: string;
            openapi_url: string;
            /** @description Path prefixes under /api/v1 an agent token may read; everything else is admin only */
            readable_paths: string[];
            /** @example read */
            scope: string;
            token_endpoint: string;
            /** @example 3600 */
            token_lifetime_seconds: number;
        };
        AggregationDto: {
            /** @default 15 */
            burst_threshold: number;
            /** @default 300 */
            burst_window_seconds: number;
            /**
             * @description Short merge window; 0 turns merging off
             * @default 60
             */
            window_seconds: number;
        };
        AiSettingsDto: {
            api_key_set: boolean;
            base_url: string;
            code_review_enabled: boolean;
            digest_enabled: boolean;
            enabled: boolean;
            failure_analysis_enabled: boolean;
            /** @description Fields set by environment; writes to them are 409 ai_field_locked */
            locked_fields: ("enabled" | "api_key" | "base_url" | "model" | "timeout" | "max_tokens" | "retries" | "digest_enabled" | "triage_enabled" | "release_summary_enabled" | "code_review_enabled" | "failure_analysis_enabled")[];
            max_tokens: number;
            model: string;
            release_summary_enabled: boolean;
            retries: number;
            /** @example 30s */
            timeout: string;
            triage_enabled: boolean;
        };
        AiTestDto: {
            /** @description Unsaved API key to try; never stored */
            api_key?: string;
            /** @example http://127.0.0.1:11434/v1 */
            base_url?: string;
            /** @example 800 */
            max_tokens?: number;
            /** @example gpt-4o-mini */
            model?: string;
            /** @example 1 */
            retries?: number;
            /** @example 30s */
            timeout?: string;
        };
        AiTestResultDto: {
            base_url: string;
            /** @description Milliseconds until the answer or the failure */
            elapsed_ms: number;
            /** @enum {string} */
            error_code?: "not_configured" | "timeout" | "server_error" | "rate_limited" | "auth_failed" | "bad_request" | "connection_failed" | "malformed_response" | "empty_response";
            /**
             * @description When the call failed: what kind of failure (not set for not_configured, which sends nothing)
             * @enum {string}
             */
            kind?: "unreachable" | "unauthorized" | "rate_limited" | "bad_response" | "timeout";
            /** @description Why the test failed, in our own words (never the endpoint’s answer) */
            message?: string;
            model: string;
            ok: boolean;
            /** @description The model reply (first 200 characters) when ok */
            reply?: string;
            /** @description When the call failed: the HTTP status the endpoint answered, null when it did not answer */
            upstream_status?: number | null;
        };
        AuditLogItemDto: {
            action: string;
            actor: string;
            client_ip: string | null;
            /** Format: date-time */
            created_at: string;
            details: {
                [key: string]: unknown;
            } | null;
            id: number;
            target: string | null;
        };
        AuditLogPageDto: {
            items: components["schemas"]["AuditLogItemDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        ChangePasswordRequestDto: {
            current_password: string;
            new_password: string;
        };
        ChannelLastTestDto: {
            /** Format: date-time */
            at: string;
            /** @description Why it failed (error code and message) */
            error: string | null;
            /** @description Whether the test message was accepted by Telegram or the receiver */
            ok: boolean;
        };
        ChannelTestResultDto: {
            elapsed_ms: number;
            /** @description Short reason when the test failed */
            error_code?: string;
            message?: string;
            ok: boolean;
            /** @description HTTP status of the receiver or Bot API */
            status?: number;
        };
        ChecklistEntryDto: {
            done: boolean;
            /**
             * @description github_app_credentials: App id and private key in effect (environment or console); inbound_webhook_secret: a secret GitHub signs deliveries with; installation: the App is installed on an account; repository: at least one active watched repository; channel_tested: an enabled notification channel whose last test passed
             * @enum {string}
             */
            key: "github_app_credentials" | "inbound_webhook_secret" | "installation" | "repository" | "channel_tested";
        };
        CreatedNotificationChannelDto: {
            allow_private: boolean;
            chat_id: string | null;
            /** Format: date-time */
            created_at: string;
            email_from: string | null;
            email_to: string[] | null;
            enabled: boolean;
            event_kinds: ("issues" | "pull_request" | "workflow_run" | "release" | "star" | "watch" | "dependabot_alert" | "code_scanning_alert" | "secret_scanning_alert" | "pr_review" | "digest" | "report")[];
            id: string;
            /** @enum {string} */
            kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /** @description The last test sent through the channel; null when never tested since its target or secret changed */
            last_test: components["schemas"]["ChannelLastTestDto"] | null;
            /** @description telegram: the default forum topic */
            message_thread_id: number | null;
            name: string;
            /** @description The generated whsec_ signing secret; present only when it was generated, and never shown again */
            secret?: string;
            secret_set: boolean;
            smtp_host: string | null;
            smtp_port: number | null;
            /** @enum {string|null} */
            smtp_security: "tls" | "starttls" | "none" | null;
            smtp_username: string | null;
            /** Format: date-time */
            updated_at: string;
            /** @description For discord, slack, teams and bark only the origin (the URL carries the token) */
            url: string | null;
        };
        CreateNotificationChannelDto: {
            /**
             * @description http_webhook: allow private, loopback and link-local targets
             * @default false
             */
            allow_private: boolean;
            /**
             * @description telegram: numeric chat id or @channel
             * @example -1001234567890
             */
            chat_id?: string;
            /**
             * @description email: the sender, an address or "Name <address>"
             * @example repo-monitor <monitor@example.com>
             */
            email_from?: string;
            /** @description email: the recipients */
            email_to?: string[];
            /** @default true */
            enabled: boolean;
            /** @description Only these kinds; empty means all */
            event_kinds?: ("issues" | "pull_request" | "workflow_run" | "release" | "star" | "watch" | "dependabot_alert" | "code_scanning_alert" | "secret_scanning_alert" | "pr_review" | "digest" | "report")[];
            /** @enum {string} */
            kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /**
             * @description telegram: the forum topic (message_thread_id) messages go to unless a routing rule names another; null clears it
             * @example 42
             */
            message_thread_id?: number | null;
            /** @example Team chat */
            name: string;
            /**
             * @description telegram: the bot token (required); gotify: the application token (required); ntfy: an access token tk_… (optional); email: the SMTP password (optional); http_webhook: the signing secret, a Standard Webhooks secret (whsec_ + base64 of 24-64 random bytes) that signs webhook-signature and X-Host-Monitor-Signature-256. Left out on a new webhook channel, one is generated and answered once. Stored encrypted, never returned otherwise.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXkVYhkj8Qx0=
             */
            secret?: string;
            /**
             * @description email: the SMTP server host name
             * @example smtp.example.com
             */
            smtp_host?: string;
            /** @description email: the SMTP port (left out: 587) */
            smtp_port?: number;
            /**
             * @description email: tls (implicit, port 465), starttls (required; the default), none (local servers only)
             * @enum {string}
             */
            smtp_security?: "tls" | "starttls" | "none";
            /** @description email: the SMTP user name (the password goes in secret) */
            smtp_username?: string;
            /**
             * @description http_webhook: the receiver URL; ntfy: the topic URL; gotify: the server URL; discord, slack, teams (a Workflows webhook), bark (the device URL): the webhook URL, stored encrypted because it carries the token, and shown only as its origin
             * @example https://hooks.example.com/monitor
             */
            url?: string;
        };
        CreateNotificationRuleDto: {
            /** @description Left out on a new rule: true */
            enabled?: boolean;
            /** @description Every field optional: an absent field matches all */
            match?: components["schemas"]["RuleMatchDto"];
            /** @example Mute Dependabot */
            name: string;
            route: components["schemas"]["RuleRouteDto"];
            /** @description When the rule matches, consult no later rule (left out on a new rule: false) */
            stop?: boolean;
        };
        DashboardDto: {
            /** @description Onboarding steps in order, read from the current state */
            checklist: components["schemas"]["ChecklistEntryDto"][];
            /** @description The last 14 local days, oldest first, today last */
            events_per_day: components["schemas"]["EventsPerDayDto"][];
            /** Format: date-time */
            generated_at: string;
            /** @description The last 14 local days, oldest first, today last */
            notifications_per_day: components["schemas"]["NotificationsPerDayDto"][];
            outbox: components["schemas"]["OutboxHealthDto"];
            /** @description The 10 newest inbound GitHub deliveries */
            recent_deliveries: components["schemas"]["DeliverySummaryDto"][];
            /** @description The 10 newest events */
            recent_events: components["schemas"]["EventDto"][];
            /** @description The 10 newest notifications */
            recent_notifications: components["schemas"]["OutboxEntryDto"][];
            /** @description Every checklist step is done */
            setup_complete: boolean;
            tiles: components["schemas"]["DashboardTilesDto"];
            /** @description The configured time zone the days are counted in */
            time_zone: string;
        };
        DashboardTilesDto: {
            /** @description Enabled notification channels */
            enabled_channels: number;
            /** @description Workflow runs that concluded as failed (failure, timed_out, cancelled, action_required, startup_failure) within the 14 days shown */
            failed_workflow_runs: number;
            /** @description Installations not removed */
            installations: number;
            open_issues: number;
            open_pull_requests: number;
            /** @description Open security alerts that are not ignored */
            open_security_alerts: number;
            /** @description Active watched repositories */
            repositories: number;
        };
        DeliverySummaryDto: {
            action: string | null;
            /** @description X-GitHub-Delivery */
            delivery_id: string;
            /** @description X-GitHub-Event */
            event: string;
            id: number;
            last_error: string | null;
            /** Format: date-time */
            processed_at: string | null;
            /** Format: date-time */
            received_at: string;
            repository: string | null;
            /** @enum {string} */
            status: "accepted" | "processed" | "failed" | "duplicate";
        };
        DigestDto: {
            body: string;
            created_at: string;
            /** @description Why the template was used (disabled, timeout, server_error…) */
            fallback_reason: string | null;
            id: number;
            /** @enum {string} */
            period: "daily" | "weekly" | "monthly";
            period_end: string;
            period_start: string;
            /** @enum {string} */
            source: "ai" | "template";
            title: string;
        };
        DigestListDto: {
            items: components["schemas"]["DigestDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        DryRunDecisionDto: {
            /** @description Outbox fields are null */
            deliveries: components["schemas"]["RoutedDeliveryDto"][];
            /**
             * @description rules: the rules decided; channel_filters: no rule was enabled, each channel's kind filter decided
             * @enum {string}
             */
            routed_by: "rules" | "channel_filters";
            rules: components["schemas"]["RuleVerdictDto"][];
        };
        DryRunEventDto: {
            /** @description Where it would go now (outbox fields are null) */
            deliveries: components["schemas"]["RoutedDeliveryDto"][];
            event_id: number;
            facts: components["schemas"]["EventRoutingFactsDto"];
            kind: string;
            occurred_at: string;
            /** @description What was decided when the event was recorded */
            recorded: components["schemas"]["DryRunDecisionDto"];
            /** @description Where it went when it was recorded, in one sentence (English) */
            recorded_summary: string;
            /**
             * @description Who would decide now: the rules, or (no rule enabled) the channels' kind filters
             * @enum {string}
             */
            routed_by: "rules" | "channel_filters";
            rules: components["schemas"]["RuleVerdictDto"][];
            /** @description Where it would go, in one sentence (English; the console words it from the fields) */
            summary: string;
            title: string;
        };
        DryRunRuleDto: {
            /** @description Left out on a new rule: true */
            enabled?: boolean;
            /** @description The stored rule this one stands for (its verdicts carry this id) */
            id?: string;
            /** @description Every field optional: an absent field matches all */
            match?: components["schemas"]["RuleMatchDto"];
            /** @example Mute Dependabot */
            name: string;
            route: components["schemas"]["RuleRouteDto"];
            /** @description When the rule matches, consult no later rule (left out on a new rule: false) */
            stop?: boolean;
        };
        EventDto: {
            actor: string | null;
            body_text: string;
            /** @enum {string} */
            category: "security" | "actions" | "issue" | "pr" | "other";
            created_at: string;
            /** @description Dedupe fingerprint (SHA-256 of the event identity) */
            fingerprint: string;
            html_url: string | null;
            id: number;
            kind: string;
            /**
             * @description Where its notifications stand: not_notified (none was queued); queued (waiting for its first try); failing (tried and failed, to be tried again); failed (given up: dead); sent; suppressed (held back, e.g. quiet hours); notified (queued, its entries since removed)
             * @enum {string}
             */
            notification: "not_notified" | "queued" | "failing" | "failed" | "sent" | "suppressed" | "notified";
            /** @description Whether a notification was queued */
            notified: boolean;
            occurred_at: string;
            repository_id: number | null;
            title: string;
        };
        EventListDto: {
            items: components["schemas"]["EventDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        EventRoutingDto: {
            deliveries: components["schemas"]["RoutedDeliveryDto"][];
            event_id: number;
            /** @description What the rules were matched against */
            facts: components["schemas"]["EventRoutingFactsDto"] | null;
            kind: string;
            routed_at: string | null;
            /**
             * @description rules: routing rules decided; channel_filters: no rule was enabled, each channel's kind filter decided; not_notifying: the kind or the repository's toggles do not notify; not_recorded: the event was recorded before routing was explained
             * @enum {string}
             */
            routed_by: "rules" | "channel_filters" | "not_notifying" | "not_recorded";
            rules: components["schemas"]["RuleVerdictDto"][];
            /** @description One sentence: where it went, or why not */
            summary: string;
        };
        EventRoutingFactsDto: {
            action: string;
            author: string | null;
            branch: string | null;
            conclusion: string | null;
            draft: boolean | null;
            event: string;
            labels: string[];
            repository: string | null;
            sender: string | null;
            severity: string | null;
            workflow: string | null;
        };
        EventsPerDayDto: {
            /** @description Events of the day per category */
            by_category?: {
                actions: number;
                issue: number;
                other: number;
                pr: number;
                security: number;
            };
            /** @description Local date YYYY-MM-DD in the configured time zone */
            date: string;
            total: number;
        };
        ExportedNotificationRuleDto: {
            enabled: boolean;
            match: components["schemas"]["RuleMatchDto"];
            name: string;
            route: components["schemas"]["RuleRouteViewDto"];
            stop: boolean;
        };
        ExportedNotificationTemplateDto: {
            body: string;
            /** @description The channel (by id) whose template this is */
            channel_id?: string | null;
            /** @description `*` (every kind), a family such as `issues`, or a kind such as `issues.opened`; the most specific one applies */
            event_kind: string;
            /**
             * @description message (default): the text of the message; title: its title (push title, email subject), only for discord, slack, teams, ntfy, bark, gotify, email channels
             * @enum {string}
             */
            part?: "message" | "title";
            /** @description The rule (by name, among the imported rules) whose template this is */
            rule?: string | null;
        };
        ExternalRepositoryAccessDto: {
            /** @description External repositories watched now (not removed) */
            count: number;
            /** @description The most external repositories that can be watched */
            limit: number;
            /** @description Whether MONITOR_EXTERNAL_PAT is set; without it external repositories cannot be added */
            token_configured: boolean;
        };
        GithubAppManifestDto: {
            callback_urls: string[];
            default_events: string[];
            default_permissions: {
                [key: string]: "read" | "write";
            };
            description: string;
            hook_attributes?: {
                active: boolean;
                url: string;
            };
            name: string;
            public: boolean;
            /** @description Where GitHub sends the browser back with ?code=&state= */
            redirect_url: string;
            url: string;
        };
        GithubAppSettingsDto: {
            app_id: string | null;
            /** @description The App slug, known when it was created from the console (github.com/apps/<slug>) */
            app_slug: string | null;
            client_id: string | null;
            /** @description Whether the App client secret is stored (from the manifest flow); never returned */
            client_secret_set: boolean;
            /** @description Whether app id, client id and private key are all known */
            configured: boolean;
            /** @description Fields set by environment; writes to them are 409 github_field_locked */
            locked_fields: ("app_id" | "client_id" | "private_key" | "webhook_secret" | "public_base_url")[];
            private_key_set: boolean;
            public_base_url: string | null;
            webhook_secret_set: boolean;
        };
        ImportNotificationRulesDto: {
            /** Format: date-time */
            exported_at?: string;
            /**
             * @description The export document's own fields may come along (GET /export answers a document this takes back whole)
             * @enum {string}
             */
            format?: "repo-monitor.notification-rules";
            /** @description Replaces every rule, in this order */
            rules: components["schemas"]["CreateNotificationRuleDto"][];
            /** @description Message templates of channels (by id) and of the imported rules (by name); given: they replace every template; left out: templates are kept (a rule's go with it) */
            templates?: components["schemas"]["ExportedNotificationTemplateDto"][];
            version?: number;
        };
        InstallationDto: {
            account_login: string;
            account_type: string;
            created_at: string;
            id: number;
            installation_id: number;
            last_reconciled_at: string | null;
            removed_at: string | null;
            /** @enum {string} */
            repository_selection: "all" | "selected";
            suspended: boolean;
        };
        InstallationListDto: {
            items: components["schemas"]["InstallationDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        LoginRequestDto: {
            password: string;
            /**
             * @description The six-digit code of the authenticator app; needed when the second factor is on
             * @example 123456
             */
            totp_code?: string;
            /** @example admin */
            username: string;
        };
        LoginResultDto: {
            /** @description Send as X-CSRF-Token on every write of this session */
            csrf_token: string;
            /** Format: date-time */
            expires_at: string;
            username: string;
        };
        ManifestFlowStartDto: {
            /**
             * Format: date-time
             * @description The state is refused after this
             */
            expires_at: string;
            manifest: components["schemas"]["GithubAppManifestDto"];
            /**
             * @description POST a form here with one field, `manifest` (the JSON of `manifest`), as a top-level browser navigation; the state is in the query already
             * @example https://github.com/settings/apps/new?state=…
             */
            post_url: string;
            /** @description Single use, bound to this session */
            state: string;
        };
        MetricsInfoDto: {
            /** @description MONITOR_METRICS_ENABLED (default true); false: /metrics answers 404 */
            enabled: boolean;
            /** @description A Prometheus scrape_configs entry for this service (the token read from a file, never inlined) */
            prometheus_scrape_config: string;
            /** @example /metrics */
            scrape_path: string;
            /** @description The full URL to scrape, from the public base URL or this request */
            scrape_url: string;
            /** @description Whether MONITOR_METRICS_TOKEN is set (then a scrape needs Authorization: Bearer <token>); never shown */
            token_set: boolean;
        };
        /** @description Every error of the API (the OAuth token endpoint answers RFC 6749 errors instead) */
        MonitorErrorBody: {
            /** @description Extra facts: the field at fault, the fields of a validation_failed (`fields`), or request_id on a 5xx */
            details?: {
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
            } & {
                [key: string]: unknown;
            };
            /**
             * @description Stable code, e.g. validation_failed, unauthorized, not_found
             * @example not_found
             */
            error_code: string;
            /** @description What went wrong, for a person */
            message: string;
        };
        MonthlyReportDto: {
            /** @default 1 */
            day: number;
            /** @default false */
            enabled: boolean;
        };
        NotificationChannelDto: {
            allow_private: boolean;
            chat_id: string | null;
            /** Format: date-time */
            created_at: string;
            email_from: string | null;
            email_to: string[] | null;
            enabled: boolean;
            event_kinds: ("issues" | "pull_request" | "workflow_run" | "release" | "star" | "watch" | "dependabot_alert" | "code_scanning_alert" | "secret_scanning_alert" | "pr_review" | "digest" | "report")[];
            id: string;
            /** @enum {string} */
            kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /** @description The last test sent through the channel; null when never tested since its target or secret changed */
            last_test: components["schemas"]["ChannelLastTestDto"] | null;
            /** @description telegram: the default forum topic */
            message_thread_id: number | null;
            name: string;
            secret_set: boolean;
            smtp_host: string | null;
            smtp_port: number | null;
            /** @enum {string|null} */
            smtp_security: "tls" | "starttls" | "none" | null;
            smtp_username: string | null;
            /** Format: date-time */
            updated_at: string;
            /** @description For discord, slack, teams and bark only the origin (the URL carries the token) */
            url: string | null;
        };
        NotificationChannelPageDto: {
            items: components["schemas"]["NotificationChannelDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        NotificationRuleDto: {
            /** Format: date-time */
            created_at: string;
            enabled: boolean;
            id: string;
            match: components["schemas"]["RuleMatchDto"];
            name: string;
            /** @description Rules are consulted in ascending position */
            position: number;
            route: components["schemas"]["RuleRouteViewDto"];
            stop: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        NotificationRuleListDto: {
            items: components["schemas"]["NotificationRuleDto"][];
            total: number;
        };
        NotificationRulesDryRunDto: {
            /** @description Rules to try, in order; left out: the stored rules */
            rules?: components["schemas"]["DryRunRuleDto"][];
        };
        NotificationRulesDryRunResultDto: {
            /** @description The latest 50 routed events, newest first */
            items: components["schemas"]["DryRunEventDto"][];
        };
        NotificationRulesExportDto: {
            /** Format: date-time */
            exported_at: string;
            /** @example repo-monitor.notification-rules */
            format: string;
            rules: components["schemas"]["ExportedNotificationRuleDto"][];
            /** @description Message templates of channels (by id) and rules (by name) */
            templates: components["schemas"]["ExportedNotificationTemplateDto"][];
            /** @example 1 */
            version: number;
        };
        NotificationsPerDayDto: {
            /** @description Local date YYYY-MM-DD in the configured time zone */
            date: string;
            /** @description Notifications that gave up (went dead) that day and were not retried since */
            failed: number;
            /** @description Notifications delivered that day */
            sent: number;
        };
        NotificationTemplateDto: {
            body: string;
            /** @description The channel whose template this is (null for a rule's) */
            channel_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description `*` (every kind), a family such as `issues`, or a kind such as `issues.opened`; the most specific one applies */
            event_kind: string;
            id: string;
            /**
             * @description message (default): the text of the message; title: its title (push title, email subject), only for discord, slack, teams, ntfy, bark, gotify, email channels
             * @enum {string}
             */
            part: "message" | "title";
            /** @description The rule whose template this is (null for a channel's); it applies to what the rule routes */
            rule_id: string | null;
            /** Format: date-time */
            updated_at: string;
        };
        NotificationTemplateListDto: {
            items: components["schemas"]["NotificationTemplateDto"][];
            total: number;
        };
        NotificationTemplatePreviewDto: {
            /** @enum {string} */
            channel_kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /** @description The default template of this kind of channel (of a title: {{heading}}) */
            default_template: string;
            /** @description The recorded event rendered; null when none of the kind exists yet (an example event was used) */
            event: components["schemas"]["TemplatePreviewEventDto"] | null;
            /**
             * @description How the channel reads the text: Telegram HTML, Discord Markdown, Slack mrkdwn or plain text
             * @enum {string}
             */
            format: "telegram_html" | "discord_markdown" | "slack_mrkdwn" | "plain";
            length: number;
            /** @description The most characters the channel takes; longer text is cut */
            limit: number;
            /** @enum {string} */
            part: "message" | "title";
            /** @description The text the channel would get */
            rendered: string;
            /** @description The template rendered (the default one when body was left out) */
            template: string;
            /** @description The text was longer than the limit and was cut */
            truncated: boolean;
            variables: ("heading" | "title" | "body" | "repository" | "kind" | "event" | "action" | "category" | "actor" | "author" | "url" | "occurred_at" | "event_id" | "labels" | "branch" | "workflow" | "conclusion" | "severity" | "draft")[];
            /** @description false: the template is the text under the message's title (the event heading) */
            whole_message: boolean;
        };
        OutboxEntryDetailDto: {
            /** @description The merged entry this one went out with */
            aggregated_into: number | null;
            attempts: number;
            channel_id: string;
            /** @enum {string} */
            channel_kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /** @description The channel name; null when the channel was deleted */
            channel_name: string | null;
            created_at: string;
            event_id: number | null;
            id: number;
            idempotency_key: string;
            item_count: number;
            last_error: string | null;
            last_error_code: string | null;
            /** @description Ids of the entries merged into this aggregate or burst summary (at most 100) */
            merged_entry_ids: number[];
            next_attempt_at: string;
            /** @description null when the stored message cannot be read */
            payload: components["schemas"]["OutboxPayloadSummaryDto"] | null;
            /** @enum {string} */
            role: "single" | "aggregate" | "burst";
            sent_at: string | null;
            /** @enum {string} */
            state: "pending" | "sending" | "sent" | "dead" | "suppressed";
            title: string;
            updated_at: string;
        };
        OutboxEntryDto: {
            /** @description The merged entry this one went out with */
            aggregated_into: number | null;
            attempts: number;
            channel_id: string;
            /** @enum {string} */
            channel_kind: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            created_at: string;
            event_id: number | null;
            id: number;
            idempotency_key: string;
            item_count: number;
            last_error: string | null;
            last_error_code: string | null;
            next_attempt_at: string;
            /** @enum {string} */
            role: "single" | "aggregate" | "burst";
            sent_at: string | null;
            /** @enum {string} */
            state: "pending" | "sending" | "sent" | "dead" | "suppressed";
            title: string;
        };
        OutboxHealthDto: {
            /** @description Gave up; can be retried */
            dead: number;
            /** @description Its age in seconds */
            oldest_pending_age_seconds: number | null;
            /**
             * Format: date-time
             * @description When the oldest pending entry was written
             */
            oldest_pending_at: string | null;
            /** @description Waiting to be sent (including aggregates waiting for their window) */
            pending: number;
            /** @description Being sent right now */
            sending: number;
        };
        OutboxListDto: {
            items: components["schemas"]["OutboxEntryDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        OutboxPayloadSummaryDto: {
            /** @description The plain-text body, cut to 2,000 characters */
            body_text: string;
            category: string;
            /** @description Event kind (`issues.opened`), or `summary.aggregate` / `summary.burst` for merged messages */
            kind: string;
            occurred_at: string | null;
            repository: string | null;
            title: string;
            url: string | null;
        };
        PreviewNotificationTemplateDto: {
            /** @description The template to try; left out: the default message */
            body?: string;
            /** @description Render for this channel (its kind decides format and length limit) */
            channel_id?: string;
            /**
             * @description Render for a kind of channel instead (a rule's template); default telegram
             * @enum {string}
             */
            channel_kind?: "telegram" | "http_webhook" | "discord" | "slack" | "teams" | "ntfy" | "bark" | "gotify" | "email";
            /** @description Render against this recorded event; left out: the newest routed event of the kind */
            event_id?: number;
            /** @description `*` (every kind), a family such as `issues`, or a kind such as `issues.opened`; the most specific one applies */
            event_kind: string;
            /**
             * @description message (default): the text of the message; title: its title (push title, email subject), only for discord, slack, teams, ntfy, bark, gotify, email channels
             * @enum {string}
             */
            part?: "message" | "title";
        };
        ProduceDigestDto: {
            /** @enum {string} */
            period: "daily" | "weekly" | "monthly";
        };
        PrReviewDto: {
            /** @description An alert went out (security risks or score under 60) */
            alerted: boolean;
            breaking_risks: string[];
            comment_id: number | null;
            completed_at: string | null;
            created_at: string;
            diff_chars: number;
            /** @description true when the diff was cut at 12,000 characters */
            diff_truncated: boolean;
            error_code: string | null;
            error_message: string | null;
            head_sha: string;
            html_url: string;
            id: number;
            /** @enum {string|null} */
            merge_risk: "low" | "medium" | "high" | null;
            missing_tests: string[];
            model: string | null;
            pr_number: number;
            /** @example acme/api */
            repository: string;
            score: number | null;
            security_risks: string[];
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed";
            suggestions: string[];
            summary: string | null;
            title: string;
        };
        PrReviewListDto: {
            items: components["schemas"]["PrReviewDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        QuietHoursDto: {
            /**
             * @description hold: send when the quiet hours end; drop: do not send
             * @enum {string}
             */
            action: "hold" | "drop";
            /**
             * @description Local time, HH:MM; before start: the window spans midnight
             * @example 07:00
             */
            end: string;
            /**
             * @description Local time (general settings' time zone), HH:MM
             * @example 22:00
             */
            start: string;
        };
        RecoveredDeliveryDto: {
            action: string | null;
            /** @example issues */
            event: string;
            /**
             * Format: date-time
             * @description When GitHub first tried to deliver it
             */
            first_attempt_at: string;
            /** @description GitHub’s delivery guid (the X-GitHub-Delivery header) */
            guid: string;
            /** Format: date-time */
            last_requested_at: string | null;
            /** @description Why it was given up, or why the last request failed */
            reason: string | null;
            /** @description Redeliveries asked for so far */
            requests: number;
            /**
             * Format: date-time
             * @description When it was recovered or given up
             */
            resolved_at: string | null;
            /**
             * @description missing: failed and not received; requested: a redelivery was asked for; recovered: received since; given_up: see reason
             * @enum {string}
             */
            status: "missing" | "requested" | "recovered" | "given_up";
        };
        RecoveredDeliveryListDto: {
            /** @description MONITOR_REDELIVERY_ENABLED */
            enabled: boolean;
            /** @description MONITOR_REDELIVERY_INTERVAL in seconds */
            interval_seconds: number;
            items: components["schemas"]["RecoveredDeliveryDto"][];
            /** @description The last sweep on any instance; null before the first */
            last_sweep: components["schemas"]["RedeliverySweepDto"] | null;
            page: number;
            per_page: number;
            total: number;
        };
        RedeliverySweepDto: {
            /** @description Why the sweep stopped early */
            error: string | null;
            /** @description Of those, failed and not received */
            failed: number;
            /** Format: date-time */
            finished_at: string;
            given_up: number;
            /** @description Distinct deliveries in GitHub’s list of the last 3 days */
            looked_at: number;
            /** @description false when the sweep did not run (see skipped) */
            ran: boolean;
            recovered: number;
            requested: number;
            /** @enum {string|null} */
            skipped: "disabled" | "not_configured" | "running_elsewhere" | null;
            /** Format: date-time */
            started_at: string;
        };
        ReorderNotificationRulesDto: {
            /** @description Every rule id, in the new order */
            ids: string[];
        };
        RepositoryDto: {
            baseline_imported_at: string | null;
            created_at: string;
            full_name: string;
            html_url: string;
            id: number;
            installation_id: number | null;
            /** @description Per-kind notification toggles */
            notify: {
                [key: string]: boolean;
            };
            private: boolean;
            /** @enum {string} */
            source: "installation" | "external";
            /** @enum {string} */
            status: "active" | "archived" | "removed";
            updated_at: string;
        };
        RepositoryListDto: {
            items: components["schemas"]["RepositoryDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        RetentionDto: {
            /** @default 30 */
            deliveries_days: number;
            /** @default 90 */
            events_days: number;
            /** @default 30 */
            outbox_days: number;
        };
        RetryDeadDto: {
            /** @description Only dead entries of this channel; left out: every dead entry */
            channel_id?: string;
        };
        RetryDeadResultDto: {
            /** @description How many dead entries were queued again */
            retried: number;
        };
        ReviewSettingsDto: {
            /** @description Keep one AI review comment on each reviewed PR, edited in place on new commits */
            post_comment: boolean;
        };
        RoutedDeliveryDto: {
            channel_id: string;
            /** @description null when the channel no longer exists */
            channel_name: string | null;
            message_thread_id: number | null;
            /** @description The outbox entry, when one was queued */
            outbox_id: number | null;
            /** @description The outbox entry's state now (pending, sending, sent, dead, suppressed: merged into a summary) */
            outbox_state: string | null;
            /** @enum {string} */
            outcome: "queued" | "held" | "digest" | "dropped_quiet_hours" | "channel_unavailable" | "duplicate";
            /** @description The rule that routed it; null when the channels' kind filters decided */
            rule_id: string | null;
            /** @description held: when it is sent */
            send_after: string | null;
        };
        RuleMatchDto: {
            /** @description The part of the kind after the family: opened, closed, merged, ready_for_review, failure, recovered, published, created… */
            actions?: string[];
            /** @description The author or the sender is one of these logins */
            authors?: string[];
            /** @description Neither the author nor the sender is one of these logins */
            authors_exclude?: string[];
            /** @description Branch globs: the workflow run's head branch, the pull request's base branch */
            branches?: string[];
            /** @description Workflow run conclusions (a recovered run concluded success) */
            conclusions?: ("success" | "failure" | "neutral" | "cancelled" | "skipped" | "timed_out" | "action_required" | "stale" | "startup_failure")[];
            /** @description Only draft (true) or only ready (false) pull requests; other events never match when set */
            draft?: boolean;
            /** @description Event families */
            events?: ("issues" | "pull_request" | "workflow_run" | "release" | "star" | "watch" | "dependabot_alert" | "code_scanning_alert" | "secret_scanning_alert" | "pr_review" | "digest" | "report")[];
            /** @description Skip events whose author or sender is a bot (a login ending in [bot], or a well-known automation account) */
            ignore_bots?: boolean;
            /** @description The event carries every one of these labels */
            labels_all?: string[];
            /** @description The event carries at least one of these labels (issues and pull requests) */
            labels_any?: string[];
            /** @description The event carries none of these labels */
            labels_none?: string[];
            /** @description Exact `owner/name`, `owner/*` or a glob (`*` within a segment, `**` across, `?` one character), ignoring case */
            repositories?: string[];
            /** @description Security alert severities */
            severities?: ("critical" | "high" | "medium" | "moderate" | "low" | "warning" | "note" | "error")[];
            /** @description Workflow name globs */
            workflows?: string[];
        };
        RuleRouteDto: {
            /** @description Notification channel ids; empty (with stop) mutes what the rule matches */
            channel_ids: string[];
            /** @description Telegram forum topic; null: the channel's default topic */
            message_thread_id?: number | null;
            /**
             * @description now (left out): send, subject to aggregation; digest: leave it to the daily digest
             * @enum {string}
             */
            mode?: "now" | "digest";
            quiet_hours?: components["schemas"]["QuietHoursDto"] | null;
        };
        RuleRouteViewDto: {
            channel_ids: string[];
            message_thread_id: number | null;
            /** @enum {string} */
            mode: "now" | "digest";
            quiet_hours: components["schemas"]["QuietHoursDto"] | null;
        };
        RuleVerdictDto: {
            matched: boolean;
            name: string;
            /** @description Why it did not match (the first field that failed), or disabled */
            reason: string | null;
            rule_id: string;
            /** @description It matched and has stop: the rules after it were not consulted */
            stopped: boolean;
        };
        SaveNotificationTemplateDto: {
            /**
             * @description A Mustache template (logic-less; values are escaped for the channel's format; a title template is one line of plain text). Values: heading, title, body, repository, kind, event, action, category, actor, author, url, occurred_at, event_id, labels, branch, workflow, conclusion, severity, draft
             * @example <b>{{heading}}</b>
             *     {{#labels}}#{{.}} {{/labels}}
             */
            body: string;
            /** @description The channel the template is for (give this or rule_id) */
            channel_id?: string;
            /**
             * @description `*` (every kind), a family such as `issues`, or a kind such as `issues.opened`; the most specific one applies
             * @example workflow_run
             */
            event_kind: string;
            /**
             * @description message (default): the text of the message; title: its title (push title, email subject), only for discord, slack, teams, ntfy, bark, gotify, email channels
             * @enum {string}
             */
            part?: "message" | "title";
            /** @description The rule the template is for (give this or channel_id) */
            rule_id?: string;
        };
        SecurityAlertDto: {
            html_url: string;
            id: number;
            /** @description Ignored alerts send no notifications */
            ignored: boolean;
            /** @enum {string} */
            kind: "dependabot" | "code_scanning" | "secret_scanning";
            number: number;
            repository_id: number;
            severity: string | null;
            state: string;
            summary: string;
            updated_at: string;
        };
        SecurityAlertListDto: {
            items: components["schemas"]["SecurityAlertDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        SessionInfoDto: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @description Whether sign-in asks for a TOTP code */
            totp_enabled: boolean;
            username: string;
        };
        SetupRequestDto: {
            password: string;
            /**
             * @description 1-64 letters, digits or _.@-
             * @example admin
             */
            username: string;
        };
        SetupResultDto: {
            username: string;
        };
        SetupStatusDto: {
            /** @description Whether the admin account exists (setup then answers 404) */
            admin_exists: boolean;
            /** @description MONITOR_SETUP_ALLOW_REMOTE */
            remote_setup_allowed: boolean;
            /** @description Whether POST /api/v1/setup would be accepted from this client */
            setup_allowed: boolean;
        };
        StarredReleaseDto: {
            /** Format: date-time */
            last_checked_at: string | null;
            /** @description The latest release seen; null while none was published or it was not checked yet */
            last_release_tag: string | null;
            last_release_url: string | null;
            /** @example nodejs/node */
            repository_full_name: string;
            repository_url: string;
        };
        StarredReleaseListDto: {
            items: components["schemas"]["StarredReleaseDto"][];
            /**
             * Format: date-time
             * @description When the user’s starred list was last fetched
             */
            list_checked_at: string | null;
            page: number;
            per_page: number;
            total: number;
            /** @description The starred user in effect (general settings, else MONITOR_STARRED_USERNAME); null: tracking is off */
            username: string | null;
        };
        StartManifestFlowDto: {
            /**
             * @description Ask for pull requests: write, which the AI review needs to keep its comment on the PR; left out, every permission is read-only
             * @default false
             */
            allow_pr_comments: boolean;
            /**
             * @description The App name GitHub shows (unique on GitHub; it can be changed there)
             * @example repo-monitor-example
             */
            name?: string;
            /**
             * @description Create the App in this organization (its login); left out, in the personal account of whoever is signed in to GitHub
             * @example octo-org
             */
            organization?: string;
        };
        SystemSettingsDto: {
            aggregation: components["schemas"]["AggregationDto"];
            digest_time: string;
            monthly_report: components["schemas"]["MonthlyReportDto"];
            retention: components["schemas"]["RetentionDto"];
            starred_username: string | null;
            time_zone: string;
            weekly_report: components["schemas"]["WeeklyReportDto"];
        };
        TemplatePreviewEventDto: {
            id: number;
            kind: string;
            /** Format: date-time */
            occurred_at: string;
            repository: string | null;
            title: string;
        };
        ToggleNotificationChannelDto: {
            enabled: boolean;
        };
        TokenResponseDto: {
            access_token: string;
            /** @example 3600 */
            expires_in: number;
            /** @example read */
            scope: string;
            /** @example Bearer */
            token_type: string;
        };
        TotpConfirmDto: {
            /**
             * @description The six-digit code the authenticator app shows now
             * @example 123456
             */
            code: string;
            /** @description The current admin password */
            current_password: string;
        };
        TotpSetupDto: {
            /**
             * @description otpauth:// URI for a QR code
             * @example otpauth://totp/repo-monitor:admin?secret=...&issuer=repo-monitor
             */
            otpauth_uri: string;
            /** @description Base32 secret to type into an authenticator app; shown only now */
            secret: string;
        };
        TotpStatusDto: {
            /** @description A secret from setup is waiting to be turned on with a code */
            setup_pending: boolean;
            /** @description Whether sign-in asks for a TOTP code */
            totp_enabled: boolean;
        };
        UpdateAiSettingsDto: {
            /** @description Stored encrypted, never returned (see api_key_set) */
            api_key?: string | null;
            /**
             * @description Any http(s) chat-completion-compatible endpoint
             * @example https://api.openai.com/v1
             */
            base_url?: string;
            code_review_enabled?: boolean;
            digest_enabled?: boolean;
            enabled?: boolean;
            failure_analysis_enabled?: boolean;
            /** @example 800 */
            max_tokens?: number;
            /** @example gpt-4o-mini */
            model?: string;
            release_summary_enabled?: boolean;
            /** @example 1 */
            retries?: number;
            /**
             * @description Per-request timeout as a duration
             * @example 30s
             */
            timeout?: string;
            triage_enabled?: boolean;
        };
        UpdateCheckResultDto: {
            /** @description true when the answer came from the cache */
            cached: boolean;
            checked_at: string | null;
            current_version: string;
            enabled: boolean;
            latest_version: string | null;
            /** @description false when the check failed; `reason` says why (the request still answers 200) */
            ok: boolean;
            published_at: string | null;
            reason: string | null;
            release_url: string | null;
            update_available: boolean | null;
        };
        UpdateGithubAppSettingsDto: {
            /**
             * @description Numeric GitHub App id
             * @example 123456
             */
            app_id?: string | null;
            /** @example Iv1.0123456789abcdef */
            client_id?: string | null;
            /** @description The RSA private key GitHub generated for the App, as PEM text (the content of the downloaded .pem file; PKCS#1 or PKCS#8, not encrypted). Stored encrypted, never returned */
            private_key?: string | null;
            /** @example https://monitor.example.com */
            public_base_url?: string | null;
            /** @description Inbound webhook secret (X-Hub-Signature-256); stored encrypted, never returned */
            webhook_secret?: string | null;
        };
        UpdateNotificationChannelDto: {
            /**
             * @description http_webhook: allow private, loopback and link-local targets
             * @default false
             */
            allow_private: boolean;
            /**
             * @description telegram: numeric chat id or @channel
             * @example -1001234567890
             */
            chat_id?: string;
            /**
             * @description email: the sender, an address or "Name <address>"
             * @example repo-monitor <monitor@example.com>
             */
            email_from?: string;
            /** @description email: the recipients */
            email_to?: string[];
            /** @default true */
            enabled: boolean;
            /** @description Only these kinds; empty means all */
            event_kinds?: ("issues" | "pull_request" | "workflow_run" | "release" | "star" | "watch" | "dependabot_alert" | "code_scanning_alert" | "secret_scanning_alert" | "pr_review" | "digest" | "report")[];
            /**
             * @description telegram: the forum topic (message_thread_id) messages go to unless a routing rule names another; null clears it
             * @example 42
             */
            message_thread_id?: number | null;
            /** @example Team chat */
            name?: string;
            /**
             * @description telegram: the bot token (required); gotify: the application token (required); ntfy: an access token tk_… (optional); email: the SMTP password (optional); http_webhook: the signing secret, a Standard Webhooks secret (whsec_ + base64 of 24-64 random bytes) that signs webhook-signature and X-Host-Monitor-Signature-256. Left out on a new webhook channel, one is generated and answered once. Stored encrypted, never returned otherwise.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXkVYhkj8Qx0=
             */
            secret?: string;
            /**
             * @description email: the SMTP server host name
             * @example smtp.example.com
             */
            smtp_host?: string;
            /** @description email: the SMTP port (left out: 587) */
            smtp_port?: number;
            /**
             * @description email: tls (implicit, port 465), starttls (required; the default), none (local servers only)
             * @enum {string}
             */
            smtp_security?: "tls" | "starttls" | "none";
            /** @description email: the SMTP user name (the password goes in secret) */
            smtp_username?: string;
            /**
             * @description http_webhook: the receiver URL; ntfy: the topic URL; gotify: the server URL; discord, slack, teams (a Workflows webhook), bark (the device URL): the webhook URL, stored encrypted because it carries the token, and shown only as its origin
             * @example https://hooks.example.com/monitor
             */
            url?: string;
        };
        UpdateNotificationRuleDto: {
            /** @description Left out on a new rule: true */
            enabled?: boolean;
            /** @description Every field optional: an absent field matches all */
            match?: components["schemas"]["RuleMatchDto"];
            /** @example Mute Dependabot */
            name?: string;
            route?: components["schemas"]["RuleRouteDto"];
            /** @description When the rule matches, consult no later rule (left out on a new rule: false) */
            stop?: boolean;
        };
        UpdateRepositoryTogglesDto: {
            issues?: boolean;
            pull_requests?: boolean;
            releases?: boolean;
            security_alerts?: boolean;
            stars?: boolean;
            workflow_runs?: boolean;
        };
        UpdateReviewSettingsDto: {
            post_comment: boolean;
        };
        UpdateSecurityAlertDto: {
            /** @description true: no further notifications for this alert */
            ignored: boolean;
        };
        UpdateSystemSettingsDto: {
            aggregation?: components["schemas"]["AggregationDto"];
            /**
             * @description Local time of the daily digest (HH:MM)
             * @example 09:00
             */
            digest_time?: string;
            monthly_report?: components["schemas"]["MonthlyReportDto"];
            retention?: components["schemas"]["RetentionDto"];
            /**
             * @description GitHub user whose starred repositories get release summaries; null turns it off
             * @example octocat
             */
            starred_username?: string | null;
            /**
             * @description IANA time zone
             * @example Europe/Berlin
             */
            time_zone?: string;
            weekly_report?: components["schemas"]["WeeklyReportDto"];
        };
        VersionInfoDto: {
            build_time: string | null;
            git_branch: string | null;
            git_sha: string | null;
            /** @example v20.19.0 */
            node_version: string;
            package_version: string;
            /** @description false with MONITOR_UPDATE_CHECK=false */
            update_check_enabled: boolean;
            /**
             * @description APP_VERSION when set, else the package version
             * @example 1.2.0
             */
            version: string;
        };
        WebhookAcceptedDto: {
            /** @description The X-GitHub-Delivery id */
            delivery_id: string;
            /**
             * @description duplicate: this delivery id was received before and is not processed again
             * @enum {string}
             */
            status: "accepted" | "duplicate";
        };
        WebhookDeliveryDto: {
            action: string | null;
            attempts: number;
            /** @description X-GitHub-Delivery */
            delivery_id: string;
            /** @description X-GitHub-Event */
            event: string;
            /** @description Whether repo-monitor acts on this kind of event; other kinds are stored and ignored */
            handled: boolean;
            id: number;
            /** @description Why the last processing attempt failed */
            last_error: string | null;
            /** Format: date-time */
            processed_at: string | null;
            /** Format: date-time */
            received_at: string;
            repository_full_name: string | null;
            /**
             * @description accepted: stored, not processed yet; processed; failed: given up after its attempts; duplicate: a delivery id seen before
             * @enum {string}
             */
            status: "accepted" | "processed" | "failed" | "duplicate";
        };
        WebhookDeliveryListDto: {
            items: components["schemas"]["WebhookDeliveryDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        WebhookRejectionDto: {
            /** @description Content-Length as sent */
            body_bytes: number | null;
            delivery_id: string | null;
            /** @description The service’s answer (never the request body) */
            detail: string | null;
            event: string | null;
            http_status: number;
            id: number;
            /**
             * @description no_secret: no inbound webhook secret is configured (503); bad_signature: X-Hub-Signature-256 missing or not matching (401); too_many_bad_signatures: the sender was throttled (429); too_large: body over 1 MiB (413); missing_headers / malformed_headers: X-GitHub-Delivery or X-GitHub-Event absent or malformed (400); malformed_body: not a JSON object (400); unsupported_content_type (415); unavailable: the service was stopping (503); other
             * @enum {string}
             */
            reason: "no_secret" | "bad_signature" | "too_many_bad_signatures" | "too_large" | "missing_headers" | "malformed_headers" | "malformed_body" | "unsupported_content_type" | "unavailable" | "other";
            /** Format: date-time */
            received_at: string;
            remote_address: string | null;
            user_agent: string | null;
        };
        WebhookRejectionListDto: {
            items: components["schemas"]["WebhookRejectionDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        WeeklyReportDto: {
            /** @default false */
            enabled: boolean;
            /**
             * @default monday
             * @enum {string}
             */
            weekday: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
        };
        WorkflowRunDto: {
            conclusion: string | null;
            /** @description Whether the conclusion counts as failed (failure, timed_out, cancelled, action_required, startup_failure): notified, counted by the dashboard, the metric and the digest */
            failed: boolean;
            head_branch: string | null;
            head_sha: string | null;
            html_url: string;
            id: number;
            repository_id: number;
            run_attempt: number;
            run_id: number;
            status: string;
            updated_at: string;
            workflow_name: string;
        };
        WorkflowRunListDto: {
            items: components["schemas"]["WorkflowRunDto"][];
            page: number;
            per_page: number;
            total: number;
        };
        WorkItemDto: {
            author: string | null;
            draft: boolean;
            html_url: string;
            id: number;
            /** @enum {string} */
            kind: "issue" | "pull_request";
            merged: boolean;
            number: number;
            repository_id: number;
            state: string;
            title: string;
            updated_at: string;
        };
        WorkItemListDto: {
            items: components["schemas"]["WorkItemDto"][];
            page: number;
            per_page: number;
            total: number;
        };
    };
    responses: {
        /** @description service_unavailable: the service is starting or shutting down; try again after Retry-After */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["MonitorErrorBody"];
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
    OAuthController_authorizationServer: {
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
            /** @description validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OAuthController_protectedResource: {
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
            /** @description validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OAuthController_apiResource: {
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
            /** @description validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OAuthController_mcpResource: {
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
            /** @description validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AgentAccessInfoController_agentAccess: {
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
                    "application/json": components["schemas"]["AgentAccessInfoDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiSettingsController_get: {
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
                    "application/json": components["schemas"]["AiSettingsDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiSettingsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAiSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiSettingsDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description ai_field_locked (details.field): the field is set by environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: an API key cannot be stored without MONITOR_ENCRYPTION_KEY; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    AiController_reviewSettings: {
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
                    "application/json": components["schemas"]["ReviewSettingsDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiController_updateReviewSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReviewSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewSettingsDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiController_listReviews: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                pr_number?: number;
                repository?: string;
                status?: "pending" | "running" | "completed" | "failed";
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
                    "application/json": components["schemas"]["PrReviewListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiController_getReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["PrReviewDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such review */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AiController_test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AiTestDto"];
            };
        };
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
            /** @description validation_failed: bad input, or an unsaved base_url without an api_key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description ai_field_locked (details.field): a value was given for a field set by environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuditLogController_list: {
        parameters: {
            query?: {
                /** @description An action (`auth.login`) or a family of actions (`auth`, `notification_channel`) */
                action?: string;
                /** @description Who acted: a user name, or `system` for the service itself */
                actor?: string;
                page?: number;
                per_page?: number;
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
                    "application/json": components["schemas"]["AuditLogPageDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
                "application/json": components["schemas"]["LoginRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResultDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_credentials: wrong user name or password; or, when the second factor is on, totp_code missing or wrong (then details.totp_required is true: ask for the code and send it with the same user name and password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited, with Retry-After: too many failures from this client (IPv6: its /64), or guesses at the account come too fast (a browser that signed in before is exempt) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
                "application/json": components["schemas"]["ChangePasswordRequestDto"];
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_credentials: the current password is wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited, with Retry-After: too many wrong current passwords from this client */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_session: {
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
                    "application/json": components["schemas"]["SessionInfoDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AuthController_totpStatus: {
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
                    "application/json": components["schemas"]["TotpStatusDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
                "application/json": components["schemas"]["TotpConfirmDto"];
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
            /** @description validation_failed: the code is wrong or was already used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_credentials: the current password is wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the second factor is not on */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited: too many wrong passwords or codes from this session */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
                "application/json": components["schemas"]["TotpConfirmDto"];
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
            /** @description validation_failed: the code is wrong or was already used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_credentials: the current password is wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: already on, or not set up */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited: too many wrong passwords or codes from this session */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
        requestBody?: never;
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
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the second factor is already on */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    DashboardController_get: {
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
                    "application/json": components["schemas"]["DashboardDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeliveriesController_list: {
        parameters: {
            query?: {
                /** @description An event name, e.g. pull_request */
                event?: string;
                page?: number;
                per_page?: number;
                status?: "accepted" | "processed" | "failed" | "duplicate";
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
                    "application/json": components["schemas"]["WebhookDeliveryListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeliveriesController_rejected: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                reason?: "no_secret" | "bad_signature" | "too_many_bad_signatures" | "too_large" | "missing_headers" | "malformed_headers" | "malformed_body" | "unsupported_content_type" | "unavailable" | "other";
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
                    "application/json": components["schemas"]["WebhookRejectionListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DigestsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                period?: "daily" | "weekly" | "monthly";
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
                    "application/json": components["schemas"]["DigestListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DigestsController_produce: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProduceDigestDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DigestDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the digest was produced concurrently */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    EventsController_list: {
        parameters: {
            query?: {
                category?: "security" | "actions" | "issue" | "pr" | "other";
                /** @description An event kind (`issues.opened`) or a family of kinds (`issues` matches `issues.opened`, `issues.closed`, ...) */
                kind?: string;
                page?: number;
                per_page?: number;
                /** @description Text in the title, body or actor, ignoring case */
                q?: string;
                repository_id?: number;
                /** @description Only events that happened at or after this time */
                since?: string;
                /** @description Only events that happened before this time */
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
                    "application/json": components["schemas"]["EventListDto"];
                };
            };
            /** @description validation_failed: a filter is malformed, or since is not before until */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    EventRoutingController_routing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["EventRoutingDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such event */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GithubAppSettingsController_get: {
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
                    "application/json": components["schemas"]["GithubAppSettingsDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GithubAppSettingsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGithubAppSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubAppSettingsDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description github_field_locked (details.field): the field is set by environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: the private key or webhook secret cannot be stored without MONITOR_ENCRYPTION_KEY; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    GithubAppManifestController_start: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartManifestFlowDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManifestFlowStartDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description github_field_locked (details.fields): the environment sets the App id, client id, private key or webhook secret; conflict: no public base URL is set */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    GithubAppManifestController_callback: {
        parameters: {
            query: {
                /** @description The temporary code from GitHub */
                code: unknown;
                /** @description The state from the start */
                state: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the console’s /github-app page with the outcome */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    InstallationsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
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
                    "application/json": components["schemas"]["InstallationListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationChannelsController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
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
                    "application/json": components["schemas"]["NotificationChannelPageDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationChannelsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationChannelDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedNotificationChannelDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    NotificationChannelsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
                    "application/json": components["schemas"]["NotificationChannelDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationChannelsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationChannelsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationChannelDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannelDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: a new secret cannot be stored without MONITOR_ENCRYPTION_KEY; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    NotificationChannelsController_rotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
                    "application/json": components["schemas"]["CreatedNotificationChannelDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationChannelsController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
                    "application/json": components["schemas"]["ChannelTestResultDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification channel */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the channel has no secret */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description encryption_unavailable: the stored secret cannot be read with the configured master key; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    NotificationChannelsController_toggle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ToggleNotificationChannelDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannelDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification channel */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_list: {
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
                    "application/json": components["schemas"]["NotificationRuleListDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationRuleDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRuleDto"];
                };
            };
            /** @description validation_failed: a field is malformed, a channel does not exist, or there are 100 rules already */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
                    "application/json": components["schemas"]["NotificationRuleDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification rule */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification rule */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationRuleDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRuleDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification rule */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: the name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesDryRunController_dryRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationRulesDryRunDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRulesDryRunResultDto"];
                };
            };
            /** @description validation_failed: a rule is malformed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_exportRules: {
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
                    "application/json": components["schemas"]["NotificationRulesExportDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_importRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportNotificationRulesDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRuleListDto"];
                };
            };
            /** @description validation_failed: a rule is malformed, names a channel that does not exist, or repeats a name */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationRulesController_reorder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReorderNotificationRulesDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRuleListDto"];
                };
            };
            /** @description validation_failed: ids does not list every rule exactly once */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationTemplatesController_list: {
        parameters: {
            query?: {
                /** @description Only this channel's templates */
                channel_id?: string;
                /** @description Only message or only title templates */
                part?: "message" | "title";
                /** @description Only this rule's templates */
                rule_id?: string;
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
                    "application/json": components["schemas"]["NotificationTemplateListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationTemplatesController_save: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SaveNotificationTemplateDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationTemplateDto"];
                };
            };
            /** @description validation_failed: the template does not parse, uses an unknown value, skips escaping or writes markup Telegram refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: saved meanwhile */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationTemplatesController_reset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
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
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such notification template */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationTemplatesController_preview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreviewNotificationTemplateDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationTemplatePreviewDto"];
                };
            };
            /** @description validation_failed: the template is refused (see PUT) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no event has the given event_id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_list: {
        parameters: {
            query?: {
                /** @description Only entries for this notification channel */
                channel_id?: string;
                /** @description Only entries of this event (GET /api/v1/events) */
                event_id?: number;
                page?: number;
                per_page?: number;
                state?: "pending" | "sending" | "sent" | "dead" | "suppressed";
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
                    "application/json": components["schemas"]["OutboxListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["OutboxEntryDetailDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such outbox entry */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["OutboxEntryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such outbox entry */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: only dead entries can be retried */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    NotificationsController_retryDead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetryDeadDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryDeadResultDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RecoveredDeliveriesController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                status?: "missing" | "requested" | "recovered" | "given_up";
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
                    "application/json": components["schemas"]["RecoveredDeliveryListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RecoveredDeliveriesController_check: {
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
                    "application/json": components["schemas"]["RedeliverySweepDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RepositoriesController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                /** @description Text in owner/name, ignoring case */
                q?: string;
                /** @description external: watched through MONITOR_EXTERNAL_PAT (at most 20) */
                source?: "installation" | "external";
                status?: "active" | "archived" | "removed";
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
                    "application/json": components["schemas"]["RepositoryListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ExternalRepositoriesController_addExternal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddExternalRepositoryDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found (reason not_found): no public repository with that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description conflict: reason limit (the limit of external repositories is reached), no_token (MONITOR_EXTERNAL_PAT is not set) or token_rejected (GitHub refused it) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited (reason rate_limited): GitHub’s rate limit is reached; Retry-After when GitHub said when it resets */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description service_unavailable: reason unreachable (GitHub could not be reached) or github_error (GitHub answered with an error); or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
    RepositoriesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such repository */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RepositoriesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such repository */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RepositoriesController_updateToggles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRepositoryTogglesDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such repository */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RepositoriesController_activate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such repository */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RepositoriesController_archive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["RepositoryDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such repository */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ExternalRepositoriesController_externalAccess: {
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
                    "application/json": components["schemas"]["ExternalRepositoryAccessDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SecurityAlertsController_list: {
        parameters: {
            query?: {
                ignored?: boolean;
                kind?: "dependabot" | "code_scanning" | "secret_scanning";
                page?: number;
                per_page?: number;
                /** @description Text in the summary, ignoring case */
                q?: string;
                repository_id?: number;
                /** @description critical, high, medium, low, ... */
                severity?: string;
                /** @description open, fixed, dismissed, resolved, ... */
                state?: string;
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
                    "application/json": components["schemas"]["SecurityAlertListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SecurityAlertsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSecurityAlertDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecurityAlertDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: no such alert */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SetupController_setup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupRequestDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupResultDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description forbidden: not a loopback client */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: an admin account exists */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SetupController_status: {
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
                    "application/json": components["schemas"]["SetupStatusDto"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    StarredReleasesController_list: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                /** @description Text in owner/name, ignoring case */
                q?: string;
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
                    "application/json": components["schemas"]["StarredReleaseListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    AgentAccessInfoController_metrics: {
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
                    "application/json": components["schemas"]["MetricsInfoDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SystemSettingsController_get: {
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
                    "application/json": components["schemas"]["SystemSettingsDto"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SystemSettingsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSystemSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemSettingsDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the request body is larger than the service accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SystemVersionController_get: {
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
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SystemVersionController_check: {
        parameters: {
            query?: {
                /** @description Ask the update source even when a cached answer exists */
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
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description csrf_failed: missing or wrong X-CSRF-Token; forbidden: agent tokens are read-only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    WorkItemsController_list: {
        parameters: {
            query?: {
                kind?: "issue" | "pull_request";
                page?: number;
                per_page?: number;
                /** @description Text in the title or author, or the number (`42` or `#42`), ignoring case */
                q?: string;
                repository_id?: number;
                state?: "open" | "closed";
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
                    "application/json": components["schemas"]["WorkItemListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    WorkflowRunsController_list: {
        parameters: {
            query?: {
                conclusion?: string;
                page?: number;
                per_page?: number;
                /** @description Text in the workflow name, branch or commit SHA, ignoring case */
                q?: string;
                repository_id?: number;
                /** @description queued, in_progress, completed, ... */
                status?: string;
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
                    "application/json": components["schemas"]["WorkflowRunListDto"];
                };
            };
            /** @description validation_failed: the request is not valid; the message says what is wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no live session cookie (or agent token where one is accepted) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
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
            /** @description service_unavailable: the service is starting or shutting down; try again after Retry-After */
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
    McpController_stream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Method not allowed (JSON-RPC error body); use POST */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    McpController_handle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response */
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
            /** @description validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description unauthorized: no valid agent token; WWW-Authenticate names the resource metadata (RFC 9728) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    McpController_end: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Method not allowed (JSON-RPC error body); use POST */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            503: components["responses"]["ServiceUnavailable"];
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
            /** @description unauthorized: MONITOR_METRICS_TOKEN is set and the bearer token is missing or wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description not_found: MONITOR_METRICS_ENABLED=false */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OAuthController_authorize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description unsupported_response_type: no authorization response type is offered */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    OAuthController_token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id?: string;
                    client_secret?: string;
                    /** @enum {string} */
                    grant_type: "client_credentials";
                    /** @description RFC 8707 resource indicator: <issuer>/api/v1 or <issuer>/mcp */
                    resource?: string;
                    /** @enum {string} */
                    scope?: "read";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description RFC 6749 error (invalid_request, unsupported_grant_type, invalid_scope, unauthorized_client) or RFC 8707 invalid_target, with error_description, plus error_code and message */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_client: unknown client id or wrong secret */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited: too many tokens issued to this client; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
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
    WebhooksController_receive: {
        parameters: {
            query?: never;
            header: {
                "X-GitHub-Delivery": string;
                "X-GitHub-Event": string;
                "X-Hub-Signature-256": string;
            };
            path?: never;
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
                    "application/json": components["schemas"]["WebhookAcceptedDto"];
                };
            };
            /** @description validation_failed: X-GitHub-Delivery or X-GitHub-Event missing or malformed, or the body is not a JSON object */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description invalid_signature: X-Hub-Signature-256 is missing or does not match */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description validation_failed: the body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description rate_limited, with Retry-After: too many bad signatures from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
            /** @description webhook_not_configured, with Retry-After: no inbound secret is configured; or service_unavailable: the service is starting or shutting down; try again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorErrorBody"];
                };
            };
        };
    };
}
