import { List, Text } from '@mantine/core';
import { ApiError, toast, useErrorMessage } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../api/client';

type RunFailure = Schemas['RunFailureDto'];
type ReplicaFailure = Schemas['ReplicaFailureDto'];

/**
 * In a cluster, what an owner replica answered when it failed a part of run now, cancel or
 * keep-alive (or that it did not answer), in the page's language: a sentence per account or replica.
 */
export function useReplicaFailureText() {
  const { t } = useTranslation();
  const describeError = useErrorMessage();
  // Not answering is the replica's doing, not the service's start or stop that service_unavailable usually means.
  const reason = (failure: { code: string; message: string }) =>
    failure.code === 'service_unavailable' ? t('replicaFailures.noAnswer') : describeError(new ApiError(502, failure.message, undefined, undefined, failure.code));
  return {
    notStarted: (failures: readonly RunFailure[]) => failures.map((failure) => t('replicaFailures.notStarted', { account: failure.account_name, reason: reason(failure) })),
    notStopped: (failures: readonly ReplicaFailure[]) => failures.map((failure) => t('replicaFailures.notStopped', { replica: failure.replica_id, reason: reason(failure) })),
    notWoken: (failures: readonly ReplicaFailure[]) => failures.map((failure) => t('replicaFailures.notWoken', { replica: failure.replica_id, reason: reason(failure) })),
  };
}

/** A toast that stays a while, listing what did not happen; nothing when everything did. */
export function useReplicaFailureToasts() {
  const { t } = useTranslation();
  const text = useReplicaFailureText();
  const show = (title: string, lines: string[]) => {
    if (lines.length) toast.error(new Error(lines.join('\n')), title);
  };
  return {
    afterRun: (result: { failures: readonly RunFailure[] }) => show(t('replicaFailures.runTitle'), text.notStarted(result.failures)),
    afterCancel: (result: { failures: readonly ReplicaFailure[] }) => show(t('replicaFailures.cancelTitle'), text.notStopped(result.failures)),
  };
}

/** The replicas whose accounts a keep-alive round did not reach, on the result card. */
export function KeepaliveReplicaFailures({ failures }: { failures: readonly ReplicaFailure[] }) {
  const { t } = useTranslation();
  const lines = useReplicaFailureText().notWoken(failures);
  if (lines.length === 0) return null;
  return (
    <div role="alert">
      <Text size="sm" fw={600} c="red">
        {t('replicaFailures.keepaliveTitle')}
      </Text>
      <List size="sm">
        {lines.map((line) => (
          <List.Item key={line} style={{ overflowWrap: 'anywhere' }}>
            {line}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
