import { fill, PanelLanguage, PanelTexts, TextParams } from '@shared/panel-texts';
import { textsIn } from '@shared/panel-texts/all';
import { runMessageOf, RunMessageSource } from '../common/run-outcomes';

/**
 * The sentences of the notifications in the language of the settings (`notify_language`), from the
 * catalogue the web app says the same things with (@shared/panel-texts).
 */
export class NoticeTexts {
  private readonly texts: PanelTexts;

  constructor(readonly language: PanelLanguage) {
    this.texts = textsIn(language);
  }

  /** One line or title of a notification. */
  say(key: keyof PanelTexts['notice'], params: TextParams = {}): string {
    return fill(this.texts.notice[key], params);
  }

  /** A run's result message: the catalogue's sentence when the runner or a named error wrote it, else the text as it is (a bot's answer). */
  runMessage(run: RunMessageSource): string {
    const coded = runMessageOf(run);
    return coded ? fill(this.texts.runMessage[coded.code], coded.params) : run.message;
  }

  category(code: string): string {
    return (this.texts.category as Record<string, string>)[code] ?? code;
  }

  verdict(code: string): string {
    return (this.texts.verdict as Record<string, string>)[code] ?? code;
  }

  verdictTitle(code: string): string {
    return (this.texts.verdictTitle as Record<string, string>)[code] ?? code;
  }
}
