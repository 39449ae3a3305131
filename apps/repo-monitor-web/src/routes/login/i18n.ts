/** Strings of the login page (`login.*`). */
export const en = {
  title: 'Sign in',
  intro: 'Sign in to the repo-monitor console.',
  username: 'Username',
  password: 'Password',
  submit: 'Sign in',
  required: 'Required',
  wrong: 'Wrong user name or password.',
  code: 'Authenticator code',
  enterCode: 'Two-step sign-in is on: enter the code from your authenticator app.',
  wrongCode: 'Wrong user name, password or code.',
  codeFormat: 'The six digits the app shows',
  throttled: 'Too many failed attempts. Try again in {{seconds}} s.',
  throttledMinutes: 'Too many failed attempts. Try again in {{minutes}} min {{seconds}} s.',
  expired: 'Your session ended. Sign in again to continue where you were.',
};

export const zh: typeof en = {
  title: '登录',
  intro: '登录 repo-monitor 控制台。',
  username: '用户名',
  password: '密码',
  submit: '登录',
  required: '必填',
  wrong: '用户名或密码错误。',
  code: '身份验证器数字',
  enterCode: '已开启两步登录：请输入身份验证器应用中的数字。',
  wrongCode: '用户名、密码或数字错误。',
  codeFormat: '应用显示的六位数字',
  throttled: '失败次数过多，请在 {{seconds}} 秒后重试。',
  throttledMinutes: '失败次数过多，请在 {{minutes}} 分 {{seconds}} 秒后重试。',
  expired: '会话已结束。重新登录后将回到刚才的页面。',
};
