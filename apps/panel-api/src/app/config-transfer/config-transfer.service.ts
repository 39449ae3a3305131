import { Injectable, Logger } from '@nestjs/common';
import { AccountStore } from '../accounts/account-store';
import { CONFIG_IMPORT_BODY_LIMITS, jsonShapeViolation } from '../common/request-limits';
import { VersionService } from '../ops/version.service';
import { SettingsService } from '../settings/settings.service';
import { SignTask } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { ConfigSectionRegistry, ImportSummary } from './config-sections';
import { isJsonObject, Json } from './import-report';
import { CONFIG_EXPORT_FORMAT, ImportPlan, ItemAction, PlannedItem, planImport } from './import-plan';
import { exportTaskEntries, secretPathsOf } from './reference-export';
import { currentSettingsAsPatch, exportSettings } from './settings-transfer';
import { PanelError, ValidationFailed } from '../common/panel-error';

export { CONFIG_EXPORT_FORMAT } from './import-plan';
export const CONFIG_EXPORT_VERSION = 1;

export interface ImportOptions {
  overwrite: boolean;
  /** Keys of the preview's items to import; all items when absent. */
  selected?: string[];
  /** The account for items that name none (monitors, tasks without an account). */
  defaultAccount?: string;
}

export interface ImportPreview {
  /** True when importing the selected items (all, without a selection) would be accepted. */
  valid: boolean;
  overwrite: boolean;
  /** Everything that stops the import: problems of the document, then of each refused item. */
  problems: string[];
  items: PlannedItem[];
  counts: Record<ItemAction, number>;
}

export interface PostImportResult {
  name: string;
  ok: boolean;
  error: string | null;
}

export interface ImportResult {
  created: PlannedItem[];
  overwritten: PlannedItem[];
  /** Items not written: they exist (overwrite=false), were not selected, or had nothing to change. */
  skipped: PlannedItem[];
  settings: PlannedItem | null;
  post_import: PostImportResult[];
  note: string;
}

/** A configuration import that is not acceptable; nothing was written. */
export class InvalidConfigImportError extends ValidationFailed {
  constructor(readonly problems: string[]) {
    super(`Configuration not imported, nothing was changed: ${problems.join('; ')}`);
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NOTE = 'Login sessions are not part of a configuration import: log accounts in (again) where needed. Secrets left out of or masked in the document must be set again where the preview says so.';

/**
 * Configuration JSON in the reference panel's (TG-SignPulse) shape: export of tasks and settings
 * (secrets masked or left out, no sessions), a preview that reads every item of a document (the
 * reference panel's exports, tg-signer monitors, this panel's earlier list exports) and says what
 * it maps, defaults and drops, and an import of the items the person confirms, all or nothing.
 */
@Injectable()
export class ConfigTransferService {
  private readonly logger = new Logger(ConfigTransferService.name);

  constructor(
    private readonly registry: ConfigSectionRegistry,
    private readonly settings: SettingsService,
    private readonly versions: VersionService,
    private readonly tasks: SignTasksService,
    private readonly accounts: AccountStore,
  ) {}

  private meta(scope: 'all' | 'sign', tasks: SignTask[]): Json {
    const leftOut = tasks.flatMap((task) => secretPathsOf(task).map((path) => `${task.name}: ${path}`));
    const usernameChats = tasks.flatMap((task) => task.chats.filter((chat) => typeof chat.chat_id === 'string' && !/^-?\d+$/.test(chat.chat_id)).map((chat) => `${task.name}: ${chat.chat_id}`));
    return {
      format: CONFIG_EXPORT_FORMAT,
      version: CONFIG_EXPORT_VERSION,
      includes: scope === 'all' ? ['signs', 'monitors', 'settings'] : ['signs'],
      excludes: ['sessions', 'db.sqlite', 'history', 'account_login_state'],
      notes: [
        'Configuration for moving panels: no Telegram login sessions; log accounts in again after an import.',
        'Secrets of settings are ***MASKED*** (importing the placeholder keeps the stored secret); secrets of listen rules (bark_url, custom_url, server_chan_send_key) are left out.',
      ],
      exported_by: 'panel-api',
      app_version: this.versions.info().version,
      exported_at: new Date().toISOString(),
      secrets_left_out: leftOut,
      // The reference panel's runner reads chat ids as numbers; these chats are @usernames.
      username_chats: usernameChats,
    };
  }

  private entriesOf(tasks: SignTask[]): Json {
    const signs: Json = {};
    for (const task of tasks) for (const [key, entry] of exportTaskEntries(task, this.tasks.accountsOf(task))) signs[key] = entry;
    return signs;
  }

  async exportAll(): Promise<Json> {
    await this.tasks.fresh();
    const tasks = this.tasks.list();
    return { _meta: this.meta('all', tasks), signs: this.entriesOf(tasks), monitors: {}, settings: exportSettings(this.settings) };
  }

  async exportSign(name: string): Promise<Json> {
    await this.tasks.fresh();
    const task = this.tasks.get(name);
    if (!task) throw new PanelError('task_not_found', `Sign task ${name} does not exist`);
    return { _meta: this.meta('sign', [task]), signs: this.entriesOf([task]) };
  }

  async preview(configJson: unknown, options: ImportOptions): Promise<ImportPreview> {
    return this.previewOf(await this.plan(this.parse(configJson), options), options);
  }

  async importAll(configJson: unknown, options: ImportOptions): Promise<ImportResult> {
    return this.execute(await this.plan(this.parse(configJson), options), options);
  }

  /**
   * One sign task: its bare document, the reference panel's single-task export
   * (`{ task_name, task_type: "sign", config }`), or an export holding exactly one task.
   */
  async importSign(configJson: unknown, options: ImportOptions): Promise<ImportResult> {
    const parsed = this.parse(configJson);
    let wrapped: Json;
    if ('_meta' in parsed || 'signs' in parsed) wrapped = parsed;
    else if (isJsonObject(parsed['config']) && typeof parsed['task_name'] === 'string') wrapped = { signs: { [parsed['task_name']]: { name: parsed['task_name'], ...parsed['config'] } } };
    else wrapped = { signs: [parsed] };
    const problems: string[] = [];
    for (const key of Object.keys(wrapped)) if (!['_meta', 'signs'].includes(key)) problems.push(`${key} cannot be imported with a single sign task`);
    if (problems.length) throw new InvalidConfigImportError(problems);
    const plan = await this.plan(wrapped, options);
    const names = new Set(plan.items.map((item) => item.name));
    if (names.size !== 1) throw new InvalidConfigImportError([`config_json must hold exactly one sign task (it holds ${names.size})`]);
    return this.execute(plan, options);
  }

  private parse(configJson: unknown): Json {
    let value = configJson;
    if (typeof configJson === 'string') {
      // The text inside config_json is held to the bounds the request body itself was checked against.
      const tooBig = jsonShapeViolation(configJson, CONFIG_IMPORT_BODY_LIMITS);
      if (tooBig) throw new InvalidConfigImportError([`config_json: ${tooBig.replace(/^Request body/, 'the document')}`]);
      try {
        value = JSON.parse(configJson);
      } catch (error) {
        throw new InvalidConfigImportError([`config_json is not valid JSON (${describeError(error)})`]);
      }
    }
    if (!isJsonObject(value)) throw new InvalidConfigImportError(['config_json must be a JSON object']);
    return value;
  }

  private async plan(document: Json, options: ImportOptions): Promise<ImportPlan> {
    await this.tasks.fresh();
    return planImport(document, {
      overwrite: options.overwrite,
      defaultAccount: options.defaultAccount,
      accounts: this.accounts.names(),
      storedTask: (name) => this.tasks.get(name),
      settings: this.settings,
    });
  }

  /** Problems that stop importing the selection (everything without one). */
  private selectionProblems(plan: ImportPlan, options: ImportOptions): string[] {
    const problems = [...plan.documentProblems];
    const keys = new Set(plan.items.map((item) => item.key));
    for (const key of options.selected ?? []) if (!keys.has(key)) problems.push(`selected ${JSON.stringify(key)} is not an item of this document`);
    for (const item of plan.items) {
      if (item.action !== 'refuse' || (options.selected && !options.selected.includes(item.key))) continue;
      problems.push(...item.problems.map((problem) => `${item.key}: ${problem}`));
    }
    return problems;
  }

  private previewOf(plan: ImportPlan, options: ImportOptions): ImportPreview {
    const problems = this.selectionProblems(plan, options);
    const counts: Record<ItemAction, number> = { create: 0, overwrite: 0, update: 0, unchanged: 0, skip: 0, refuse: 0 };
    for (const item of plan.items) counts[item.action] += 1;
    return { valid: problems.length === 0, overwrite: options.overwrite, problems, items: plan.items, counts };
  }

  private async execute(plan: ImportPlan, options: ImportOptions): Promise<ImportResult> {
    const problems = this.selectionProblems(plan, options);
    if (problems.length) throw new InvalidConfigImportError(problems);
    const chosen = (item: PlannedItem) => !options.selected || options.selected.includes(item.key);
    const writes = plan.items.filter((item) => chosen(item) && (item.action === 'create' || item.action === 'overwrite'));
    const writeSettings = plan.items.some((item) => item.section === 'settings' && item.action === 'update' && chosen(item));
    const undos: Array<() => void | Promise<void>> = [];
    try {
      const taskWrites = writes.map((item) => {
        const write = plan.tasks.get(item.key);
        if (!write) throw new Error(`item ${item.key} has nothing to write`);
        return write.task;
      });
      if (taskWrites.length) undos.push(await this.tasks.writeMany(taskWrites, { allowMissingPushSecrets: true, schedulesChecked: true }));
      if (writeSettings && plan.settings) {
        const before = currentSettingsAsPatch(this.settings);
        await this.settings.update(plan.settings.patch);
        undos.push(async () => {
          await this.settings.update(before);
        });
      }
    } catch (error) {
      this.logger.error({ err: error }, 'Configuration import failed while writing; undoing what was written');
      for (const undo of undos.reverse()) {
        try {
          await undo();
        } catch (undoError) {
          this.logger.error({ err: undoError }, 'Undoing part of a failed configuration import failed');
        }
      }
      throw error;
    }

    const summary: ImportSummary = { created: {}, overwritten: {}, settingsChanged: writeSettings };
    for (const item of writes) {
      const bucket = item.action === 'create' ? summary.created : summary.overwritten;
      (bucket[item.section] ??= []).push(item.name ?? item.key);
    }
    const postImport: PostImportResult[] = [];
    for (const [name, hook] of this.registry.afterImportHooks()) {
      try {
        await hook(summary);
        postImport.push({ name, ok: true, error: null });
      } catch (error) {
        this.logger.warn(`After-import step ${name} failed: ${describeError(error)}`);
        postImport.push({ name, ok: false, error: describeError(error) });
      }
    }
    const settingsItem = plan.items.find((item) => item.section === 'settings') ?? null;
    return {
      created: writes.filter((item) => item.action === 'create'),
      overwritten: writes.filter((item) => item.action === 'overwrite'),
      skipped: plan.items
        .filter((item) => item.section !== 'settings' && !writes.includes(item))
        .map((item) => (chosen(item) ? item : { ...item, action: 'skip' as const, reason: 'not selected' })),
      settings: settingsItem && (chosen(settingsItem) ? settingsItem : { ...settingsItem, action: 'skip', reason: 'not selected' }),
      post_import: postImport,
      note: NOTE,
    };
  }
}
