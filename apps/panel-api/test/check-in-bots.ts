import { TelegramSimulator } from './telegram-simulator';

/**
 * Check-in bots as they answer in the wild, for the verdict, branching and recipe tests (issue 35):
 * each remembers who signed today, so a second check-in is "already signed".
 */
export interface CheckInBots {
  /** Private bot: 签到成功 the first time a day, 今日已签到 after. */
  ok: { id: string; username: string };
  /** Always answers with a failure. */
  failing: { id: string; username: string };
  /** "请 N 分钟后再试" the first time, 签到成功 after. */
  later: { id: string; username: string };
  /** Answers "处理中…" and edits that message to the result instead of replying again. */
  editing: { id: string; username: string };
  /** Sends a menu and, after it, a promotion with the same button; only the menu's button signs in. */
  menu: { id: string; username: string };
  /** Says nothing. */
  silent: { id: string; username: string };
  /** A busy group: people chatter (one of them claims 签到成功), the group's bot replies to our message. */
  group: { id: string; botId: string; botUsername: string };
  /** Forgets who signed in (a new day). */
  reset(): void;
}

export function addCheckInBots(telegram: TelegramSimulator, options: { waitMinutes?: number; editAfterMs?: number } = {}): CheckInBots {
  const signed = new Set<string>();
  const asked = new Set<string>();
  const once = (bot: string, userId: string): boolean => {
    const key = `${bot}:${userId}`;
    if (signed.has(key)) return false;
    signed.add(key);
    return true;
  };
  const ok = telegram.addBot({
    username: 'sign_ok_bot',
    onMessage: (text, { user }) => (text === '/sign' ? { text: once('ok', user.id) ? '签到成功！获得 10 积分' : '今日已签到，明天再来' } : { text: `未知命令 ${text}` }),
  });
  const failing = telegram.addBot({
    username: 'sign_fail_bot',
    onMessage: (text) => (text === '/sign' ? { text: '签到失败：账号未绑定' } : undefined),
  });
  const later = telegram.addBot({
    username: 'sign_later_bot',
    onMessage: (text, { user }) => {
      if (text !== '/sign') return undefined;
      if (!asked.has(user.id)) {
        asked.add(user.id);
        return { text: `签到人数过多，请 ${options.waitMinutes ?? 37} 分钟后再试` };
      }
      return { text: once('later', user.id) ? '签到成功' : '今日已签到' };
    },
  });
  const editing = telegram.addBot({
    username: 'sign_edit_bot',
    onMessage: (text, { user }) =>
      text === '/sign' ? { text: '处理中…', thenEdit: { afterMs: options.editAfterMs ?? 150, text: once('edit', user.id) ? '✅ Check-in successful, streak 3 days' : 'You have already checked in today' } } : undefined,
  });
  const menu = telegram.addBot({
    username: 'sign_menu_bot',
    onMessage: (text) =>
      text === '/start'
        ? [
            { text: '请选择', inlineButtons: [['签到', '帮助']] },
            { text: '🔥 限时活动', inlineButtons: [['签到', '了解更多']] },
          ]
        : undefined,
    onCallback: (button, message, { user }) => {
      if (button !== '签到') return { answer: button };
      if (message.text === '请选择') return { reply: { text: once('menu', user.id) ? '签到成功，积分 +5' : '今天已经签到过了' } };
      return { reply: { text: '活动签到失败：活动未开始' } };
    },
  });
  const silent = telegram.addBot({ username: 'sign_silent_bot', onMessage: () => undefined });
  const groupBot = { id: '7700001', username: 'group_sign_bot' };
  const group = telegram.addGroup({
    id: '-1007700001',
    title: 'Busy check-in group',
    onMessage: (text, { user }) =>
      text === '/sign@group_sign_bot'
        ? [
            { from: { id: '5550001', name: 'Chatty' }, text: '签到成功 哈哈' },
            { from: { id: '5550002', name: 'Other' }, text: '今天天气不错' },
            { from: { id: groupBot.id, username: groupBot.username }, text: once('group', user.id) ? '签到成功，连续 2 天' : '你今天已经签到过了', replyToOurs: true },
          ]
        : [{ from: { id: '5550003', name: 'Noise' }, text: 'hello' }],
  });
  return {
    ok,
    failing,
    later,
    editing,
    menu,
    silent,
    group: { id: group.id, botId: groupBot.id, botUsername: groupBot.username },
    reset: () => {
      signed.clear();
      asked.clear();
    },
  };
}
