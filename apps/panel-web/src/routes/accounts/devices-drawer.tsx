import { Badge, Button, Card, Drawer, Group, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmAction, EmptyState, formatDateTime, QueryState, toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { useTimeZone } from '../../components/hooks';
import { accountsApi } from './accounts-api';

type Device = Schemas['DeviceDto'];

/** Who a device is, from what Telegram reports (shown as text). */
function deviceTitle(device: Device): string {
  return [device.device_model, device.platform, device.system_version].filter(Boolean).join(' · ') || device.app_name;
}

/** The devices logged in to an account (terminate with confirm) and Telegram's official messages. */
export function DevicesDrawer({ accountName, onClose }: { accountName: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer opened={accountName !== null} onClose={onClose} position="right" size={phone ? '100%' : 'lg'} title={accountName ? t('accounts.devicesTitle', { name: accountName }) : ''}>
      {accountName ? (
        <Tabs defaultValue="devices" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="devices">{t('accounts.devices')}</Tabs.Tab>
            <Tabs.Tab value="messages">{t('accounts.officialMessages')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="devices">
            <DeviceList accountName={accountName} />
          </Tabs.Panel>
          <Tabs.Panel value="messages">
            <OfficialMessages accountName={accountName} />
          </Tabs.Panel>
        </Tabs>
      ) : null}
    </Drawer>
  );
}

function DeviceList({ accountName }: { accountName: string }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const key = ['account-devices', accountName];
  const devices = useQuery({ queryKey: key, queryFn: () => accountsApi.devices(accountName) });
  const terminate = useMutation({
    mutationFn: (device: Device) => accountsApi.terminateDevice(accountName, device.auth_hash),
    onSuccess: (_result, device) => {
      toast.success(t('accounts.terminated', { device: deviceTitle(device) }));
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => toast.error(error),
  });
  const ask = async (device: Device) => {
    const yes = await confirmAction({
      title: t('accounts.terminateTitle'),
      message: t('accounts.terminateMessage', { device: deviceTitle(device), app: `${device.app_name} ${device.app_version}`.trim(), location: device.location || device.ip }),
      confirmLabel: t('accounts.terminate'),
      cancelLabel: t('common.cancel'),
    });
    if (yes) terminate.mutate(device);
  };
  return (
    <QueryState query={devices} isEmpty={(data) => data.devices.length === 0} empty={<EmptyState title={t('accounts.noDevices')} />}>
      {(data) => (
        <Stack gap="sm" component="ul" aria-label={t('accounts.devices')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.devices.map((device) => (
            <Card key={device.auth_hash} component="li" withBorder padding="sm">
              <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {deviceTitle(device)}
                </Text>
                <Group gap={4} justify="flex-end">
                  {device.current ? (
                    <Badge color="blue" variant="light">
                      {t('accounts.currentSession')}
                    </Badge>
                  ) : null}
                  {device.official_app ? (
                    <Badge color="teal" variant="light">
                      {t('accounts.officialApp')}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t('accounts.unofficialApp')}
                    </Badge>
                  )}
                </Group>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {`${device.app_name} ${device.app_version}`.trim()}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {[device.ip, device.location].filter(Boolean).join(' · ')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('accounts.deviceTimes', { created: formatDateTime(device.created_at, timeZone, false), active: formatDateTime(device.active_at, timeZone, false) })}
              </Text>
              <Group mt="xs" gap="xs" align="center">
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  disabled={device.current}
                  loading={terminate.isPending && terminate.variables?.auth_hash === device.auth_hash}
                  aria-label={t('accounts.terminateLabel', { device: deviceTitle(device) })}
                  aria-describedby={device.current ? `current-${device.auth_hash}` : undefined}
                  onClick={() => void ask(device)}
                >
                  {t('accounts.terminate')}
                </Button>
                {device.current ? (
                  <Text id={`current-${device.auth_hash}`} size="xs" c="dimmed">
                    {t('accounts.currentCannot')}
                  </Text>
                ) : null}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </QueryState>
  );
}

function OfficialMessages({ accountName }: { accountName: string }) {
  const { t } = useTranslation();
  const timeZone = useTimeZone();
  const messages = useQuery({ queryKey: ['account-official-messages', accountName], queryFn: () => accountsApi.officialMessages(accountName) });
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('accounts.officialHint')}
      </Text>
      <QueryState query={messages} isEmpty={(data) => data.messages.length === 0} empty={<EmptyState title={t('accounts.noMessages')} />}>
        {(data) => (
          <Stack gap="sm" component="ul" aria-label={t('accounts.officialMessages')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.messages.map((message) => (
              <Card key={message.id} component="li" withBorder padding="sm">
                <Text size="xs" c="dimmed" mb={4}>
                  {formatDateTime(message.date, timeZone)}
                </Text>
                {/* Telegram's text, shown as text: never parsed as HTML. */}
                <pre className="plain-text" style={{ fontFamily: 'inherit', fontSize: 'var(--mantine-font-size-sm)' }}>
                  {message.text}
                </pre>
              </Card>
            ))}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
