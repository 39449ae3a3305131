import { Settings1732250000000 } from './1732250000000-settings';

/** Every SQLite migration, oldest first. Listed explicitly because the app is bundled. */
export const sqliteMigrations = [Settings1732250000000];
