import type { SignTaskInput, TaskChat } from '../sign-tasks/sign-task.types';
import type { ChatVerdictRules } from '../common/verdict';

/** A task without its name and accounts: what a recipe carries and what "start from a recipe" fills in. */
export type RecipeTask = Omit<SignTaskInput, 'name' | 'account_name' | 'account_names'>;

export interface TaskRecipe {
  id: string;
  /** English and Simplified Chinese, as the panel's two languages. */
  title: { en: string; zh: string };
  description: { en: string; zh: string };
  task: RecipeTask;
}

export const RECIPE_FORMAT = 'signpulse-task-recipe';
export const RECIPE_VERSION = 1;

/** Patterns most check-in bots answer with, in Chinese and English. */
const COMMON_VERDICT: ChatVerdictRules = {
  success: [
    { mode: 'contains', pattern: '签到成功' },
    { mode: 'regex', pattern: 'check.?in (was )?success|signed in successfully' },
  ],
  already_done: [
    { mode: 'contains', pattern: '已经签到' },
    { mode: 'contains', pattern: '今日已签' },
    { mode: 'regex', pattern: 'already (signed|checked) in' },
  ],
  failure: [{ mode: 'regex', pattern: '签到失败|失败|failed|error' }],
  timeout_seconds: 30,
  rerun_after_wait: true,
};

const chat = (actions: TaskChat['actions'], extra: Partial<TaskChat> = {}): TaskChat => ({ chat_id: '@your_checkin_bot', action_interval: 2, actions, verdict: COMMON_VERDICT, ...extra });

const base: Omit<RecipeTask, 'chats'> = { sign_at: '0 8 * * *', execution_mode: 'fixed', random_seconds: 600, retry_count: 2, notify_on_failure: true, notify_on_success: false };

/** The built-in recipes for the common shapes of check-in bots (issue 35). */
export const RECIPE_CATALOG: readonly TaskRecipe[] = [
  {
    id: 'send-command',
    title: { en: 'Send a command', zh: '发送指令' },
    description: { en: 'Sends /checkin to the bot and reads its answer.', zh: '向机器人发送 /checkin 并读取它的回复。' },
    task: { ...base, chats: [chat([{ action: 1, text: '/checkin' }])] },
  },
  {
    id: 'send-and-click',
    title: { en: 'Send, then click a button', zh: '发送后点击按钮' },
    description: {
      en: 'Sends /start, then presses the "签到" button on the bot\'s reply to it (reply-to mode).',
      zh: '发送 /start，然后点击机器人回复中的“签到”按钮（回复模式）。',
    },
    task: { ...base, chats: [chat([{ action: 1, text: '/start' }, { action: 3, text: '签到', from_reply: true }])] },
  },
  {
    id: 'answer-calculation',
    title: { en: 'Answer a calculation', zh: '回答算术题' },
    description: { en: 'Sends /checkin, then answers the bot\'s calculation with the configured AI model.', zh: '发送 /checkin，然后用配置的 AI 模型回答机器人的算术题。' },
    task: { ...base, chats: [chat([{ action: 1, text: '/checkin' }, { action: 5 }])] },
  },
  {
    id: 'pick-from-image',
    title: { en: 'Pick from an image', zh: '看图选择' },
    description: { en: 'Sends /checkin, then lets the AI model pick the option the bot\'s picture asks for.', zh: '发送 /checkin，然后由 AI 模型选出图片要求的选项。' },
    task: { ...base, chats: [chat([{ action: 1, text: '/checkin' }, { action: 4 }])] },
  },
];

/** A task as a shareable recipe document: everything but its name, accounts, state and times. */
export function recipeOfTask(task: SignTaskInput & { description?: string }): { format: string; version: number; title: string; task: RecipeTask } {
  const { name, account_name: _single, account_names: _many, ...rest } = task;
  const stripped = { ...(rest as RecipeTask & Record<string, unknown>) };
  for (const key of ['last_run', 'created_at', 'updated_at', 'enabled']) delete stripped[key];
  return { format: RECIPE_FORMAT, version: RECIPE_VERSION, title: name, task: stripped };
}
