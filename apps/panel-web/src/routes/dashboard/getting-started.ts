/** One step of a new install's checklist, in the order a person does them. */
export type SetupStepId = 'credentials' | 'account' | 'task' | 'notification';

export interface SetupStep {
  id: SetupStepId;
  done: boolean;
  /** Where the step is done. */
  to: string;
}

export interface SetupState {
  telegramApiId: number | null;
  telegramApiHashSet: boolean;
  accounts: number;
  tasks: number;
  /** Whether any notification channel's last test went through. */
  notificationTested: boolean;
}

/** The checklist read from the service's real state. */
export function setupSteps(state: SetupState): SetupStep[] {
  return [
    { id: 'credentials', done: state.telegramApiId !== null && state.telegramApiHashSet, to: '/settings?tab=telegram' },
    { id: 'account', done: state.accounts > 0, to: '/accounts?add=phone' },
    { id: 'task', done: state.tasks > 0, to: '/tasks/new' },
    { id: 'notification', done: state.notificationTested, to: '/settings?tab=notifications' },
  ];
}
