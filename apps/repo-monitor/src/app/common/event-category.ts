/**
 * What an event is about. Records, notifications, the dashboard and the agent read model all speak in
 * these, so the list lives below all of them.
 */
export const EVENT_CATEGORIES = ['security', 'actions', 'issue', 'pr', 'other'] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];
