import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A value a person copies into another tool (a URL, a curl command, a secret shown once): the text
 * as text, wrapped so it never widens the page, and a labelled copy button.
 */
export function CopyableCode({ label, code, block = false }: { label: string; code: string; block?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow position="left">
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`${copied ? t('common.copied') : t('common.copy')}: ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block={block} style={{ whiteSpace: block ? 'pre-wrap' : undefined, overflowWrap: 'anywhere', wordBreak: 'break-word' }}>
        {code}
      </Code>
    </Stack>
  );
}
