import { en } from './en';
import { englishText, fill, parametersOf, readText } from './texts';
import { zh } from './zh';
import { PANEL_TEXTS, textsIn } from '../all';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, path = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[`${path}${key}`, value] as [string, string]] : leaves(value, `${path}${key}.`)));
}

describe('the panel texts catalogue', () => {
  const english = new Map(leaves(en));
  const chinese = new Map(leaves(zh));

  it('has every code in English and Chinese, none empty, and no Chinese sentence left in English', () => {
    expect([...chinese.keys()]).toEqual([...english.keys()]);
    for (const [key, text] of [...english, ...chinese]) expect([key, text.trim().length > 0]).toEqual([key, true]);
    const untranslated = [...english].filter(([key, text]) => /[a-z]{3}/i.test(text) && chinese.get(key) === text).map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it('uses the same parameters in both languages', () => {
    for (const [key, text] of english) expect([key, parametersOf(chinese.get(key) ?? '').sort()]).toEqual([key, parametersOf(text).sort()]);
  });

  it('fills the parameters, and keeps a missing one visible', () => {
    expect(fill(zh.notice.taskFailed, { task: 'daily' })).toBe('签到任务 daily 失败');
    expect(fill(en.runMessage.telegram_flood_wait, { seconds: 37 })).toBe('Telegram asks to wait 37 s before the next request');
    expect(fill(en.phaseDetail.action, { step: 'chat 1 action 2', action: 'send_text' })).toBe('chat 1 action 2 (action send_text) in {{chat}}');
    expect(textsIn('zh')).toBe(zh);
    expect(PANEL_TEXTS.en).toBe(en);
  });

  it('reads every coded English sentence back into its code and parameters', () => {
    for (const section of ['runMessage', 'phaseDetail', 'keepalive'] as const) {
      for (const [code, template] of Object.entries(en[section])) {
        const params = Object.fromEntries(parametersOf(template).map((name, index) => [name, `${name}-value ${index}`]));
        const text = englishText(section, code as never, params);
        expect([section, readText(section, text)]).toEqual([section, { code, params }]);
      }
    }
  });

  it('reads a run message whose parameters hold punctuation of the template', () => {
    const text = 'The bot\'s reply to the previous action has no button "Check in (daily)" (it has "A", "B (c)")';
    expect(readText('runMessage', text)).toEqual({ code: 'reply_without_button', params: { text: 'Check in (daily)', buttons: '"A", "B (c)"' } });
    expect(readText('runMessage', 'The bot\'s reply to the previous action has no button "Go" (it has none)')?.code).toBe('reply_without_buttons');
  });

  it('reads nothing from a text no template wrote', () => {
    expect(readText('runMessage', '签到成功，获得 10 积分')).toBeNull();
    expect(readText('runMessage', 'completed!')).toBeNull();
    expect(readText('runMessage', 'connect ECONNREFUSED 127.0.0.1:1')).toBeNull();
  });
});
