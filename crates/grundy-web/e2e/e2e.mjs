// End-to-end test of the grundy playground in headless Debian chromium.
//
// Starts `grundy serve --addr 127.0.0.1:0` (GRUNDY_BIN, default
// target/debug/grundy), sets up the seed article's 4 x 4 example by clicking
// (sample gfg1: the first player wins), checks the verdict, toggles hints,
// plays a move against the engine, undoes and redoes it, and saves
// screenshots (laptop and phone widths) under target/e2e/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const bin = process.env.GRUNDY_BIN || resolve(root, 'target/debug/grundy');
const outDir = resolve(root, 'target/e2e');
mkdirSync(outDir, { recursive: true });

function fail(message) {
  throw new Error(`e2e: ${message}`);
}

function startServer() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20000);
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/(127\.0\.0\.1:\d+)\//.exec(out);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: `http://${match[1]}/` });
      }
    });
  });
}

const cell = (board, r, c) => `.cell[data-board="${board}"][data-r="${r}"][data-c="${c}"]`;

async function expectText(page, selector, expected) {
  try {
    await page.waitForFunction(
      ([sel, text]) => document.querySelector(sel)?.textContent.includes(text),
      [selector, expected],
      { timeout: 10000 },
    );
  } catch (_) {
    const actual = await page.textContent(selector);
    fail(`expected ${selector} to contain ${JSON.stringify(expected)}, found ${JSON.stringify(actual)}`);
  }
}

const { child, url } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });

  // An empty 4 x 4 board: nobody can move, so the second player wins.
  await page.goto(`${url}#clear/0000-0000-0000-0000`);
  await expectText(page, '#winner', 'Second player wins');

  // The seed example (gfg1.in): ones at (1,2), (1,3), (4,4), set by clicking.
  for (const [r, c] of [[0, 1], [0, 2], [3, 3]]) {
    await page.click(cell(0, r, c));
  }
  await expectText(page, '#winner', 'First player wins'); // gfg1.out: A
  const hash = await page.evaluate(() => location.hash);
  if (hash !== '#clear/0110-0000-0000-0001') fail(`the link does not encode the position: ${hash}`);

  // Hints: the winning moves are highlighted and listed.
  await page.click('#hints');
  await page.waitForSelector('.overlay.winning');
  const highlighted = await page.locator('.overlay.winning').count();
  const listed = await page.locator('.winning-move').count();
  if (highlighted < 1 || highlighted !== listed) fail(`${highlighted} winning moves drawn, ${listed} listed`);

  // Play against the engine, moving first: hovering shows the value a move leads to.
  await page.click('#start-me');
  await expectText(page, '#turn', 'To move: First player (you)');
  await page.hover(cell(0, 0, 1));
  await expectText(page, '#hover-info', 'leads to grundy 0');
  // Clear the single cell (1,2): click it twice (two corners of a 1 x 1 rectangle).
  await page.click(cell(0, 0, 1));
  await page.click(cell(0, 0, 1));
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('the engine did not answer the move'));
  const moves = await page.locator('#move-list li').allTextContents();
  if (!moves[0].startsWith('You: clear (1,2)') || !moves[1].startsWith('Engine: clear')) fail(`move list: ${moves}`);
  await expectText(page, '#winner', 'First player wins');
  await expectText(page, '#turn', 'To move: First player (you)');
  await page.screenshot({ path: resolve(outDir, 'playground.png'), fullPage: true });

  // Undo takes back the engine's reply and our move; redo restores both.
  await page.click('#undo');
  await expectText(page, '#turn', 'To move: First player (you)');
  if ((await page.locator('#move-list li.undone').count()) !== 2) fail('undo did not take back two moves');
  await page.click('#redo');
  if ((await page.locator('#move-list li.undone').count()) !== 0) fail('redo did not restore the moves');

  // A drag across a rectangle: on a full 2 x 3 board, clearing it all wins at once.
  await page.goto(`${url}#clear/111-111`);
  await expectText(page, '#winner', 'First player wins');
  await page.click('#start-me');
  const from = await page.locator(cell(0, 0, 0)).boundingBox();
  const to = await page.locator(cell(0, 1, 2)).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await expectText(page, '#hover-info', 'leads to grundy 0');
  await page.mouse.up();
  await expectText(page, '#winner', 'First player (you) wins');
  const dragged = await page.locator('#move-list li').allTextContents();
  if (dragged.length !== 1 || dragged[0] !== 'You: clear (1,1)–(2,3)') fail(`drag: move list ${dragged}`);

  // Phone width: the page still lays out in one column without overflow.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  if (overflow) fail('the page scrolls sideways at phone width');
  await page.screenshot({ path: resolve(outDir, 'playground-phone.png'), fullPage: true });

  if (problems.length) fail(problems.join('\n'));
  console.log(`e2e: ok (screenshots in ${outDir})`);
} finally {
  await browser.close();
  child.kill();
}
