import { en, PanelTexts } from './lib/en';
import type { PanelLanguage } from './lib/texts';
import { zh } from './lib/zh';

// Every language of the catalogue: for the service's notifications and the web app's Chinese strings.
export { zh };

export const PANEL_TEXTS: Record<PanelLanguage, PanelTexts> = { en, zh };

/** The catalogue of one language. */
export function textsIn(language: PanelLanguage): PanelTexts {
  return PANEL_TEXTS[language];
}
