// The data source the TypeORM CLI uses; the app builds its own. Reads the same configuration as `serve`.
import { processEnvironment } from '@shared/config';
import { DataSource } from 'typeorm';
import { loadMonitorConfig } from '../app/config/monitor-config';
import { dataSourceOptions } from './data-source-options';

export default new DataSource({
  ...dataSourceOptions(loadMonitorConfig({ env: processEnvironment() }).database),
  migrationsRun: false,
});
