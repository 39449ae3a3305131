import { Anchor, AnchorProps, Text } from '@mantine/core';
import { ReactNode } from 'react';

/**
 * The one gate for links from outside data (GitHub's html_url, a release page, a Telegram message
 * link): the URL as the browser will read it when it is http or https, else undefined. Anything
 * else (`javascript:`, `data:`, `vbscript:`, a relative or unparsable value) must not become an href.
 */
export function safeUrl(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export interface OutsideLinkProps extends AnchorProps {
  /** The link from outside data; rendered through safeUrl. */
  href: string | null | undefined;
  children: ReactNode;
}

/**
 * A link to another site (opened in a new tab, no opener, no referrer) when safeUrl accepts its
 * href; otherwise the same content as plain text, never an anchor.
 */
export function OutsideLink({ href, children, ...props }: OutsideLinkProps) {
  const url = safeUrl(href);
  if (!url) {
    return (
      <Text span size={props.size} style={props.style}>
        {children}
      </Text>
    );
  }
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
    </Anchor>
  );
}
