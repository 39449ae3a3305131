import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { escapeTelegramHtml } from '@shared/notify';
import { NotificationEnricher } from '../notifications/notification-enricher';
import { NotificationMessage } from '../notifications/notification-message';
import { NotificationWorker } from '../notifications/notification-worker';
import { RepositoryRepository } from '../repositories/repository.repository';
import { AiClient, AiFeature, AiOutcome } from './ai-client';
import { AiGitHubSource } from './ai-github-source';
import { failureDiagnosisPrompt, logTail, releaseSummaryPrompt, triagePrompt } from './ai-prompts';

/** Run conclusions whose failed job log is worth a diagnosis. */
const DIAGNOSED_RUN_KINDS = new Set(['workflow_run.failure', 'workflow_run.timed_out', 'workflow_run.startup_failure']);
const CACHE_LIMIT = 500;

const HEADINGS: Record<'triage' | 'failureAnalysis' | 'releaseSummary', string> = {
  triage: 'AI triage',
  failureAnalysis: 'AI diagnosis',
  releaseSummary: 'AI summary',
};

type EnrichingFeature = keyof typeof HEADINGS;

/** Which AI step a notification gets, if any. */
export function enrichingFeatureOf(message: NotificationMessage): EnrichingFeature | undefined {
  const family = message.kind.split('.')[0];
  if (message.category === 'security' && family.endsWith('_alert')) return 'triage';
  if (DIAGNOSED_RUN_KINDS.has(message.kind)) return 'failureAnalysis';
  if (message.kind === 'release.published' && message.event['source'] === 'starred') return 'releaseSummary';
  return undefined;
}

/** The message with the model's text appended (Telegram HTML and plain) and kept in `event.ai`. */
export function withAddition(message: NotificationMessage, feature: EnrichingFeature, text: string): NotificationMessage {
  const heading = HEADINGS[feature];
  const previous = (message.event['ai'] as Record<string, unknown> | undefined) ?? {};
  return {
    ...message,
    bodyHtml: `${message.bodyHtml}\n\n<b>${heading}</b>\n${escapeTelegramHtml(text)}`,
    bodyPlain: `${message.bodyPlain}\n\n${heading}:\n${text}`,
    event: { ...message.event, ai: { ...previous, [featureKey(feature)]: text } },
  };
}

function featureKey(feature: EnrichingFeature): string {
  return feature === 'triage' ? 'triage' : feature === 'failureAnalysis' ? 'diagnosis' : 'release_summary';
}

/**
 * Real-time AI steps on notifications, run by the outbox worker right before sending: triage of
 * security alerts, diagnosis of failed runs from the failed job's log, summaries of starred
 * repositories' releases. The whole step (log download included) is bounded by the configured AI
 * timeout; on timeout or any error the notification goes out as it was, with its link. One result
 * per event is shared by every channel.
 */
@Injectable()
export class AiNotificationEnricher implements NotificationEnricher, OnApplicationBootstrap {
  private readonly logger = new Logger(AiNotificationEnricher.name);
  private readonly results = new Map<string, Promise<string | null>>();

  constructor(
    private readonly ai: AiClient,
    private readonly github: AiGitHubSource,
    private readonly repositories: RepositoryRepository,
    private readonly worker: NotificationWorker,
  ) {}

  onApplicationBootstrap(): void {
    this.worker.addEnricher(this);
  }

  /** The AI step is capped at the effective timeout (console changes apply at once). */
  async maxDurationMs(): Promise<number> {
    const { settings, unavailable } = await this.ai.settingsFor('triage');
    return unavailable ? 0 : settings.timeoutMs;
  }

  async enrich(message: NotificationMessage): Promise<NotificationMessage> {
    const feature = enrichingFeatureOf(message);
    if (!feature) return message;
    const key = `${feature}:${String(message.event['fingerprint'] ?? message.event['id'] ?? message.title)}`;
    let result = this.results.get(key);
    if (!result) {
      result = this.run(feature, message);
      this.results.set(key, result);
      if (this.results.size > CACHE_LIMIT) this.results.delete(this.results.keys().next().value as string);
    }
    const text = await result;
    return text ? withAddition(message, feature, text) : message;
  }

  private async run(feature: EnrichingFeature, message: NotificationMessage): Promise<string | null> {
    const { settings, unavailable } = await this.ai.settingsFor(feature as AiFeature);
    if (unavailable) return null;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<AiOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ ok: false, code: 'timeout', message: `no answer within ${settings.timeoutMs} ms`, elapsedMs: settings.timeoutMs });
      }, settings.timeoutMs);
    });
    try {
      const outcome = await Promise.race([this.ask(feature, message, controller.signal, settings.timeoutMs), deadline]);
      if (outcome.ok) return outcome.text.slice(0, 1500);
      this.logger.warn(`AI ${feature} for ${message.kind} unavailable (${outcome.code}); sending the original text`);
      return null;
    } catch (error) {
      this.logger.warn(`AI ${feature} for ${message.kind} failed: ${(error as Error).message}; sending the original text`);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private async ask(feature: EnrichingFeature, message: NotificationMessage, signal: AbortSignal, deadlineMs: number): Promise<AiOutcome> {
    const event = message.event;
    const options = { signal, deadlineMs };
    if (feature === 'triage') {
      return this.ai.completeFor('triage', triagePrompt({ repository: message.repository, title: message.title, body: message.bodyPlain, kind: String(event['alert_kind'] ?? message.kind), severity: event['severity'] }), options);
    }
    if (feature === 'releaseSummary') {
      return this.ai.completeFor(
        'releaseSummary',
        releaseSummaryPrompt({ repository: message.repository, title: message.title, notes: message.bodyPlain, tag: event['tag'] }),
        options,
      );
    }
    const runId = Number(event['run_id']);
    if (!message.repository || !Number.isFinite(runId)) return { ok: false, code: 'bad_request', message: 'the notification names no run', elapsedMs: 0 };
    const repository = await this.repositories.findByName(undefined, message.repository);
    const installationId = repository?.source === 'installation' ? repository.installationId : null;
    const job = await this.github.failedJobLog(installationId === null ? null : Number(installationId), message.repository, runId);
    if (signal.aborted) return { ok: false, code: 'timeout', message: 'the job log took the whole timeout', elapsedMs: deadlineMs };
    if (!job) return { ok: false, code: 'bad_request', message: 'no failed job in the run', elapsedMs: 0 };
    return this.ai.completeFor(
      'failureAnalysis',
      failureDiagnosisPrompt({
        repository: message.repository,
        workflow: event['workflow'],
        branch: event['branch'],
        conclusion: event['conclusion'],
        jobName: job.jobName,
        logTail: logTail(job.log) || '(the log is empty or expired)',
      }),
      options,
    );
  }
}
