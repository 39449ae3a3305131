/** Strings of the metrics page. */
export const en = {
  title: 'Metrics',
  disabled: 'Metrics are off (MONITOR_METRICS_ENABLED=false): /metrics answers 404.',
  openTitle: 'Anyone who reaches /metrics can read it',
  openText: 'No MONITOR_METRICS_TOKEN is set. Set one whenever /metrics is reachable from outside your network.',
  endpoint: 'Endpoint',
  served: 'Served',
  notServed: 'Not served',
  tokenSet: 'Token set',
  tokenNotSet: 'No token',
  scrapeUrl: 'Scrape URL',
  tokenHelp: 'A scrape needs Authorization: Bearer with the value of MONITOR_METRICS_TOKEN (never shown here).',
  scrapeConfig: 'Prometheus scrape job',
  scrapeConfigHelp: 'Add it under scrape_configs; the token is read from a file you create with the value of MONITOR_METRICS_TOKEN.',
};

export const zh: typeof en = {
  title: '指标',
  disabled: '指标已关闭（MONITOR_METRICS_ENABLED=false）：/metrics 返回 404。',
  openTitle: '任何能访问 /metrics 的人都能读取它',
  openText: '未设置 MONITOR_METRICS_TOKEN。只要 /metrics 能从你的网络外访问，就请设置它。',
  endpoint: '端点',
  served: '已提供',
  notServed: '未提供',
  tokenSet: '已设置令牌',
  tokenNotSet: '无令牌',
  scrapeUrl: '抓取地址',
  tokenHelp: '抓取时需要 Authorization: Bearer，值为 MONITOR_METRICS_TOKEN（这里从不显示）。',
  scrapeConfig: 'Prometheus 抓取任务',
  scrapeConfigHelp: '把它加到 scrape_configs 下；令牌从一个文件读取，文件内容是 MONITOR_METRICS_TOKEN 的值。',
};
