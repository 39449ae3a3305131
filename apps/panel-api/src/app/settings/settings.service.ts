import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, jsonFileText, readJsonObjectFile, replaceFilesAtomically, writeJsonFileAtomic } from '../data-dir/json-file-store';
import type { FieldProblem } from '@shared/http-service';
import { secretsLeftBehind } from './secret-destinations';
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

interface LoadedSettings {
  values: SettingsGroups;
  /** Keys found in the files that this version does not know; written back unchanged. */
  unknownKeys: Record<SettingsGroup, Record<string, unknown>>;
}

const DEFAULTS: SettingsGroups = {
  global: DEFAULT_GLOBAL_SETTINGS,
  ai: DEFAULT_AI_SETTINGS,
  telegramApi: DEFAULT_TELEGRAM_API_SETTINGS,
};

const GROUPS: SettingsGroup[] = ['global', 'ai', 'telegramApi'];

/**
 * The settings files of the data directory (`.global_settings.json`, `.openai_config.json`,
 * `.telegram_api.json`): read once at startup (a corrupt file stops startup and is left as it is),
 * served from memory, and written atomically with mode 0600 on every change.
 */
@Injectable()
export class SettingsService implements OnModuleInit {
  private readonly logger = new Logger(SettingsService.name);
  private loaded?: LoadedSettings;
  private readonly listeners = new Set<SettingsChangeListener>();

  constructor(private readonly dataDirectory: DataDirectory) {}

  onModuleInit(): void {
    this.settings();
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
   * field is checked before any file is written; on a violation nothing changes. A URL that now
   * points to another server needs its secrets given again (secretsLeftAtOldDestination).
   */
  async update(patch: SettingsPatch): Promise<SettingsChange> {
    const problems = settingsPatchProblems(patch as Record<string, unknown>);
    if (problems.length) throw new InvalidSettingsError(problems);
    const current = this.settings();
    const leftBehind = secretsLeftBehind((name) => this.stored(name), patch);
    if (leftBehind.length) throw new InvalidSettingsError(leftBehind);
    const next: SettingsGroups = {
      global: { ...current.values.global },
      ai: { ...current.values.ai },
      telegramApi: { ...current.values.telegramApi },
    };
    const change: SettingsChange = { global: false, ai: false, telegramApi: false };
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      const field = SETTINGS_FIELDS[name as keyof SettingsPatch];
      const group = next[field.group] as unknown as Record<string, unknown>;
      if (group[field.key] === value) continue;
      group[field.key] = value;
      change[field.group] = true;
    }
    // All changed files or none: memory is updated only after every file was replaced.
    replaceFilesAtomically(
      GROUPS.filter((group) => change[group]).map((group) => ({
        path: this.fileOf(group),
        data: jsonFileText({ ...current.unknownKeys[group], ...next[group] }),
      })),
    );
    current.values = freezeGroups(next);
    if (change.global || change.ai || change.telegramApi) this.notify(change);
    return change;
  }

  /** The stored value of a setting, by its API name. */
  stored(name: keyof SettingsPatch): unknown {
    const field = SETTINGS_FIELDS[name];
    return (this.settings().values[field.group] as unknown as Record<string, unknown>)[field.key];
  }

  /** Calls `listener` after every update that changed something; returns the unsubscribe function. */
  onChange(listener: SettingsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    this.loaded ??= this.load();
    return this.loaded;
  }

  private fileOf(group: SettingsGroup): string {
    if (group === 'global') return this.dataDirectory.globalSettingsFile;
    if (group === 'ai') return this.dataDirectory.aiSettingsFile;
    return this.dataDirectory.telegramApiFile;
  }

  private load(): LoadedSettings {
    this.dataDirectory.prepare();
    const values = {} as Record<SettingsGroup, Record<string, unknown>>;
    const unknownKeys = {} as Record<SettingsGroup, Record<string, unknown>>;
    for (const group of GROUPS) {
      const path = this.fileOf(group);
      const stored = readJsonObjectFile(path);
      const { known, unknown } = parseGroup(group, path, stored ?? {});
      values[group] = known;
      unknownKeys[group] = unknown;
      // A missing file is written with the defaults so the layout is complete; an existing one is never rewritten here.
      if (stored === undefined) this.writeGroup(group, known, unknown);
    }
    return { values: freezeGroups(values as unknown as SettingsGroups), unknownKeys };
  }

  private writeGroup(group: SettingsGroup, values: object, unknown: Record<string, unknown>): void {
    writeJsonFileAtomic(this.fileOf(group), { ...unknown, ...values });
  }
}

function freezeGroups(groups: SettingsGroups): SettingsGroups {
  return {
    global: Object.freeze({ ...groups.global }),
    ai: Object.freeze({ ...groups.ai }),
    telegramApi: Object.freeze({ ...groups.telegramApi }),
  };
}

/** Splits a settings file into the fields this version knows (checked, defaults filled in) and the rest. */
function parseGroup(
  group: SettingsGroup,
  path: string,
  stored: Record<string, unknown>,
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
    if (violation) throw new CorruptDataFileError(path, `field ${field.key} ${violation}`);
    known[field.key] = value;
  }
  const unknown = Object.fromEntries(Object.entries(stored).filter(([key]) => !knownKeys.has(key)));
  return { known, unknown };
}
