/**
 * Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core
 * (never a browser it downloads), with a new empty profile (playwright-core makes one per
 * launch). The flags keep Chromium off the network it would otherwise reach for at every start
 * (updates, sync, QUIC probes), which this machine and CI refuse.
 *
 * Every page records what it logs as an error and every request that fails, so that a test can
 * require a clean console.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here (one line), or undefined when they can. */
export async function browserSkipReason(): Promise<string | undefined> {
  if (!existsSync(CHROMIUM)) return `no ${CHROMIUM} (apt-get install -y chromium)`;
  try {
    await import('playwright-core');
  } catch {
    return 'playwright-core is not installed (npm ci)';
  }
  return undefined;
}

export interface Chromium {
  readonly browser: Browser;
  /** A new page whose console errors and failed requests are collected in `problems`. */
  newPage(): Promise<Page>;
  readonly problems: string[];
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const problems: string[] = [];
  return {
    browser,
    problems,
    async newPage() {
      const page = await browser.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) =>
        problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
      );
      return page;
    },
    close: () => browser.close(),
  };
}

/** Where screenshots go when SMSKIT_SCREENSHOTS names a folder (docs/screenshots when updating the docs). */
export function screenshotPath(name: string): string | undefined {
  const dir = process.env.SMSKIT_SCREENSHOTS;
  return dir === undefined || dir === '' ? undefined : join(dir, name);
}
