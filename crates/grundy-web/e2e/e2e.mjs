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

  // The pawn: an empty 4 x 4 grid, a pawn at (3,0) (x right, y up; row 0
  // drawn at the bottom). Values are x xor y without walls: 3, first wins.
  const at = (x, y, h = 4) => cell(0, h - 1 - y, x);
  await page.goto(`${url}#pawn/4x4;;3.0`);
  await page.reload(); // a fresh page from the link (a hash change alone keeps the mode)
  await expectText(page, '#winner', 'First player wins');
  // A wall at (2,0) leaves the pawn no move: the second player wins.
  await page.click(at(2, 0));
  await expectText(page, '#winner', 'Second player wins');
  const pawnHash = await page.evaluate(() => location.hash);
  if (pawnHash !== '#pawn/4x4;2.0;3.0') fail(`pawn link: ${pawnHash}`);
  await page.click(at(2, 0));
  await expectText(page, '#winner', 'First player wins');
  // A second pawn at (1,1) (value 0): total 3 xor 0.
  await page.click('button:text("Pawns")');
  await page.click(at(1, 1));
  await expectText(page, '#value', 'Grundy value 3 = 3 xor 0');
  // Hints: the losing cells are the diagonal; one winning move, pawn 1 to (0,0).
  await page.check('#hints');
  await page.waitForSelector('.cell.losing');
  if ((await page.locator('.cell.losing').count()) !== 4) fail('pawn: losing cells are not the diagonal');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('pawn: one winning target expected');
  if (!(await page.locator(at(0, 0)).getAttribute('class')).includes('win-target')) fail('pawn: (0,0) wins');
  await page.click('#start-me');
  await page.hover(at(0, 0));
  await expectText(page, '#hover-info', 'leads to grundy 0');
  await page.click(at(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('pawn: the engine did not answer'));
  const pawnMoves = await page.locator('#move-list li').allTextContents();
  if (pawnMoves[0] !== 'You: pawn 1 to (0,0)' || !pawnMoves[1].startsWith('Engine: pawn 2 to')) fail(`pawn moves: ${pawnMoves}`);
  await expectText(page, '#winner', 'First player wins');
  await page.screenshot({ path: resolve(outDir, 'playground-pawn.png'), fullPage: true });

  // Split: 2 x 2 candidates; every move leaves one candidate (value 1), so
  // the second player wins. Without (1,1) the move at (2,2) wins at once.
  await page.goto(`${url}#split/11-11;`);
  await page.reload(); // a fresh page from the link (a hash change alone keeps the mode)
  await expectText(page, '#winner', 'Second player wins');
  await page.click(cell(0, 0, 0));
  await expectText(page, '#winner', 'First player wins');
  if ((await page.evaluate(() => location.hash)) !== '#split/01-11;') fail('split link');
  await page.check('#hints');
  await page.waitForSelector('.cell.win-target');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('split: one winning move expected');
  await page.click('#start-engine');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 1, null, { timeout: 10000 })
    .catch(async () => fail(`split: the engine did not move: ${await page.textContent('#error')} ${await page.textContent('#move-list')} ${await page.textContent('#turn')}`));
  const splitMoves = await page.locator('#move-list li').allTextContents();
  if (splitMoves[0] !== 'Engine: split at (2,2)') fail(`split moves: ${splitMoves}`);
  await expectText(page, '#winner', 'First player (engine) wins');
  // The link keeps the moves played.
  const splitHash = await page.evaluate(() => location.hash);
  if (splitHash !== '#split/01-11;1.1') fail(`split link after a move: ${splitHash}`);
  await page.goto(`${url}#split/01-11;`);
  await page.reload(); // a fresh page from the link
  await expectText(page, '#winner', 'First player wins');
  await page.click('#start-me');
  await page.click(cell(0, 1, 1));
  await expectText(page, '#move-list', 'You: split at (2,2)');
  await page.screenshot({ path: resolve(outDir, 'playground-split.png'), fullPage: true });

  // Phone width: the page still lays out in one column without overflow.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}#pawn/32x32;;31.31`);
  await page.reload(); // a fresh page from the link (a hash change alone keeps the mode)
  await expectText(page, '#winner', 'Second player wins');
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) fail('a 32 x 32 pawn grid scrolls sideways at phone width');
  await page.goto(`${url}#clear/111-111`);
  await page.reload();
  await expectText(page, '#winner', 'First player wins');
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
