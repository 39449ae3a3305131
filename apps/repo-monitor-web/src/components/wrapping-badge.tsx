import { Badge, BadgeProps } from '@mantine/core';
import { ReactNode } from 'react';

/** Mantine's badge cuts its label at one line with "…"; this one wraps instead, so a long state is read whole. */
const WRAPPING = {
  root: { height: 'auto', maxWidth: '100%', paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 },
} as const;

export function WrappingBadge({ children, ...props }: BadgeProps & { children: ReactNode }) {
  return (
    <Badge variant="light" tt="none" styles={WRAPPING} {...props}>
      {children}
    </Badge>
  );
}
