import { AdminUsers1732250000000 } from './1732250000000-admin-users';

/** Every SQLite migration, oldest first. Listed explicitly because the app is bundled. */
export const sqliteMigrations = [AdminUsers1732250000000];
