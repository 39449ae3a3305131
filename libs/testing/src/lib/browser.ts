import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

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
 * Runs axe-core in the page once its finite transitions have ended; returns the serious and critical
 * violations. Measured mid-transition (a dialog's overlay fading in), colours are blends that fail the
 * contrast rule for a few frames; endless animations (loaders) are left running.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.waitForFunction("document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)", undefined, { timeout: 10_000 });
  await page.addScriptTag({ content: readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8') });
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

/** Saves what the viewport shows as docs/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
