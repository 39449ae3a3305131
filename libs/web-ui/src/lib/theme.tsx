import { createTheme, CSSVariablesResolver, darken, MantineColorScheme, MantineProvider, mergeThemeOverrides, SegmentedControl, useMantineColorScheme, VisuallyHidden } from '@mantine/core';
import { ReactNode, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OverlayHost } from './overlays';

/**
 * One theme for the web apps. Focus rings are always visible for keyboard users
 * (`focusRing: 'auto'` shows them on keyboard focus only), and the primary shade is dark enough
 * for 4.5:1 contrast on white text in both schemes.
 */
export const webTheme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  focusRing: 'auto',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans SC", "PingFang SC", sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans SC", "PingFang SC", sans-serif' },
  components: {
    // Under a title Mantine greys a toast's text to gray 6 (3.3:1 on white): the text is what to fix, so full contrast.
    // (Plain objects, not Badge.extend(...): see WebUiProvider.)
    Notification: { styles: { description: { color: 'var(--mantine-color-text)' } } },
    // A badge says a state ("Needs a new login", "需要重新登录"): it wraps in a narrow cell instead of ending in "…".
    Badge: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', paddingBlock: 2 },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', overflowWrap: 'anywhere' },
      },
    },
  },
});

/** Text colours dark enough for 4.5:1 contrast in the light scheme (Mantine's dimmed gray 6 is about 3.3:1 on white). */
export const webCssVariables: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': theme.colors.gray[7],
    // Links: the primary shade 7 is 4.47:1 on a striped table row (gray 1); shade 8 clears 4.5:1 there.
    '--mantine-color-anchor': theme.colors[theme.primaryColor][8],
    // A field's error and its text: Mantine's red 6 is 3.3:1 on white; red 9 is above 4.5:1.
    '--mantine-color-error': theme.colors.red[9],
    // Text of light badges, alerts and buttons, and coloured text: even shade 9 is below 4.5:1 for
    // green, yellow, orange, teal and cyan on their tinted background.
    ...Object.fromEntries(
      Object.keys(theme.colors).flatMap((color) => [
        [`--mantine-color-${color}-light-color`, darken(theme.colors[color][9], 0.3)],
        [`--mantine-color-${color}-text`, darken(theme.colors[color][9], 0.2)],
      ]),
    ),
  },
  dark: { '--mantine-color-dimmed': theme.colors.dark[1], '--mantine-color-error': theme.colors.red[4] },
});

/** Mantine with the shared theme; confirm dialogs and toasts (at most 5 at a time) mount when first used. Colour scheme follows the system until chosen. */
export function WebUiProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const toastClose = t('toast.close');
  const dialogClose = t('dialogClose');
  const passwordToggle = t('passwordToggle');
  // Close buttons of toasts, dialogs and drawers and the eye of a password field are icons: each
  // needs a name in the page's language (Mantine's own is English).
  // Plain objects, not Modal.extend(...): importing the components here would bring back into every
  // page the code the overlay layer loads on demand.
  const theme = useMemo(
    () =>
      mergeThemeOverrides(
        webTheme,
        createTheme({
          components: {
            Notification: { defaultProps: { closeButtonProps: { 'aria-label': toastClose } } },
            Modal: { defaultProps: { closeButtonProps: { 'aria-label': dialogClose } } },
            Drawer: { defaultProps: { closeButtonProps: { 'aria-label': dialogClose } } },
            PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': passwordToggle } } },
          },
        }),
      ),
    [toastClose, dialogClose, passwordToggle],
  );
  return (
    <MantineProvider theme={theme} cssVariablesResolver={webCssVariables} defaultColorScheme="auto">
      {children}
      <OverlayHost />
    </MantineProvider>
  );
}

/** Light / dark / follow the system. */
export function ColorSchemePicker() {
  const { t } = useTranslation('ui');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <VisuallyHidden id={id}>{t('theme.label')}</VisuallyHidden>
      <SegmentedControl
        size="xs"
        value={colorScheme}
        onChange={(value) => setColorScheme(value as MantineColorScheme)}
        data={[
          { value: 'light', label: t('theme.light') },
          { value: 'dark', label: t('theme.dark') },
          { value: 'auto', label: t('theme.auto') },
        ]}
      />
    </div>
  );
}
