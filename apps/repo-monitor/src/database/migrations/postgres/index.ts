import { Settings1732250000000 } from './1732250000000-settings';

/** Every PostgreSQL migration, oldest first. Listed explicitly because the app is bundled. */
export const postgresMigrations = [Settings1732250000000];
