import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium, not a downloaded one. The flags turn off the background connections (updates, sync, QUIC
 * probes) that the machine's closed network refuses, which would otherwise slow or fail the launch.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium from CHROMIUM_PATH or /usr/bin/chromium; a missing browser fails the test, never skips it. */
export async function openBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: install the Debian package chromium (.ci/run does this)`);
  }
  return chromium.launch({ executablePath, headless: true, args: ARGS });
}

/** Runs fn on a fresh page in a context of its own (of `browser`, or of a browser launched for the call), then closes what it opened. */
export async function withPage<T>(fn: (page: Page) => Promise<T>, browser?: Browser): Promise<T> {
  const target = browser ?? (await openBrowser());
  const context = await target.newContext();
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
    if (target !== browser) await target.close();
  }
}

/**
 * Writes `html` to `<dir>/<name>.html`, opens it from disk at 1280 × 900 px, runs check, screenshots the whole page to
 * `<dir>/<name>.png`, and asserts it logged no error, opened no dialog and asked for nothing but itself. Returns the
 * screenshot's path.
 */
export async function visitHtml(browser: Browser, dir: string, name: string, html: string, check: (page: Page) => Promise<void>): Promise<string> {
  const file = join(dir, `${name}.html`);
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const png = join(dir, `${name}.png`);
  await withPage(async (page) => {
    const errors: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url, { waitUntil: 'load' });
    await check(page);
    await page.screenshot({ path: png, fullPage: true });
    expect(statSync(png).size).toBeGreaterThan(10_000);
    expect({ errors, requests, dialogs }).toEqual({ errors: [], requests: [url], dialogs: [] });
  }, browser);
  return png;
}
