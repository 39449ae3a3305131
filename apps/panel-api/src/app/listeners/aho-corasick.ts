/**
 * Aho-Corasick multi-pattern matcher over UTF-16 code units: one pass over a text finds every
 * pattern it contains, whatever the number of patterns. Built once per rule change.
 *
 * The automaton is a trie whose nodes are laid out in flat arrays. Each node keeps its children in
 * a small sorted run of (code unit, child) pairs; failure links and "dictionary" links (the nearest
 * failure ancestor that ends a pattern) are computed breadth first, so matching follows failure
 * links only on a mismatch and reports outputs without scanning non-terminal ancestors.
 */
export interface AhoCorasickMatch {
  /** Index of the pattern in the list given to the constructor. */
  pattern: number;
  /** Index in the text of the pattern's first code unit. */
  start: number;
}

export class AhoCorasick {
  readonly size: number;
  private readonly patterns: readonly string[];
  /** For node n, its children are childUnits/childNodes[childStart[n] .. childStart[n + 1]). */
  private readonly childStart: Int32Array;
  private readonly childUnits: Uint16Array;
  private readonly childNodes: Int32Array;
  private readonly fail: Int32Array;
  /** Pattern ending exactly at this node, or -1. */
  private readonly terminal: Int32Array;
  /** Nearest node on the failure chain (excluding itself) that is terminal, or -1. */
  private readonly dictionary: Int32Array;
  /** Root transitions for code units below 128 (most keywords start with ASCII or the text is mostly ASCII). */
  private readonly rootAscii: Int32Array;
  /**
   * The automaton as a full DFA over the code units the patterns use (class 0 = any other unit,
   * which always leads back to the root): one table lookup per code unit, no failure-link walks.
   * Left out when the table would be too large (very many distinct units, e.g. thousands of CJK keywords).
   */
  private readonly dfa?: { table: Int32Array; stride: number; asciiClass: Uint16Array; otherClass: Map<number, number>; hasOutput: Uint8Array };

  /**
   * Empty patterns are ignored; duplicates report the first index. `maxDfaEntries` bounds the dense
   * table (nodes × distinct code units); above it the sparse trie with failure links is used.
   */
  constructor(patterns: readonly string[], options: { maxDfaEntries?: number } = {}) {
    this.patterns = patterns;
    this.size = patterns.length;
    // Build a pointer trie first, then flatten it.
    const children: Array<Map<number, number>> = [new Map()];
    const terminal: number[] = [-1];
    patterns.forEach((pattern, index) => {
      if (pattern.length === 0) return;
      let node = 0;
      for (let i = 0; i < pattern.length; i++) {
        const unit = pattern.charCodeAt(i);
        let next = children[node].get(unit);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          terminal.push(-1);
          children[node].set(unit, next);
        }
        node = next;
      }
      if (terminal[node] === -1) terminal[node] = index;
    });

    const nodeCount = children.length;
    this.childStart = new Int32Array(nodeCount + 1);
    let total = 0;
    for (let n = 0; n < nodeCount; n++) {
      this.childStart[n] = total;
      total += children[n].size;
    }
    this.childStart[nodeCount] = total;
    this.childUnits = new Uint16Array(total);
    this.childNodes = new Int32Array(total);
    for (let n = 0; n < nodeCount; n++) {
      const sorted = [...children[n].entries()].sort((a, b) => a[0] - b[0]);
      let at = this.childStart[n];
      for (const [unit, child] of sorted) {
        this.childUnits[at] = unit;
        this.childNodes[at] = child;
        at++;
      }
    }
    this.terminal = Int32Array.from(terminal);
    this.rootAscii = new Int32Array(128).fill(0);
    for (const [unit, child] of children[0]) if (unit < 128) this.rootAscii[unit] = child;

    this.fail = new Int32Array(nodeCount);
    this.dictionary = new Int32Array(nodeCount).fill(-1);
    const queue = new Int32Array(nodeCount);
    let head = 0;
    let tail = 0;
    for (let at = this.childStart[0]; at < this.childStart[1]; at++) {
      const child = this.childNodes[at];
      this.fail[child] = 0;
      queue[tail++] = child;
    }
    while (head < tail) {
      const node = queue[head++];
      for (let at = this.childStart[node]; at < this.childStart[node + 1]; at++) {
        const unit = this.childUnits[at];
        const child = this.childNodes[at];
        let f = this.fail[node];
        let target = this.child(f, unit);
        while (target === -1 && f !== 0) {
          f = this.fail[f];
          target = this.child(f, unit);
        }
        this.fail[child] = target === -1 ? 0 : target;
        const failNode = this.fail[child];
        this.dictionary[child] = this.terminal[failNode] !== -1 ? failNode : this.dictionary[failNode];
        queue[tail++] = child;
      }
    }
    this.dfa = this.buildDfa(queue, tail, options.maxDfaEntries ?? 8_000_000);
  }

  /** Folds failure links into a dense transition table, in BFS order so a node's fail target is done first. */
  private buildDfa(order: Int32Array, count: number, maxEntries: number): AhoCorasick['dfa'] {
    const asciiClass = new Uint16Array(128);
    const otherClass = new Map<number, number>();
    let classes = 1;
    for (let at = 0; at < this.childUnits.length; at++) {
      const unit = this.childUnits[at];
      if (unit < 128) {
        if (asciiClass[unit] === 0) asciiClass[unit] = classes++;
      } else if (!otherClass.has(unit)) otherClass.set(unit, classes++);
    }
    const nodeCount = this.fail.length;
    if (nodeCount * classes > maxEntries) return undefined;
    const stride = classes;
    const table = new Int32Array(nodeCount * stride);
    const classOf = (unit: number): number => (unit < 128 ? asciiClass[unit] : (otherClass.get(unit) ?? 0));
    const fill = (node: number): void => {
      const row = node * stride;
      if (node !== 0) table.set(table.subarray(this.fail[node] * stride, this.fail[node] * stride + stride), row);
      table[row] = 0;
      for (let at = this.childStart[node]; at < this.childStart[node + 1]; at++) table[row + classOf(this.childUnits[at])] = this.childNodes[at];
    };
    fill(0);
    for (let i = 0; i < count; i++) fill(order[i]);
    const hasOutput = new Uint8Array(nodeCount);
    for (let node = 0; node < nodeCount; node++) hasOutput[node] = this.terminal[node] !== -1 || this.dictionary[node] !== -1 ? 1 : 0;
    return { table, stride, asciiClass, otherClass, hasOutput };
  }

  /** The pattern at `index` as given. */
  pattern(index: number): string {
    return this.patterns[index];
  }

  /** The first match by end position (ties: the longest pattern), or undefined. */
  findFirst(text: string): AhoCorasickMatch | undefined {
    let found: AhoCorasickMatch | undefined;
    this.scan(text, (pattern, end) => {
      found = { pattern, start: end - this.patterns[pattern].length + 1 };
      return false;
    });
    return found;
  }

  /** True when some pattern occurs in `text`. */
  matches(text: string): boolean {
    return this.findFirst(text) !== undefined;
  }

  /** Every occurrence, in order of end position. */
  findAll(text: string): AhoCorasickMatch[] {
    const out: AhoCorasickMatch[] = [];
    this.scan(text, (pattern, end) => {
      out.push({ pattern, start: end - this.patterns[pattern].length + 1 });
      return true;
    });
    return out;
  }

  /** The distinct patterns that occur, in order of first occurrence; stops early once all are seen. */
  distinctPatterns(text: string): number[] {
    const seen = new Set<number>();
    const order: number[] = [];
    const distinctCount = new Set(this.patterns.filter((p) => p.length > 0)).size;
    this.scan(text, (pattern) => {
      if (!seen.has(pattern)) {
        seen.add(pattern);
        order.push(pattern);
      }
      return seen.size < distinctCount;
    });
    return order;
  }

  /** Calls `onMatch(patternIndex, endIndex)` for each occurrence until it returns false. */
  private scan(text: string, onMatch: (pattern: number, end: number) => boolean): void {
    if (this.childStart[1] === 0) return; // no patterns
    if (this.dfa) {
      const { table, stride, asciiClass, otherClass, hasOutput } = this.dfa;
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        state = table[state * stride + (unit < 128 ? asciiClass[unit] : (otherClass.get(unit) ?? 0))];
        if (hasOutput[state] === 0) continue;
        if (this.terminal[state] !== -1 && !onMatch(this.terminal[state], i)) return;
        for (let d = this.dictionary[state]; d !== -1; d = this.dictionary[d]) {
          if (!onMatch(this.terminal[d], i)) return;
        }
      }
      return;
    }
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let next: number;
      if (node === 0) {
        next = unit < 128 ? this.rootAscii[unit] : Math.max(this.child(0, unit), 0);
      } else {
        next = this.child(node, unit);
        while (next === -1) {
          node = this.fail[node];
          if (node === 0) {
            next = unit < 128 ? this.rootAscii[unit] : Math.max(this.child(0, unit), 0);
            break;
          }
          next = this.child(node, unit);
        }
      }
      node = next;
      if (node === 0) continue;
      if (this.terminal[node] !== -1 && !onMatch(this.terminal[node], i)) return;
      for (let d = this.dictionary[node]; d !== -1; d = this.dictionary[d]) {
        if (!onMatch(this.terminal[d], i)) return;
      }
    }
  }

  /** Child of `node` on `unit`, or -1; binary search over the node's sorted run. */
  private child(node: number, unit: number): number {
    let low = this.childStart[node];
    let high = this.childStart[node + 1] - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = this.childUnits[mid];
      if (value === unit) return this.childNodes[mid];
      if (value < unit) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}
