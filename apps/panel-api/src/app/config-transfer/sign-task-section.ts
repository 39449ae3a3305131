import { Injectable, OnModuleInit } from '@nestjs/common';
import { SignTask, SignTaskInput } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { parseTaskInput } from '../sign-tasks/task-validation';
import { ConfigItemSection, ConfigSectionRegistry, ConfigUndo, isSecretPlaceholder, ItemCheck, ItemToWrite, maskSecret } from './config-sections';

/**
 * Fields of a listen rule (and its continue actions) that carry credentials: a Bark URL holds the
 * device key, a ServerChan key is one, and a custom webhook URL often embeds a token.
 */
export const TASK_SECRET_FIELDS = ['bark_url', 'custom_url', 'server_chan_key'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Visits every action of a task document (chats[].actions[] and nested continue_actions[]) with its
 * path, so secrets can be masked on export and matched to the stored task on import.
 */
function forEachAction(document: Json, visit: (action: Json, path: string) => void): void {
  const walk = (actions: unknown, path: string) => {
    if (!Array.isArray(actions)) return;
    actions.forEach((action, index) => {
      if (!isObject(action)) return;
      const here = `${path}[${index}]`;
      visit(action, here);
      walk(action['continue_actions'], `${here}.continue_actions`);
    });
  };
  if (!Array.isArray(document['chats'])) return;
  document['chats'].forEach((chat, index) => {
    if (isObject(chat)) walk(chat['actions'], `chats[${index}].actions`);
  });
}

function actionsByPath(document: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  forEachAction(document, (action, path) => out.set(path, action));
  return out;
}

/** The exported form of a stored task: secrets masked, run state (last_run, timestamps) left out. */
export function exportTask(task: SignTask): Json {
  const { last_run: _lastRun, created_at: _createdAt, updated_at: _updatedAt, ...document } = structuredClone(task) as SignTask;
  forEachAction(document as unknown as Json, (action) => {
    for (const field of TASK_SECRET_FIELDS) if (typeof action[field] === 'string') action[field] = maskSecret(action[field] as string);
  });
  return document as unknown as Json;
}

/**
 * Replaces placeholders in secret fields with the stored task's value at the same place. A
 * placeholder with nothing stored there is a problem: the import cannot invent the secret.
 */
export function resolveTaskSecrets(document: Json, stored: SignTask | undefined): { document: Json; problems: string[] } {
  const resolved = structuredClone(document);
  const storedActions = stored ? actionsByPath(stored as unknown as Json) : new Map<string, Json>();
  const problems: string[] = [];
  forEachAction(resolved, (action, path) => {
    for (const field of TASK_SECRET_FIELDS) {
      if (!isSecretPlaceholder(action[field])) continue;
      const kept = storedActions.get(path)?.[field];
      if (typeof kept === 'string' && kept) action[field] = kept;
      else problems.push(`${path}.${field} is a masked placeholder but no stored value exists to keep`);
    }
  });
  return { document: resolved, problems };
}

/** Everything of a stored task a replace needs to put it back as it was. */
function asInput(task: SignTask): SignTaskInput {
  const { last_run: _lastRun, created_at: _createdAt, updated_at: _updatedAt, ...input } = task;
  return input;
}

/**
 * The `signs` section of the configuration JSON over the task store: every task, listen tasks
 * (keyword monitors) included, since they share one store and one namespace of names.
 */
@Injectable()
export class SignTaskConfigSection implements ConfigItemSection, OnModuleInit {
  readonly key = 'signs';
  readonly label = 'sign task';

  constructor(
    private readonly tasks: SignTasksService,
    private readonly registry: ConfigSectionRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.registerItemSection(this);
  }

  async exportAll(): Promise<Json[]> {
    return this.tasks.list().map(exportTask);
  }

  async exportOne(name: string): Promise<Json | undefined> {
    const task = this.tasks.get(name);
    return task && exportTask(task);
  }

  async check(document: unknown): Promise<ItemCheck> {
    if (!isObject(document)) return { problems: ['a task must be a JSON object'] };
    const name = typeof document['name'] === 'string' ? document['name'] : undefined;
    const resolved = resolveTaskSecrets(document, name ? this.tasks.get(name) : undefined);
    const parsed = parseTaskInput(resolved.document, { strict: false });
    return { name, problems: [...resolved.problems, ...(parsed.ok ? [] : parsed.problems)] };
  }

  async exists(name: string): Promise<boolean> {
    return this.tasks.get(name) !== undefined;
  }

  async apply(items: ItemToWrite[]): Promise<ConfigUndo> {
    const undos: Array<() => void> = [];
    const undoAll = async () => {
      for (const undo of undos.reverse()) undo();
    };
    try {
      for (const item of items) {
        const stored = this.tasks.get(item.name);
        const resolved = resolveTaskSecrets(item.document, stored);
        const parsed = parseTaskInput(resolved.document, { strict: false });
        if (!parsed.ok || resolved.problems.length) throw new Error(`task ${item.name} changed while it was imported`);
        if (stored) {
          this.tasks.replace(item.name, parsed.task);
          undos.push(() => this.tasks.replace(item.name, asInput(stored)));
        } else {
          this.tasks.create(parsed.task);
          undos.push(() => this.tasks.remove(item.name));
        }
      }
    } catch (error) {
      await undoAll();
      throw error;
    }
    return undoAll;
  }
}
