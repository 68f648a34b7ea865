// Debian's Chromium for the browser suites (playwright-core drives it; nothing is downloaded).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * `describe` when the browser is here, or under CI (where a missing browser must fail the suite: it runs, and
 * launching fails); elsewhere `describe.skip`, and the suite says why.
 */
export function describeInBrowser(suite: string): jest.Describe {
  if (existsSync(CHROMIUM) || process.env.CI) return describe;
  console.warn(`${suite} skipped: ${CHROMIUM} is missing (apt-get install chromium); under CI=true it fails instead`);
  return describe.skip;
}

/** Headless Chromium with no network of its own (no component updates, sync or background requests). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps'],
  });
}
