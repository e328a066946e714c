import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

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
