// End-to-end test of the grundy playground in headless Debian chromium.
//
// Starts `grundy serve --addr 127.0.0.1:0` (GRUNDY_BIN, default
// target/debug/grundy) and drives the page as a user would, on every game:
// the verdict, the move marks and their legend, the board coordinates, the
// explanation of why a move wins, the last-move highlight, game over with
// new game and rematch, 32 x 32 grids fitting their column at laptop and
// phone widths (bounding boxes compared), invalid links, a position too
// large for the server, and the page's limits. Saves screenshots of every
// game at 1366 x 800 and 390 x 844 under target/e2e/.
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

const LAPTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

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

async function expectText(page, selector, expected, timeout = 10000) {
  try {
    await page.waitForFunction(
      ([sel, text]) => document.querySelector(sel)?.textContent.includes(text),
      [selector, expected],
      { timeout },
    );
  } catch (_) {
    const actual = await page.textContent(selector).catch(() => null);
    fail(`expected ${selector} to contain ${JSON.stringify(expected)}, found ${JSON.stringify(actual)}`);
  }
}

async function expectCount(page, selector, count, what) {
  try {
    await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [selector, count], { timeout: 10000 });
  } catch (_) {
    fail(`${what}: expected ${count} of ${selector}, found ${await page.locator(selector).count()}`);
  }
}

// A fresh page load of `hash` (a hash change alone keeps the mode).
async function open(page, url, hash) {
  await page.goto(`${url}${hash}`);
  await page.reload();
}

// The labels along the columns and rows of board `board`, as drawn.
async function labels(page, board = 0) {
  return page.evaluate((b) => {
    const grid = document.querySelector(`.grid[data-board="${b}"]`);
    const texts = (cls) => [...grid.querySelectorAll(cls)].map((n) => n.textContent);
    return { cols: texts('.col-label'), rows: texts('.row-label') };
  }, board);
}

// The board of a cell game at this width: it must fit its column (no
// scrolling inside, no sideways scrolling of the page), overlap nothing
// (the side column on a laptop; the verdict sits above it on a phone), and
// every cell must be inside the board's card.
async function checkFits(page, what) {
  const boxes = await page.evaluate(() => {
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const cells = [...document.querySelectorAll('.cell')];
    const scroll = document.querySelector('.board-scroll');
    return {
      card: box(document.querySelector('.board-card')),
      side: box(document.querySelector('.side .card')),
      status: box(document.querySelector('#status')),
      cellsRight: Math.max(...cells.map((c) => c.getBoundingClientRect().right)),
      cellsBottom: Math.max(...cells.map((c) => c.getBoundingClientRect().bottom)),
      cellsLeft: Math.min(...cells.map((c) => c.getBoundingClientRect().left)),
      cellWidth: cells[0].getBoundingClientRect().width,
      scrolls: scroll.scrollWidth > scroll.clientWidth + 1,
      pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
      width: window.innerWidth,
    };
  });
  if (boxes.pageScrolls) fail(`${what}: the page scrolls sideways`);
  if (boxes.scrolls) fail(`${what}: the board does not fit its column (it scrolls)`);
  if (boxes.cellsRight > boxes.card.right || boxes.cellsLeft < boxes.card.left || boxes.cellsBottom > boxes.card.bottom) {
    fail(`${what}: cells outside the board's card ${JSON.stringify(boxes)}`);
  }
  if (boxes.width > 760) {
    if (boxes.card.right > boxes.side.left) fail(`${what}: the board overlaps the side column ${JSON.stringify(boxes)}`);
  } else if (boxes.status.bottom > boxes.card.top) {
    fail(`${what}: the verdict is not above the board ${JSON.stringify(boxes)}`);
  }
  if (boxes.cellWidth < 7) fail(`${what}: cells of ${boxes.cellWidth}px are too small to tap`);
  return boxes;
}

// A random-looking 32 x 32 split grid (a fixed LCG, so the run repeats).
function bigSplitGrid() {
  let seed = 7;
  const rows = [];
  for (let r = 0; r < 32; r++) {
    let row = '';
    for (let c = 0; c < 32; c++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      row += seed % 11 === 0 ? '1' : '0';
    }
    rows.push(row);
  }
  return rows.join('-');
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
  const page = await browser.newPage({ viewport: LAPTOP });
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error' && !msg.text().includes('422')) problems.push(`console: ${msg.text()}`); });

  // ------------------------------------------------------------ clear
  // An empty 4 x 4 board: nobody can move, so the second player wins, and
  // the hints say the player to move has lost (not "no winning move").
  await open(page, url, '#clear/0000-0000-0000-0000');
  await expectText(page, '#winner', 'Second player wins');
  await expectText(page, '#value', 'No moves: the player to move has lost.');
  await page.check('#hints');
  await expectText(page, '#winning-list', 'No moves: the player to move has lost.');
  await page.uncheck('#hints');

  // Titles are the API's.
  const apiTitles = await page.evaluate(async () => (await (await fetch('/api/v1/games')).json()).games.map((g) => g.title));
  const pageTitles = await page.locator('#game option').allTextContents();
  if (JSON.stringify(apiTitles) !== JSON.stringify(pageTitles)) fail(`game titles ${pageTitles} differ from the API's ${apiTitles}`);

  // The seed example (gfg1.in): ones at (1,2), (1,3), (4,4), set by clicking.
  for (const [r, c] of [[0, 1], [0, 2], [3, 3]]) {
    await page.click(cell(0, r, c));
  }
  await expectText(page, '#winner', 'First player wins'); // gfg1.out: A
  const hash = await page.evaluate(() => location.hash);
  if (hash !== '#clear/0110-0000-0000-0001') fail(`the link does not encode the position: ${hash}`);

  // Coordinates: rows and columns numbered from 1, as the CLI.
  const clearLabels = await labels(page);
  if (clearLabels.cols.join() !== '1,2,3,4' || clearLabels.rows.join() !== '1,2,3,4') fail(`clear labels ${JSON.stringify(clearLabels)}`);
  // Component letters and values on the board, as `grundy clear` draws them.
  const letters = [[0, 1], [0, 2], [3, 3]].map(async ([r, c]) => (await page.textContent(`${cell(0, r, c)} .letter`)).trim());
  if ((await Promise.all(letters)).join() !== 'A=2,A,B=1') fail(`component letters ${await Promise.all(letters)}`);
  await expectText(page, '.summary', 'Components: A 2 cells grundy 2 · B 1 cell grundy 1');

  // Hints: every one-cell move marked with the value it leaves, the
  // winning ones (clearing (1,2) or (1,3): total 0) in green; the winning
  // moves outlined and explained in words, as the CLI says them.
  await page.click('#hints');
  await expectCount(page, '.mv', 3, 'clear marks');
  await expectCount(page, '.mv.win', 2, 'clear winning marks');
  if ((await page.getAttribute(`${cell(0, 3, 3)} .mv`, 'data-value')) !== '2') fail('clearing (4,4) leaves 2');
  const highlighted = await page.locator('.overlay.winning').count();
  const listed = await page.locator('.winning-move').count();
  if (highlighted !== 2 || listed !== 2) fail(`${highlighted} winning moves drawn, ${listed} listed`);
  await expectText(page, '#winning-list', 'clear (1,2)-(1,2): component A goes from grundy 2 to 1, total 0');
  await expectText(page, '#legend', 'clearing that cell leaves 0: it wins');
  await expectText(page, '#legend', 'leaves 2');
  await expectText(page, '#legend', 'a component');
  await page.screenshot({ path: resolve(outDir, 'clear-laptop.png'), fullPage: true });

  // Play against the engine, moving first: hovering explains a move.
  await page.click('#start-me');
  await expectText(page, '#turn', 'To move: First player (you)');
  await page.hover(cell(0, 3, 3));
  await expectText(page, '#hover-info', 'clear (4,4)-(4,4): component B goes from grundy 1 to 0, total 2: not winning');
  await page.hover(cell(0, 0, 1));
  await expectText(page, '#hover-info', 'clear (1,2)-(1,2): component A goes from grundy 2 to 1, total 0: a winning move.');
  // Clear the single cell (1,2): click it twice (two corners of a 1 x 1 rectangle).
  await page.click(cell(0, 0, 1));
  await page.click(cell(0, 0, 1));
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('the engine did not answer the move'));
  const moves = await page.locator('#move-list li').allTextContents();
  if (moves[0] !== 'You: clear (1,2)-(1,2)' || !moves[1].startsWith('Engine: clear')) fail(`move list: ${moves}`);
  await expectText(page, '#winner', 'First player (you) wins');
  await expectText(page, '#turn', 'To move: First player (you)');
  // The engine's move is highlighted.
  await expectCount(page, '.overlay.last', 1, 'the last move');
  await expectText(page, '#legend', 'the last move');

  // Undo takes back the engine's reply and our move; redo restores both.
  await page.click('#undo');
  await expectText(page, '#turn', 'To move: First player (you)');
  if ((await page.locator('#move-list li.undone').count()) !== 2) fail('undo did not take back two moves');
  await expectCount(page, '.overlay.last', 0, 'no last move at the start');
  await page.click('#redo');
  if ((await page.locator('#move-list li.undone').count()) !== 0) fail('redo did not restore the moves');

  // A drag across a rectangle: on a full 2 x 3 board, clearing it all wins
  // at once. Game over says who won and offers a new game and a rematch.
  await open(page, url, '#clear/111-111');
  await expectText(page, '#winner', 'First player wins');
  await page.check('#hints');
  await page.click('#start-me');
  const from = await page.locator(cell(0, 0, 0)).boundingBox();
  const to = await page.locator(cell(0, 1, 2)).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await expectText(page, '#hover-info', 'clear (1,1)-(2,3): component A goes from grundy');
  await expectText(page, '#hover-info', 'total 0: a winning move.');
  await page.mouse.up();
  await expectText(page, '#winner', 'First player (you) wins');
  await expectText(page, '#value', 'Game over: Second player (engine) cannot move and loses.');
  const dragged = await page.locator('#move-list li').allTextContents();
  if (dragged.length !== 1 || dragged[0] !== 'You: clear (1,1)-(2,3)') fail(`drag: move list ${dragged}`);
  if (await page.locator('#game-over').isHidden()) fail('game over offers no new game');
  await expectCount(page, '.overlay.last', 1, 'the winning move is highlighted');
  await page.screenshot({ path: resolve(outDir, 'clear-game-over-laptop.png'), fullPage: true });
  // Rematch, sides swapped: the engine moves first now, and wins.
  await page.click('#rematch');
  await expectText(page, '#move-list', 'Engine: clear');
  await expectText(page, '#winner', 'First player (engine) wins');
  await expectText(page, '#turn', 'To move: Second player (you)');
  // Play it out one cell at a time: the engine wins.
  for (let i = 0; i < 6 && (await page.locator('#game-over').isHidden()); i++) {
    const n = await page.locator('#move-list li').count();
    await page.locator('.cell.on').first().click();
    await page.locator('.cell.on').first().click();
    await page.waitForFunction((k) => document.querySelectorAll('#move-list li').length >= k + 2 || !document.querySelector('#game-over').hidden, n, { timeout: 10000 });
  }
  await expectText(page, '#winner', 'First player (engine) wins');
  await expectText(page, '#value', 'Game over: Second player (you) cannot move and loses.');
  // New game: the same sides again (the engine first).
  await page.click('#new-game');
  await expectCount(page, '#move-list li', 1, 'a new game');
  await expectText(page, '#turn', 'To move: Second player (you)');

  // The page takes every board the API takes: 4 x 16 (64 cells).
  const wide = Array(4).fill('1'.repeat(16)).join('-');
  await open(page, url, `#clear/${wide}`);
  if (await page.locator('#notice').isVisible()) fail(`a 4 x 16 board was refused: ${await page.textContent('#notice')}`);
  await expectCount(page, '.cell', 64, 'a 4 x 16 board');
  await expectText(page, '.board-title', '4 × 16');
  // The rows stepper stops at 64 cells.
  if (!(await page.locator('button[aria-label="more rows"]').isDisabled())) fail('a fifth row of 16 would exceed 64 cells');

  // A position beyond the server's budget: what was found and the exact
  // command to run it locally; never "raise a limit".
  const full = Array(8).fill('11111111').join('-');
  await open(page, url, `#clear/${full},11`);
  await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 })
    .catch(async () => fail(`no too-large message: ${await page.textContent('#status')}`));
  await expectText(page, '#too-large', "printf '11111111\\n11111111\\n11111111\\n11111111\\n11111111\\n11111111\\n11111111\\n11111111\\n\\n11\\n' | grundy clear -");
  await expectText(page, '#too-large', 'board 2: grundy 2', 30000);
  if ((await page.textContent('#too-large')).includes('raise')) fail('the too-large message says "raise"');
  await page.screenshot({ path: resolve(outDir, 'clear-too-large-laptop.png'), fullPage: true });

  // ------------------------------------------------------------ links
  // A link naming an unknown game, or an invalid position, says so.
  await open(page, url, '#nim/111');
  await expectText(page, '#notice', 'This link names no game of this page ("nim")');
  // The README's old split example: cell (2,3) of row 10010 is 0.
  await open(page, url, '#split/01100-10010;1.2_0.1');
  await expectText(page, '#notice', 'cell (2,3) is not a candidate');
  if ((await page.inputValue('#game')) !== 'split') fail('an invalid split link opened another game');
  await page.screenshot({ path: resolve(outDir, 'invalid-link-laptop.png'), fullPage: true });
  await open(page, url, '#pawn/8x8;9.9;1.1');
  await expectText(page, '#notice', 'This pawn link is invalid: wall "9.9" is not a cell x.y of the 8 x 8 grid');
  if ((await page.inputValue('#game')) !== 'pawn') fail('an invalid pawn link opened another game');
  // The README's split example now opens.
  await open(page, url, '#split/01100-10010;0.1_1.0');
  if (await page.locator('#notice').isVisible()) fail(`the README's split link is refused: ${await page.textContent('#notice')}`);
  // Its local command (shown when the server's budget runs out): after
  // moves, one `grundy split` per rectangle in play holding a candidate.
  const splitCommand = await page.evaluate(() => splitGame.command(splitGame.decode('01100-10010;0.1_1.0')));
  if (splitCommand !== "printf '010\\n' | grundy split -   # (2,3)-(2,5)") fail(`split command: ${splitCommand}`);
  const pawnCommand = await page.evaluate(() => pawnGame.command(pawnGame.decode('8x8;2.0_1.3;6.5')));
  if (pawnCommand !== "printf '2 0\\n1 3\\n' | grundy pawn --blocked - --at 6,5") fail(`pawn command: ${pawnCommand}`);

  // ------------------------------------------------------------ pawn
  // An empty 4 x 4 grid, a pawn at (3,0) (x right, y up; row 0 drawn at the
  // bottom). Values are x xor y without walls: 3, first wins.
  const at = (x, y, h = 4) => cell(0, h - 1 - y, x);
  await open(page, url, '#pawn/4x4;;3.0');
  await expectText(page, '#winner', 'First player wins');
  // Coordinates: x along the bottom from 0, y up the side from 0.
  const pawnLabels = await labels(page);
  if (pawnLabels.cols.join() !== '0,1,2,3' || pawnLabels.rows.join() !== '3,2,1,0') fail(`pawn labels ${JSON.stringify(pawnLabels)}`);
  // A wall at (2,0) leaves the pawn no move: the second player wins.
  await page.click(at(2, 0));
  await expectText(page, '#winner', 'Second player wins');
  const pawnHash = await page.evaluate(() => location.hash);
  if (pawnHash !== '#pawn/4x4;2.0;3.0') fail(`pawn link: ${pawnHash}`);
  await page.click(at(2, 0));
  await expectText(page, '#winner', 'First player wins');
  // A second pawn at (1,1) (value 0): total 3 xor 0; each pawn's value shown.
  await page.click('button:text("Pawns")');
  await page.click(at(1, 1));
  await expectText(page, '#value', 'Grundy value 3 = 3 xor 0');
  await expectText(page, '.summary', 'Pawn 1 at (3,0): grundy 3 · Pawn 2 at (1,1): grundy 0');
  if ((await page.textContent(`${at(3, 0)} .corner`)) !== '3') fail("pawn 1's value is not on the board");
  // Hints: every reachable cell marked (pawn 1: 3 cells; pawn 2: 2), the
  // losing cells (the diagonal) ringed; one winning move, pawn 1 to (0,0),
  // explained with the pawn and the values.
  await page.check('#hints');
  await page.waitForSelector('.cell.losing');
  if ((await page.locator('.cell.losing').count()) !== 3) fail('pawn: the free losing cells are the diagonal but the pawn');
  await expectCount(page, '.mv', 4, 'pawn marks (a cell both pawns reach is the first pawn\'s move)');
  await expectCount(page, '.mv.win', 1, 'pawn winning marks');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('pawn: one winning target expected');
  if (!(await page.locator(at(0, 0)).getAttribute('class')).includes('win-target')) fail('pawn: (0,0) wins');
  await expectText(page, '#winning-list', 'pawn 1 (3,0) -> (0,0) along the row, grundy 3 -> 0, total 0');
  await expectText(page, '#legend', 'a losing cell');
  await page.screenshot({ path: resolve(outDir, 'pawn-laptop.png'), fullPage: true });
  await page.click('#start-me');
  await page.hover(at(2, 0));
  await expectText(page, '#hover-info', 'pawn 1 (3,0) -> (2,0) along the row, grundy 3 -> 2, total 2: not winning');
  await page.click(at(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('pawn: the engine did not answer'));
  const pawnMoves = await page.locator('#move-list li').allTextContents();
  if (pawnMoves[0] !== 'You: pawn 1 (3,0) -> (0,0)' || !pawnMoves[1].startsWith('Engine: pawn 2 (1,1) -> ')) fail(`pawn moves: ${pawnMoves}`);
  await expectText(page, '#winner', 'First player (you) wins');
  await expectCount(page, '.cell.last', 1, 'pawn: the last move');
  await expectCount(page, '.cell.last-from', 1, 'pawn: where the last move came from');

  // ------------------------------------------------------------ split
  // 2 x 2 candidates; every move leaves one candidate (value 1), so the
  // second player wins. Without (1,1) the move at (2,2) wins at once.
  await open(page, url, '#split/11-11;');
  await expectText(page, '#winner', 'Second player wins');
  await page.check('#hints');
  await expectText(page, '#winning-list', 'No winning move: every move leaves a non-zero value.');
  await expectCount(page, '.mv', 4, 'split marks');
  await page.click(cell(0, 0, 0));
  await expectText(page, '#winner', 'First player wins');
  if ((await page.evaluate(() => location.hash)) !== '#split/01-11;') fail('split link');
  await page.waitForSelector('.cell.win-target');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('split: one winning move expected');
  await expectText(page, '#winning-list', 'split at (2,2): leaves');
  const splitLabels = await labels(page);
  if (splitLabels.cols.join() !== '1,2' || splitLabels.rows.join() !== '1,2') fail(`split labels ${JSON.stringify(splitLabels)}`);
  await page.click('#start-engine');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 1, null, { timeout: 10000 })
    .catch(async () => fail(`split: the engine did not move: ${await page.textContent('#error')} ${await page.textContent('#move-list')} ${await page.textContent('#turn')}`));
  const splitMoves = await page.locator('#move-list li').allTextContents();
  if (splitMoves[0] !== 'Engine: split at (2,2)') fail(`split moves: ${splitMoves}`);
  await expectText(page, '#winner', 'First player (engine) wins');
  await expectCount(page, '.cell.last', 1, 'split: the last move');
  // The link keeps the moves played.
  const splitHash = await page.evaluate(() => location.hash);
  if (splitHash !== '#split/01-11;1.1') fail(`split link after a move: ${splitHash}`);
  // The default split example: the parts a winning move leaves, with values.
  await open(page, url, '#split/01100-10010-00100-11001-00110;');
  await page.check('#hints');
  await expectText(page, '#winning-list', 'XOR 0');
  await page.click('#start-me');
  const firstWin = await page.locator('.cell.win-target').first();
  await firstWin.click();
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 2, null, { timeout: 10000 })
    .catch(() => fail('split: the engine did not answer'));
  await page.waitForSelector('.overlay.part');
  await page.screenshot({ path: resolve(outDir, 'split-laptop.png'), fullPage: true });

  // ------------------------------------------------------------ 32 x 32
  const bigSplit = `#split/${bigSplitGrid()};`;
  const walls = [];
  for (let i = 0; i < 32; i += 3) walls.push(`${(i * 7) % 32}.${(i * 5 + 3) % 32}`);
  const bigPawn = `#pawn/32x32;${walls.join('_')};31.30_19.31`;
  for (const [viewport, name] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    for (const [hash, game] of [[bigSplit, 'split'], [bigPawn, 'pawn']]) {
      await open(page, url, hash);
      await page.check('#hints');
      await page.waitForSelector('.mv', { timeout: 30000 })
        .catch(async () => fail(`${game} 32 x 32: no marks: ${await page.textContent('#status')} ${await page.textContent('#too-large')}`));
      await checkFits(page, `${game} 32 x 32 at ${name} width`);
      await page.screenshot({ path: resolve(outDir, `${game}-32x32-${name}.png`), fullPage: true });
    }
  }

  // ------------------------------------------------------------ phone
  // Every game at phone width, verdict above the board, nothing sideways.
  await page.setViewportSize(PHONE);
  for (const [hash, game] of [['#clear/0110-0000-0000-0001', 'clear'], ['#pawn/8x8;2.0_1.3_4.4_5.2;6.5_1.1', 'pawn'], ['#split/01100-10010-00100-11001-00110;0.1', 'split']]) {
    await open(page, url, hash);
    await page.check('#hints');
    await page.waitForSelector('.mv');
    await checkFits(page, `${game} at phone width`);
    await page.screenshot({ path: resolve(outDir, `${game}-phone.png`), fullPage: true });
  }
  // A sparse 4 x 16 board (a full one is beyond the server's budget).
  await open(page, url, '#clear/1110001110001110-1000001000001000-0000000000000000-1111011110111101');
  await page.check('#hints');
  await page.waitForSelector('.mv');
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) fail('a 4 x 16 board scrolls the page sideways at phone width');
  await page.screenshot({ path: resolve(outDir, 'clear-4x16-phone.png'), fullPage: true });
  await open(page, url, '#nim/1');
  await expectText(page, '#notice', 'names no game');
  await page.screenshot({ path: resolve(outDir, 'invalid-link-phone.png'), fullPage: true });

  if (problems.length) fail(problems.join('\n'));
  console.log(`e2e: ok (screenshots in ${outDir})`);
} finally {
  await browser.close();
  child.kill();
}
