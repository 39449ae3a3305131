import { Accordion, Alert, Badge, Button, Checkbox, FileInput, Group, List, Stack, Switch, Text, TextInput } from '@mantine/core';
import { confirmAction, toast } from '@shared/web-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Schemas } from '../../api/client';
import { ImportItem, initialSelection, isSelectable, parseConfigFile, reasonKey, selectionToSend, toggleAll, toggleSelection } from './import-selection';
import { ConfigImport, downloadConfig, useImportConfig, usePreviewImport } from './settings-api';
import { Section } from './settings-parts';

/** The service's limit for an import body (request-limits: 4 MiB). */
const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

const ACTION_COLORS: Record<ImportItem['action'], string> = { create: 'teal', overwrite: 'orange', update: 'blue', unchanged: 'gray', skip: 'gray', refuse: 'red' };

/** Configuration JSON: export it, or choose a file, see what it changes, choose items, then import. */
export function ConfigTransferPanel({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [defaultAccount, setDefaultAccount] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [report, setReport] = useState<Schemas['ImportResultDto'] | null>(null);

  const request = (withOverwrite: boolean): ConfigImport => ({ config_json: text ?? '', overwrite: withOverwrite, ...(defaultAccount.trim() ? { default_account: defaultAccount.trim() } : {}) });
  const preview = usePreviewImport({
    onSuccess: (result) => setSelected(initialSelection(result.items)),
    onError: (error) => toast.error(error, t('settings.import.previewFailed')),
  });
  const importNow = useImportConfig({
    onSuccess: (result) => {
      setReport(result);
      preview.reset();
      setFile(null);
      setText(null);
      toast.success(t('settings.import.done', { created: result.created.length, overwritten: result.overwritten.length }));
    },
    onError: (error) => toast.error(error, t('settings.import.failed')),
  });

  const chooseFile = async (next: File | null) => {
    setFile(next);
    setText(null);
    setFileProblem(null);
    setReport(null);
    preview.reset();
    if (!next) return;
    if (next.size > MAX_IMPORT_BYTES) {
      setFileProblem(t('settings.import.tooLarge'));
      return;
    }
    const content = await next.text();
    const parsed = parseConfigFile(content);
    if ('problem' in parsed) setFileProblem(t(`settings.import.${parsed.problem}`));
    else setText(content);
  };

  const items = preview.data?.items ?? [];
  const toSend = selectionToSend(items, selected);
  const confirmImport = async () => {
    const ok = await confirmAction({
      title: t('settings.import.confirmTitle'),
      message: t('settings.import.confirmMessage', { count: toSend.length }),
      confirmLabel: t('settings.import.import'),
      cancelLabel: t('common.cancel'),
      danger: overwrite,
    });
    if (ok) importNow.mutate({ ...request(overwrite), selected: toSend });
  };

  return (
    <>
      <Section
        title={t('settings.export.title')}
        intro={t('settings.export.intro')}
        actions={
          <Button
            loading={exporting}
            onClick={async () => {
              setExporting(true);
              try {
                await downloadConfig();
              } catch (error) {
                toast.error(error);
              } finally {
                setExporting(false);
              }
            }}
          >
            {t('settings.export.download')}
          </Button>
        }
      >
        {null}
      </Section>
      <Section title={t('settings.import.title')} intro={t('settings.import.intro')}>
        <FileInput label={t('settings.import.file')} description={t('settings.import.choose')} accept="application/json,.json" clearable clearButtonProps={{ 'aria-label': t('settings.import.clearFile') }} value={file} error={fileProblem} onChange={(next) => void chooseFile(next)} />
        <Switch
          label={t('settings.import.overwrite')}
          description={t('settings.import.overwriteHint')}
          checked={overwrite}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setOverwrite(next);
            if (preview.data) preview.mutate(request(next));
          }}
        />
        <TextInput label={t('settings.import.defaultAccount')} description={t('settings.import.defaultAccountHint')} value={defaultAccount} onChange={(event) => setDefaultAccount(event.currentTarget.value)} />
        <Group>
          <Button variant="light" disabled={!text} loading={preview.isPending} onClick={() => preview.mutate(request(overwrite))}>
            {t('settings.import.preview')}
          </Button>
        </Group>
        {preview.data ? (
          <Stack gap="sm">
            <Group gap="xs">
              {(Object.entries(preview.data.counts) as Array<[ImportItem['action'], number]>)
                .filter(([, count]) => count > 0)
                .map(([action, count]) => (
                  <Badge key={action} color={ACTION_COLORS[action]} variant="light">
                    {t(`settings.import.actions.${action}`)}: {count}
                  </Badge>
                ))}
            </Group>
            {preview.data.problems.length > 0 ? (
              <Alert color="red" title={t('settings.import.problems')} role="alert">
                <List size="sm">
                  {preview.data.problems.map((problem) => (
                    <List.Item key={problem} style={{ overflowWrap: 'anywhere' }}>
                      {problem}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            ) : null}
            {items.length === 0 ? (
              <Text size="sm">{t('settings.import.nothing')}</Text>
            ) : (
              <>
                <Checkbox
                  label={t('settings.import.selectAll')}
                  checked={toSend.length > 0 && toSend.length === initialSelection(items).length}
                  indeterminate={toSend.length > 0 && toSend.length < initialSelection(items).length}
                  disabled={initialSelection(items).length === 0}
                  onChange={() => setSelected(toggleAll(items, selected))}
                />
                <Accordion variant="separated" multiple>
                  {items.map((item) => (
                    <ImportItemRow key={item.key} item={item} checked={selected.includes(item.key)} onToggle={(on) => setSelected(toggleSelection(selected, item.key, on))} />
                  ))}
                </Accordion>
              </>
            )}
            {dirty ? (
              <Text size="sm" c="dimmed">
                {t('settings.import.saveFirst')}
              </Text>
            ) : null}
            <Group>
              <Button color={overwrite ? 'orange' : undefined} disabled={toSend.length === 0 || dirty} loading={importNow.isPending} onClick={() => void confirmImport()}>
                {t('settings.import.importCount', { count: toSend.length })}
              </Button>
            </Group>
          </Stack>
        ) : null}
        {report ? <ImportReport report={report} /> : null}
      </Section>
    </>
  );
}

function itemLabel(item: ImportItem, t: (key: string) => string): string {
  return item.section === 'settings' ? t('settings.import.sections.settings') : `${t(`settings.import.sections.${item.section}`)}: ${item.name ?? item.key}`;
}

function ImportItemRow({ item, checked, onToggle }: { item: ImportItem; checked: boolean; onToggle: (on: boolean) => void }) {
  const { t } = useTranslation();
  const label = itemLabel(item, t);
  const ownReason = reasonKey(item);
  const reason = ownReason ? t(ownReason) : item.reason;
  return (
    <Accordion.Item value={item.key}>
      <Group gap="xs" wrap="nowrap" px="sm" pt="xs" align="flex-start">
        <Checkbox aria-label={t('settings.import.selectItem', { name: label })} checked={checked && isSelectable(item)} disabled={!isSelectable(item)} onChange={(event) => onToggle(event.currentTarget.checked)} mt={4} />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {label}
            </Text>
            <Badge color={ACTION_COLORS[item.action]} variant="light">
              {t(`settings.import.actions.${item.action}`)}
            </Badge>
          </Group>
          {item.accounts.length > 0 ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('settings.import.accounts', { accounts: item.accounts.map((account) => (account === '*' ? t('settings.import.everyAccount') : account)).join(', ') })}
            </Text>
          ) : null}
          {reason ? (
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              {reason}
            </Text>
          ) : null}
        </Stack>
      </Group>
      <Accordion.Control>{t('settings.import.details')}</Accordion.Control>
      <Accordion.Panel>
        <Stack gap="xs">
          <FieldList title={t('settings.import.problemsOfItem')} entries={item.problems} color="red" />
          <FieldList title={t('settings.import.warnings')} entries={item.warnings} color="orange" />
          <FieldList title={t('settings.import.mapped')} entries={item.mapped_fields} />
          <FieldList title={t('settings.import.defaults')} entries={item.defaults_applied} />
          <FieldList title={t('settings.import.unmapped')} entries={item.unmapped_fields.map((field) => `${field.field}: ${field.note}`)} />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

function FieldList({ title, entries, color }: { title: string; entries: string[]; color?: string }) {
  if (entries.length === 0) return null;
  return (
    <div>
      <Text size="xs" fw={600} c={color}>
        {title} ({entries.length})
      </Text>
      <List size="xs">
        {entries.map((entry, index) => (
          <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
            {entry}
          </List.Item>
        ))}
      </List>
    </div>
  );
}

function ImportReport({ report }: { report: Schemas['ImportResultDto'] }) {
  const { t } = useTranslation();
  const groups: Array<[string, ImportItem[]]> = [
    [t('settings.import.report.created'), report.created],
    [t('settings.import.report.overwritten'), report.overwritten],
    [t('settings.import.report.skipped'), report.skipped],
  ];
  return (
    <Alert color="teal" title={t('settings.import.report.title')} role="status">
      <Stack gap="xs">
        {groups.map(([title, entries]) => (
          <Text key={title} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {title} ({entries.length}){entries.length > 0 ? `: ${entries.map((item) => itemLabel(item, t)).join('; ')}` : ''}
          </Text>
        ))}
        {report.settings ? <Text size="sm">{t('settings.import.report.settings', { action: t(`settings.import.actions.${report.settings.action}`) })}</Text> : null}
        {report.post_import.map((step) => (
          <Text key={step.name} size="sm" c={step.ok ? undefined : 'red'} style={{ overflowWrap: 'anywhere' }}>
            {step.ok ? t('settings.import.report.stepOk', { name: step.name }) : t('settings.import.report.stepFailed', { name: step.name, error: step.error ?? '' })}
          </Text>
        ))}
        {report.note ? <Text size="sm">{report.note}</Text> : null}
      </Stack>
    </Alert>
  );
}
