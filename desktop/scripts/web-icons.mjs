import { chromium } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Renders the web app's PNG icons and favicon.ico from public/icon.svg in Chromium (no image tools needed):
//   node desktop/scripts/web-icons.mjs   (commit the results in desktop/public)
process.chdir(fileURLToPath(new URL('../..', import.meta.url)));
const tmp = (n) => `/tmp/spades-favicon-${n}.png`;
const svg = readFileSync('desktop/public/icon.svg', 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
for (const [n, file] of [
  [192, 'icon-192.png'],
  [512, 'icon-512.png'],
  [180, 'apple-touch-icon.png'],
  [16, tmp(16)],
  [32, tmp(32)],
  [48, tmp(48)],
]) {
  await page.setViewportSize({ width: n, height: n });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg', `<svg width="${n}" height="${n}"`)}</body></html>`,
  );
  const buf = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: n, height: n } });
  writeFileSync(file.startsWith('/') ? file : `desktop/public/${file}`, buf);
}
await browser.close();
// favicon.ico with PNG images (16, 32, 48)
const imgs = [16, 32, 48].map((n) => ({ n, data: readFileSync(tmp(n)) }));
const head = Buffer.alloc(6);
head.writeUInt16LE(0, 0);
head.writeUInt16LE(1, 2);
head.writeUInt16LE(imgs.length, 4);
let offset = 6 + 16 * imgs.length;
const dir = imgs.map(({ n, data }) => {
  const e = Buffer.alloc(16);
  e.writeUInt8(n, 0);
  e.writeUInt8(n, 1);
  e.writeUInt8(0, 2);
  e.writeUInt8(0, 3);
  e.writeUInt16LE(1, 4);
  e.writeUInt16LE(32, 6);
  e.writeUInt32LE(data.length, 8);
  e.writeUInt32LE(offset, 12);
  offset += data.length;
  return e;
});
writeFileSync('desktop/public/favicon.ico', Buffer.concat([head, ...dir, ...imgs.map((i) => i.data)]));
