// The data source the TypeORM CLI uses (`npx typeorm -d dist/... migration:show`); the app builds its own.
import { processEnvironment } from '@shared/config';
import { DataSource } from 'typeorm';
import { loadPanelConfig } from '../app/config/panel-config';
import { dataSourceOptions } from './data-source-options';

export default new DataSource({ ...dataSourceOptions(loadPanelConfig(processEnvironment()).database), migrationsRun: false });
