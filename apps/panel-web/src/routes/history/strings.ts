/**
 * The history page's strings, English and Simplified Chinese (same keys, checked by i18n.spec.ts). They
 * load with the page (routes.tsx), so the login and the dashboard do not carry every page's text.
 */
export const en = {
  history: {
    title: 'History',
    account: 'Account',
    task: 'Task',
    status: 'Result',
    success: 'Success',
    failure: 'Failure',
    category: 'Failure category',
    since: 'From (day)',
    until: 'To (day)',
    clear: 'Clear filters',
    time: 'Finished',
    message: 'Message',
    log: 'Step log',
    openLog: 'Step log of {{task}}',
    logTitle: 'Run',
    attempts_one: '{{count}} attempt',
    attempts_other: '{{count}} attempts',
    noSteps: 'The step log of this run is no longer kept.',
    empty: 'No runs yet',
    noMatch: 'No run matches these filters',
    emptyHint: 'Finished runs of every task appear here.',
  },
};

export const zh: typeof en = {
  history: {
    title: '历史记录',
    account: '账号',
    task: '任务',
    status: '结果',
    success: '成功',
    failure: '失败',
    category: '失败类别',
    since: '开始日期',
    until: '结束日期',
    clear: '清除筛选',
    time: '完成时间',
    message: '消息',
    log: '步骤日志',
    openLog: '{{task}} 的步骤日志',
    logTitle: '运行详情',
    attempts_one: '尝试 {{count}} 次',
    attempts_other: '尝试 {{count}} 次',
    noSteps: '这次运行的步骤日志已不再保留。',
    empty: '还没有运行记录',
    noMatch: '没有符合筛选条件的运行',
    emptyHint: '所有任务结束的运行都会显示在这里。',
  },
};
