// Renders media/icon.png (128x128, the Marketplace icon) from media/icon.svg with Debian's Chromium.
// Run after changing the SVG: `node scripts/make-icon.mjs`. The PNG is committed; packaging does not run this.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { findChromium } from './provision-editor.mjs';

const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true });
} finally {
  await browser.close();
}
