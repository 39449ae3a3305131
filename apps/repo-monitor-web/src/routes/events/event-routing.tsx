import { Badge, List, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryState } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useRoutingWords } from './routing-words';

/** Which rules matched an event and where it went (or why not), from GET /api/v1/events/{id}/routing. */
export function EventRoutingModal({ event, onClose }: { event: { id: number; title: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={event !== null} onClose={onClose} title={event ? t('events.routing.title', { title: event.title }) : ''} size="lg">
      {event ? <EventRouting id={event.id} /> : null}
    </Modal>
  );
}

function EventRouting({ id }: { id: number }) {
  const { t } = useTranslation();
  const words = useRoutingWords();
  const routing = useQuery({ queryKey: ['event-routing', id], queryFn: () => unwrap(api.GET('/api/v1/events/{id}/routing', { params: { path: { id } } })) });
  return (
    <QueryState query={routing}>
      {(data) => (
        <Stack gap="sm">
          <Text>{words.summary(data)}</Text>
          {data.rules.length > 0 ? (
            <Stack gap={4}>
              <Text fw={600} size="sm">
                {t('events.routing.rules')}
              </Text>
              <List size="sm" spacing={4}>
                {data.rules.map((rule) => (
                  <List.Item key={rule.rule_id}>
                    <Text span size="sm" fw={500}>
                      {rule.name}
                    </Text>
                    {': '}
                    {words.verdict(rule)}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
          {data.deliveries.length > 0 ? (
            <Table.ScrollContainer minWidth={420}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('events.routing.channel')}</Table.Th>
                    <Table.Th>{t('events.routing.outcome')}</Table.Th>
                    <Table.Th>{t('events.routing.state')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.deliveries.map((delivery) => (
                    <Table.Tr key={`${delivery.channel_id}-${delivery.message_thread_id ?? ''}-${delivery.rule_id ?? ''}`}>
                      <Table.Td>
                        {delivery.channel_name ?? t('events.routing.deletedChannel')}
                        {delivery.message_thread_id !== null ? ` · ${t('events.routing.topic', { topic: delivery.message_thread_id })}` : ''}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={delivery.outcome === 'queued' || delivery.outcome === 'held' ? 'blue' : 'gray'}>
                          {t(`events.routing.outcomes.${delivery.outcome}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{delivery.outbox_state ? t(`events.routing.states.${delivery.outbox_state}`) : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}
