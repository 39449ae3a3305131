import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing';
import { OutsideLink, safeUrl } from './safe-url';

describe('safeUrl', () => {
  it('answers http and https URLs as the browser reads them', () => {
    expect(safeUrl('https://github.com/acme/api/pull/1')).toBe('https://github.com/acme/api/pull/1');
    expect(safeUrl('http://127.0.0.1:8080/acme/api')).toBe('http://127.0.0.1:8080/acme/api');
    expect(safeUrl('HTTPS://GitHub.com/a b')).toBe('https://github.com/a%20b');
    expect(safeUrl('https://t.me/c/123/45')).toBe('https://t.me/c/123/45');
  });

  it('answers undefined for every other scheme and for what is not a URL', () => {
    for (const value of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '\u0000javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'blob:https://example.com/x',
      '/relative/path',
      '//evil.example/x',
      'not a url',
      '',
      '   ',
      null,
      undefined,
    ]) {
      expect(safeUrl(value)).toBeUndefined();
    }
  });
});

describe('OutsideLink', () => {
  it('renders an https link as an anchor that opens a new tab without opener or referrer', () => {
    renderWithProviders(<OutsideLink href="https://github.com/acme/api">acme/api</OutsideLink>);
    const link = screen.getByRole('link', { name: 'acme/api' });
    expect(link).toHaveAttribute('href', 'https://github.com/acme/api');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('renders a javascript: or data: link as text, never as an anchor', () => {
    renderWithProviders(
      <>
        <OutsideLink href="javascript:alert(document.cookie)">first</OutsideLink>
        <OutsideLink href="data:text/html,<script>alert(1)</script>">second</OutsideLink>
      </>,
    );
    expect(screen.getByText('first')).toBeInTheDocument();
    expect(screen.getByText('second')).toBeInTheDocument();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(document.querySelector('a')).toBeNull();
  });
});
