import { Alert, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatDateTime, toast } from '@shared/web-ui';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import { CHANNEL_TESTS_KEY, useChannelTestsQuery, useTimeZone } from '../../components/hooks';
import { TestButton } from './settings-parts';

export type ChannelTest = Schemas['ChannelTestDto'];
export type TestableChannel = ChannelTest['channel'];

/**
 * Why a test failed, as a sentence that names what to fix. The stored code says what happened; the
 * receiver's own words (Telegram's description, an answer's body) follow where there are any.
 */
export function testFailureText(t: TFunction, test: Pick<ChannelTest, 'channel' | 'error_code' | 'status' | 'detail'>): string {
  const detail = test.detail?.trim();
  if (test.channel === 'bot') {
    // The Bot API's address is the service's, not one a person typed: say what is really wrong.
    if (test.error_code === 'dns_failed' || test.error_code === 'network_error' || test.error_code === 'timeout') return t('settings.channelTest.reasons.botUnreachable');
    if (test.status === 401 || test.status === 404) return t('settings.channelTest.reasons.botToken');
    if (detail && /chat not found/i.test(detail)) return t('settings.channelTest.reasons.botChat');
    if (detail && /blocked by the user|bot was kicked|not a member/i.test(detail)) return t('settings.channelTest.reasons.botBlocked');
  }
  const code = test.error_code ?? 'http_error';
  const reason = t(`settings.channelTest.reasons.${code}`, { status: test.status ?? '', defaultValue: t('settings.channelTest.reasons.http_error', { status: test.status ?? '' }) });
  return detail ? t('settings.channelTest.receiverSaid', { reason, detail }) : reason;
}

/** Sends a test through one channel; the stored last results are read again afterwards. */
export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: TestableChannel) => unwrap(api.POST('/api/config/notifications/{channel}/test', { params: { path: { channel } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CHANNEL_TESTS_KEY }),
  });
}

/** A channel card's test button and its last result (kept by the service, so it is there after a reload). */
export function ChannelTestControls({ channel, label, dirty, configured }: { channel: TestableChannel; label: string; dirty: boolean; configured: boolean }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const tests = useChannelTestsQuery();
  const test = useTestChannel();
  const last = tests.data?.tests.find((entry) => entry.channel === channel);
  return (
    <>
      <TestButton
        label={label}
        dirty={dirty}
        loading={test.isPending}
        disabled={!configured}
        onClick={() => test.mutate(channel, { onError: (error) => toast.error(error) })}
      />
      {!configured && !dirty ? (
        <Text size="xs" c="dimmed">
          {t('settings.channelTest.notConfigured')}
        </Text>
      ) : null}
      {last ? (
        <Alert color={last.ok ? 'teal' : 'red'} variant="light" role="status" title={last.ok ? t('settings.channelTest.ok') : t('settings.channelTest.failed')} w="100%">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {last.ok ? null : `${testFailureText(t, last)} `}
            <Text span size="xs" c="dimmed">
              {t('settings.channelTest.at', { time: formatDateTime(last.tested_at, timeZone) })}
            </Text>
          </Text>
        </Alert>
      ) : null}
    </>
  );
}
