import { formatDateTime } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { useTimeZone } from '../../components/hooks';

type Verdict = Schemas['RuleVerdictDto'];
type Delivery = Schemas['RoutedDeliveryDto'];

/** A routing decision as the console words it: who decided, the rules' verdicts, where it went. */
export interface RoutingDecisionLike {
  routed_by: string;
  rules: readonly Verdict[];
  deliveries: readonly Delivery[];
}

/**
 * Routing explained in the page's language, from the decision's fields (the service's summary and
 * reasons are English): the one-sentence summary, and why a rule did not match, named by the field
 * as the Rules page labels it. Its words are the shell's (`routingWords`), loaded on every page: the
 * events page and the Rules page's dry run both use them. The verdict also needs the events page's.
 */
export function useRoutingWords(): { summary: (decision: RoutingDecisionLike) => string; verdict: (rule: Verdict) => string } {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const list = (items: string[]) => items.join(t('routingWords.summary.listSeparator'));
  const named = (delivery: Delivery) => {
    const channel = delivery.channel_name ?? t('routingWords.deletedChannel');
    return delivery.message_thread_id === null ? channel : t('routingWords.summary.channelTopic', { channel, topic: delivery.message_thread_id });
  };
  const summary = (decision: RoutingDecisionLike): string => {
    if (decision.routed_by === 'not_recorded') return t('routingWords.summary.notRecorded');
    if (decision.routed_by === 'not_notifying') return t('routingWords.summary.notNotifying');
    const of = (outcome: string) => decision.deliveries.filter((delivery) => delivery.outcome === outcome);
    const parts: string[] = [];
    if (of('queued').length > 0) parts.push(t('routingWords.summary.sentTo', { channels: list(of('queued').map(named)) }));
    for (const held of of('held')) {
      parts.push(t('routingWords.summary.held', { time: held.send_after ? formatDateTime(held.send_after, timeZone) : '', channel: named(held) }));
    }
    if (of('digest').length > 0) parts.push(t('routingWords.summary.digest', { channels: list(of('digest').map(named)) }));
    if (of('dropped_quiet_hours').length > 0) parts.push(t('routingWords.summary.dropped', { channels: list(of('dropped_quiet_hours').map(named)) }));
    if (of('channel_unavailable').length > 0) parts.push(t('routingWords.summary.unavailable', { channels: list(of('channel_unavailable').map(named)) }));
    const byFilters = decision.routed_by === 'channel_filters';
    if (parts.length > 0) return t(byFilters ? 'routingWords.summary.byFilters' : 'routingWords.summary.byRules', { parts: parts.join(t('routingWords.summary.partSeparator')) });
    if (byFilters) return t('routingWords.summary.noFilter');
    const matched = decision.rules.filter((rule) => rule.matched);
    if (matched.length === 0) return t('routingWords.summary.noRuleMatched');
    const stopper = matched.find((rule) => rule.stopped);
    if (stopper) return t('routingWords.summary.muted', { name: stopper.name });
    return t('routingWords.summary.nowhere', { names: list(matched.map((rule) => t('routingWords.summary.quoted', { name: rule.name }))) });
  };
  const verdict = (rule: Verdict): string => {
    if (rule.matched) return t(rule.stopped ? 'events.routing.matchedStopped' : 'events.routing.matched');
    if (rule.reason === 'disabled') return t('events.routing.disabled');
    // The service's reason starts with the match field that failed ("labels_any: none of … is on the event").
    const reason = rule.reason ?? '';
    const split = reason.indexOf(':');
    const field = split > 0 ? reason.slice(0, split) : '';
    if (field && i18n.exists(`routingWords.fields.${field}`)) return t('routingWords.notMatchedOn', { field: t(`routingWords.fields.${field}`), detail: reason.slice(split + 1).trim() });
    return t('events.routing.notMatched', { reason });
  };
  return { summary, verdict };
}
