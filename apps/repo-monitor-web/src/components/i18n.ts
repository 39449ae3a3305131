/** Strings of the console's shared widgets (copy buttons, locked fields). */
export const en = {
  copy: 'Copy',
  copied: 'Copied',
  lockedBy: 'Set by {{variable}}; change it there',
};

export const zh: typeof en = {
  copy: '复制',
  copied: '已复制',
  lockedBy: '由 {{variable}} 设置，请在那里修改',
};
