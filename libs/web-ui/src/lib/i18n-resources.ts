/** The library's own strings (namespace `ui`); apps add theirs under `app`. */
export const webUiEn = {
  confirm: { title: 'Please confirm', confirm: 'Confirm', cancel: 'Cancel' },
  error: { title: 'Something went wrong', retry: 'Try again', network: 'The service did not answer. Check the connection.', requestId: 'Request id {{id}}' },
  empty: { title: 'Nothing here yet' },
  loading: 'Loading…',
  table: { page: 'Page {{page}} of {{pages}}', total: '{{count}} in total', totalAtLeast: '{{formatted}}+ in total', previous: 'Previous page', next: 'Next page', pagination: 'Pages' },
  theme: { label: 'Theme', light: 'Light', dark: 'Dark', auto: 'System' },
  language: 'Language',
  nav: { open: 'Open navigation', close: 'Close navigation', skip: 'Skip to content' },
  unsaved: { title: 'Leave without saving?', message: 'You have unsaved changes on this page.', leave: 'Leave', stay: 'Stay' },
  live: { live: 'Live', connecting: 'Connecting', offline: 'Offline, retrying in {{seconds}} s' },
  toast: { saved: 'Saved', failed: 'Failed', close: 'Close notification' },
  dialogClose: 'Close',
  passwordToggle: 'Show or hide the password',
};

export const webUiZh: typeof webUiEn = {
  confirm: { title: '请确认', confirm: '确认', cancel: '取消' },
  error: { title: '出错了', retry: '重试', network: '服务没有响应，请检查网络连接。', requestId: '请求编号 {{id}}' },
  empty: { title: '暂无内容' },
  loading: '加载中…',
  table: { page: '第 {{page}} / {{pages}} 页', total: '共 {{count}} 条', totalAtLeast: '共 {{formatted}}+ 条', previous: '上一页', next: '下一页', pagination: '分页' },
  theme: { label: '主题', light: '浅色', dark: '深色', auto: '跟随系统' },
  language: '语言',
  nav: { open: '打开导航', close: '关闭导航', skip: '跳到正文' },
  unsaved: { title: '不保存就离开？', message: '本页有尚未保存的更改。', leave: '离开', stay: '留下' },
  live: { live: '实时', connecting: '连接中', offline: '离线，{{seconds}} 秒后重试' },
  toast: { saved: '已保存', failed: '失败', close: '关闭通知' },
  dialogClose: '关闭',
  passwordToggle: '显示或隐藏密码',
};
