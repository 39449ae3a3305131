import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

// What the web apps' browser tests share: Debian's Chromium with the flags this machine needs,
// the two viewports, axe-core, the 360 px rule and screenshots for docs/.
const root = join(__dirname, '../../../..');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Headless Chromium (CHROMIUM_PATH or /usr/bin/chromium). Without the background-networking flags
 * Chromium keeps trying hosts this closed network refuses.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary?: string }[];
}

/**
 * Waits until `predicate` holds in the page, asking every 50 ms through the DevTools protocol.
 * Playwright's waitForFunction evaluates its predicate from a string inside the page, which the web
 * apps' Content-Security-Policy (no 'unsafe-eval') rightly refuses and reports as a violation.
 */
export async function waitInPage<Arg>(page: Page, predicate: string | ((arg: Arg) => boolean), arg?: Arg, timeoutMs = 10_000): Promise<void> {
  // A function goes to the page as its source, called with its JSON argument.
  const expression = typeof predicate === 'string' ? predicate : `(${predicate.toString()})(${JSON.stringify(arg)})`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const holds = await page.evaluate(expression);
    if (holds) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for this to hold in the page: ${String(predicate).slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * No finite animation runs now, nor 100 ms later: an element mounted with its start styles begins
 * its transition a frame or a timer later (Mantine's toasts and drawers), and a single look in that
 * gap would call a fade about to start settled.
 */
const SETTLED = `(() => {
  const quiet = () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity);
  return quiet() && new Promise((resolve) => setTimeout(() => resolve(quiet()), 100));
})()`;

/**
 * Waits until no finite CSS transition or animation runs in the page (a dialog's fade-in, say), so
 * axe and screenshots see the final colours. Endless ones (spinners) are not waited for.
 */
export async function animationsSettled(page: Page, timeoutMs = 10_000): Promise<void> {
  await waitInPage(page, SETTLED, undefined, timeoutMs);
}

/**
 * Runs axe-core in the page once its finite transitions have ended; returns the serious and critical
 * violations. Measured mid-transition (a dialog's overlay fading in), colours are blends that fail the
 * contrast rule for a few frames; endless animations (loaders) are left running. An element that
 * starts to fade in after that wait (a toast whose module loads on first use) can still be caught
 * mid-fade, so a contrast finding counts only when a second look, half a second later and settled
 * again, still finds it: a real contrast fault holds, a blend does not.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const first = await axeViolations(page);
  if (!first.some((violation) => violation.id === 'color-contrast')) return first;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = await axeViolations(page);
  return [...first.filter((violation) => violation.id !== 'color-contrast'), ...second.filter((violation) => violation.id === 'color-contrast')];
}

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await waitInPage(page, SETTLED);
  // Evaluated through the DevTools protocol, not added as a <script>: the app's Content-Security-Policy
  // (script-src 'self' plus a hash) rightly refuses an injected inline script.
  if (!(await page.evaluate('Boolean(window.axe)'))) await page.evaluate(readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  // A string, so this Node-side library needs no DOM types: it runs in the page.
  const violations = (await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })) }));
  })()`)) as AxeViolation[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** True when the page scrolls sideways (the 360 px rule). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1')) as boolean;
}

export const SCREENSHOTS = join(root, 'docs/screenshots');

/** Saves what the viewport shows as docs/screenshots/<name>.png (not in CI: see below). */
export async function screenshot(page: Page, name: string): Promise<void> {
  // A CI run (CI=true, as .ci/run sets) renders every state the screenshots show and checks it, but
  // nobody looks at its pictures and its checkout is thrown away: it saves none unless SCREENSHOTS=1.
  if (process.env['CI'] === 'true' && process.env['SCREENSHOTS'] !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/**
 * Collects every Content-Security-Policy violation of every page of `context`, present and future,
 * into `sink`: the `securitypolicyviolation` events the page sees and Chromium's console reports
 * ("Refused to … because it violates the following Content Security Policy directive"). A browser
 * test fails on any (the web apps' support files check after each test).
 */
export async function collectCspViolations(context: BrowserContext, sink: string[]): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, text: unknown) => {
    sink.push(String(text));
  });
  // Installed through the DevTools protocol before any of the page's own scripts: no CSP applies to it.
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    window.__reportCspViolation(location.pathname + ': ' + event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline') + (event.sample ? ' (' + event.sample + ')' : ''));
  }, true);`);
  context.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) sink.push(`console: ${message.text()}`);
  });
}
