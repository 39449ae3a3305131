/**
 * Every TypeORM entity of repo-monitor. Feature modules own their entity files; this list is what
 * the data source (and the TypeORM CLI) loads.
 */
export const monitorEntities: Array<new () => object> = [];
