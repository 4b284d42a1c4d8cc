import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium, not a downloaded one. The flags turn off the background connections (updates, sync, QUIC
 * probes) that the machine's closed network refuses, which would otherwise slow or fail the launch.
 */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
