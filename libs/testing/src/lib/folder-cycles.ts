import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { preProcessFile } from 'typescript';

/** One import from a file of folder `from` to a file of folder `to`. */
export interface FolderEdge {
  from: string;
  to: string;
  /** `file -> file`, paths relative to the source root. */
  imports: string[];
}

/** Folders that import each other in a loop (a strongly connected component), and the edges inside it. */
export interface FolderCycle {
  folders: string[];
  edges: FolderEdge[];
}

export interface FolderCycleOptions {
  /**
   * Files (relative to the source root) that wire every feature together and that no feature imports,
   * such as the list of entities the TypeORM CLI loads. Their imports are left out of the graph.
   * Files directly in `src/` and `src/app/` (main.ts, app.module.ts, create-app.ts) always are.
   */
  compositionFiles?: string[];
}

/**
 * Every import between two folders of a service's source tree (`srcDir` = `apps/<app>/src`), one
 * edge per ordered pair of folders with the imports that make it.
 *
 * A folder is the first directory under `src/app/` (a feature: `webhooks`, `notifications`) or under
 * `src/` (`database`, `cli`). Spec files are left out: nothing imports a spec, so a spec cannot close
 * a loop in the code that runs, and a spec may use whatever it needs to set its scene. Only relative
 * imports count; libraries are imported through their aliases and have their own boundary rules.
 */
export function folderEdges(srcDir: string, options: FolderCycleOptions = {}): FolderEdge[] {
  const root = resolve(srcDir);
  const composition = new Set((options.compositionFiles ?? []).map((file) => join(root, file)));
  const edges = new Map<string, FolderEdge>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    if (!from || composition.has(file)) continue;
    const { importedFiles } = preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      const to = target && folderOf(root, target);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const edge = edges.get(key) ?? { from, to, imports: [] };
      edge.imports.push(`${relative(root, file)} -> ${relative(root, target)}`);
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/** The cycles between the folders (strongly connected components of folderEdges, largest first as found). */
export function folderCycles(srcDir: string, options: FolderCycleOptions = {}): FolderCycle[] {
  const edges = new Map(folderEdges(srcDir, options).map((edge) => [`${edge.from} -> ${edge.to}`, edge]));
  return stronglyConnected(edges).map((folders) => {
    const members = new Set(folders);
    const inside = [...edges.values()].filter((edge) => members.has(edge.from) && members.has(edge.to));
    return { folders, edges: inside.sort((a, b) => compare(`${a.from} ${a.to}`, `${b.from} ${b.to}`)) };
  });
}

/**
 * The imports against a declared flow: `stages` lists folders from upstream to downstream (folders
 * in one stage may import each other); an import from a folder into one of an earlier stage is
 * answered as `from -> to (file -> file; ...)`. Folders not in a stage are not checked.
 */
export function flowViolations(srcDir: string, stages: string[][], options: FolderCycleOptions = {}): string[] {
  const root = resolve(srcDir);
  const missing = stages.flat().filter((folder) => !existsSync(join(root, 'app', folder)) && !existsSync(join(root, folder)));
  if (missing.length > 0) throw new Error(`flowViolations: no folder ${missing.join(', ')} under ${root} (a stage names a folder that does not exist)`);
  const stageOf = new Map(stages.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));
  return folderEdges(srcDir, options)
    .filter((edge) => (stageOf.get(edge.to) ?? Infinity) < (stageOf.get(edge.from) ?? -Infinity))
    .map((edge) => `${edge.from} -> ${edge.to} (${edge.imports.join('; ')})`)
    .sort(compare);
}

/** `from -> to` for every edge that lies on a cycle: what a spec compares, and what a failure names. */
export function cycleEdges(cycles: FolderCycle[], withFiles = false): string[] {
  return cycles.flatMap((cycle) =>
    cycle.edges.map((edge) => `${edge.from} -> ${edge.to}${withFiles ? ` (${edge.imports.join('; ')})` : ''}`),
  );
}

/**
 * What an architecture spec asserts, given the cycle edges (`from -> to`) it knows of: the edges on a
 * cycle that are not known (each with the imports that make it), and the known ones still present.
 */
export function folderCycleCheck(srcDir: string, knownEdges: string[], options: FolderCycleOptions = {}): { unexpected: string[]; present: string[] } {
  const cycles = folderCycles(srcDir, options);
  const present = cycleEdges(cycles);
  const unexpected = cycleEdges(cycles, true).filter((_, index) => !knownEdges.includes(present[index]));
  return { unexpected, present };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(spec|e2e-spec)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function folderOf(root: string, file: string): string | undefined {
  const parts = relative(root, file).split(sep);
  if (parts[0] === 'app') return parts.length > 2 ? parts[1] : undefined;
  return parts.length > 1 ? `src/${parts[0]}` : undefined;
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tarjan's algorithm; answers only the components of more than one folder, each sorted, in name order. */
function stronglyConnected(edges: Map<string, FolderEdge>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges.values()) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort(compare));
  };
  for (const node of [...next.keys()].sort(compare)) if (!index.has(node)) visit(node);
  return components.sort((a, b) => compare(a[0], b[0]));
}
