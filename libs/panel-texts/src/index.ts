// The English catalogue and its helpers; the Chinese one is `@shared/panel-texts/all`, so the web
// app's first bundle carries no Chinese text (it loads it with the language).
export { en } from './lib/en';
export type { PanelTexts } from './lib/en';
export { englishText, fill, parametersOf, PANEL_LANGUAGES, readText } from './lib/texts';
export type { CodedSection, CodedText, KeepaliveCode, PanelLanguage, PhaseDetailCode, RunMessageCode, TextParams } from './lib/texts';
