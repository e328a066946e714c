/**
 * In a real browser (headless Debian Chromium, test/browser/chromium.ts):
 * - the help pages of a running `smskit serve`: the service page, an operation page, its test
 *   form filled in and sent, and the message id in the service's answer (then in the outbox);
 *   readable at a phone's width, and working with scripts off;
 * - the HTML conformance report of a run with failures, opened from file://: filtered by
 *   binding, level and status, and a failure's curl line found.
 * No console error, failed request or page error on any of them.
 *
 * Skipped (with one line) when Chromium or playwright-core is missing and CI is not set; CI
 * installs Chromium (.ci/run), and there a missing browser fails the run.
 * SMSKIT_SCREENSHOTS=docs/screenshots also writes the screenshots the docs show.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../../runtime/index.js';
import { renderReport } from '../../conformance/report/index.js';
import { startReferenceServer } from '../fixtures/conformance/reference-server.js';
import { runAgainst, TEST_BODY_LIMIT, TEST_PASSWORD } from '../fixtures/conformance/run.js';
import { startReportTarget, type ReportTarget } from '../helpers/report-target.js';
import { addAccount, readOutbox, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';
import { launchChromium, screenshotPath, type Chromium } from './chromium.js';
import { requirePeer } from '../helpers/peers.js';

const browser = requirePeer('chromium', 'browser');

const MESSAGE_ID = /SMS-[0-9A-HJKMNP-TV-Z]{26}/;
const PASSWORD = `browser pässword ${randomBytes(6).toString('hex')}`;

/** Presses Invoke and waits for the service's answer to load in the answer frame. */
async function invoke(page: Page, form: Locator): Promise<Response> {
  const frame = page.frame({ name: 'answer' });
  if (frame === null) throw new Error('no answer frame on the page');
  const [response] = await Promise.all([
    frame.waitForNavigation(),
    form.getByRole('button', { name: 'Invoke' }).click(),
  ]);
  if (response === null) throw new Error('the form did not load an answer');
  return response;
}

async function answerText(page: Page): Promise<string> {
  return page.frame({ name: 'answer' })!.evaluate<string>("document.documentElement?.textContent ?? ''");
}

/** The page's width fits the viewport: nothing but code blocks and tables scrolls sideways. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
}

describe.skipIf(browser.skip)('in Chromium', () => {
  let chromium: Chromium;
  let dir: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    dir = tempDir('smskit-browser-');
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    dir?.remove();
  });

  describe('the help pages of smskit serve', () => {
    let serve: ServeProcess;
    let db: string;
    beforeAll(async () => {
      db = join(dir.path, 'sms.sqlite');
      await addAccount(db, { email: 'browser@example.com', keywords: ['ACME'], password: PASSWORD });
      serve = await startServe({ db });
    }, 60_000);
    afterAll(async () => {
      await serve?.stop();
    });

    it('lists the operations, shows one with its samples, and its test form sends an SMS', async () => {
      const page = await chromium.newPage();
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(serve.url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('ServiceAPI');
      expect(await page.getByRole('link', { name: 'WSDL' }).getAttribute('href')).toBe('/serviceapi.asmx?wsdl');
      const shot = screenshotPath('help-service.png');
      if (shot !== undefined) await page.screenshot({ path: shot });

      await page.getByRole('link', { name: 'SMSSend', exact: true }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('SMSSend');
      for (const binding of ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST'])
        await page.getByRole('heading', { level: 2, name: binding }).waitFor();

      const form = page.getByRole('form', { name: 'Test SMSSend' });
      await form.getByLabel(/^keyword/).fill('acme');
      await form.getByLabel(/^emailAddress/).fill('browser@example.com');
      await form.getByLabel(/^password/).fill(PASSWORD);
      await form.getByLabel(/^smsto/).fill('+1 415 555 0123');
      await form.getByLabel(/^carrierCode/).fill('ATT');
      await form.getByLabel(/^smsmsg/).fill('Hello from the help page');
      expect(await form.getByLabel(/^password/).getAttribute('type')).toBe('password');
      expect(await page.content()).not.toContain(PASSWORD);

      const answer = await invoke(page, form);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe('text/xml; charset=utf-8');
      const shown = await answerText(page);
      const id = MESSAGE_ID.exec(shown)?.[0];
      expect(id, shown).toBeDefined();
      expect(shown).not.toContain(PASSWORD);
      const formShot = screenshotPath('help-operation.png');
      if (formShot !== undefined) {
        await page.evaluate("document.getElementById('test').scrollIntoView()");
        await page.screenshot({ path: formShot });
      }
      const { entries } = await readOutbox(db);
      expect(entries.map((e) => e.id)).toContain(id);
      expect(chromium.problems).toEqual([]);
      await page.close();
    });

    it('is readable at a phone width, and the test form is a plain form that needs no script', async () => {
      const context = await chromium.browser.newContext({
        viewport: { width: 390, height: 844 },
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.goto(`${serve.url}?op=SMSSendToPort`);
      expect(await fitsWidth(page)).toBe(true);
      const form = page.getByRole('form', { name: 'Test SMSSendToPort' });
      await form.getByLabel(/^keyword/).fill('acme');
      await form.getByLabel(/^port/).fill('5000');
      const answer = await invoke(page, form);
      // Refused (the other parameters are empty), but answered by the service itself.
      expect(answer.status()).toBe(500);
      expect(await answerText(page)).toMatch(/^[^\n]+$/);
      await context.close();
    });
  });

  describe('the HTML conformance report', () => {
    let reference: Listening;
    let target: ReportTarget;
    let file: string;
    beforeAll(async () => {
      file = join(dir.path, 'report.html');
      reference = await startReferenceServer(TEST_BODY_LIMIT);
      target = await startReportTarget(reference.url);
      writeFileSync(file, renderReport('html', await runAgainst(target.url)));
    }, 60_000);
    afterAll(async () => {
      await target?.close();
      await reference?.close();
    });

    it('opens from file://, filters by binding, level and status, and shows a failure’s curl line', async () => {
      const page = await chromium.newPage();
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(pathToFileURL(file).href);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('smskit conformance report');
      const shownCases = async (): Promise<number> => Number(await page.locator('#cases-shown').textContent());
      const total = await shownCases();
      const contentType = page.locator('section.group', { has: page.locator('#check-http\\.content-type') });
      const status200 = page.locator('section.group', { has: page.locator('#check-http\\.status-200') });
      expect(await contentType.isVisible()).toBe(true);

      await page.getByRole('group', { name: 'Binding' }).getByRole('checkbox', { name: 'SOAP 1.2' }).uncheck();
      expect(await contentType.isVisible()).toBe(false); // its cases are all SOAP 1.2
      expect(await status200.isVisible()).toBe(true);
      expect(await shownCases()).toBeLessThan(total);

      await page.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: 'passed' }).uncheck();
      const statuses = await page.locator('#cases tbody tr:visible td:nth-child(4)').allTextContents();
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s !== 'passed')).toBe(true);

      const levels = (): Promise<(string | null)[]> =>
        status200
          .locator('article.case:visible')
          .evaluateAll((cases) => cases.map((c) => c.getAttribute('data-level')));
      expect(await levels()).toContain('must');
      await page.getByRole('group', { name: 'Level' }).getByRole('checkbox', { name: 'MUST' }).uncheck();
      expect((await levels()).filter((l) => l === 'must')).toEqual([]);
      await page.getByRole('group', { name: 'Level' }).getByRole('checkbox', { name: 'MUST' }).check();

      const failure = status200.locator('article.case').first();
      await failure.getByText('Request and response').click();
      expect(await failure.locator('details pre').last().textContent()).toMatch(/^HTTP 202/);
      const curl = (await failure.locator('pre.curl').textContent()) ?? '';
      expect(curl).toMatch(/^curl -sS -i -X GET '[^']*\/serviceapi\.asmx\/SMSSend(ToPort)?\?/);
      expect(curl).toContain('password=***');
      expect(await page.content()).not.toContain(TEST_PASSWORD);
      const shot = screenshotPath('conformance-report.png');
      if (shot !== undefined) {
        await page.getByRole('group', { name: 'Binding' }).getByRole('checkbox', { name: 'SOAP 1.2' }).check();
        await page.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: 'passed' }).check();
        await page.setViewportSize({ width: 1100, height: 1300 });
        await page.evaluate('window.scrollTo(0, 0)');
        await page.screenshot({ path: shot });
      }
      expect(chromium.problems).toEqual([]);
      await page.close();
    });
  });
});
