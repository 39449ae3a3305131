import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';

/** Sign-ins per day (success/failure stacked) and keyword hits per day; loaded with the dashboard only. */
export function SignChart({ days }: { days: Schemas['DayCountDto'][] }) {
  const { t } = useTranslation();
  const data = days.map((day) => ({ day: day.day.slice(5), [t('dashboard.success')]: day.success, [t('dashboard.failure')]: day.failure, [t('dashboard.hits')]: day.keyword_hits }));
  return (
    <figure style={{ margin: 0 }}>
      <figcaption className="visually-hidden">{t('dashboard.chartCaption')}</figcaption>
      <BarChart
        h={220}
        data={data}
        dataKey="day"
        type="stacked"
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        series={[
          { name: t('dashboard.success'), color: 'teal.6', stackId: 'runs' },
          { name: t('dashboard.failure'), color: 'red.6', stackId: 'runs' },
          { name: t('dashboard.hits'), color: 'indigo.4', stackId: 'hits' },
        ]}
        tickLine="y"
        gridAxis="y"
      />
    </figure>
  );
}
