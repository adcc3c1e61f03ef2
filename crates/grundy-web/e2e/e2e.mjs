// End-to-end test of the grundy playground in headless Debian chromium.
//
// Starts `grundy serve --addr 127.0.0.1:0` (GRUNDY_BIN, default
// target/debug/grundy) and drives the page as a user would, on every game:
// the verdict, the move marks and their legend, the board coordinates, the
// explanation of why a move wins, the last-move highlight, game over with
// new game and rematch, 32 x 32 grids fitting their column at laptop and
// phone widths (bounding boxes compared), invalid links, links changed in
// the open tab (no reload), clear's option list and per-cell summaries,
// positions too large for the server (who wins when an outcome search
// proves it, "Search again" going on from the server's kept memo until the
// value is found, the shape database that would answer, and a server that
// has it answering), split links with moves, keyboard
// focus after a move, a strict Content-Security-Policy (no violation), and
// the page's limits. Saves screenshots of every
// game at 1280 x 800 and 390 x 844 under target/e2e/. Games survive: a
// game in each of the four games (clear, a clear sum, pawn, split) stepped
// through with Back and Forward, reloaded mid-game and opened from its
// copied link in a fresh context; positions pasted and made at random; the
// theory card's XOR and mex checked against the API's own values.
//
// The servers read no shape database but the ones given: XDG_DATA_HOME and
// GRUNDY_TABLES point nowhere.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const bin = process.env.GRUNDY_BIN || resolve(root, 'target/debug/grundy');
const outDir = resolve(root, 'target/e2e');
mkdirSync(outDir, { recursive: true });

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

function fail(message) {
  throw new Error(`e2e: ${message}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'grundy-e2e-'));
const env = { ...process.env, XDG_DATA_HOME: join(scratch, 'nothing'), GRUNDY_TABLES: '' };

function startServer(args = []) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
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

// What the command line prints for `args` given `input` on standard input:
// the page must say what it says, in its words.
function cli(args, input) {
  return execFileSync(bin, args, { input, env, encoding: 'utf8', timeout: 60000 });
}

// The lines of the command line's list of winning moves (indented under
// its header), trimmed.
function cliWinningLines(out) {
  return out.split('\n').filter((line) => /^ {2}\S/.test(line) && line.includes(', leaving grundy 0')).map((line) => line.trim());
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

// The move marks of an analysis with hints on are drawn; if not, says what
// the page shows instead (an error, a verdict still pending).
async function expectMarks(page, timeout = 30000) {
  try {
    await page.waitForSelector('.mv', { timeout });
  } catch (_) {
    const shown = await page.evaluate(() => ['#winner', '#error', '#notice', '#too-large']
      .map((sel) => `${sel}: ${JSON.stringify(document.querySelector(sel)?.textContent ?? null)}`).join(', '))
      .catch((err) => String(err));
    fail(`no move marks on ${await page.evaluate(() => location.hash)} after ${timeout} ms (${shown})`);
  }
}

// A fresh page load of `hash` (a hash change alone keeps the mode).
// If the page wrote its own link (`replaceState`, e.g. at an engine's
// reply) in the same few milliseconds as the fragment navigation, chromium
// can reload the written link instead (seen in about one run in fifteen
// after a move): then the link is opened again. The page may rewrite the
// rest of a link it opens (an old form of split's moves), so only the game
// and the board size or cells (up to the first `;` or `&`) are compared.
async function open(page, url, hash) {
  const head = (h) => h.split(/[;&]/)[0];
  for (let tries = 0; ; tries++) {
    await page.goto(`${url}${hash}`);
    await page.reload();
    const now = await page.evaluate(() => location.hash);
    if (head(now) === head(hash) || tries === 2) return;
  }
}

// Whether the label of the first outline matching `selector` lies inside
// it (not over a neighbouring cell).
async function badgeInside(page, selector) {
  return page.evaluate((sel) => {
    const outline = document.querySelector(sel);
    const badge = outline && outline.querySelector('.badge');
    if (!badge) return false;
    const o = outline.getBoundingClientRect();
    const b = badge.getBoundingClientRect();
    return b.left >= o.left - 0.5 && b.right <= o.right + 0.5 && b.top >= o.top - 0.5 && b.bottom <= o.bottom + 0.5;
  }, selector);
}

// Every "->" of the CLI's words in the nodes matching `selector` is kept
// whole (a no-wrap span), so no line breaks between "-" and ">".
async function arrowsWhole(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(sel)]
    .every((n) => n.textContent.split('->').length - 1 === [...n.querySelectorAll('.nowrap')].filter((s) => s.textContent === '->').length), selector);
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
  // A 400 is expected only where the test sends bad text on purpose, a
  // refused connection only where it cuts the server off.
  let badRequestExpected = false;
  let refusedExpected = false;
  let busyExpected = false;
  page.on('console', (msg) => {
    const expected = msg.text().includes('422') || (badRequestExpected && msg.text().includes('400'))
      || (refusedExpected && msg.text().includes('ERR_CONNECTION_REFUSED'))
      || (busyExpected && msg.text().includes('503'));
    if (msg.type() === 'error' && !expected) problems.push(`console: ${msg.text()}`);
  });

  // ------------------------------------------------------------ clear
  // An empty 4 x 4 board: nobody can move, so the second player wins, and
  // the hints say the player to move loses (not "no winning moves"), as
  // the command line says it.
  const noMoves = cli(['clear', '-'], '0000\n0000\n0000\n0000\n').split('\n').find((line) => line.startsWith('No moves'));
  if (noMoves !== 'No moves: the player to move loses.') fail(`the command line's no-moves line: ${noMoves}`);
  await open(page, url, '#clear/0000-0000-0000-0000');
  await expectText(page, '#winner', 'Second player wins');
  await expectText(page, '#value', noMoves);
  await page.check('#hints');
  await expectText(page, '#winning-list', noMoves);
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

  // Hints: every cell marked with the best value a rectangle through it
  // leaves: (1,2) and (1,3) are in winning moves (0, green), (4,4) only in
  // its own move, which leaves 2. Every move is listed with its value.
  await page.click('#hints');
  await expectCount(page, '.mv', 3, 'clear marks');
  await expectCount(page, '.mv.win', 2, 'clear winning marks');
  if ((await page.getAttribute(`${cell(0, 3, 3)} .mv`, 'data-value')) !== '2') fail('the best move through (4,4) leaves 2');
  await expectCount(page, '.option-row', 4, 'clear: the four moves listed (three cells and the domino)');
  await expectCount(page, '.overlay.winning', 0, 'no winning rectangles drawn over each other');
  await page.selectOption('#opt-filter', 'win');
  await expectCount(page, '.option-row', 2, 'clear: the two winning moves');
  await page.hover('.option-row >> nth=0');
  await expectText(page, '#hover-info', 'clear (1,2)-(1,2), leaving grundy 0 (component A: grundy 2 -> 1): a winning move.');
  await expectCount(page, '.overlay.preview.pick', 1, 'the hovered move drawn alone');
  await page.selectOption('#opt-filter', 'all');
  await expectText(page, '#legend', 'a rectangle through it leaves 0: it wins');
  // A winning mark reads as the value it leaves, as every other mark does.
  const winMarks = await page.$$eval('.cell .mv.win', (nodes) => nodes.map((n) => n.textContent));
  if (!winMarks.length || winMarks.some((t) => t !== '0')) fail(`clear: winning marks read ${JSON.stringify(winMarks)}, not 0`);
  await expectText(page, '#legend', 'leaves 2');
  await expectText(page, '#legend', 'a component');
  await page.screenshot({ path: resolve(outDir, 'clear-laptop.png'), fullPage: true });

  // Play against the engine, moving first: hovering explains a move.
  await page.click('#start-me');
  await expectText(page, '#turn', 'To move: First player (you)');
  await page.hover(cell(0, 3, 3));
  await expectText(page, '#hover-info', 'clear (4,4)-(4,4), leaving grundy 2 (component B: grundy 1 -> 0): not winning');
  await page.hover(cell(0, 0, 1));
  await expectText(page, '#hover-info', 'clear (1,2)-(1,2), leaving grundy 0 (component A: grundy 2 -> 1): a winning move.');
  // A 0 is no corner of a move: said at once, and nothing is selected.
  await page.click(cell(0, 0, 0));
  await expectText(page, '#error', 'Cell (1,1) is 0: a move clears a rectangle of ones.');
  await expectCount(page, '.overlay.preview', 0, 'no rectangle started on a 0');
  await page.screenshot({ path: resolve(outDir, 'clear-corner-on-0-laptop.png'), fullPage: true });
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
  // The legend's example of a component is the board's own first one.
  const first = /Components: A \d+ cells? grundy (\d+)/.exec(await page.textContent('.summary'));
  if (!first) fail(`components after the moves: ${await page.textContent('.summary')}`);
  await expectText(page, '#legend', `a component; A=${first[1]}: its value is ${first[1]}`);

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
  await expectText(page, '#hover-info', 'clear (1,1)-(2,3), leaving grundy');
  await expectText(page, '#hover-info', 'leaving grundy 0 (component A: grundy ');
  await expectText(page, '#hover-info', '): a winning move.');
  await page.mouse.up();
  await expectText(page, '#winner', 'First player (you) wins');
  await expectText(page, '#value', 'Game over: Second player (engine) cannot move and loses.');
  const dragged = await page.locator('#move-list li').allTextContents();
  if (dragged.length !== 1 || dragged[0] !== 'You: clear (1,1)-(2,3)') fail(`drag: move list ${dragged}`);
  if (await page.locator('#game-over').isHidden()) fail('game over offers no new game');
  await expectCount(page, '.overlay.last', 1, 'the winning move is highlighted');
  await page.screenshot({ path: resolve(outDir, 'clear-game-over-laptop.png'), fullPage: true });
  // Rematch, sides swapped: the engine moves first now, and wins: the
  // board is one rectangle, which it clears whole (a proven win).
  await page.click('#rematch');
  await expectText(page, '#move-list', 'Engine: clear (1,1)-(2,3)');
  await expectText(page, '#winner', 'First player (engine) wins');
  // Play it out one cell at a time: the engine wins.
  for (let i = 0; i < 6 && (await page.locator('#game-over').isHidden()); i++) {
    const n = await page.locator('#move-list li').count();
    await page.locator('.cell.on').first().click();
    await page.locator('.cell.on').first().click();
    await page.waitForFunction((k) => document.querySelectorAll('#move-list li').length >= k + 2 || !document.querySelector('#game-over').hidden, n, { timeout: 10000 });
  }
  await expectText(page, '#winner', 'First player (engine) wins');
  await expectText(page, '#value', 'Game over: Second player (you) cannot move and loses.');
  // New game: the same sides again (the engine first, and it wins at once).
  await page.click('#new-game');
  await expectCount(page, '#move-list li', 1, 'a new game');
  await expectText(page, '#value', 'Game over: Second player (you) cannot move and loses.');

  // The page takes boards up to 32 x 32 (the API takes any size): a 4 x 16
  // board, and a 32 x 32 one whose steppers stop there.
  const wide = Array(4).fill('1'.repeat(16)).join('-');
  await open(page, url, `#clear/${wide}`);
  if (await page.locator('#notice').isVisible()) fail(`a 4 x 16 board was refused: ${await page.textContent('#notice')}`);
  await expectCount(page, '.cell', 64, 'a 4 x 16 board');
  await expectText(page, '.board-title', '4 × 16');
  const big = Array(32).fill('10'.repeat(16)).join('-');
  await open(page, url, `#clear/${big}`);
  if (await page.locator('#notice').isVisible()) fail(`a 32 x 32 board was refused: ${await page.textContent('#notice')}`);
  await expectCount(page, '.cell', 1024, 'a 32 x 32 board');
  if (!(await page.locator('button[aria-label="more rows"]').isDisabled())) fail('the rows stepper goes past 32');
  if (!(await page.locator('button[aria-label="more cols"]').isDisabled())) fail('the columns stepper goes past 32');
  // 32 x 32 of 16 vertical lines of 32: the value is known at once
  // (16 lines of 32 cancel in pairs), so the page says who wins.
  await expectText(page, '#winner', 'Second player wins with best play');
  await page.screenshot({ path: resolve(outDir, 'clear-32x32-laptop.png'), fullPage: true });

  // Past 64 cells (the large boards' report, no move list): with Hints on,
  // the winning move proven is outlined on the board, its label inside it,
  // and the status names it.
  const full12 = `#clear/${Array(12).fill('1'.repeat(12)).join('-')}&hints=1`;
  for (const [viewport, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await open(page, url, full12);
    await expectText(page, '#value', 'a winning move is proven without it: clear (1,1)-(12,12)', 30000);
    await expectText(page, '#winner', 'First player wins with best play');
    await expectCount(page, '.overlay.preview.pick.wins', 1, `the large board's winning move outlined at ${width}`);
    if (!(await badgeInside(page, '.overlay.preview.pick.wins'))) fail(`12 x 12 at ${width}: the label is outside its rectangle`);
    await page.screenshot({ path: resolve(outDir, `clear-12x12-hints-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
  // When the answer says how a winning move is proven (its `text`, as the
  // 422's `proven` moves carry), the status says it.
  await page.route('**/api/v1/clear/analyze', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    if (json.large) json.winning_moves = json.winning_moves.map((m) => ({ ...m, text: 'clear (1,1)-(12,12), leaving grundy 0 (it clears every one: the opponent cannot move)' }));
    await route.fulfill({ response, json });
  });
  await open(page, url, full12);
  await expectText(page, '#value', 'proven without it: clear (1,1)-(12,12), leaving grundy 0 (it clears every one: the opponent cannot move)', 30000);
  await page.unrouteAll({ behavior: 'wait' });

  // A full 8 x 8 board without its corners, played to the end against the
  // engine moving first, at both widths: it halves the board (proven: two
  // equal halves), then answers every move by its mirror image at once.
  for (const [size, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(size);
    const rows = Array(8).fill('11111111');
    rows[0] = '01111110';
    rows[7] = '01111110';
    await open(page, url, `#clear/${rows.join('-')}`);
    await page.click('#start-engine');
    await expectText(page, '#move-list', 'Engine: clear (4,1)-(5,8)');
    await expectText(page, '#engine-note', 'proven winning: it cuts a shape into two equal halves');
    if (width === 'phone') await page.screenshot({ path: resolve(outDir, 'clear-8x8-engine-phone.png'), fullPage: true });
    for (let i = 0; i < 40 && (await page.locator('#game-over').isHidden()); i++) {
      const n = await page.locator('#move-list li').count();
      await page.locator('.cell.on').first().click();
      await page.locator('.cell.on').first().click();
      await page.waitForFunction((k) => document.querySelectorAll('#move-list li').length >= k + 2 || !document.querySelector('#game-over').hidden, n, { timeout: 15000 })
        .catch(() => fail(`8 x 8 at ${width}: the engine did not answer move ${i + 1}`));
      if (await page.locator('#game-over').isHidden()) await expectText(page, '#engine-note', 'proven winning');
    }
    await expectText(page, '#value', 'Game over: Second player (you) cannot move and loses.');
    await page.screenshot({ path: resolve(outDir, `clear-8x8-engine-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);

  // A dense 7 x 7 block of 29 cells, whose value is far beyond the
  // server's budget: the engine, moving first, still proves its move by
  // outcome search (a move to a shape of value 0), at both widths.
  const dense = ['1111110', '1111110', '1111100', '0111000', '0111000', '0111000', '0111000'];
  for (const [size, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(size);
    await open(page, url, `#clear/${dense.join('-')}`);
    // Its analysis runs out of the budget, yet says who wins: the outcome
    // search proves a winning move.
    await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 })
      .catch(async () => fail(`dense block at ${width}: no too-large message: ${await page.textContent('#status')}`));
    await expectText(page, '#too-large', 'Proven all the same: the player to move wins. A winning move: clear');
    await expectText(page, '#too-large', 'proven by outcome search');
    await expectText(page, '#winner', 'First player wins with best play');
    await page.screenshot({ path: resolve(outDir, `clear-dense-proven-${width}.png`), fullPage: true });
    // With Hints on, the proven move is outlined on the board, as a
    // winning move.
    await page.check('#hints');
    await expectCount(page, '.overlay.preview.pick.wins', 1, 'the proven move outlined with Hints on');
    await expectText(page, '.overlay.preview.pick.wins', '→ 0 wins');
    if (!(await badgeInside(page, '.overlay.preview.pick.wins'))) fail(`dense block at ${width}: the "→ 0 wins" label covers a neighbouring cell`);
    await expectText(page, '#hover-info', 'the winning move proven without the values is outlined on the board');
    await page.screenshot({ path: resolve(outDir, `clear-dense-proven-hints-${width}.png`), fullPage: true });
    await page.uncheck('#hints');
    // The position the engine's move leaves is past the budget too (a 422
    // with nothing proven, as on a server of a smaller budget): its move,
    // leaving a total of 0, still proves who wins.
    await page.route('**/api/v1/clear/analyze', (route) => route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ error: "position too large for this server: gave up within this request's time budget, 0.3 s", proven: { winner: null, grundy: null, winning_moves: [] }, tables: null }),
    }));
    await page.click('#start-engine');
    await expectText(page, '#move-list', 'Engine: clear');
    await expectText(page, '#engine-note', 'proven winning: leaves a total of 0');
    await expectText(page, '#winner', 'First player (engine) wins with best play');
    await expectText(page, '#value', "Grundy value 0, proven by the engine's move: it leaves a total of 0, so the player to move loses");
    await page.screenshot({ path: resolve(outDir, `clear-dense-engine-${width}.png`), fullPage: true });
    await page.unrouteAll({ behavior: 'wait' });
  }
  await page.setViewportSize(LAPTOP);

  // Dense blocks whose value takes 400,000 to 600,000 positions of search
  // (3 to 4 s of CPU from the command line), on a server of its own whose
  // budget is 100,000 positions a search (and time enough; a request runs
  // at most three: the value, an outcome search, the value resumed), so
  // that what each request does is alike on any machine: past one
  // request, but the server keeps what its searches found, so "Search
  // again" goes on from there until the value is found. One block at each
  // width, each new to the server.
  const slow = {
    laptop: ['1111111', '1111110', '1111100', '1111100', '0001100', '0000000', '0000000'],
    phone: ['0000000', '0000000', '0000011', '0011111', '0111111', '0111111', '0111111'],
  };
  const bounded = await startServer(['--max-positions', '100000', '--max-time', '60']);
  try {
    for (const [size, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
      await page.setViewportSize(size);
      await open(page, bounded.url, `#clear/${slow[width].join('-')}`);
      await page.waitForSelector('#too-large:not([hidden])', { timeout: 60000 })
        .catch(async () => fail(`slow block at ${width}: no too-large message: ${await page.textContent('#status')}`));
      await expectText(page, '#too-large', 'another one goes on from there (one search so far');
      await page.screenshot({ path: resolve(outDir, `clear-search-again-${width}.png`), fullPage: true });
      let searches = 1;
      while (await page.locator('#too-large').isVisible()) {
        if (searches === 12) fail(`slow block at ${width}: no value after ${searches} searches`);
        await page.click('#too-large .search-again button');
        searches += 1;
        await page.waitForFunction(
          (n) => !document.querySelector('#too-large').hidden && document.querySelector('#too-large').textContent.includes(`${n} searches so far`)
            || document.querySelector('#value').textContent.startsWith('Grundy value '),
          searches, { timeout: 60000 },
        ).catch(async () => fail(`slow block at ${width}: search ${searches} did not answer: ${await page.textContent('#status')}`));
      }
      await expectText(page, '#value', 'Grundy value ');
      await expectText(page, '#winner', 'wins with best play');
      console.log(`e2e: a slow block at ${width} valued after ${searches} searches`);
      await page.screenshot({ path: resolve(outDir, `clear-search-again-done-${width}.png`), fullPage: true });
    }
  } finally {
    bounded.child.kill();
  }
  await page.setViewportSize(LAPTOP);

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

  // A full 6 x 6 board: over the server's budget, but never a dead end. The
  // page names the shape database that answers it, with its build time and
  // size from docs/results.md, the commands that finish, and the value
  // docs/results.md gives (8), saying where it comes from.
  const six = Array(6).fill('111111').join('-');
  await open(page, url, `#clear/${six}`);
  await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 })
    .catch(async () => fail(`6 x 6: no too-large message: ${await page.textContent('#status')}`));
  await expectText(page, '#too-large', 'The 6 × 6 shape database answers it at once');
  await expectText(page, '#too-large', '42 min of CPU (30 min on 2 cores), and the file at 395 MB');
  await expectText(page, '#too-large', 'grundy tables build --box 6x6 --out clear-6x6.gdb');
  await expectText(page, '#too-large', "printf '111111\\n111111\\n111111\\n111111\\n111111\\n111111\\n' | grundy clear --tables clear-6x6.gdb -");
  await expectText(page, '#too-large', 'Known: the full 6 × 6 board has grundy value 8, so the first player wins (from docs/results.md');
  await expectText(page, '#value', 'Known grundy value 8 (from docs/results.md)');
  await expectText(page, '#winner', 'First player wins');
  await page.screenshot({ path: resolve(outDir, 'clear-6x6-too-large-laptop.png'), fullPage: true });

  // A full 7 x 7 board: its database was never built, so the page quotes
  // the estimate of docs/distributed.md and gives no command to build it,
  // only the search to run locally; at both widths.
  const seven = Array(7).fill('1111111').join('-');
  for (const [viewport, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await open(page, url, `#clear/${seven}`);
    await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 })
      .catch(async () => fail(`7 x 7: no too-large message: ${await page.textContent('#status')}`));
    await expectText(page, '#too-large', 'A 7 × 7 shape database would answer it, but none has been built: docs/distributed.md estimates ~8,400 core-hours of CPU, a file of ~1.1 TB');
    await expectText(page, '#too-large', 'Without it, run the search on your own computer');
    const text = await page.textContent('#too-large');
    if (text.includes('tables build') || text.includes('at once')) fail(`7 x 7: a database never built is offered as a command: ${text}`);
    await page.screenshot({ path: resolve(outDir, `clear-7x7-too-large-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);

  // ------------------------------------------------------------ links
  // A link naming an unknown game, or an invalid position, says so.
  await open(page, url, '#nim/111');
  await expectText(page, '#notice', 'This link names no game of this page ("nim")');
  // A split link playing a plain cell: cell (2,3) of row 10010 is 0. Its
  // illegal moves read as the API's (`moves[1]`, the request's list from
  // 0; the move in the command line's words).
  await open(page, url, '#split/01100-10010;1.2_0.1');
  await expectText(page, '#notice', 'This split link is invalid: moves[0]: split at (2,3) is illegal: cell (2,3) is 0, not a candidate.');
  // (The API's 400s are asked for: the console reports them.)
  badRequestExpected = true;
  for (const [hash, moves] of [['#split/01100-10010;0.2_0.1', [[0, 2], [0, 1]]], ['#split/01100-10010;0.1_1.2', [[0, 1], [1, 2]]], ['#split/01100-10010;7.1', [[7, 1]]]]) {
    await open(page, url, hash);
    const apiSays = await page.evaluate(async (body) => (await (await fetch('/api/v1/split/analyze', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    })).json()).error, { grid: ['01100', '10010'], moves });
    await expectText(page, '#notice', `This split link is invalid: ${apiSays}.`);
  }
  badRequestExpected = false;
  await open(page, url, '#split/01100-10010;1.2_0.1');
  if ((await page.inputValue('#game')) !== 'split') fail('an invalid split link opened another game');
  await page.screenshot({ path: resolve(outDir, 'invalid-link-laptop.png'), fullPage: true });
  // A link's illegal move (after the position, from 0) is worded as the
  // page words moves, cells from 1: "1.1" is the plain cell (2,2). The page
  // then writes the link of the game before it, so the link is opened once,
  // not reloaded as `open` does (a reload would open the rewritten link).
  await page.goto('about:blank');
  await page.goto(`${url}#split/01100-10010-00100-11001-00110;&moves=1.1`);
  await expectText(page, '#notice', "This split link's move 1 (split at (2,2)) is not a legal move there");
  // A clear link's rectangle with its sides inverted (it would clear
  // nothing) or off the board (a negative number) is refused the same way,
  // the board drawn as before it.
  for (const [mv, what] of [['0.2.1.1.1', 'clear (3,2)-(2,2)'], ['0.-1.1.0.1', '"0.-1.1.0.1"']]) {
    await page.goto('about:blank');
    await page.goto(`${url}#clear/0110-0000-0000-0001&moves=${mv}`);
    await expectText(page, '#notice', `This clear link's move 1 (${what}) is not a legal move there`);
    await expectCount(page, '#move-list li', 0, `the refused clear move ${mv}`);
  }
  await page.screenshot({ path: resolve(outDir, 'clear-refused-link-move-laptop.png'), fullPage: true });
  await open(page, url, '#pawn/8x8;9.9;1.1');
  await expectText(page, '#notice', 'This pawn link is invalid: wall "9.9" is not a cell x.y of the 8 x 8 grid');
  if ((await page.inputValue('#game')) !== 'pawn') fail('an invalid pawn link opened another game');
  // The pawn's grid is sized by its axes, width (x) first, as its title
  // and link give it.
  const pawnSteppers = await page.locator('.board-controls .stepper > .muted').allTextContents();
  if (pawnSteppers.join('|') !== 'width (x)|height (y)') fail(`pawn steppers: ${pawnSteppers}`);
  // The README's split example opens, its moves in the history: listed,
  // and undoable.
  await open(page, url, '#split/01100-10010;0.1_1.0');
  if (await page.locator('#notice').isVisible()) fail(`the README's split link is refused: ${await page.textContent('#notice')}`);
  await expectCount(page, '#move-list li', 2, "the split link's moves");
  const linkMoves = await page.locator('#move-list li').allTextContents();
  if (linkMoves.join('|') !== 'First player: split at (1,2)|Second player: split at (2,1)') fail(`split link moves: ${linkMoves}`);
  if (await page.locator('#no-moves').isVisible()) fail('a link with moves says "No moves yet"');
  // After the link's two moves the first player is to move, and the
  // status says so beside the verdict's "the player to move".
  await expectText(page, '#turn', 'To move: First player. Editing:');
  // The legend names every style of cell a split grid with moves shows.
  for (const item of ['deleted', 'a candidate deleted', 'a candidate played', 'a rectangle in play']) {
    await expectText(page, '#legend', item);
  }
  await page.screenshot({ path: resolve(outDir, 'split-legend-laptop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: resolve(outDir, 'split-legend-phone.png'), fullPage: true });
  await page.setViewportSize(LAPTOP);
  if (await page.locator('#undo').isDisabled()) fail('Undo is disabled on a link with moves');
  await page.click('#undo');
  await page.waitForFunction(() => location.hash === '#split/01100-10010;&moves=0.1_1.0&at=1', null, { timeout: 5000 })
    .catch(async () => fail(`undo on a split link: ${await page.evaluate(() => location.hash)}`));
  // An empty clear link opens the example, and says so.
  await open(page, url, '#clear/');
  await expectText(page, '#notice', 'This clear link gives no position');
  await expectCount(page, '.cell', 16, 'the clear example');
  // Its local command (shown when the server's budget runs out): after
  // moves, one `grundy split` per rectangle in play holding a candidate.
  const splitCommand = await page.evaluate(() => splitGame.command(splitGame.decode('01100-10010;0.1_1.0')));
  if (splitCommand !== "printf '010\\n' | grundy split -   # (2,3)-(2,5)") fail(`split command: ${splitCommand}`);
  const pawnCommand = await page.evaluate(() => pawnGame.command(pawnGame.decode('8x8;2.0_1.3;6.5')));
  if (pawnCommand !== "printf '2 0\\n1 3\\n' | grundy pawn --blocked - --at 6,5") fail(`pawn command: ${pawnCommand}`);

  // ------------------------------------------------------------ hash changes
  // Links changed in the open tab, without a reload: each opens its game
  // and position, or says why it cannot; nothing of the previous game stays.
  const setHash = (h) => page.evaluate((x) => { location.hash = x; }, h);
  await open(page, url, '#pawn/8x8;2.0_1.3;6.5');
  await expectText(page, '#winner', 'player wins');
  const before = problems.length;
  await setHash('#nim/111');
  await expectText(page, '#notice', 'This link names no game of this page ("nim")');
  if ((await page.inputValue('#game')) !== 'clear') fail('#nim/111: the picker does not show the game drawn');
  await expectCount(page, '.cell', 16, '#nim/111 shows the clear example');
  await expectText(page, '#winner', 'First player wins');
  await setHash('#pawn/8x8;2.0_1.3;6.5');
  await expectCount(page, '.cell', 64, 'back to the pawn');
  await expectText(page, '#winner', 'player wins');
  if (await page.locator('#notice').isVisible()) fail('a good link after a bad one still shows the notice');
  await setHash('#clear/012-111');
  await expectText(page, '#notice', 'This clear link is invalid: row 1 ("012") is not a row of 0 and 1');
  if ((await page.inputValue('#game')) !== 'clear') fail('#clear/012-111: the picker does not show clear');
  await expectCount(page, '.cell', 16, '#clear/012-111 shows the clear example');
  await expectText(page, '#winner', 'First player wins');
  await setHash('#clear/111-111');
  await expectCount(page, '.cell', 6, '#clear/111-111');
  await expectText(page, '#winner', 'First player wins');
  // Two changes at once: the last one wins, with its own analysis.
  await setHash('#pawn/4x4;;3.0');
  await setHash('#split/11-11;');
  await expectText(page, '#winner', 'Second player wins');
  await expectCount(page, '.cell', 4, 'the last link of two');
  if ((await page.inputValue('#game')) !== 'split') fail('two quick links: the picker');
  await setHash('#split/01100-10010;0.1_1.0');
  await expectCount(page, '#move-list li', 2, 'a split link with moves, opened in the tab');
  if (await page.locator('#undo').isDisabled()) fail('Undo is disabled after a split link opened in the tab');
  await setHash('#clear/');
  await expectText(page, '#notice', 'This clear link gives no position');
  await expectCount(page, '.cell', 16, '#clear/ shows the example');
  await setHash('#clear/%E0%A4%A');
  await expectText(page, '#notice', 'This clear link is invalid');
  if (problems.length > before) fail(`hash changes: ${problems.slice(before).join('; ')}`);
  await page.screenshot({ path: resolve(outDir, 'hash-change-laptop.png'), fullPage: true });

  // ------------------------------------------------------------ clear options
  // A full 5 x 5 board: 225 rectangles, each listed with the value it
  // leaves; hovering or picking one draws it alone; the filter and the sort
  // work; each cell's mark is the least value over the rectangles through
  // it, checked against the API's own list of every move.
  await open(page, url, `#clear/${Array(5).fill('11111').join('-')}`);
  await page.check('#hints');
  await expectCount(page, '.option-row', 225, 'every move of the full 5 x 5 board');
  const api5 = await page.evaluate(async () => (await (await fetch('/api/v1/clear/analyze', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ board: Array(5).fill('11111') }),
  })).json()));
  const winners = api5.moves.filter((m) => m.grundy === 0).length;
  if (winners !== api5.winning_moves.length) fail(`5 x 5: ${winners} moves leave 0 but ${api5.winning_moves.length} winning moves`);
  await page.selectOption('#opt-filter', 'win');
  await expectCount(page, '.option-row', winners, 'the winning moves of the full 5 x 5 board');
  await expectCount(page, '.overlay.preview', 0, 'no rectangle drawn before one is chosen');
  await page.hover('.option-row >> nth=2');
  await expectCount(page, '.overlay.preview.pick', 1, 'the hovered winning move, alone');
  await page.click('.option-row >> nth=2');
  await page.mouse.move(5, 5);
  await expectCount(page, '.overlay.preview.pick.wins', 1, 'the picked move stays drawn');
  if ((await page.getAttribute('.option-row >> nth=2', 'aria-pressed')) !== 'true') fail('the picked row is not marked');
  await expectText(page, '#hover-info', 'leaving grundy 0 (component A: grundy ');
  await expectText(page, '#hover-info', '): a winning move.');
  await expectText(page, '#legend', 'the move picked in the list');
  await page.screenshot({ path: resolve(outDir, 'clear-options-laptop.png'), fullPage: true });
  await page.selectOption('#opt-filter', 'all');
  await page.selectOption('#opt-sort', 'size');
  await expectText(page, '.option-row', 'clear (1,1)-(5,5)');
  await expectText(page, '.option-row', '25 cells');
  const someValue = api5.moves.find((m) => m.grundy > 0).grundy;
  await page.selectOption('#opt-filter', `v:${someValue}`);
  await expectCount(page, '.option-row', api5.moves.filter((m) => m.grundy === someValue).length, `the moves leaving ${someValue}`);
  const shownValues = await page.locator('.option-value').allTextContents();
  if (shownValues.some((t) => t !== `leaves ${someValue}`)) fail(`filter by value: ${shownValues}`);
  const marks = await page.evaluate(() => [...document.querySelectorAll('.cell .mv')].map((m) => Number(m.dataset.value)));
  const expected = [];
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      expected.push(Math.min(...api5.moves.filter((m) => m.top <= r && r <= m.bottom && m.left <= c && c <= m.right).map((m) => m.grundy)));
    }
  }
  if (marks.join() !== expected.join()) fail(`5 x 5 cell marks ${marks} != ${expected}`);
  await page.keyboard.press('Escape');
  await expectCount(page, '.overlay.preview', 0, 'Escape drops the picked move');

  // Play a move from the list: pick it, then play it.
  await open(page, url, '#clear/0110-0000-0000-0001');
  await page.check('#hints');
  await page.click('#start-me');
  await page.selectOption('#opt-filter', 'win');
  await page.click('.option-row >> nth=0');
  await page.click('#play-picked');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('playing the picked move'));
  await expectText(page, '#move-list', 'You: clear (1,2)-(1,2)');
  // No focus ring on a cell after a move made with the mouse.
  if (await page.locator('.cell:focus-visible').count()) fail('a focus ring on a cell after a mouse move');

  // The keyboard: Enter on a cell twice clears it; the focus stays on that
  // cell (not a neighbour), and no other cell shows a ring.
  await open(page, url, '#clear/111-111');
  await page.click('#start-me');
  await page.focus(cell(0, 0, 1));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 1, null, { timeout: 10000 })
    .catch(() => fail('a move by keyboard'));
  await expectText(page, '#move-list', 'You: clear (1,2)-(1,2)');
  const focused = await page.evaluate(() => {
    const a = document.activeElement;
    return { at: a && a.dataset ? `${a.dataset.r},${a.dataset.c}` : '', rings: document.querySelectorAll('.cell:focus-visible').length };
  });
  if (focused.at !== '0,1' || focused.rings !== 1) fail(`keyboard focus after a move: ${JSON.stringify(focused)}`);
  // The arrows move between cells, and a board is one Tab stop: the cell
  // last focused.
  const focusAt = () => page.evaluate(() => {
    const a = document.activeElement;
    return a && a.dataset && a.dataset.r !== undefined ? `${a.dataset.r},${a.dataset.c}` : a.id || a.tagName;
  });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  if ((await focusAt()) !== '1,2') fail(`the arrows from (1,2): focus at ${await focusAt()}`);
  await page.keyboard.press('ArrowRight');
  if ((await focusAt()) !== '1,2') fail(`the arrow past the edge: focus at ${await focusAt()}`);
  const stops = await page.evaluate(() => document.querySelectorAll('#boards .cell[tabindex="0"]').length);
  if (stops !== 1) fail(`a board has ${stops} cells in the Tab order`);
  await page.keyboard.press('Tab');
  if ((await focusAt()).includes(',')) fail(`Tab from a cell went to cell ${await focusAt()}`);
  await page.keyboard.press('Shift+Tab');
  if ((await focusAt()) !== '1,2') fail(`Shift+Tab came back to ${await focusAt()}, not the last cell focused`);

  // ------------------------------------------------------------ databases
  // A server with a small budget: a full 3 x 8 board is over it, and the
  // page names the 3 x 8 database. The same server with that database (as
  // `grundy tables build` writes it) answers: 15, the value docs/results.md
  // gives.
  const dbDir = join(scratch, 'tables');
  mkdirSync(dbDir, { recursive: true });
  execFileSync(bin, ['tables', 'build', '--box', '3x8', '--out', join(dbDir, 'clear-3x8.gdb')], { stdio: 'ignore', env, timeout: 120000 });
  const three = `#clear/${Array(3).fill('11111111').join('-')}`;
  const small = await startServer(['--max-positions', '2000']);
  const withDb = await startServer(['--max-positions', '2000', '--tables', dbDir]);
  try {
    await open(page, small.url, three);
    await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 })
      .catch(async () => fail(`3 x 8 on a small budget: ${await page.textContent('#status')}`));
    await expectText(page, '#too-large', 'The 3 × 8 shape database answers it at once');
    await expectText(page, '#too-large', 'grundy tables build --box 3x8 --out clear-3x8.gdb');
    await expectText(page, '#too-large', '365 KB');
    await expectText(page, '#too-large', 'Known: the full 3 × 8 board has grundy value 15');
    await open(page, withDb.url, three);
    await expectText(page, '#winner', 'First player wins');
    await expectText(page, '#value', 'Grundy value 15.');
    if (await page.locator('#too-large').isVisible()) fail('the server with the 3 x 8 database did not answer');
    await page.check('#hints');
    await expectCount(page, '.option-row', 216, 'every move of the full 3 x 8 board, from the database');
    // What the 3 x 8 database does not hold: the 6 x 6 one is named.
    await open(page, withDb.url, `#clear/${six}`);
    await expectText(page, '#too-large', 'The 6 × 6 shape database answers it at once', 30000);
  } finally {
    small.child.kill();
    withDb.child.kill();
  }

  // ------------------------------------------------------------ pawn
  // An empty 4 x 4 grid, a pawn at (3,0) (x right, y up; row 0 drawn at the
  // bottom). Values are x xor y without walls: 3, first wins.
  const at = (x, y, h = 4) => cell(0, h - 1 - y, x);
  await open(page, url, '#pawn/4x4;;3.0');
  await expectText(page, '#winner', 'First player wins');
  // Coordinates: x along the bottom from 0, y up the side from 0.
  const pawnLabels = await labels(page);
  if (pawnLabels.cols.join() !== '0,1,2,3' || pawnLabels.rows.join() !== '3,2,1,0') fail(`pawn labels ${JSON.stringify(pawnLabels)}`);
  // One pawn is "pawn", not "pawn 1".
  await page.check('#hints');
  await expectText(page, '#winning-list', 'move pawn (3,0) -> (0,0), leaving grundy 0 (to a losing cell)');
  if ((await page.textContent('#winning-list')).includes('pawn 1')) fail('a single pawn is called "pawn 1"');
  await page.uncheck('#hints');
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
  await expectText(page, '.summary', 'Pawn 1 at (3,0): winning cell, grundy 3 · Pawn 2 at (1,1): losing cell, grundy 0');
  if ((await page.textContent(`${at(3, 0)} .corner`)) !== '3') fail("pawn 1's value is not on the board");
  // Hints: every reachable cell marked (pawn 1: 3 cells; pawn 2: 2), the
  // losing cells (the diagonal) ringed; one winning move, pawn 1 to (0,0),
  // explained with the pawn and the values.
  await page.check('#hints');
  await page.waitForSelector('.cell.losing');
  if ((await page.locator('.cell.losing').count()) !== 3) fail('pawn: the free losing cells are the diagonal but the pawn');
  // The marks are the moves of the selected pawn (pawn 1, the first with a
  // move), the one a click moves.
  await expectCount(page, '.mv', 3, 'pawn marks (pawn 1\'s three moves)');
  await expectCount(page, '.mv.win', 1, 'pawn winning marks');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('pawn: one winning target expected');
  if (!(await page.locator(at(0, 0)).getAttribute('class')).includes('win-target')) fail('pawn: (0,0) wins');
  await expectText(page, '#winning-list', 'move pawn 1 (3,0) -> (0,0), leaving grundy 0 (pawn 1: grundy 3 -> 0)');
  await expectText(page, '#legend', 'a losing cell');
  await page.screenshot({ path: resolve(outDir, 'pawn-laptop.png'), fullPage: true });
  await page.click('#start-me');
  await page.hover(at(2, 0));
  await expectText(page, '#hover-info', 'move pawn 1 (3,0) -> (2,0), leaving grundy 2 (pawn 1: grundy 3 -> 2): not winning');
  await page.click(at(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
    .catch(() => fail('pawn: the engine did not answer'));
  const pawnMoves = await page.locator('#move-list li').allTextContents();
  if (pawnMoves[0] !== 'You: move pawn 1 (3,0) -> (0,0)' || !pawnMoves[1].startsWith('Engine: move pawn 2 (1,1) -> ')) fail(`pawn moves: ${pawnMoves}`);
  await expectText(page, '#winner', 'First player (you) wins');
  await expectCount(page, '.cell.last', 1, 'pawn: the last move');
  await expectCount(page, '.cell.last-from', 1, 'pawn: where the last move came from');

  // ------------------------------------------------------------ pawn sums
  // Pawns at (2,0), (0,1), (3,1): pawns 1 and 2 both reach (0,0), where
  // only pawn 2's move wins. One pawn is selected (pawn 1, the first with
  // a move): the marks, the rings, the hover text and a click all mean
  // its moves; a click on another pawn selects it; every winning move
  // listed is playable by selecting its pawn.
  for (const [viewport, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await open(page, url, '#pawn/6x6;;2.0_0.1_3.1&mode=play&engine=second&hints=1');
    await expectMarks(page);
    const sumApi = await page.evaluate(async () => (await (await fetch('/api/v1/pawn/analyze', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ blocked: [], pawns: [[2, 0], [0, 1], [3, 1]], region: [6, 6] }),
    })).json()));
    const at6 = (x, y) => cell(0, 5 - y, x);
    await expectCount(page, '.pawn-pick button', 3, 'the pawn chooser of a sum of 3');
    if ((await page.getAttribute('.pawn-pick button >> nth=0', 'aria-pressed')) !== 'true') fail('pawn 1 is not selected by default');
    await expectCount(page, '.cell.pawn.moving', 1, 'the selected pawn drawn');
    // What the board says of each cell is the selected pawn's move there.
    const agree = async (pawn) => {
      const drawn = await page.evaluate(() => [...document.querySelectorAll('.cell')].map((c) => ({
        r: Number(c.dataset.r), c: Number(c.dataset.c), ring: c.classList.contains('win-target'),
        mark: c.querySelector('.mv') ? Number(c.querySelector('.mv').dataset.value) : null,
      })));
      for (const d of drawn) {
        const x = d.c;
        const y = 5 - d.r;
        const mv = sumApi.moves.find((m) => m.pawn === pawn && m.x === x && m.y === y);
        const mark = mv ? mv.grundy : null;
        if (d.mark !== mark) fail(`pawn ${pawn + 1} at ${width}: cell (${x},${y}) marked ${d.mark}, its move leaves ${mark}`);
        if (d.ring !== (mark === 0)) fail(`pawn ${pawn + 1} at ${width}: cell (${x},${y}) ringed ${d.ring}, its move leaves ${mark}`);
      }
    };
    await agree(0);
    await page.hover(at6(0, 0));
    await expectText(page, '#hover-info', 'move pawn 1 (2,0) -> (0,0), leaving grundy 3 (pawn 1: grundy 2 -> 0): not winning');
    // Every winning move of the list: select its pawn (its button), and its
    // cell is ringed and marked 0.
    if (!sumApi.winning_moves.length) fail('the pawn sum has no winning move');
    for (const w of sumApi.winning_moves) {
      await page.click(`.pawn-pick button >> nth=${w.pawn}`);
      await agree(w.pawn);
      if (!(await page.getAttribute(at6(w.x, w.y), 'class')).includes('win-target')) fail(`winning move of pawn ${w.pawn + 1} to (${w.x},${w.y}) is not ringed`);
    }
    // The keyboard: the chooser's buttons take Enter.
    await page.focus('.pawn-pick button >> nth=0');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.pawn-pick button')?.getAttribute('aria-pressed') === 'true', null, { timeout: 5000 })
      .catch(() => fail('Enter on the chooser does not select pawn 1'));
    // A click on pawn 2 (which pawn 1 cannot reach) selects it; then (0,0)
    // is its winning move, and a click plays it.
    await page.click(at6(0, 1));
    if ((await page.getAttribute('.pawn-pick button >> nth=1', 'aria-pressed')) !== 'true') fail('a click on pawn 2 does not select it');
    if (await page.locator('#move-list li').count()) fail('a click on pawn 2 played a move');
    await agree(1);
    await page.hover(at6(0, 0));
    await expectText(page, '#hover-info', 'move pawn 2 (0,1) -> (0,0), leaving grundy 0');
    await expectText(page, '#hover-info', ': a winning move.');
    await expectText(page, '#legend', 'the selected pawn: a click moves it');
    await page.screenshot({ path: resolve(outDir, `pawn-sum-selected-${width}.png`), fullPage: true });
    await page.click(at6(0, 0));
    await page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 2, null, { timeout: 10000 })
      .catch(() => fail('pawn sum: the engine did not answer'));
    const sumMoves = await page.locator('#move-list li').allTextContents();
    if (sumMoves[0] !== 'You: move pawn 2 (0,1) -> (0,0)') fail(`pawn sum: the click played ${sumMoves[0]}`);
    await expectText(page, '#winner', 'First player (you) wins');
    await page.screenshot({ path: resolve(outDir, `pawn-sum-after-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
  // A single pawn has no chooser.
  await open(page, url, '#pawn/4x4;;3.0&mode=play&engine=second&hints=1');
  await expectMarks(page);
  if (await page.locator('.pawn-pick').count()) fail('a single pawn shows the pawn chooser');
  if (await page.locator('.cell.moving').count()) fail('a single pawn is drawn as selected');
  // Pawns sharing a cell (each its own game): every one is drawn, values
  // in the corner; a click on the cell goes through them.
  for (const [viewport, width] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await open(page, url, '#pawn/6x6;;3.2_3.2_5.0&mode=play&engine=second&hints=1');
    await expectMarks(page);
    const stack = cell(0, 3, 3);
    if ((await page.textContent(`${stack} .mark`)) !== '1,2') fail(`two pawns on (3,2) read ${JSON.stringify(await page.textContent(`${stack} .mark`))}`);
    if ((await page.textContent(`${stack} .corner`)) !== '1,1') fail(`the stacked pawns' values read ${await page.textContent(`${stack} .corner`)}`);
    if (!(await page.getAttribute(stack, 'aria-label')).includes('pawn 1, grundy 1; pawn 2, grundy 1')) fail(`stacked pawns: ${await page.getAttribute(stack, 'aria-label')}`);
    await page.screenshot({ path: resolve(outDir, `pawn-stack-${width}.png`), fullPage: true });
    await page.click(stack);
    if ((await page.getAttribute('.pawn-pick button >> nth=1', 'aria-pressed')) !== 'true') fail('a click on a cell of two pawns does not select the next one');
  }
  await page.setViewportSize(LAPTOP);

  // ------------------------------------------------------------ split
  // 2 x 2 candidates; every move leaves one candidate (value 1), so the
  // second player wins. Without (1,1) the move at (2,2) wins at once.
  await open(page, url, '#split/11-11;');
  await expectText(page, '#winner', 'Second player wins');
  await page.check('#hints');
  const noWinning = cli(['split', '-'], '11\n11\n').split('\n').find((line) => line.startsWith('No winning moves'));
  if (!noWinning) fail('the command line says no "No winning moves" line on 11-11');
  await expectText(page, '#winning-list', noWinning);
  await expectCount(page, '.mv', 4, 'split marks');
  await page.click(cell(0, 0, 0));
  await expectText(page, '#winner', 'First player wins');
  if ((await page.evaluate(() => location.hash)) !== '#split/01-11;&hints=1') fail(`split link ${await page.evaluate(() => location.hash)}`);
  await page.waitForSelector('.cell.win-target');
  if ((await page.locator('.cell.win-target').count()) !== 1) fail('split: one winning move expected');
  await expectText(page, '#winning-list', 'split at (2,2), leaving grundy');
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
  if (splitHash !== '#split/01-11;&moves=1.1&mode=play&engine=first&hints=1') fail(`split link after a move: ${splitHash}`);
  // The default split example: each winning move with the rectangles it
  // leaves, with their values, line for line as `grundy split` lists them.
  await open(page, url, '#split/01100-10010-00100-11001-00110;');
  await page.check('#hints');
  await expectText(page, '#winning-list', 'leaving grundy 0 (rectangles left with candidates: ');
  const splitCli = cliWinningLines(cli(['split', '-'], '01100\n10010\n00100\n11001\n00110\n'));
  const splitPage = (await page.locator('#winning-list li').allTextContents()).map((line) => line.trim());
  if (splitCli.length === 0 || splitPage.join('|') !== splitCli.join('|')) fail(`split winning lines: page ${JSON.stringify(splitPage)}, command line ${JSON.stringify(splitCli)}`);
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

  // ------------------------------------------------------------ strict CSP
  // Under a Content-Security-Policy allowing only the server's own scripts
  // and styles (no inline script, style attribute or event handler), the
  // page works and the browser reports no violation: the option list, a
  // pick, a game, a hash change.
  const strict = await browser.newPage({ viewport: LAPTOP });
  strict.on('pageerror', (err) => problems.push(`page error (CSP page): ${err.message}`));
  await strict.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    if (route.request().resourceType() === 'document') {
      headers['content-security-policy'] = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:";
    }
    await route.fulfill({ response, headers });
  });
  await strict.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  await strict.goto(`${url}#clear/${Array(4).fill('1111').join('-')}`);
  await strict.check('#hints');
  await expectCount(strict, '.option-row', 100, 'the options under a strict CSP');
  await strict.click('.option-row >> nth=0');
  await expectCount(strict, '.overlay.preview.pick', 1, 'a picked move under a strict CSP');
  await strict.click('#start-me');
  await strict.evaluate(() => { location.hash = '#pawn/4x4;;3.0'; });
  await expectText(strict, '#winner', 'First player wins');
  const violations = await strict.evaluate(() => window.cspViolations);
  if (violations.length) fail(`CSP violations: ${violations.join('; ')}`);
  await strict.close();

  // ------------------------------------------------------------ first view
  // What a newcomer sees: the page with no link, at both widths.
  for (const [viewport, name] of [[LAPTOP, 'laptop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await page.goto(url);
    await page.reload();
    await expectText(page, '#winner', 'First player wins with best play');
    await expectText(page, '#theory-value', 'Grundy value 3 = A xor B = 2 xor 1.');
    await page.screenshot({ path: resolve(outDir, `first-view-${name}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);

  // ------------------------------------------------------------ games that survive
  // The page's state, as drawn: the game, its start and position, the move
  // shown, the moves listed, the mode, the engine's side and Hints.
  const snapshot = (p) => p.evaluate(() => ({
    hash: location.hash,
    game: document.querySelector('#game').value,
    start: state.game.encode(state.history[0].boards),
    position: state.game.encode(boards()),
    cursor: state.cursor,
    moves: [...document.querySelectorAll('#move-list li')].map((li) => `${li.className}: ${li.textContent}`),
    mode: document.querySelector('#mode-play').getAttribute('aria-pressed') === 'true' ? 'play' : 'edit',
    vsEngine: document.querySelector('#vs-engine').checked,
    engineSide: state.engineSide,
    hints: document.querySelector('#hints').checked,
    winner: document.querySelector('#winner').textContent,
    turn: document.querySelector('#turn').textContent,
  }));
  // Waits until the analysis is drawn and the engine has nothing to do.
  const settled = (p) => p.waitForFunction(() => (state.analysis || !state.game.hasMoves(boards())) && !state.busy
    && !(isEngineTurn(state.cursor) && state.game.hasMoves(boards())), null, { timeout: 20000 });
  const same = (a, b, what) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) fail(`${what}:\n${JSON.stringify(a)}\n!=\n${JSON.stringify(b)}`);
  };
  // One move of the player to move: clear clears the first one (two clicks
  // on it); the cell games play the legal move that changes the least (the
  // pawn's shortest step), so the game lasts.
  const playOne = async (p) => {
    const target = await p.evaluate(() => {
      const g = state.game;
      const pos = boards();
      if (!g.cellGame) {
        const on = document.querySelector('.cell.on');
        return on ? [Number(on.dataset.board), Number(on.dataset.r), Number(on.dataset.c)] : null;
      }
      const [rows, cols] = g.size(pos);
      let best = null;
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const mv = g.moveAt(pos, r, c);
          if (!mv) continue;
          const score = g === pawnGame ? mv.x + mv.y : -(r * cols + c);
          if (!best || score > best.score) best = { score, r, c };
        }
      }
      return best ? [0, best.r, best.c] : null;
    });
    if (!target) fail(`no legal move to play at ${await p.evaluate(() => location.hash)}`);
    const n = await p.locator('#move-list li').count();
    await p.click(cell(...target));
    if (!(await p.evaluate(() => state.game.cellGame))) await p.click(cell(...target));
    await p.waitForFunction((k) => document.querySelectorAll('#move-list li').length > k, n, { timeout: 10000 });
    await settled(p);
  };
  for (const [hash, name, twoPlayers] of [
    ['#clear/1010101-0101010-1010101', 'clear', false],
    ['#clear/101-010,10-01,1010', 'clear sum', true],
    ['#pawn/10x10;2.0_1.3_4.4;9.9_8.9', 'pawn', false],
    [`#split/${Array(10).fill('1111111111').join('-')};`, 'split', false],
  ]) {
    await open(page, url, hash);
    await settled(page);
    await page.check('#hints');
    await page.click('#start-me');
    if (twoPlayers) await page.uncheck('#vs-engine');
    await settled(page);
    if (twoPlayers) await expectText(page, '#winner', 'First player to move: ');
    await playOne(page);
    const afterOne = await snapshot(page);
    await playOne(page);
    const afterTwo = await snapshot(page);
    await playOne(page);
    const mid = await snapshot(page);
    if (mid.moves.length < 3) fail(`${name}: the game ended too soon: ${mid.moves}`);
    if (!mid.hash.includes('&moves=') || !mid.hash.includes('&mode=play') || !mid.hash.includes('&hints=1')) fail(`${name}: the link misses the game: ${mid.hash}`);
    // Back steps to the position before the player's last move (an
    // engine's reply belongs to its player's move), Forward returns.
    await page.goBack();
    await settled(page);
    same(await snapshot(page), afterTwo, `${name}: Back`);
    if (twoPlayers) {
      await page.goBack();
      await settled(page);
      same(await snapshot(page), afterOne, `${name}: Back twice`);
      await page.goForward();
      await settled(page);
    }
    await page.goForward();
    await settled(page);
    same(await snapshot(page), mid, `${name}: Forward`);
    // A reload mid-game: the same game in the same state.
    await page.reload();
    await settled(page);
    same(await snapshot(page), mid, `${name}: reload`);
    // The copied link, opened in a fresh browser context.
    await page.click('#share');
    const link = await page.evaluate(() => location.href);
    const fresh = await browser.newContext({ viewport: LAPTOP });
    const other = await fresh.newPage();
    await other.goto(link);
    await settled(other);
    same(await snapshot(other), mid, `${name}: the copied link in a fresh context`);
    await fresh.close();
    await page.screenshot({ path: resolve(outDir, `survives-${name.replace(' ', '-')}-laptop.png`), fullPage: true });
  }

  // ------------------------------------------------------------ the theory
  // The theory card says what the API computed: the parts XOR to the
  // value, each part's mex (on a click) is its value, its counts are those
  // of the moves the API lists in that part, each winning move's arithmetic
  // names the value the API's option gives what is left.
  const analyze = (p, game, body) => p.evaluate(async ([g, b]) => (await (await fetch(`/api/v1/${g}/analyze`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b),
  })).json()), [game, body]);
  await open(page, url, `#clear/${Array(5).fill('11111').join('-')}`);
  await expectText(page, '#theory-value', 'Grundy value 8 = A, the only part.', 20000);
  const full5 = await analyze(page, 'clear', { board: Array(5).fill('11111') });
  if ((await page.textContent('#theory-value')) !== full5.explain.value) fail('the theory card is not the API\'s explanation');
  await page.click('.part-chip >> nth=0');
  await expectText(page, '#theory-mex', `so A = mex = ${full5.components[0].grundy}.`);
  await expectText(page, '#theory-mex', `[${full5.components[0].grundy} missing]`);
  const counts = new Map();
  for (const o of full5.options.moves) counts.set(o.component_after, (counts.get(o.component_after) || 0) + 1);
  const apiCounts = full5.explain.mex[0].counts.map((c) => `${c.grundy}:${c.count}`).join();
  const optionCounts = [...counts.entries()].sort((x, y) => x[0] - y[0]).map(([v, n]) => `${v}:${n}`).join();
  if (apiCounts !== optionCounts) fail(`the mex counts ${apiCounts} differ from the options' ${optionCounts}`);
  const winTexts = await page.locator('#theory-winning li').allTextContents();
  if (winTexts.length !== full5.winning_moves.length) fail(`${winTexts.length} winning moves explained, the API has ${full5.winning_moves.length}`);
  full5.winning_moves.forEach((mv, i) => {
    const option = full5.options.moves.find((o) => o.top === mv.top && o.left === mv.left && o.bottom === mv.bottom && o.right === mv.right);
    const expected = `clear (${mv.top + 1},${mv.left + 1})-(${mv.bottom + 1},${mv.right + 1}): A: 8 -> ${option.component_after}`;
    // A move that cuts A names its pieces' values, whose XOR is what it
    // leaves of A.
    const cut = winTexts[i].slice(expected.length).match(/^ \(A is left in (\d+) pieces: ([\d xor]+) = (\d+)\)$/);
    const pieces = cut ? cut[2].split(' xor ').map(Number) : [];
    const piecesRight = cut
      ? pieces.length === Number(cut[1]) && pieces.length > 1 && pieces.reduce((x, v) => x ^ v, 0) === option.component_after && Number(cut[3]) === option.component_after
      : winTexts[i] === expected;
    if (!winTexts[i].startsWith(expected) || !piecesRight || option.grundy !== 0) fail(`winning move ${i}: ${winTexts[i]} vs ${expected}`);
  });
  if (!(await arrowsWhole(page, '#theory-winning li, #theory-mex'))) fail('an arrow "->" of the theory card may break between "-" and ">"');
  await page.screenshot({ path: resolve(outDir, 'theory-5x5-laptop.png'), fullPage: true });
  // The pieces' words at a phone's width too.
  await page.setViewportSize(PHONE);
  if (!(await arrowsWhole(page, '#theory-winning li, #theory-mex'))) fail('at a phone\'s width an arrow "->" of the theory card breaks');
  await page.screenshot({ path: resolve(outDir, 'theory-5x5-phone.png'), fullPage: true });
  await page.setViewportSize(LAPTOP);
  // The marks' colours differ in lightness (CIE L*), by at least 10, so a
  // greyscale screenshot tells every value apart.
  const lightness = await page.evaluate(() => SHADES.map((colour) => {
    const probe = document.createElement('span');
    probe.style.background = colour;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).backgroundColor.match(/\d+/g).map(Number);
    probe.remove();
    const lin = (v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const y = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
    return y > 0.008856 ? 116 * Math.cbrt(y) - 16 : 903.3 * y;
  }));
  const byLightness = [...lightness].sort((x, y) => x - y);
  if (byLightness.some((l, i) => i > 0 && l - byLightness[i - 1] < 10)) fail(`mark colours too close in greyscale: L* ${lightness.map((l) => l.toFixed(1))}`);
  // A sum of boards, pawns and split: the parts XOR to the API's value,
  // each part's mex is its value, each winning move's XOR is 0.
  for (const [hash, game, body] of [
    ['#clear/0110-0000-0000-0001,111-111', 'clear', { boards: [['0110', '0000', '0000', '0001'], ['111', '111']] }],
    ['#pawn/8x8;2.0_1.3;6.5_3.3', 'pawn', { blocked: [[2, 0], [1, 3]], pawns: [[6, 5], [3, 3]], region: [8, 8] }],
    ['#split/01100-10010-00100-11001-00110;&moves=1.0', 'split', { grid: ['01100', '10010', '00100', '11001', '00110'], moves: [[1, 0]] }],
  ]) {
    await open(page, url, hash);
    await page.waitForSelector('#theory:not([hidden])', { timeout: 20000 });
    const a = await analyze(page, game, body);
    const x = a.explain;
    if (x.parts.reduce((acc, part) => acc ^ part.grundy, 0) !== a.grundy) fail(`${game}: the parts do not XOR to ${a.grundy}`);
    if (x.parts.length > 1 && !x.value.includes(`= ${x.parts.map((part) => part.grundy).join(' xor ')}.`)) fail(`${game}: ${x.value}`);
    if ((await page.textContent('#theory-value')) !== x.value) fail(`${game}: the card is not the API's explanation`);
    for (const [i, part] of x.parts.entries()) {
      if (x.mex[i].grundy !== part.grundy) fail(`${game}: ${part.name} = ${part.grundy} but its mex is ${x.mex[i].grundy}`);
      await page.click(`.part-chip >> nth=${i}`);
      await expectText(page, '#theory-mex', x.mex[i].text);
    }
    if (!(await arrowsWhole(page, '#theory-winning li, #theory-mex'))) fail(`${game}: an arrow "->" of the theory card may break`);
    for (const text of await page.locator('#theory-winning li').allTextContents()) {
      if (x.parts.length > 1 && !/ = 0( \(|$|:)/.test(text)) fail(`${game}: a winning move's XOR is not 0: ${text}`);
    }
    await page.screenshot({ path: resolve(outDir, `theory-${game}-laptop.png`), fullPage: true });
  }

  // ------------------------------------------------------------ setting up
  // A pasted text, read by the server's parser of the CLI's format; an
  // error names its line and column; a random board of a chosen size.
  await open(page, url, '#clear/0110-0000-0000-0001');
  await page.evaluate(() => { document.querySelector('#setup').open = true; });
  await page.fill('#paste-text', '0110\n0000\n\n1 1 1\n#.#\n');
  await page.click('#paste-go');
  await page.waitForFunction(() => location.hash === '#clear/0110-0000,111-101', null, { timeout: 10000 })
    .catch(async () => fail(`paste: ${await page.evaluate(() => location.hash)} ${await page.textContent('#setup-error')}`));
  await expectCount(page, '.board-card', 2, 'two pasted boards');
  await page.goBack();
  await page.waitForFunction(() => location.hash === '#clear/0110-0000-0000-0001', null, { timeout: 10000 })
    .catch(async () => fail(`Back after a paste: ${await page.evaluate(() => location.hash)}`));
  await page.evaluate(() => { document.querySelector('#setup').open = true; });
  await page.fill('#paste-text', '01\n0x\n');
  badRequestExpected = true;
  await page.click('#paste-go');
  await expectText(page, '#setup-error', 'line 2, column 2: unexpected');
  badRequestExpected = false;
  // What the server reads but the page cannot draw is refused as a link
  // with it would be: 17 boards, and a 33 x 1 board.
  await page.fill('#paste-text', Array(17).fill('1').join('\n\n'));
  await page.click('#paste-go');
  await expectText(page, '#setup-error', 'Cannot read the pasted text: 17 boards; the page takes sums of at most 16');
  await page.fill('#paste-text', Array(33).fill('1').join('\n'));
  await page.click('#paste-go');
  await expectText(page, '#setup-error', 'Cannot read the pasted text: 33 x 1: the page draws boards up to 32 x 32');
  if ((await page.evaluate(() => location.hash)) !== '#clear/0110-0000-0000-0001') fail(`a refused paste changed the position: ${await page.evaluate(() => location.hash)}`);
  // The error sits under the Random row at both widths.
  for (const viewport of [LAPTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const place = await page.evaluate(() => ({
      error: document.querySelector('#setup-error').getBoundingClientRect().top,
      random: document.querySelector('.random-row').getBoundingClientRect().bottom,
    }));
    if (place.error < place.random) fail(`at ${viewport.width} px the paste error is above the Random row: ${JSON.stringify(place)}`);
    if (viewport === PHONE) await page.screenshot({ path: resolve(outDir, 'setup-error-phone.png'), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
  await page.fill('#rand-rows', '3');
  await page.fill('#rand-cols', '5');
  await page.fill('#rand-density', '100');
  await page.click('#random-go');
  await page.waitForFunction(() => location.hash === '#clear/11111-11111-11111', null, { timeout: 10000 })
    .catch(async () => fail(`random at 100%: ${await page.evaluate(() => location.hash)}`));
  // Enter in the size fields makes the position.
  await page.fill('#rand-rows', '2');
  await page.fill('#rand-cols', '3');
  await page.press('#rand-cols', 'Enter');
  await page.waitForFunction(() => location.hash === '#clear/111-111', null, { timeout: 10000 })
    .catch(async () => fail(`Enter in Cols: ${await page.evaluate(() => location.hash)}`));
  await page.fill('#rand-rows', '3');
  await page.fill('#rand-cols', '5');
  await page.fill('#rand-density', '50');
  await page.click('#random-go');
  await expectCount(page, '.cell', 15, 'a random 3 x 5 board');
  await expectText(page, '#winner', 'wins with best play');
  await page.screenshot({ path: resolve(outDir, 'setup-laptop.png'), fullPage: true });
  await open(page, url, '#split/11-11;');
  await page.evaluate(() => { document.querySelector('#setup').open = true; });
  await page.selectOption('#paste-format', 'cells');
  await page.fill('#paste-text', '3 4\n0 1\n2 3\n');
  await page.click('#paste-go');
  await page.waitForFunction(() => location.hash === '#split/0100-0000-0001;', null, { timeout: 10000 })
    .catch(async () => fail(`split paste: ${await page.evaluate(() => location.hash)} ${await page.textContent('#setup-error')}`));
  await open(page, url, '#pawn/4x4;;3.0');
  await page.evaluate(() => { document.querySelector('#setup').open = true; });
  if (await page.locator('#paste-text').isVisible()) fail('the pawn game offers a paste box it cannot read');
  await page.fill('#rand-rows', '9');
  await page.fill('#rand-cols', '7');
  await page.click('#random-go');
  await page.waitForFunction(() => /^#pawn\/7x9;/.test(location.hash), null, { timeout: 10000 })
    .catch(async () => fail(`pawn random: ${await page.evaluate(() => location.hash)}`));
  // At the default 70% of walls, a random pawn can move (a grid whose
  // pawn could not would be a game over before it begins): 30 grids, with
  // the page's own generator.
  const stuckPawns = await page.evaluate(() => {
    let stuck = 0;
    for (let i = 0; i < 30; i++) {
      const p = pawnGame.random(16, 16, 0.7);
      const free = p.walls.length < 255;
      if (free && !pawnGame.hasMoves(p)) stuck += 1;
    }
    return stuck;
  });
  if (stuckPawns > 0) fail(`${stuckPawns} of 30 random 16 x 16 pawn grids at 70% walls have a pawn that cannot move`);

  // ------------------------------------------------------------ games picked in turn
  // A game picked again comes back with the position it was left in.
  await open(page, url, '#clear/1111-1001');
  await page.selectOption('#game', 'pawn');
  await page.waitForFunction(() => location.hash.startsWith('#pawn/'), null, { timeout: 10000 });
  await page.selectOption('#game', 'clear');
  await page.waitForFunction(() => location.hash.startsWith('#clear/'), null, { timeout: 10000 });
  if (!(await page.evaluate(() => location.hash)).startsWith('#clear/1111-1001')) fail(`clear picked again: ${await page.evaluate(() => location.hash)}`);

  // ------------------------------------------------------------ pawn: why a click is no move
  await open(page, url, '#pawn/4x4;1.0;3.0');
  await page.click('#start-me');
  await settled(page);
  await page.click(at(0, 0));
  await expectText(page, '#error', 'The pawn at (3,0) cannot reach (0,0): the wall at (1,0) is in the way.');
  await page.click(at(1, 0));
  await expectText(page, '#error', '(1,0) is a wall: no pawn may stop on it or pass it.');
  await page.screenshot({ path: resolve(outDir, 'pawn-why-no-move-laptop.png'), fullPage: true });

  // ------------------------------------------------------------ stale error
  // After an error, the next analysis says "Analysing…", not the old error.
  await open(page, url, '#pawn/4x4;;3.0');
  await page.click('#start-me');
  await settled(page);
  // A click that moves no pawn says why.
  await page.click(at(0, 3));
  await expectText(page, '#error', 'The pawn at (3,0) moves left along its row or down its column, not to (0,3).');
  await page.click(at(3, 0));
  await expectText(page, '#error', 'The pawn at (3,0) is already there: click a cell to its left or below it.');
  await page.route('**/api/v1/pawn/analyze', async (route) => {
    await new Promise((done) => setTimeout(done, 1500));
    // The page may have moved on (a newer request): nothing to answer then.
    await route.continue().catch(() => {});
  });
  await page.click(at(2, 0));
  await expectText(page, '#winner', 'Analysing…');
  if (await page.locator('#error').isVisible()) fail('the old error shows while the next analysis runs');
  // The analysis arrives, and the engine may already have replied with the
  // last move ("Second player (engine) wins"): either way the heading names
  // a winner and the old error stays gone.
  await expectText(page, '#winner', 'wins');
  if (await page.locator('#error').isVisible()) fail('the old error came back after the analysis');
  // The engine's reply and the analysis after it land before the next
  // link is opened (see `open`).
  await settled(page);
  await page.unrouteAll({ behavior: 'wait' });
  // A split click that is no move says why, as `grundy split` does: a
  // candidate an earlier move took out of play, or a cell that is none.
  await open(page, url, '#split/01100-10010-00100-11001-00110;&moves=0.2&mode=play&engine=off');
  await settled(page);
  await page.click(cell(0, 0, 1));
  await expectText(page, '#error', 'split at (1,2) is illegal: no longer in play: an earlier move deleted its row or column.');
  await page.click(cell(0, 1, 1));
  await expectText(page, '#error', 'split at (2,2) is illegal: cell (2,2) is 0, not a candidate.');

  // ------------------------------------------------------------ superseded and busy
  // Quick edits: each new analysis cancels the one before it (the server
  // need not finish a search nobody reads), and no cancelled request
  // shows an error.
  await open(page, url, '#clear/1111-1111-1111');
  await expectText(page, '#winner', 'wins');
  await page.evaluate(() => {
    window.analyseSignals = [];
    const plain = window.fetch;
    window.fetch = (what, init) => {
      if (String(what).includes('/analyze')) window.analyseSignals.push(init && init.signal);
      return plain(what, init);
    };
  });
  await page.route('**/api/v1/clear/analyze', async (route) => {
    await new Promise((done) => setTimeout(done, 800));
    await route.continue().catch(() => {});
  });
  for (const c of [0, 1, 2]) await page.click(cell(0, 0, c));
  await page.waitForFunction(() => window.analyseSignals.length === 3 && state.analysis, null, { timeout: 15000 })
    .catch(async () => fail(`quick edits: ${await page.evaluate(() => window.analyseSignals.length)} analyses, ${await page.textContent('#status')}`));
  const aborted = await page.evaluate(() => window.analyseSignals.map((signal) => Boolean(signal && signal.aborted)));
  if (aborted.join() !== 'true,true,false') fail(`quick edits: the superseded analyses were not cancelled (${aborted})`);
  if (await page.locator('#error').isVisible()) fail(`a cancelled analysis shows an error: ${await page.textContent('#error')}`);
  await page.unrouteAll({ behavior: 'wait' });
  // A busy server (503, Retry-After: 1): the page asks once more after the
  // wait; busy twice, it says so with a "Try again" button.
  busyExpected = true;
  const busy = (route) => route.fulfill({
    status: 503,
    headers: { 'Retry-After': '1' },
    contentType: 'application/json',
    body: JSON.stringify({ error: 'the server is busy with other analyses; try again shortly' }),
  });
  let refusals = 0;
  await page.route('**/api/v1/clear/analyze', (route) => (refusals++ === 0 ? busy(route) : route.continue()));
  await page.click(cell(0, 1, 0));
  await expectText(page, '#value', 'The server is busy with other analyses: asking again in 1 second');
  await expectText(page, '#value', 'Grundy value');
  if (await page.locator('#error').isVisible()) fail(`busy once: ${await page.textContent('#error')}`);
  await page.unrouteAll({ behavior: 'wait' });
  await page.route('**/api/v1/clear/analyze', busy);
  await page.click(cell(0, 1, 1));
  await expectText(page, '#error', 'The server is busy with other analyses; try again shortly. The page asked twice.');
  await page.waitForSelector('#error button.retry', { timeout: 5000 }).catch(() => fail('busy twice: no "Try again" button'));
  await page.screenshot({ path: resolve(outDir, 'busy-laptop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: resolve(outDir, 'busy-phone.png'), fullPage: true });
  await page.setViewportSize(LAPTOP);
  await page.unrouteAll({ behavior: 'wait' });
  await page.click('#error button.retry');
  await expectText(page, '#value', 'Grundy value');
  if (await page.locator('#error').isVisible()) fail(`"Try again" left the error: ${await page.textContent('#error')}`);
  busyExpected = false;

  // ------------------------------------------------------------ engine first, twice
  // Two clicks on "Engine moves first" begin one game: the engine moves
  // once, though the second click came while its move was asked (held
  // here until then), and the game does not wait for a move nobody asks;
  // a click after its move begins the same game again, from the same
  // start, not a game from after that move.
  await open(page, url, '#clear/1111-1111-1111-1110');
  await settled(page);
  let release;
  const held = new Promise((done) => { release = done; });
  await page.route('**/api/v1/clear/play', async (route) => {
    await held;
    await route.continue();
  });
  await page.click('#start-engine');
  await page.waitForFunction(() => state.busy, null, { timeout: 5000 });
  await page.click('#start-engine');
  release();
  await settled(page).catch(async () => fail(`engine first, clicked twice: no move: ${await page.textContent('#turn')}`));
  const engineOnce = await page.locator('#move-list li').allTextContents();
  if (engineOnce.length !== 1 || !engineOnce[0].startsWith('Engine: clear')) fail(`engine first, double click: ${JSON.stringify(engineOnce)}`);
  await expectText(page, '#turn', '(you)');
  await page.unrouteAll({ behavior: 'wait' });
  await page.click('#start-engine');
  await page.waitForFunction(() => state.history.length === 1 || state.busy, null, { timeout: 5000 }).catch(() => {});
  await settled(page);
  const engineAgain = await page.locator('#move-list li').allTextContents();
  if (engineAgain.join('|') !== engineOnce.join('|')) fail(`engine first, clicked again after its move: ${JSON.stringify(engineAgain)} after ${JSON.stringify(engineOnce)}`);
  if (await page.evaluate(() => state.game.encode(state.history[0].boards)) !== '1111-1111-1111-1110') fail('engine first, clicked again: another start');

  // ------------------------------------------------------------ no server
  // A request that gets no answer at all says so in words, not as the
  // browser's "Failed to fetch", and offers to try again: nothing else
  // would ask again once the server is back.
  await open(page, url, '#pawn/4x4;;3.0');
  await page.click('#start-me');
  await settled(page);
  refusedExpected = true;
  await page.route('**/api/v1/pawn/**', (route) => route.abort('connectionrefused'));
  await page.click(at(2, 0));
  await expectText(page, '#error', 'Cannot reach the grundy server: is `grundy serve` still running?');
  await page.waitForSelector('#error button.retry', { timeout: 5000 }).catch(() => fail('no server: no "Try again" button'));
  // With no analysis the pawn shows no value in its corner.
  const corner = await page.evaluate(() => [...document.querySelectorAll('.cell.pawn')].map((c) => c.textContent).join());
  if (corner !== '♟') fail(`the pawn without an analysis reads ${JSON.stringify(corner)}`);
  await page.screenshot({ path: resolve(outDir, 'no-server-laptop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: resolve(outDir, 'no-server-phone.png'), fullPage: true });
  await page.setViewportSize(LAPTOP);
  await page.unrouteAll({ behavior: 'wait' });
  refusedExpected = false;
  // The server back: "Try again" analyses the position, and the engine,
  // to move, answers.
  await page.click('#error button.retry');
  await settled(page);
  if (await page.locator('#error').isVisible()) fail(`no server, tried again: ${await page.textContent('#error')}`);
  const afterRetry = await page.locator('#move-list li').allTextContents();
  if (afterRetry.length !== 2 || !afterRetry[1].startsWith('Engine: move pawn')) fail(`no server, tried again: the moves ${JSON.stringify(afterRetry)}`);

  // ------------------------------------------------------------ narrow grids
  // At phone width a grid wider than 12 columns still shows its numbers.
  await page.setViewportSize(PHONE);
  await open(page, url, '#pawn/16x16;2.0_1.3_4.4;15.14&hints=1');
  await expectMarks(page);
  const numbered = await page.evaluate(() => [...document.querySelectorAll('.mv')].filter((m) => m.textContent !== '').length);
  if (numbered === 0) fail('a 16-column grid at phone width shows no numbers');
  await page.screenshot({ path: resolve(outDir, 'pawn-16x16-phone.png'), fullPage: true });
  await page.setViewportSize(LAPTOP);

  // ------------------------------------------------------------ phone
  // Every game at phone width, verdict above the board, nothing sideways.
  await page.setViewportSize(PHONE);
  for (const [hash, game] of [['#clear/0110-0000-0000-0001', 'clear'], ['#pawn/8x8;2.0_1.3_4.4_5.2;6.5_1.1', 'pawn'], ['#split/01100-10010-00100-11001-00110;0.1', 'split']]) {
    await open(page, url, hash);
    await page.check('#hints');
    await expectMarks(page);
    await checkFits(page, `${game} at phone width`);
    await page.screenshot({ path: resolve(outDir, `${game}-phone.png`), fullPage: true });
  }
  // A sparse 4 x 16 board (a full one is beyond the server's budget).
  await open(page, url, '#clear/1110001110001110-1000001000001000-0000000000000000-1111011110111101');
  await page.check('#hints');
  await expectMarks(page);
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) fail('a 4 x 16 board scrolls the page sideways at phone width');
  await page.screenshot({ path: resolve(outDir, 'clear-4x16-phone.png'), fullPage: true });
  await open(page, url, '#nim/1');
  await expectText(page, '#notice', 'names no game');
  await page.screenshot({ path: resolve(outDir, 'invalid-link-phone.png'), fullPage: true });
  await open(page, url, `#clear/${Array(5).fill('11111').join('-')}`);
  await page.check('#hints');
  await expectCount(page, '.option-row', 225, 'the 5 x 5 options at phone width');
  await page.selectOption('#opt-filter', 'win');
  await page.click('.option-row >> nth=0');
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) fail('the option list scrolls the page sideways at phone width');
  await page.screenshot({ path: resolve(outDir, 'clear-options-phone.png'), fullPage: true });
  await open(page, url, `#clear/${six}`);
  await page.waitForSelector('#too-large:not([hidden])', { timeout: 30000 });
  await expectText(page, '#too-large', 'grundy tables build --box 6x6');
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) fail('the too-large card scrolls the page sideways at phone width');
  await page.screenshot({ path: resolve(outDir, 'clear-6x6-too-large-phone.png'), fullPage: true });

  if (problems.length) fail(problems.join('\n'));
  console.log(`e2e: ok (screenshots in ${outDir})`);
} finally {
  await browser.close();
  child.kill();
  rmSync(scratch, { recursive: true, force: true });
}
