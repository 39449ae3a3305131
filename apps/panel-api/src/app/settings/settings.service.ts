import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { moveAsideImported } from '../data-dir/imported-files';
import { CorruptDataFileError, readJsonObjectFile } from '../data-dir/json-file-store';
import { raiseStoreRevision, readStoreRevision, SerialQueue } from '../data-dir/store-revisions';
import type { FieldProblem } from '@shared/http-service';
import { SettingsRow } from './entities/settings-row.entity';
import { secretsLeftBehind } from './secret-destinations';
import { SettingsCipher } from './settings-cipher';
import { ruleViolation, SETTINGS_FIELDS, SettingsGroup, SettingsGroups, settingsPatchProblems } from './settings-fields';
import {
  AiSettings,
  DEFAULT_AI_SETTINGS,
  DEFAULT_GLOBAL_SETTINGS,
  DEFAULT_TELEGRAM_API_SETTINGS,
  GlobalSettings,
  SettingsChange,
  SettingsPatch,
  TelegramApiSettings,
} from './settings.types';

/** A settings update that breaks a rule; nothing was written. */
export class InvalidSettingsError extends Error {
  readonly problems: string[];
  readonly fields: FieldProblem[];

  constructor(found: Array<{ line: string; field: FieldProblem }>) {
    super(found.map((problem) => problem.line).join('; '));
    this.problems = found.map((problem) => problem.line);
    this.fields = found.map((problem) => problem.field);
    this.name = 'InvalidSettingsError';
  }
}

export type SettingsChangeListener = (change: SettingsChange) => void;

/** The scope of the settings' counter in `store_revisions`. */
export const SETTINGS_SCOPE = 'settings';

/** How often a replica looks for settings changes of the others when no request asked (one primary-key read). */
export const SETTINGS_POLL_INTERVAL_MS = 1_000;

interface LoadedSettings {
  values: SettingsGroups;
  /** Keys stored that this version does not know; written back unchanged. */
  unknownKeys: Record<SettingsGroup, Record<string, unknown>>;
}

/**
 * A settings group as the `panel_settings` row holds it: the fields in plain JSON, except the secret
 * ones (`sealed`, each an envelope of its JSON value) and the keys this version does not know (one
 * envelope, since nobody can tell whether they are secret).
 */
interface StoredSettingsDocument {
  format: 1;
  values: Record<string, unknown>;
  sealed: Record<string, string>;
  unknown: string | null;
}

/** What the one-time move of the settings files into the database did. */
export interface SettingsFileImport {
  /** Files whose settings went into the database. */
  imported: string[];
  /** Files of groups the database already held (another replica, or an earlier interrupted start): their content was not used. */
  already_stored: string[];
  /** Where each file was moved: `<file>.imported-<time>`. */
  moved_to: string[];
}

const DEFAULTS: SettingsGroups = {
  global: DEFAULT_GLOBAL_SETTINGS,
  ai: DEFAULT_AI_SETTINGS,
  telegramApi: DEFAULT_TELEGRAM_API_SETTINGS,
};

const GROUPS: SettingsGroup[] = ['global', 'ai', 'telegramApi'];

/** The primary key of each group's row in `panel_settings`. */
const ROW_NAMES: Record<SettingsGroup, string> = { global: 'global', ai: 'ai', telegramApi: 'telegram_api' };

const SECRET_KEYS: Record<SettingsGroup, Set<string>> = {
  global: secretKeysOf('global'),
  ai: secretKeysOf('ai'),
  telegramApi: secretKeysOf('telegramApi'),
};

/**
 * The three settings groups (global, ai, telegramApi), in the database (`panel_settings`, one row
 * per group, secret fields sealed with APP_ENCRYPTION_KEY), so every replica on one PostgreSQL
 * database serves the same settings with its own empty data directory. Served from memory through
 * the sync getters and kept in step with the table like the tasks and accounts: every update raises
 * the `settings` counter in its transaction (its row lock orders updates of all replicas, and the
 * update is applied to the rows as they are under that lock, so two replicas' updates both land);
 * `refresh()` reads the counter and, when it moved, re-reads the rows and calls the `onChange`
 * listeners with what another replica changed. Every request refreshes first (SettingsFreshness),
 * and a timer does so every second for the background work (notifier, schedulers).
 *
 * At the first start on a data directory that still has `.global_settings.json`,
 * `.openai_config.json` or `.telegram_api.json` (an earlier version, or a restored backup of one),
 * each file is moved into the table once: a group the table already holds wins, the file is renamed
 * `<file>.imported-<time>`, and a corrupt file stops startup as it always did.
 */
@Injectable()
export class SettingsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SettingsService.name);
  private loaded?: LoadedSettings;
  private readonly listeners = new Set<SettingsChangeListener>();
  private readonly queue = new SerialQueue();
  /** The `settings` counter at the last complete look at the table. */
  private revision = -1;
  /** A refresh queued and not yet started: callers meanwhile share it. */
  private pendingRefresh?: Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  /** What the import of settings files at this start did (undefined when there was no file). */
  lastFileImport?: SettingsFileImport;

  constructor(
    private readonly dataDirectory: DataDirectory,
    private readonly cipher: SettingsCipher,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Loads the settings before any module that reads them starts: every reader imports SettingsModule,
   * so Nest initialises this module before theirs (a read before that throws, see settings()).
   */
  async onModuleInit(): Promise<void> {
    await this.load();
    this.pollTimer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.logger.error({ err: error }, 'Re-reading the settings failed'));
    }, SETTINGS_POLL_INTERVAL_MS);
    this.pollTimer.unref();
  }

  /** Imports the files of an earlier version, then reads the table. */
  async load(): Promise<void> {
    this.dataDirectory.prepare();
    this.lastFileImport = await this.importFiles();
    await this.queue.run(async () => {
      const revision = await readStoreRevision(this.dataSource, SETTINGS_SCOPE);
      const rows = await this.dataSource.getRepository(SettingsRow).find();
      this.loaded = this.decodeRows(rows);
      this.revision = revision;
    });
  }

  onModuleDestroy(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
  }

  getGlobal(): Readonly<GlobalSettings> {
    return this.settings().values.global;
  }

  getAi(): Readonly<AiSettings> {
    return this.settings().values.ai;
  }

  getTelegramApi(): Readonly<TelegramApiSettings> {
    return this.settings().values.telegramApi;
  }

  /**
   * Applies a partial update with the API's field names: absent fields stay, `null` clears. Every
   * field is checked before anything is written; on a violation nothing changes. A URL that now
   * points to another server needs its secrets given again (secretsLeftAtOldDestination). The patch
   * is applied to the stored settings as they are under the counter's row lock (not as this replica
   * last saw them), and all changed groups are written in one transaction.
   */
  async update(patch: SettingsPatch): Promise<SettingsChange> {
    const problems = settingsPatchProblems(patch as Record<string, unknown>);
    if (problems.length) throw new InvalidSettingsError(problems);
    return this.queue.run(async () => {
      const change: SettingsChange = { global: false, ai: false, telegramApi: false };
      let after: LoadedSettings | undefined;
      const revision = await this.dataSource.transaction(async (manager) => {
        const revision = await raiseStoreRevision(manager, SETTINGS_SCOPE);
        const current = this.decodeRows(await manager.find(SettingsRow));
        const leftBehind = secretsLeftBehind((name) => storedValue(current.values, name), patch);
        if (leftBehind.length) throw new InvalidSettingsError(leftBehind);
        const next: SettingsGroups = {
          global: { ...current.values.global },
          ai: { ...current.values.ai },
          telegramApi: { ...current.values.telegramApi },
        };
        for (const [name, value] of Object.entries(patch)) {
          if (value === undefined) continue;
          const field = SETTINGS_FIELDS[name as keyof SettingsPatch];
          const group = next[field.group] as unknown as Record<string, unknown>;
          if (group[field.key] === value) continue;
          group[field.key] = value;
          change[field.group] = true;
        }
        for (const group of GROUPS.filter((group) => change[group])) {
          await this.writeGroup(manager, group, next[group] as unknown as Record<string, unknown>, current.unknownKeys[group], revision);
        }
        after = { values: freezeGroups(next), unknownKeys: current.unknownKeys };
        return revision;
      });
      if (after) this.apply(after, revision);
      return change;
    });
  }

  /** The stored value of a setting, by its API name. */
  stored(name: keyof SettingsPatch): unknown {
    return storedValue(this.settings().values, name);
  }

  /** Calls `listener` after every change, made here or (seen at a refresh) by another replica; returns the unsubscribe function. */
  onChange(listener: SettingsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Brings memory in line with the table when its counter moved, and tells the listeners what
   * changed. A row that cannot be read (another APP_ENCRYPTION_KEY, a hand edit) is logged and the
   * last good settings stay.
   */
  refresh(): Promise<void> {
    if (this.pendingRefresh) return this.pendingRefresh;
    const run = this.queue.run(async () => {
      this.pendingRefresh = undefined;
      const revision = await readStoreRevision(this.dataSource, SETTINGS_SCOPE);
      if (revision === this.revision) return;
      const rows = await this.dataSource.getRepository(SettingsRow).find();
      let read: LoadedSettings;
      try {
        read = this.decodeRows(rows);
      } catch (error) {
        this.revision = revision;
        this.logger.error(`The stored settings were not loaded; the last good ones stay in use: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      this.apply(read, revision);
    });
    this.pendingRefresh = run;
    return run;
  }

  /**
   * The groups as stored now, each as one plain object with its sealed parts opened (the shape
   * its file had, unknown keys included), and the rows' text as it is in the table.
   */
  async readStored(): Promise<{ groups: Record<SettingsGroup, Record<string, unknown>>; text: string }> {
    const rows = await this.dataSource.getRepository(SettingsRow).find({ order: { name: 'ASC' } });
    const groups = {} as Record<SettingsGroup, Record<string, unknown>>;
    for (const group of GROUPS) {
      const row = rows.find((candidate) => candidate.name === ROW_NAMES[group]);
      groups[group] = row ? this.openDocument(group, row.document) : {};
    }
    return { groups, text: JSON.stringify(rows.map((row) => ({ name: row.name, document: row.document }))) };
  }

  /** The size of the stored settings documents (for the backup sizes). */
  async storedBytes(): Promise<number> {
    const rows = await this.dataSource.getRepository(SettingsRow).find({ select: { document: true } });
    return rows.reduce((sum, row) => sum + Buffer.byteLength(row.document), 0);
  }

  private apply(read: LoadedSettings, revision: number): void {
    const before = this.loaded;
    this.loaded = read;
    if (revision > this.revision) this.revision = revision;
    if (!before) return;
    const change: SettingsChange = { global: false, ai: false, telegramApi: false };
    for (const group of GROUPS) {
      change[group] =
        JSON.stringify(before.values[group]) !== JSON.stringify(read.values[group]) ||
        JSON.stringify(before.unknownKeys[group]) !== JSON.stringify(read.unknownKeys[group]);
    }
    if (change.global || change.ai || change.telegramApi) this.notify(change);
  }

  private notify(change: SettingsChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error }, 'A settings change listener failed');
      }
    }
  }

  private settings(): LoadedSettings {
    if (!this.loaded) throw new Error('The settings were read before they were loaded from the database');
    return this.loaded;
  }

  private fileOf(group: SettingsGroup): string {
    if (group === 'global') return this.dataDirectory.globalSettingsFile;
    if (group === 'ai') return this.dataDirectory.aiSettingsFile;
    return this.dataDirectory.telegramApiFile;
  }

  /** Every group from its row, the defaults for a group without one. */
  private decodeRows(rows: SettingsRow[]): LoadedSettings {
    const values = {} as Record<SettingsGroup, Record<string, unknown>>;
    const unknownKeys = {} as Record<SettingsGroup, Record<string, unknown>>;
    for (const group of GROUPS) {
      const row = rows.find((candidate) => candidate.name === ROW_NAMES[group]);
      const { known, unknown } = parseGroup(group, row ? this.openDocument(group, row.document) : {}, (reason) => new StoredSettingsError(group, reason));
      values[group] = known;
      unknownKeys[group] = unknown;
    }
    return { values: freezeGroups(values as unknown as SettingsGroups), unknownKeys };
  }

  /** The group as one plain object (the shape its file had), with the sealed parts opened. */
  private openDocument(group: SettingsGroup, text: string): Record<string, unknown> {
    let document: Partial<StoredSettingsDocument>;
    try {
      document = JSON.parse(text) as Partial<StoredSettingsDocument>;
    } catch (error) {
      throw new StoredSettingsError(group, `not valid JSON (${(error as Error).message})`);
    }
    if (document.format !== 1 || !isPlainObject(document.values) || !isPlainObject(document.sealed)) throw new StoredSettingsError(group, 'not a settings document of this version');
    const place = ROW_NAMES[group];
    const unknown = typeof document.unknown === 'string' ? (JSON.parse(this.cipher.open(`${place}.unknown`, document.unknown)) as Record<string, unknown>) : {};
    const opened: Record<string, unknown> = {};
    for (const [key, sealed] of Object.entries(document.sealed)) {
      if (typeof sealed !== 'string') throw new StoredSettingsError(group, `field ${key} is not sealed`);
      opened[key] = JSON.parse(this.cipher.open(`${place}.${key}`, sealed)) as unknown;
    }
    return { ...unknown, ...document.values, ...opened };
  }

  private sealDocument(group: SettingsGroup, values: Record<string, unknown>, unknown: Record<string, unknown>): string {
    const place = ROW_NAMES[group];
    const document: StoredSettingsDocument = { format: 1, values: {}, sealed: {}, unknown: null };
    for (const [key, value] of Object.entries(values)) {
      if (SECRET_KEYS[group].has(key) && value !== null && value !== undefined) document.sealed[key] = this.cipher.seal(`${place}.${key}`, JSON.stringify(value));
      else document.values[key] = value;
    }
    if (Object.keys(unknown).length > 0) document.unknown = this.cipher.seal(`${place}.unknown`, JSON.stringify(unknown));
    return JSON.stringify(document);
  }

  private async writeGroup(manager: EntityManager, group: SettingsGroup, values: Record<string, unknown>, unknown: Record<string, unknown>, revision: number): Promise<void> {
    const row: SettingsRow = { name: ROW_NAMES[group], document: this.sealDocument(group, values, unknown), revision, updatedAt: Date.now() };
    await manager.upsert(SettingsRow, [row], ['name']);
  }

  /**
   * Moves the settings files of an earlier version into the table, once. A corrupt file stops
   * startup (CorruptDataFileError) and stays where it is. A group the table already holds keeps its
   * stored settings (replicas starting at once on one shared data directory: the second finds the
   * first's rows, and its rename finds the file gone).
   */
  private async importFiles(): Promise<SettingsFileImport | undefined> {
    const found: Array<{ group: SettingsGroup; path: string; known: Record<string, unknown>; unknown: Record<string, unknown> }> = [];
    for (const group of GROUPS) {
      const path = this.fileOf(group);
      const stored = readJsonObjectFile(path);
      if (stored === undefined) continue;
      found.push({ group, path, ...parseGroup(group, stored, (reason) => new CorruptDataFileError(path, reason)) });
    }
    if (found.length === 0) return undefined;
    const report: SettingsFileImport = { imported: [], already_stored: [], moved_to: [] };
    await this.queue.run(() =>
      this.dataSource.transaction(async (manager) => {
        const revision = await raiseStoreRevision(manager, SETTINGS_SCOPE);
        for (const file of found) {
          if (await manager.existsBy(SettingsRow, { name: ROW_NAMES[file.group] })) report.already_stored.push(file.path);
          else {
            await this.writeGroup(manager, file.group, file.known, file.unknown, revision);
            report.imported.push(file.path);
          }
        }
      }),
    );
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (const file of found) {
      const movedTo = `${file.path}.imported-${stamp}`;
      if (moveAsideImported(file.path, movedTo)) report.moved_to.push(movedTo);
    }
    this.logger.log(
      `Moved the settings files into the database: imported ${report.imported.length ? report.imported.join(', ') : 'none'}; ` +
        `${report.already_stored.length ? `already stored, left as stored: ${report.already_stored.join(', ')}; ` : ''}` +
        `set aside as ${report.moved_to.length ? report.moved_to.join(', ') : 'nothing (another replica moved them first)'}`,
    );
    return report;
  }
}

/** A settings row of the database that does not hold valid settings. */
export class StoredSettingsError extends Error {
  constructor(group: SettingsGroup, reason: string) {
    super(`The stored settings group ${ROW_NAMES[group]} in the database (table panel_settings) is invalid: ${reason}`);
    this.name = 'StoredSettingsError';
  }
}

function secretKeysOf(group: SettingsGroup): Set<string> {
  return new Set(Object.values(SETTINGS_FIELDS).filter((field) => field.group === group && field.secret).map((field) => field.key));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function storedValue(values: SettingsGroups, name: keyof SettingsPatch): unknown {
  const field = SETTINGS_FIELDS[name];
  return (values[field.group] as unknown as Record<string, unknown>)[field.key];
}

function freezeGroups(groups: SettingsGroups): SettingsGroups {
  return {
    global: Object.freeze({ ...groups.global }),
    ai: Object.freeze({ ...groups.ai }),
    telegramApi: Object.freeze({ ...groups.telegramApi }),
  };
}

/** Splits a settings group into the fields this version knows (checked, defaults filled in) and the rest; `problem` makes the error of a broken rule. */
function parseGroup(
  group: SettingsGroup,
  stored: Record<string, unknown>,
  problem: (reason: string) => Error,
): { known: Record<string, unknown>; unknown: Record<string, unknown> } {
  const known: Record<string, unknown> = { ...(DEFAULTS[group] as unknown as Record<string, unknown>) };
  const fields = Object.values(SETTINGS_FIELDS).filter((field) => field.group === group);
  const knownKeys = new Set(fields.map((field) => field.key));
  for (const field of fields) {
    let value = stored[field.key];
    if (value === undefined) continue;
    // The panel users migrate from stores the Telegram api_id as a string.
    if (field.rule.kind === 'integer' && typeof value === 'string' && /^\d+$/.test(value)) value = Number(value);
    // Fields with a default treat null as "use the default".
    if (value === null && ruleViolation(field.rule, null)) continue;
    const violation = ruleViolation(field.rule, value);
    if (violation) throw problem(`field ${field.key} ${violation}`);
    known[field.key] = value;
  }
  const unknown = Object.fromEntries(Object.entries(stored).filter(([key]) => !knownKeys.has(key)));
  return { known, unknown };
}
