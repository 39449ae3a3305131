import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '../../components/copyable-code';

/** How a receiver checks a notification with the official Standard Webhooks library (docs/outbound-webhooks.md). */
export function verifySnippet(): string {
  return `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.MONITOR_WEBHOOK_SECRET); // "whsec_…"

app.post('/hook', express.raw({ type: 'application/json' }), (req, res) => {
  try {
    // throws when forged or older than 5 minutes
    const notification = webhook.verify(req.body.toString('utf8'), req.headers);
    handle(notification);
    res.sendStatus(200);
  } catch {
    res.sendStatus(401);
  }
});`;
}

/**
 * A generated signing secret, shown this once (the service never returns it again), with how to
 * verify notifications with it.
 */
export function SecretOnceModal({ secret, channelName, onClose }: { secret: string | null; channelName: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t('channels.secretOnce.title', { name: channelName })} size="lg" closeOnClickOutside={false}>
      {secret ? (
        <Stack gap="sm">
          <Alert color="yellow" variant="light">
            {t('channels.secretOnce.warning')}
          </Alert>
          <CopyableCode label={t('channels.secretOnce.secret')} code={secret} />
          <Text size="sm">{t('channels.secretOnce.how')}</Text>
          <CopyableCode label={t('channels.secretOnce.node')} code={verifySnippet()} block />
          <CopyableCode label={t('channels.secretOnce.python')} code={'from standardwebhooks.webhooks import Webhook\n\nnotification = Webhook(secret).verify(raw_body, headers)'} block />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('channels.secretOnce.done')}</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
