import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { VersionService } from '../ops/version.service';
import { SettingsService } from '../settings/settings.service';
import { ConfigSectionRegistry, ConfigUndo, ImportSummary, ItemToWrite } from './config-sections';
import { currentSettingsAsPatch, exportSettings, planSettingsImport, SettingsImportPlan } from './settings-transfer';

export const CONFIG_EXPORT_FORMAT = 'tg-signpulse-config-export';
export const CONFIG_EXPORT_VERSION = 1;

/** Sections every export has, whether or not a feature has registered them yet. */
const STANDARD_ITEM_SECTIONS = ['signs', 'monitors'];

export type ItemAction = 'create' | 'overwrite' | 'skip' | 'refuse';

export interface PlannedItem {
  section: string;
  name: string | null;
  action: ItemAction;
  reason: string | null;
}

export interface PlannedSettings {
  present: boolean;
  action: 'overwrite' | 'unchanged' | 'skip' | 'refuse' | 'absent';
  changed_fields: string[];
  kept_secrets: string[];
  reason: string | null;
}

export interface ImportPreview {
  valid: boolean;
  overwrite: boolean;
  problems: string[];
  items: PlannedItem[];
  settings: PlannedSettings;
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
  skipped: PlannedItem[];
  settings: PlannedSettings;
  post_import: PostImportResult[];
  note: string;
}

interface ImportPlan {
  preview: ImportPreview;
  writes: Map<string, ItemToWrite[]>;
  settings?: SettingsImportPlan;
}

/** A configuration import that is not acceptable as a whole; nothing was written. */
export class InvalidConfigImportError extends BadRequestException {
  constructor(readonly problems: string[]) {
    super(`Configuration not imported, nothing was changed: ${problems.join('; ')}`);
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Configuration JSON: export of tasks, monitors and settings (secrets masked, no sessions), and an
 * import that checks everything before it writes anything, then writes all of it or none of it.
 */
@Injectable()
export class ConfigTransferService {
  private readonly logger = new Logger(ConfigTransferService.name);

  constructor(
    private readonly registry: ConfigSectionRegistry,
    private readonly settings: SettingsService,
    private readonly versions: VersionService,
  ) {}

  private meta(scope: 'all' | 'sign'): Record<string, unknown> {
    return {
      format: CONFIG_EXPORT_FORMAT,
      version: CONFIG_EXPORT_VERSION,
      scope,
      exported_at: new Date().toISOString(),
      app_version: this.versions.info().version,
      secrets: 'masked',
      note: 'Secrets are exported as ***MASKED***; importing that placeholder keeps the stored secret. No login sessions are included: log accounts in again after an import.',
    };
  }

  async exportAll(): Promise<Record<string, unknown>> {
    const document: Record<string, unknown> = { _meta: this.meta('all') };
    for (const key of STANDARD_ITEM_SECTIONS) document[key] = [];
    for (const section of this.registry.itemSections()) document[section.key] = await section.exportAll();
    document['settings'] = exportSettings(this.settings);
    return document;
  }

  async exportSign(name: string): Promise<Record<string, unknown>> {
    const exported = await this.registry.itemSection('signs')?.exportOne(name);
    if (!exported) throw new NotFoundException(`Sign task ${name} does not exist`);
    return { _meta: this.meta('sign'), signs: [exported] };
  }

  async preview(configJson: unknown, overwrite: boolean): Promise<ImportPreview> {
    return (await this.plan(this.parse(configJson), overwrite, 'all')).preview;
  }

  async importAll(configJson: unknown, overwrite: boolean): Promise<ImportResult> {
    return this.execute(await this.plan(this.parse(configJson), overwrite, 'all'));
  }

  /** One sign task: its bare document, or an export holding exactly one sign task. */
  async importSign(configJson: unknown, overwrite: boolean): Promise<ImportResult> {
    const parsed = this.parse(configJson);
    const wrapped = '_meta' in parsed || 'signs' in parsed ? parsed : { signs: [parsed] };
    const signs = wrapped['signs'];
    const problems: string[] = [];
    for (const key of Object.keys(wrapped)) if (!['_meta', 'signs'].includes(key)) problems.push(`${key} cannot be imported with a single sign task`);
    if (!Array.isArray(signs) || signs.length !== 1) problems.push('config_json must hold exactly one sign task');
    if (problems.length) throw new InvalidConfigImportError(problems);
    return this.execute(await this.plan(wrapped, overwrite, 'sign'));
  }

  private parse(configJson: unknown): Record<string, unknown> {
    let value = configJson;
    if (typeof configJson === 'string') {
      try {
        value = JSON.parse(configJson);
      } catch (error) {
        throw new InvalidConfigImportError([`config_json is not valid JSON (${describeError(error)})`]);
      }
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidConfigImportError(['config_json must be a JSON object']);
    }
    return value as Record<string, unknown>;
  }

  private async plan(document: Record<string, unknown>, overwrite: boolean, scope: 'all' | 'sign'): Promise<ImportPlan> {
    const problems: string[] = [];
    const items: PlannedItem[] = [];
    const writes = new Map<string, ItemToWrite[]>();
    const meta = document['_meta'];
    if (meta !== undefined) {
      if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) problems.push('_meta must be an object');
      else {
        const { format, version } = meta as Record<string, unknown>;
        if (format !== undefined && format !== CONFIG_EXPORT_FORMAT) problems.push(`_meta.format must be ${CONFIG_EXPORT_FORMAT}, not ${JSON.stringify(format)}`);
        if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > CONFIG_EXPORT_VERSION)) {
          problems.push(`_meta.version ${JSON.stringify(version)} is not supported (this server reads version ${CONFIG_EXPORT_VERSION})`);
        }
      }
    }
    for (const [key, value] of Object.entries(document)) {
      if (key === '_meta' || key === 'settings') continue;
      const section = this.registry.itemSection(key);
      if (!Array.isArray(value)) {
        problems.push(`${key} must be a list`);
        continue;
      }
      if (!section) {
        if (!STANDARD_ITEM_SECTIONS.includes(key)) problems.push(`${key} is not a section of the configuration JSON`);
        else if (value.length > 0) problems.push(`${key} cannot be imported: this server has no store for them yet`);
        continue;
      }
      const seen = new Set<string>();
      const toWrite: ItemToWrite[] = [];
      for (const [index, item] of value.entries()) {
        const check = await section.check(item);
        const where = `${key}[${index}]${check.name ? ` (${check.name})` : ''}`;
        if (check.name && seen.has(check.name)) check.problems.push(`the name ${check.name} appears more than once`);
        if (check.name) seen.add(check.name);
        if (check.problems.length || !check.name) {
          const reasons = check.problems.length ? check.problems : ['has no name'];
          problems.push(...reasons.map((reason) => `${where}: ${reason}`));
          items.push({ section: key, name: check.name ?? null, action: 'refuse', reason: reasons.join('; ') });
          continue;
        }
        const exists = await section.exists(check.name);
        if (exists && !overwrite) {
          items.push({ section: key, name: check.name, action: 'skip', reason: `a ${section.label} of this name exists; import with overwrite=true to replace it` });
          continue;
        }
        items.push({ section: key, name: check.name, action: exists ? 'overwrite' : 'create', reason: null });
        toWrite.push({ name: check.name, document: item as Record<string, unknown>, replaces: exists });
      }
      if (toWrite.length) writes.set(key, toWrite);
    }

    let settingsPlan: SettingsImportPlan | undefined;
    const plannedSettings: PlannedSettings = { present: false, action: 'absent', changed_fields: [], kept_secrets: [], reason: null };
    if ('settings' in document && scope === 'all') {
      plannedSettings.present = true;
      const plan = planSettingsImport(document['settings'], this.settings);
      plannedSettings.changed_fields = plan.changed;
      plannedSettings.kept_secrets = plan.keptSecrets;
      if (plan.problems.length) {
        problems.push(...plan.problems);
        plannedSettings.action = 'refuse';
        plannedSettings.reason = plan.problems.join('; ');
      } else if (!plan.changed.length) {
        plannedSettings.action = 'unchanged';
      } else if (!overwrite) {
        plannedSettings.action = 'skip';
        plannedSettings.reason = 'settings exist; import with overwrite=true to replace them';
      } else {
        plannedSettings.action = 'overwrite';
        settingsPlan = plan;
      }
    }

    const counts: Record<ItemAction, number> = { create: 0, overwrite: 0, skip: 0, refuse: 0 };
    for (const item of items) counts[item.action] += 1;
    return {
      preview: { valid: problems.length === 0, overwrite, problems, items, settings: plannedSettings, counts },
      writes,
      settings: settingsPlan,
    };
  }

  private async execute(plan: ImportPlan): Promise<ImportResult> {
    if (!plan.preview.valid) throw new InvalidConfigImportError(plan.preview.problems);
    const undos: ConfigUndo[] = [];
    try {
      for (const [key, items] of plan.writes) {
        const section = this.registry.itemSection(key);
        if (section) undos.push(await section.apply(items));
      }
      if (plan.settings) {
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
    const summary: ImportSummary = { created: {}, overwritten: {}, settingsChanged: Boolean(plan.settings) };
    for (const item of plan.preview.items) {
      if (!item.name) continue;
      if (item.action === 'create') (summary.created[item.section] ??= []).push(item.name);
      if (item.action === 'overwrite') (summary.overwritten[item.section] ??= []).push(item.name);
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
    return {
      created: plan.preview.items.filter((item) => item.action === 'create'),
      overwritten: plan.preview.items.filter((item) => item.action === 'overwrite'),
      skipped: plan.preview.items.filter((item) => item.action === 'skip'),
      settings: plan.preview.settings,
      post_import: postImport,
      note: 'Login sessions are not part of a configuration import: log accounts in (again) where needed.',
    };
  }
}
