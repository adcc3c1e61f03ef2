// grundy playground: plain JavaScript, no build step. The server does all
// game analysis (POST /api/v1/{game}/analyze and /play); this page edits
// positions, draws them, and keeps the play history.
//
// One design for every game. Each game is one entry of GAMES with the same
// small interface: position encoding (the link), moves, and how a move and
// its reason are said in words (the CLI's words and numbering: grids 1-based
// (row,col), the pawn x/y from the origin, boards and pawns 1-based). Every
// board is drawn by one function, drawGrid, from a list of cells, marks and
// outlines: row and column labels around it, every legal move marked with
// hints on (the value it leads to: 0 in green, others shaded), the last move
// in amber, and one legend under the boards saying what is drawn. The
// explanation of a move ("why it wins") is the same text in the "Why" card
// and the move list.
'use strict';

// The page's limits: it draws clear boards, pawn and split grids up to
// 32 x 32 (the API takes larger clear boards too), and sums of at most 16
// boards or pawns. Clear boards past 64 cells get the large boards'
// analysis: the value when the server's budget finds it, winning moves by
// values or by pairs of equal shapes, and no per-move list.
const MAX_BOARDS = 16;
const MAX_GRID = 32;
const fitsPage = (rows, cols) => rows >= 1 && cols >= 1 && rows <= MAX_GRID && cols <= MAX_GRID;

// ---------------------------------------------------------------- words

// A grid cell, 1-based (row,col), as the CLI prints it.
function rc(r, c) {
  return `(${r + 1},${c + 1})`;
}

// A rectangle, 1-based corners, as the CLI prints it.
function rectText(q) {
  return `${rc(q.top, q.left)}-${rc(q.bottom, q.right)}`;
}

// The command line's fixed sentences (grundy-report's `words`), as
// `GET /api/v1/games` gives them (`loadGames`); these until it answers.
const WORDS = {
  no_moves: 'No moves: the player to move loses.',
  no_winning_moves: 'No winning moves: every move leaves a non-zero value.',
};

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// Component letters, as `grundy clear` draws them.
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function letter(i) {
  return LETTERS[i] || '?';
}

// A shell-safe printf of lines (the lines hold only digits, 0/1, spaces).
function printf(lines) {
  return `printf '${lines.join('\\n')}\\n'`;
}

// ---------------------------------------------------------------- the games

const clearGame = {
  name: 'clear',
  title: 'Rectangle clearing',
  help: {
    edit: 'Click cells to toggle them (drag to paint). A move clears a rectangle of ones; who cannot move loses.',
    play: 'Make a move: drag across a rectangle of ones, or click two opposite corners (click a cell twice to clear just it).',
  },
  // A position: an array of boards, each {rows, cols, cells: bool[rows][cols]}.
  defaultPosition() {
    return [board(['0110', '0000', '0000', '0001'])];
  },
  // "0110-0000-0000-0001,111-111": rows joined by '-', boards by ','.
  encode(boards) {
    return boards.map((b) => b.cells.map((row) => row.map((c) => (c ? '1' : '0')).join('')).join('-')).join(',');
  },
  decode(text) {
    const parts = text.split(',').map((part) => part.split('-'));
    this.checkFits(parts);
    return parts.map((rows, i) => {
      const where = parts.length > 1 ? `board ${i + 1}: ` : '';
      rows.forEach((r, j) => {
        if (!/^[01]+$/.test(r)) throw new Error(`${where}row ${j + 1} ("${r}") is not a row of 0 and 1`);
        if (r.length !== rows[0].length) throw new Error(`${where}row ${j + 1} has ${plural(r.length, 'cell')}, but row 1 has ${rows[0].length}`);
      });
      return board(rows);
    });
  },
  // What the page draws, for a link's boards and a pasted text's alike
  // (each board as its rows): at most MAX_BOARDS boards of MAX_GRID x
  // MAX_GRID.
  checkFits(boardsRows) {
    if (boardsRows.length > MAX_BOARDS) throw new Error(`${boardsRows.length} boards; the page takes sums of at most ${MAX_BOARDS}`);
    boardsRows.forEach((rows, i) => {
      const where = boardsRows.length > 1 ? `board ${i + 1}: ` : '';
      if (!fitsPage(rows.length, rows[0].length)) {
        throw new Error(`${where}${rows.length} x ${rows[0].length}: the page draws boards up to ${MAX_GRID} x ${MAX_GRID}`);
      }
    });
  },
  request(boards) {
    return { boards: boards.map(boardRows) };
  },
  // A move in a link: "board.top.left.bottom.right", 0-based.
  encodeMove(mv) {
    return `${mv.board}.${mv.top}.${mv.left}.${mv.bottom}.${mv.right}`;
  },
  decodeMove(text) {
    const n = text.split('.').map(Number);
    if (n.length !== 5 || !n.every(Number.isInteger)) return null;
    const [board, top, left, bottom, right] = n;
    return { board, top, left, bottom, right };
  },
  // A random position: one board of `rows` x `cols`, each cell a one with
  // probability `density`.
  random(rows, cols, density) {
    if (!fitsPage(rows, cols)) throw new Error(`${rows} x ${cols}: the page draws boards up to ${MAX_GRID} x ${MAX_GRID}`);
    return [{ rows, cols, cells: Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.random() < density)) }];
  },
  // The page's form of the server's `parse` answer.
  fromParsed(json) {
    this.checkFits(json.boards);
    return json.boards.map(board);
  },
  // The `grundy` command that analyses this position (`flags`: more
  // options, e.g. the shape database to read).
  command(boards, flags = '') {
    const lines = [];
    boards.forEach((b, i) => {
      if (i > 0) lines.push('');
      lines.push(...boardRows(b));
    });
    return `${printf(lines)} | grundy clear ${flags ? `${flags} ` : ''}-`;
  },
  isLegal(boards, mv) {
    const b = boards[mv.board];
    // A rectangle whose sides are inside the board and in order (a link
    // can spell any numbers: an inverted one would clear nothing).
    const inside = (low, high, size) => low >= 0 && low <= high && high < size;
    if (!b || !inside(mv.top, mv.bottom, b.rows) || !inside(mv.left, mv.right, b.cols)) return false;
    for (let r = mv.top; r <= mv.bottom; r++) {
      for (let c = mv.left; c <= mv.right; c++) if (!b.cells[r][c]) return false;
    }
    return true;
  },
  play(boards, mv) {
    const next = boards.map(copyBoard);
    for (let r = mv.top; r <= mv.bottom; r++) {
      for (let c = mv.left; c <= mv.right; c++) next[mv.board].cells[r][c] = false;
    }
    return next;
  },
  hasMoves(boards) {
    return boards.some((b) => b.cells.some((row) => row.some(Boolean)));
  },
  sameMove(a, b) {
    return a.board === b.board && a.top === b.top && a.left === b.left && a.bottom === b.bottom && a.right === b.right;
  },
  describe(mv, boards) {
    return `clear ${rectText(mv)}${boards.length > 1 ? ` on board ${mv.board + 1}` : ''}`;
  },
  // Why a move leads to `after` (the total it leaves), as `grundy clear`
  // says it: the component it changes, from which value to which (the
  // component's value after the move is after ^ total ^ before: the move
  // changes only that component), and the new total.
  explain(boards, a, mv, after) {
    const text = movePhrase(this, a, mv, this.describe(mv, boards), after);
    const comps = a.boards && a.boards[mv.board] ? a.boards[mv.board].components : [];
    const option = findOption(a, mv);
    // In a sum a component is named by its board and letter (1B), as the
    // explanation names it.
    const name = (index) => `${boards.length > 1 ? mv.board + 1 : ''}${letter(index)}`;
    if (option && comps[option.component]) {
      const before = comps[option.component].grundy;
      return `${text} (component ${name(option.component)}: grundy ${before} -> ${option.component_after})`;
    }
    const index = comps.findIndex((comp) => comp.cells.some(([r, c]) => r === mv.top && c === mv.left));
    if (index < 0 || after === null || a.grundy === null || comps[index].grundy === null) return text;
    const before = comps[index].grundy;
    return `${text} (component ${name(index)}: grundy ${before} -> ${after ^ a.grundy ^ before})`;
  },
  valueParts(a) {
    return a.boards && a.boards.length > 1 ? ` = ${a.boards.map((b) => b.grundy).join(' xor ')}` : '';
  },
};

// The pawn game. Coordinates as the CLI's `grundy pawn`: x the column, y the
// row, y grows upwards (row 0 is drawn at the bottom); a pawn moves left or
// down, never onto or over a wall. Several pawns are a sum.
const pawnGame = {
  name: 'pawn',
  title: 'Pawn on a grid with impassable cells',
  cellGame: true,
  tools: [['wall', 'Walls'], ['pawn', 'Pawns']],
  help: {
    edit: 'Walls: click cells to toggle impassable cells. Pawns: click to place or remove a pawn (several pawns are a sum). A move takes one pawn any distance left or down, not over a wall; who cannot move loses.',
    play: 'Click a cell left of or below a pawn to move it there.',
    several: 'A click moves the selected pawn (Moving pawn); click another pawn, or its button, to select it.',
  },
  // {w, h, walls: [[x, y]], pawns: [[x, y]]}
  defaultPosition() {
    return { w: 8, h: 8, walls: [[2, 0], [1, 3], [4, 4], [5, 2]], pawns: [[6, 5]] };
  },
  // "8x8;2.0_1.3;6.5": size, walls, pawns.
  encode(p) {
    const list = (cells) => cells.map(([x, y]) => `${x}.${y}`).join('_');
    return `${p.w}x${p.h};${list(p.walls)};${list(p.pawns)}`;
  },
  decode(text) {
    const m = /^(\d+)x(\d+);([\d._]*);([\d._]+)$/.exec(text);
    if (!m) throw new Error('expected WxH;walls;pawns, e.g. 8x8;2.0_1.3;6.5');
    const w = Number(m[1]);
    const h = Number(m[2]);
    if (w < 1 || h < 1 || w > MAX_GRID || h > MAX_GRID) throw new Error(`${w} x ${h}: the page draws grids from 1 x 1 to ${MAX_GRID} x ${MAX_GRID}`);
    const list = (t, what) => (t ? t.split('_') : []).map((xy) => {
      const parts = xy.split('.');
      const [x, y] = parts.map(Number);
      if (parts.length !== 2 || !Number.isInteger(x) || !Number.isInteger(y) || x >= w || y >= h) {
        throw new Error(`${what} "${xy}" is not a cell x.y of the ${w} x ${h} grid`);
      }
      return [x, y];
    });
    const walls = list(m[3], 'wall');
    const pawns = list(m[4], 'pawn');
    if (pawns.length > MAX_BOARDS) throw new Error(`${pawns.length} pawns; the page takes sums of at most ${MAX_BOARDS}`);
    const wallSet = new Set(walls.map(([x, y]) => cellKey(x, y)));
    if (wallSet.size !== walls.length) throw new Error('a wall is listed twice');
    const onWall = pawns.findIndex(([x, y]) => wallSet.has(cellKey(x, y)));
    if (onWall >= 0) throw new Error(`pawn ${onWall + 1} at (${pawns[onWall]}) stands on a wall`);
    return { w, h, walls, pawns };
  },
  request(p) {
    return { blocked: p.walls, pawns: p.pawns, region: [p.w, p.h] };
  },
  // A move in a link: "pawn.x.y".
  encodeMove(mv) {
    return `${mv.pawn}.${mv.x}.${mv.y}`;
  },
  decodeMove(text) {
    const n = text.split('.').map(Number);
    if (n.length !== 3 || !n.every(Number.isInteger)) return null;
    return { pawn: n[0], x: n[1], y: n[2] };
  },
  // A random grid: each cell a wall with probability `density`, one pawn
  // on the free cell farthest from the origin (the longest game) among
  // those with a move (a free cell beside it toward the origin): with many
  // walls the farthest free cell is most often walled in, a game over
  // before it begins.
  random(rows, cols, density) {
    if (!fitsPage(rows, cols)) throw new Error(`${rows} x ${cols}: the page draws grids up to ${MAX_GRID} x ${MAX_GRID}`);
    const wall = Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.random() < density));
    const walls = [];
    const free = [];
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) (wall[y][x] ? walls : free).push([x, y]);
    if (!free.length) return { w: cols, h: rows, walls: walls.slice(1), pawns: [walls[0]] };
    const canMove = ([x, y]) => (x > 0 && !wall[y][x - 1]) || (y > 0 && !wall[y - 1][x]);
    const moving = free.filter(canMove);
    const from = moving.length ? moving : free;
    const far = Math.max(...from.map(([x, y]) => x + y));
    const pick = from.filter(([x, y]) => x + y === far);
    return { w: cols, h: rows, walls, pawns: [pick[Math.floor(Math.random() * pick.length)]] };
  },
  command(p) {
    const at = p.pawns.map(([x, y]) => ` --at ${x},${y}`).join('');
    if (!p.walls.length) return `grundy pawn${at}`;
    return `${printf(p.walls.map(([x, y]) => `${x} ${y}`))} | grundy pawn --blocked -${at}`;
  },
  size(p) {
    return [p.h, p.w];
  },
  // The steppers of size(p)'s two sides: the pawn's axes, not rows and
  // columns.
  sizeNames: ['height (y)', 'width (x)'],
  resize(p, rows, cols) {
    const inside = ([x, y]) => x < cols && y < rows;
    const pawns = p.pawns.filter(inside);
    return { w: cols, h: rows, walls: p.walls.filter(inside), pawns: pawns.length ? pawns : [[0, 0]] };
  },
  // Labels: y down the left (the top row is y = h - 1), x along the bottom.
  rowLabel(p, r) {
    return p.h - 1 - r;
  },
  colLabel(_p, c) {
    return c;
  },
  labelsBelow: true,
  axes: 'x across from 0, y up from 0',
  // Display row r is y = h - 1 - r.
  at(p, r, c) {
    return [c, p.h - 1 - r];
  },
  edit(p, r, c, tool) {
    const [x, y] = this.at(p, r, c);
    const key = cellKey(x, y);
    const isWall = p.walls.some(([a, b]) => cellKey(a, b) === key);
    const pawnAt = p.pawns.findIndex(([a, b]) => cellKey(a, b) === key);
    if (tool === 'wall') {
      if (pawnAt >= 0) return null;
      const walls = isWall ? p.walls.filter(([a, b]) => cellKey(a, b) !== key) : [...p.walls, [x, y]];
      return { ...p, walls };
    }
    if (isWall) return null;
    if (pawnAt >= 0) {
      if (p.pawns.length === 1) return null; // keep at least one pawn
      return { ...p, pawns: p.pawns.filter((_, i) => i !== pawnAt) };
    }
    if (p.pawns.length >= MAX_BOARDS) return null;
    return { ...p, pawns: [...p.pawns, [x, y]] };
  },
  wallAt(p, x, y) {
    return p.walls.some(([a, b]) => a === x && b === y);
  },
  isLegal(p, mv) {
    const from = p.pawns[mv.pawn];
    if (!from) return false;
    const [px, py] = from;
    if (mv.y === py && mv.x < px && mv.x >= 0) {
      for (let x = mv.x; x < px; x++) if (this.wallAt(p, x, py)) return false;
      return true;
    }
    if (mv.x === px && mv.y < py && mv.y >= 0) {
      for (let y = mv.y; y < py; y++) if (this.wallAt(p, px, y)) return false;
      return true;
    }
    return false;
  },
  // Why a click on (r, c) moves no pawn: the selected pawn (see `selected`)
  // has no move at all, or the cell is a wall, the pawn's own cell, off its
  // row and column, to its right or above, or behind a wall.
  whyIllegal(p, r, c) {
    const pawn = this.selected(p, state.pawnSel);
    const [x, y] = this.at(p, r, c);
    const [px, py] = p.pawns[pawn];
    const name = p.pawns.length > 1 ? `pawn ${pawn + 1}` : 'the pawn';
    const Name = name[0].toUpperCase() + name.slice(1);
    const at = `${Name} at (${px},${py})`;
    if (!this.pawnHasMove(p, pawn)) {
      const why = px === 0 && py === 0 ? 'it stands at the origin' : 'the origin, an edge or a wall is next to it on the left and below';
      return `${at} has no move: ${why}.`;
    }
    if (this.wallAt(p, x, y)) return `(${x},${y}) is a wall: no pawn may stop on it or pass it.`;
    if (x === px && y === py) return `${at} is already there: click a cell to its left or below it.`;
    const along = y === py && x < px;
    const down = x === px && y < py;
    if (!along && !down) {
      return `${at} moves left along its row or down its column, not to (${x},${y}).`;
    }
    const between = along
      ? [...Array(px - x).keys()].map((i) => [x + i, py]).filter(([a, b]) => this.wallAt(p, a, b))
      : [...Array(py - y).keys()].map((i) => [px, y + i]).filter(([a, b]) => this.wallAt(p, a, b));
    const [wx, wy] = between[between.length - 1];
    return `${at} cannot reach (${x},${y}): the wall at (${wx},${wy}) is in the way.`;
  },
  // A click moves one pawn, the selected one (`pawn`; see `selected`): two
  // pawns may reach the same cell, and the marks, the rings, the hover text
  // and the click must all mean the same move.
  moveAt(p, r, c, pawn = this.selected(p, state.pawnSel)) {
    const [x, y] = this.at(p, r, c);
    const mv = { pawn, x, y };
    return this.isLegal(p, mv) ? mv : null;
  },
  // The pawn a click moves: `wanted` (the player's choice) while it has a
  // move, else the first pawn with a move (a single pawn is always it).
  selected(p, wanted) {
    if (Number.isInteger(wanted) && wanted < p.pawns.length && this.pawnHasMove(p, wanted)) return wanted;
    const first = p.pawns.findIndex((_, i) => this.pawnHasMove(p, i));
    return first < 0 ? 0 : first;
  },
  // A click at display (r, c) that is no move of pawn `current`: the pawn
  // it selects instead (one standing there with a move; on a cell of
  // several, the next after `current`), or null.
  selectAt(p, r, c, current) {
    const [x, y] = this.at(p, r, c);
    const here = this.pawnsAt(p, x, y).filter((i) => this.pawnHasMove(p, i));
    const next = here.find((i) => i > current) ?? here[0];
    return next === undefined || next === current ? null : next;
  },
  // The pawns standing on cell (x, y): a pawn may move onto another (each
  // pawn is a game of its own).
  pawnsAt(p, x, y) {
    return p.pawns.flatMap(([a, b], i) => (a === x && b === y ? [i] : []));
  },
  pawnHasMove(p, i) {
    const [x, y] = p.pawns[i];
    return (x > 0 && !this.wallAt(p, x - 1, y)) || (y > 0 && !this.wallAt(p, x, y - 1));
  },
  play(p, mv) {
    return { ...p, pawns: p.pawns.map((xy, i) => (i === mv.pawn ? [mv.x, mv.y] : xy)) };
  },
  hasMoves(p) {
    return p.pawns.some((_, i) => this.pawnHasMove(p, i));
  },
  sameMove(a, b) {
    return a.pawn === b.pawn && a.x === b.x && a.y === b.y;
  },
  moveCell(p, mv) {
    return [p.h - 1 - mv.y, mv.x];
  },
  describe(mv, p) {
    const from = p.pawns[mv.pawn];
    const who = p.pawns.length > 1 ? `move pawn ${mv.pawn + 1} ` : 'move pawn ';
    return `${who}(${from[0]},${from[1]}) -> (${mv.x},${mv.y})`;
  },
  // A move with the value it leaves and, in a sum, the moved pawn's value
  // before and after (after ^ total ^ before: only that pawn changes), in
  // the form `grundy pawn` gives a winning move's (which the server words
  // whole: `moveLine`).
  explain(p, a, mv, after) {
    const text = movePhrase(this, a, mv, this.describe(mv, p), after);
    const pawn = a.pawns && a.pawns[mv.pawn];
    if (!pawn || pawn.grundy == null || after === null || p.pawns.length < 2) return text;
    return `${text} (pawn ${mv.pawn + 1}: grundy ${pawn.grundy} -> ${after ^ a.grundy ^ pawn.grundy})`;
  },
  valueParts(a) {
    return a.pawns && a.pawns.length > 1 ? ` = ${a.pawns.map((q) => q.grundy).join(' xor ')}` : '';
  },
  // The cell at display (r, c): its class, label and name.
  cellView(p, r, c, a, hints) {
    const [x, y] = this.at(p, r, c);
    const here = this.pawnsAt(p, x, y);
    if (this.wallAt(p, x, y)) return { cls: 'wall', label: '', aria: `(${x},${y}) wall` };
    const losing = hints && a && a.losing && a.losing.some(([a2, b2]) => a2 === x && b2 === y);
    if (here.length) {
      // Every pawn on the cell ("2,3"), each value in the corner. No
      // analysis (none yet, or the request failed) or no value: no corner.
      const values = here.map((i) => a?.pawns?.[i]?.grundy);
      const valued = values.every((v) => v != null);
      return {
        cls: `pawn${here.length > 1 ? ' stack' : ''}`,
        label: p.pawns.length > 1 ? here.map((i) => i + 1).join(',') : '♟',
        corner: valued ? values.join(',') : '',
        aria: `(${x},${y}) ${here.map((i, k) => `pawn ${i + 1}${valued ? `, grundy ${values[k]}` : ''}`).join('; ')}`,
      };
    }
    return { cls: losing ? 'losing' : '', label: '', aria: `(${x},${y})${losing ? ' losing cell' : ''}` };
  },
  // Under the board: each pawn and its value.
  summary(p, a) {
    if (!a || !a.pawns) return '';
    return a.pawns.map((q, i) => `${p.pawns.length > 1 ? `Pawn ${i + 1}` : 'Pawn'} at (${q.x},${q.y}): ${q.grundy == null ? (q.losing ? 'losing cell' : 'winning cell') : `${q.grundy === 0 ? 'losing' : 'winning'} cell, grundy ${q.grundy}`}`).join(' · ');
  },
  outlines() {
    return [];
  },
};

// The splitting game: a move picks a candidate inside a rectangle still in
// play and deletes its row and column from that rectangle, leaving up to
// four rectangles. Cells 0-based in requests and links, shown 1-based.
const splitGame = {
  name: 'split',
  title: 'Splitting a grid at candidates',
  cellGame: true,
  tools: null,
  help: {
    edit: 'Click cells to toggle candidates. A move picks a candidate and deletes its row and column from its rectangle; who cannot move loses.',
    play: 'Click a candidate inside a rectangle still in play.',
  },
  // {rows, cols, cand: bool[][], moves: [[r, c]]}
  defaultPosition() {
    const rows = ['01100', '10010', '00100', '11001', '00110'];
    return { rows: 5, cols: 5, cand: rows.map((r) => [...r].map((ch) => ch === '1')), moves: [] };
  },
  // "01100-10010;0.1_1.0": rows, then the moves played (row.col, 0-based).
  encode(p) {
    const grid = p.cand.map((row) => row.map((on) => (on ? '1' : '0')).join('')).join('-');
    return `${grid};${p.moves.map(([r, c]) => `${r}.${c}`).join('_')}`;
  },
  decode(text) {
    const [gridText, movesText = ''] = text.split(';');
    const rows = gridText.split('-');
    rows.forEach((r, j) => {
      if (!/^[01]+$/.test(r)) throw new Error(`row ${j + 1} ("${r}") is not a row of 0 and 1`);
      if (r.length !== rows[0].length) throw new Error(`row ${j + 1} has ${plural(r.length, 'cell')}, but row 1 has ${rows[0].length}`);
    });
    if (rows.length > MAX_GRID || rows[0].length > MAX_GRID) {
      throw new Error(`${rows.length} x ${rows[0].length}: the page draws grids up to ${MAX_GRID} x ${MAX_GRID}`);
    }
    let p = { rows: rows.length, cols: rows[0].length, cand: rows.map((r) => [...r].map((ch) => ch === '1')), moves: [] };
    // A bad move is named as the API names it (`moves[1]`, the request's
    // list, from 0) and worded as the command line words moves.
    (movesText ? movesText.split('_') : []).forEach((mv, i) => {
      if (!/^\d+\.\d+$/.test(mv)) throw new Error(`moves[${i}] is "${mv}": expected row.col, two whole numbers counted from 0`);
      const [row, col] = mv.split('.').map(Number);
      if (!this.isLegal(p, { row, col })) {
        const why = row >= p.rows || col >= p.cols
          ? `it lies outside the ${p.rows} x ${p.cols} grid`
          : p.cand[row][col] ? 'no longer in play: an earlier move deleted its row or column' : `cell ${rc(row, col)} is 0, not a candidate`;
        throw new Error(`moves[${i}]: ${this.describe({ row, col })} is illegal: ${why}`);
      }
      p = this.play(p, { row, col });
    });
    return p;
  },
  request(p) {
    return { grid: p.cand.map((row) => row.map((on) => (on ? '1' : '0')).join('')), moves: p.moves };
  },
  // A move in a link: "row.col", 0-based.
  encodeMove(mv) {
    return `${mv.row}.${mv.col}`;
  },
  decodeMove(text) {
    const n = text.split('.').map(Number);
    if (n.length !== 2 || !n.every(Number.isInteger)) return null;
    return { row: n[0], col: n[1] };
  },
  // A random grid: each cell a candidate with probability `density`.
  random(rows, cols, density) {
    if (!fitsPage(rows, cols)) throw new Error(`${rows} x ${cols}: the page draws grids up to ${MAX_GRID} x ${MAX_GRID}`);
    return { rows, cols, cand: Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.random() < density)), moves: [] };
  },
  fromParsed(json) {
    const rows = json.grid;
    if (!fitsPage(rows.length, rows[0].length)) throw new Error(`${rows.length} x ${rows[0].length}: the page draws grids up to ${MAX_GRID} x ${MAX_GRID}`);
    return { rows: rows.length, cols: rows[0].length, cand: rows.map((r) => [...r].map((ch) => ch === '1')), moves: [] };
  },
  // After moves the position is a sum of rectangles: one command each (the
  // value is the XOR of theirs).
  command(p) {
    if (!p.moves.length) return `${printf(this.crop(p, this.rects(p)[0]))} | grundy split -`;
    return this.liveRects(p)
      .map((q) => `${printf(this.crop(p, q))} | grundy split -   # ${rectText(q)}`)
      .join('\n');
  },
  // The rows of rectangle q of the grid, as a grid of its own.
  crop(p, q) {
    const rows = [];
    for (let r = q.top; r <= q.bottom; r++) rows.push(p.cand[r].slice(q.left, q.right + 1).map((on) => (on ? '1' : '0')).join(''));
    return rows;
  },
  // The rectangles in play that hold a candidate.
  liveRects(p) {
    return this.rects(p).filter((q) => this.crop(p, q).some((row) => row.includes('1')));
  },
  size(p) {
    return [p.rows, p.cols];
  },
  resize(p, rows, cols) {
    const cand = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => Boolean(p.cand[r] && p.cand[r][c])));
    return { rows, cols, cand, moves: [] };
  },
  rowLabel(_p, r) {
    return r + 1;
  },
  colLabel(_p, c) {
    return c + 1;
  },
  labelsBelow: false,
  axes: '(row,col) from 1',
  // The rectangles after the moves, each {top, left, bottom, right}.
  rects(p) {
    let rects = [{ top: 0, left: 0, bottom: p.rows - 1, right: p.cols - 1 }];
    for (const [r, c] of p.moves) {
      const i = rects.findIndex((q) => q.top <= r && r <= q.bottom && q.left <= c && c <= q.right);
      if (i < 0) continue;
      const q = rects[i];
      const parts = [];
      for (const [t, b] of [[q.top, r - 1], [r + 1, q.bottom]]) {
        for (const [l, rt] of [[q.left, c - 1], [c + 1, q.right]]) {
          if (t <= b && l <= rt) parts.push({ top: t, left: l, bottom: b, right: rt });
        }
      }
      rects = [...rects.slice(0, i), ...parts, ...rects.slice(i + 1)];
    }
    return rects;
  },
  edit(p, r, c) {
    const cand = p.cand.map((row) => row.slice());
    cand[r][c] = !cand[r][c];
    return { ...p, cand, moves: [] };
  },
  // The start (no moves) and the position after each move of `p`.
  replay(p) {
    let at = { ...p, moves: [] };
    const history = [{ boards: at, move: null, by: null }];
    for (const [row, col] of p.moves) {
      at = this.play(at, { row, col });
      history.push({ boards: at, move: { row, col }, by: null });
    }
    return history;
  },
  isLegal(p, mv) {
    const { row, col } = mv;
    if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || col < 0 || row >= p.rows || col >= p.cols) return false;
    if (!p.cand[row][col]) return false;
    return this.rects(p).some((q) => q.top <= row && row <= q.bottom && q.left <= col && col <= q.right);
  },
  moveAt(p, r, c) {
    const mv = { row: r, col: c };
    return this.isLegal(p, mv) ? mv : null;
  },
  // Why a click on (r, c) is no move, worded as `grundy split` words an
  // illegal move (`grundy_report::split::why_illegal`).
  whyIllegal(p, r, c) {
    const why = p.cand[r][c]
      ? 'no longer in play: an earlier move deleted its row or column'
      : `cell (${r + 1},${c + 1}) is 0, not a candidate`;
    return `${this.describe({ row: r, col: c })} is illegal: ${why}.`;
  },
  play(p, mv) {
    return { ...p, moves: [...p.moves, [mv.row, mv.col]] };
  },
  hasMoves(p) {
    for (let r = 0; r < p.rows; r++) for (let c = 0; c < p.cols; c++) if (this.isLegal(p, { row: r, col: c })) return true;
    return false;
  },
  sameMove(a, b) {
    return a.row === b.row && a.col === b.col;
  },
  moveCell(_p, mv) {
    return [mv.row, mv.col];
  },
  describe(mv) {
    return `split at ${rc(mv.row, mv.col)}`;
  },
  // A move with the value it leaves (a winning move is worded whole by
  // the server, with what it leaves: `moveLine`).
  explain(_p, a, mv, after) {
    return movePhrase(this, a, mv, this.describe(mv), after);
  },
  valueParts(a) {
    return a.rects && a.rects.length > 1 ? ` = ${a.rects.map((q) => q.grundy).join(' xor ')} over ${a.rects.length} rectangles` : '';
  },
  cellView(p, r, c) {
    const live = this.rects(p).some((q) => q.top <= r && r <= q.bottom && q.left <= c && c <= q.right);
    const played = p.moves.some(([a, b]) => a === r && b === c);
    const on = p.cand[r][c];
    const cls = `${on ? 'cand' : ''}${live ? '' : ' dead'}${played ? ' played' : ''}`;
    return { cls, label: played ? '✕' : '', aria: `${rc(r, c)}${on ? ' candidate' : ''}${live ? '' : ' deleted'}` };
  },
  summary(_p, a) {
    if (!a || !a.rects || a.rects.length < 2) return '';
    return `Rectangles in play: ${a.rects.map((q) => `${rectText(q)} grundy ${q.grundy}`).join(' · ')}`;
  },
  // The rectangles in play with their values, once the grid is split.
  outlines(p, a) {
    if (!p.moves.length || !a || !a.rects) return [];
    return a.rects.map((q) => ({ rect: q, cls: 'part', label: `g${q.grundy}` }));
  },
};

const GAMES = { clear: clearGame, pawn: pawnGame, split: splitGame };

function cellKey(x, y) {
  return `${x},${y}`;
}

function board(rows) {
  return {
    rows: rows.length,
    cols: rows[0].length,
    cells: rows.map((row) => [...row].map((ch) => ch === '1')),
  };
}

function boardRows(b) {
  return b.cells.map((row) => row.map((c) => (c ? '1' : '0')).join(''));
}

function emptyBoard(rows, cols) {
  return { rows, cols, cells: Array.from({ length: rows }, () => Array(cols).fill(false)) };
}

function copyBoard(b) {
  return { rows: b.rows, cols: b.cols, cells: b.cells.map((row) => row.slice()) };
}

function rectOf(boardIndex, [r1, c1], [r2, c2]) {
  return {
    board: boardIndex,
    top: Math.min(r1, r2),
    left: Math.min(c1, c2),
    bottom: Math.max(r1, r2),
    right: Math.max(c1, c2),
  };
}

// ---------------------------------------------------------------- state

const state = {
  game: clearGame,
  mode: 'edit', // 'edit' or 'play'
  tool: 'wall', // the pawn game's edit tool: 'wall' or 'pawn'
  hints: false,
  vsEngine: true,
  engineSide: 1, // the ply parity the engine plays: 0 first, 1 second
  // history[0] is the start; history[i] the position after move i.
  history: [{ boards: clearGame.defaultPosition(), move: null, by: null }],
  cursor: 0,
  analysis: null, // the server's answer for the current position
  analysisFor: null, // the encoded position it answers
  error: null,
  tooLarge: null, // {message, found: [text], command} when the server's budget ran out
  notice: null, // why a link could not be opened
  busy: false,
  selection: null, // {board, anchor: [r, c], end: [r, c], dragging, clickMode}
  paint: null, // {board, value} while painting in edit mode
  hoverCell: null, // {board, r, c}
  hoverMove: null, // a move highlighted from the winning list or the option list
  picked: null, // clear: the move picked in the option list, drawn alone
  optFilter: 'all', // clear's option list: 'all', 'win', or 'v:N' (leaves N)
  optSort: 'value', // 'value', 'position' or 'size'
  optionsDrawn: null, // what the option list was last built for
  keyCell: null, // {board, r, c}: the cell last focused, its board's one Tab stop
  requestSeq: 0,
  generation: 0, // bumped whenever the position is replaced (edits, new games)
  written: null, // the link the page last wrote into the address bar
  pushNext: false, // the next link written is a new browser-history entry
  mexPart: null, // the part whose mex the theory card shows
  armed: null, // a cell game on cells too small for numbers: the cell tapped once
  pawnSel: null, // the pawn a click moves in a sum of pawns (null: the first with a move)
  analyseAbort: null, // the AbortController of the analysis in flight
  retry: null, // {message, run}: an error offering "Try again" (the server was busy)
  engineProof: null, // the position key an engine's move proved lost for the player to move
  waiting: null, // what the page waits for before asking a busy server again
};

const $ = (id) => document.getElementById(id);

function boards() {
  return state.history[state.cursor].boards;
}

function isEngineTurn(ply) {
  return state.mode === 'play' && state.vsEngine && ply % 2 === state.engineSide;
}

function playerName(ply) {
  const seat = ply % 2 === 0 ? 'First player' : 'Second player';
  if (state.mode !== 'play' || !state.vsEngine) return seat;
  return `${seat} (${ply % 2 === state.engineSide ? 'engine' : 'you'})`;
}

// ---------------------------------------------------------------- server

// A request cancelled by `signal` (a newer one superseded it) rejects
// with `aborted` set: nothing to show.
function abortedError() {
  const err = new Error('superseded by a newer request');
  err.aborted = true;
  return err;
}

async function api(endpoint, body, game = state.game, signal = undefined) {
  let response;
  try {
    response = await fetch(`/api/v1/${game.name}/${endpoint}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (_) {
    if (signal && signal.aborted) throw abortedError();
    // No answer at all (the browser says only "Failed to fetch").
    const err = new Error('Cannot reach the grundy server: is `grundy serve` still running?');
    err.unreachable = true;
    throw err;
  }
  let json = null;
  try {
    json = await response.json();
  } catch (_) {
    if (signal && signal.aborted) throw abortedError();
    json = null;
  }
  if (!response.ok) {
    const err = new Error((json && json.error) || `the server answered ${response.status}`);
    err.status = response.status;
    err.body = json || {};
    err.retryAfter = Number(response.headers.get('Retry-After')) || 1;
    throw err;
  }
  return json;
}

// A 503 says the server's queue of searches is full (it asks to come back
// after `Retry-After`, 1 s): the page asks once more after that wait, while
// `wanted()` (the answer is still needed), then gives up with the error,
// which offers "Try again" (see `offerRetry`).
async function apiRetrying(endpoint, body, wanted, signal = undefined) {
  try {
    return await api(endpoint, body, state.game, signal);
  } catch (err) {
    if (err.status !== 503 || !wanted()) throw err;
    state.waiting = `The server is busy with other analyses: asking again in ${plural(Math.min(err.retryAfter, 5), 'second')}…`;
    render();
    await new Promise((done) => setTimeout(done, Math.min(err.retryAfter, 5) * 1000));
    state.waiting = null;
    if (!wanted()) throw abortedError();
    return api(endpoint, body, state.game, signal);
  }
}

// A request the server was too busy for, twice, or that reached no server:
// its error, with a button that sends it again (the answer is still
// wanted, and nothing else will ask for it).
function offerRetry(err, run) {
  const said = err.message.replace(/[.;]?$/, '');
  state.error = err.status === 503 ? `${said.charAt(0).toUpperCase()}${said.slice(1)}. The page asked twice.` : err.message;
  state.retry = err.status === 503 || err.unreachable ? { message: state.error, run } : null;
}

async function analyse() {
  const position = boards();
  const key = positionKey();
  if (state.analysisFor === key && state.analysis) {
    // Already analysed (e.g. "Engine moves first" on the edited position):
    // the engine may still have to move.
    maybeEngineMove();
    return;
  }
  const seq = ++state.requestSeq;
  // The server searches until its budget runs out unless the request is
  // cancelled: an analysis of a position no longer shown is.
  cancelAnalysis();
  const abort = new AbortController();
  state.analyseAbort = abort;
  // A search sent again on the same position goes on from what the
  // server's kept memo holds: count the searches.
  const searches = state.tooLarge && state.tooLarge.key === key ? state.tooLarge.searches + 1 : 1;
  state.analysis = null;
  state.analysisFor = null;
  state.tooLarge = null;
  // A new analysis hides the last one's error: "Analysing…" until it answers.
  state.error = null;
  state.retry = null;
  render();
  const current = () => seq === state.requestSeq;
  try {
    const result = await apiRetrying('analyze', state.game.request(position), current, abort.signal);
    if (!current()) return; // a newer position was asked for
    state.analysis = result;
    state.analysisFor = key;
    state.error = null;
  } catch (err) {
    if (!current() || err.aborted) return;
    if (err.status === 422) {
      state.error = null;
      state.tooLarge = { message: err.message, found: [], command: state.game.command(position), tables: err.body.tables || null, proven: err.body.proven || null, position, key, searches };
      render();
      await findWhatFits(position, seq, abort.signal);
      if (!current()) return;
    } else {
      offerRetry(err, () => analyse());
    }
  }
  if (state.analyseAbort === abort) state.analyseAbort = null;
  render();
  maybeEngineMove();
}

function cancelAnalysis() {
  if (state.analyseAbort) state.analyseAbort.abort();
  state.analyseAbort = null;
  state.waiting = null;
}

// After a 422 on a sum (several clear boards, or split rectangles after
// moves): analyse each part alone, so the page shows every value the server
// can find within its budget.
async function findWhatFits(position, seq, signal) {
  let parts = [];
  if (state.game === clearGame && position.length > 1) {
    parts = position.map((b, i) => ({ name: `board ${i + 1}`, game: clearGame, body: { boards: [boardRows(b)] } }));
  } else if (state.game === splitGame && position.moves.length) {
    parts = splitGame.liveRects(position).map((q) => ({ name: `rectangle ${rectText(q)}`, game: splitGame, body: { grid: splitGame.crop(position, q) } }));
  }
  if (parts.length < 2) return;
  for (const part of parts) {
    let text;
    try {
      const one = await api('analyze', { ...part.body, budget: { max_time_ms: 1000 } }, part.game, signal);
      text = `${part.name}: grundy ${one.grundy}`;
    } catch (err) {
      if (err.aborted) return;
      text = `${part.name}: ${err.status === 422 ? 'too large for the server' : err.message}`;
    }
    if (seq !== state.requestSeq) return;
    state.tooLarge.found.push(text);
    render();
  }
}

async function maybeEngineMove() {
  if (!isEngineTurn(state.cursor) || state.busy || !state.game.hasMoves(boards())) return;
  state.busy = true;
  render();
  const at = state.cursor;
  const generation = state.generation;
  const position = boards();
  // Not if the user undid or edited meanwhile.
  const wanted = () => state.generation === generation && state.cursor === at && boards() === position && isEngineTurn(at);
  try {
    const result = await apiRetrying('play', state.game.request(position), wanted);
    state.busy = false;
    if (!wanted() || !result.move) {
      render();
      // The position changed meanwhile (a new game begun while this move
      // was asked): the engine may be to move in the new one, whose own
      // request found this one busy.
      if (!wanted()) maybeEngineMove();
      return;
    }
    state.engineReason = result.reason || null;
    // A move leaving a total of 0 proves that the player to move now loses,
    // even where the server cannot analyse the position it leaves.
    const after = state.game.play(position, result.move);
    state.engineProof = result.grundy === 0 ? `${state.game.name}/${state.game.encode(after)}` : null;
    commitMove(result.move, 'engine');
    state.engineReasonAt = state.cursor;
    render();
  } catch (err) {
    state.busy = false;
    state.waiting = null;
    if (!wanted()) {
      render();
      maybeEngineMove();
      return;
    }
    // Trying again analyses the position if it has no analysis yet, then
    // asks for the move.
    if (!err.aborted) offerRetry(err, () => analyse());
    render();
  }
}

// ---------------------------------------------------------------- actions

function setPosition(newBoards) {
  state.generation += 1;
  state.history = [{ boards: newBoards, move: null, by: null }];
  state.cursor = 0;
  state.selection = null;
  state.pawnSel = null;
  afterChange();
}

// The game and position an analysis answers.
function positionKey() {
  return `${state.game.name}/${state.game.encode(boards())}`;
}

function afterChange() {
  state.picked = null;
  state.hoverMove = null;
  // Never draw another position's (or another game's) analysis.
  if (state.analysisFor !== positionKey()) {
    state.analysis = null;
    state.analysisFor = null;
  }
  writeHash();
  render();
  analyse();
}

function commitMove(mv, by) {
  const position = boards();
  if (!state.game.isLegal(position, mv)) {
    state.error = state.game.cellGame ? 'That is not a legal move.' : 'That rectangle is not all ones.';
    render();
    return;
  }
  state.error = null;
  // The player's moves are browser-history entries (Back steps through the
  // game); the engine's reply joins its player's entry, so Back returns to
  // a position where the player is to move.
  if (by !== 'engine') state.pushNext = true;
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ boards: state.game.play(position, mv), move: mv, by });
  state.cursor += 1;
  state.selection = null;
  afterChange();
}

// A game from the current position (`restart`: from this game's start).
// Until the player has moved, a game begun again begins from the same
// start: a second click on "Engine moves first" neither lets the engine
// move twice nor drops its first move from the list.
function startGame(engineFirst, restart = false) {
  const side = engineFirst ? 0 : 1;
  const unplayed = state.mode === 'play' && state.history.slice(1).every((h) => h.by === 'engine');
  // The same game, already begun, its engine's first move on the way.
  if (unplayed && state.busy && state.vsEngine && state.engineSide === side && state.cursor === 0) return;
  state.pushNext = true;
  state.mode = 'play';
  state.engineSide = side;
  state.vsEngine = true;
  $('vs-engine').checked = true;
  setPosition(restart || unplayed ? state.history[0].boards : boards());
}

function setMode(mode) {
  if (mode === state.mode) return;
  state.pushNext = true;
  state.mode = mode;
  // Either way the current position becomes the new start.
  setPosition(boards());
}

function undoTarget() {
  let target = state.cursor - 1;
  while (target > 0 && isEngineTurn(target)) target -= 1;
  if (target < 0 || isEngineTurn(target)) return null;
  return target;
}

function redoTarget() {
  let target = state.cursor + 1;
  if (target >= state.history.length) return null;
  while (target < state.history.length - 1 && isEngineTurn(target)) target += 1;
  return target;
}

function undo() {
  const target = undoTarget();
  if (target === null || state.busy) return;
  state.cursor = target;
  state.selection = null;
  afterChange();
}

function redo() {
  const target = redoTarget();
  if (target === null || state.busy) return;
  state.cursor = target;
  state.selection = null;
  afterChange();
}

function editBoards(change) {
  const next = boards().map(copyBoard);
  change(next);
  setPosition(next);
}

// Any rows x cols up to 32 x 32.
function resize(index, rows, cols) {
  if (!fitsPage(rows, cols)) return;
  editBoards((bs) => {
    const old = bs[index];
    const fresh = emptyBoard(rows, cols);
    for (let r = 0; r < Math.min(rows, old.rows); r++) {
      for (let c = 0; c < Math.min(cols, old.cols); c++) fresh.cells[r][c] = old.cells[r][c];
    }
    bs[index] = fresh;
  });
}

// ---------------------------------------------------------------- the URL hash

// The link of the page's state: the game and its start position, then
// `&moves=` (the moves played, `_`-separated, in the game's move codec),
// `&at=` (the move shown, when moves were taken back), `&mode=play` with
// `&engine=first|second|off` (the engine's side, or two players), and
// `&hints=1`. Reloading it, or opening it elsewhere, shows the same game in
// the same state.
function linkHash() {
  const game = state.game;
  let hash = `#${game.name}/${game.encode(state.history[0].boards)}`;
  const moves = state.history.slice(1).map((entry) => game.encodeMove(entry.move));
  if (moves.length) hash += `&moves=${moves.join('_')}`;
  if (state.cursor < state.history.length - 1) hash += `&at=${state.cursor}`;
  if (state.mode === 'play') {
    hash += `&mode=play&engine=${state.vsEngine ? (state.engineSide === 0 ? 'first' : 'second') : 'off'}`;
  }
  if (state.hints) hash += '&hints=1';
  return hash;
}

// Writes the link into the address bar: a new browser-history entry after
// a move of the player, a new game, a pasted or random position; else in
// place.
function writeHash() {
  const hash = linkHash();
  const push = state.pushNext;
  state.pushNext = false;
  state.written = hash;
  if (location.hash === hash) return;
  if (push && location.hash) history.pushState(null, '', hash);
  else history.replaceState(null, '', hash);
}

// The game and state of the link: {game, position, moves, at, mode, engine,
// hints}, null for no link, or with {error} saying in words why it cannot
// be opened (then the page says so and opens nothing else silently).
function readHash() {
  if (!location.hash || location.hash === '#') return null;
  const match = /^#([^/&]*)(?:\/([^&]*))?(&.*)?$/s.exec(location.hash);
  const decode = (text) => {
    try {
      return decodeURIComponent(text);
    } catch (_) {
      return null; // a stray '%': said below as an invalid link
    }
  };
  const name = match ? decode(match[1]) : null;
  const game = name !== null && Object.prototype.hasOwnProperty.call(GAMES, name) ? GAMES[name] : null;
  if (!game) {
    return { error: `This link names no game of this page ("${name === null ? location.hash.slice(1) : name}"); the games are ${Object.keys(GAMES).join(', ')}. Showing ${clearGame.title} instead.` };
  }
  if (match[2] === undefined || match[2] === '') {
    return { game, error: `This ${game.name} link gives no position (expected #${game.name}/${game.encode(game.defaultPosition())}). Showing the example position instead.` };
  }
  const text = decode(match[2]);
  if (text === null) return { game, error: `This ${game.name} link is invalid: it is not URL-encoded text. Showing the example position instead.` };
  const params = new URLSearchParams((match[3] || '').slice(1));
  let position;
  try {
    position = game.decode(text);
  } catch (err) {
    return { game, error: `This ${game.name} link is invalid: ${err.message}. Showing the example position instead.` };
  }
  const moves = params.get('moves') ? params.get('moves').split('_') : [];
  const at = params.has('at') ? Number(params.get('at')) : null;
  const engine = params.get('engine');
  return {
    game,
    position,
    moves,
    at: Number.isInteger(at) && at >= 0 ? at : null,
    mode: params.get('mode') === 'play' ? 'play' : 'edit',
    vsEngine: engine !== 'off',
    engineSide: engine === 'first' ? 0 : 1,
    hints: params.get('hints') === '1',
  };
}

// Puts the link's game and state into `state` (no drawing, no request).
function applyLink(link) {
  state.notice = link.error || null;
  state.game = link.game || clearGame;
  state.mode = link.mode || 'edit';
  state.vsEngine = link.vsEngine !== false;
  state.engineSide = link.engineSide === 0 ? 0 : 1;
  state.hints = Boolean(link.hints);
  $('hints').checked = state.hints;
  $('vs-engine').checked = state.vsEngine;
  const game = state.game;
  const history = linkHistory(game, link.position || game.defaultPosition());
  (link.moves || []).some((text, i) => {
    const at = history[history.length - 1].boards;
    const mv = game.decodeMove(text);
    if (!mv || !game.isLegal(at, mv)) {
      // Worded as the page words moves (cells from 1), not as the link
      // spells them (from 0).
      let what = `"${text}"`;
      try {
        // A negative number has no cell to name: the link's text then.
        if (mv && Object.values(mv).every((n) => n >= 0)) what = game.describe(mv, at);
      } catch {
        // A move of a pawn the link does not have: its text as given.
      }
      state.notice = `This ${game.name} link's move ${i + 1} (${what}) is not a legal move there: showing the game before it.`;
      return true;
    }
    const ply = history.length - 1;
    const by = state.mode === 'play' && state.vsEngine && ply % 2 === state.engineSide ? 'engine' : 'you';
    history.push({ boards: game.play(at, mv), move: mv, by });
    return false;
  });
  state.history = history;
  state.cursor = link.at !== null && link.at !== undefined && link.at < history.length ? link.at : history.length - 1;
}

// Opens the link's game and state, or says why it cannot.
function openHash(link) {
  // Nothing of the previous position or game survives: its analysis, a
  // request or engine move in flight (their answers are dropped by the
  // sequence and generation checks), the selection, the list state.
  state.generation += 1;
  state.requestSeq += 1;
  cancelAnalysis();
  state.analysis = null;
  state.analysisFor = null;
  state.error = null;
  state.tooLarge = null;
  state.busy = false;
  state.selection = null;
  state.paint = null;
  state.hoverCell = null;
  state.hoverMove = null;
  state.picked = null;
  state.mexPart = null;
  state.armed = null;
  state.pawnSel = null;
  state.retry = null;
  // The link opened is the one shown (a bad one stays until a change).
  state.written = location.hash;
  applyLink(link);
  if (link.error) {
    // Keep the bad link in the address bar until the user changes something.
    render();
    analyse();
    return;
  }
  afterChange();
}

// The history a link's position stands for: a split position holds the
// moves played (links before `&moves=` carried them there), so they are
// listed and can be undone; other positions are a start.
function linkHistory(game, position) {
  if (!game.replay) return [{ boards: position, move: null, by: null }];
  return game.replay(position);
}

// The address changed (Back, Forward, a link typed in the open tab): open
// it, unless it is the link the page wrote itself.
function onLocation() {
  if (location.hash === state.written) return;
  const next = readHash();
  if (next) openHash(next);
}

// ---------------------------------------------------------------- pointer input

function cellFromPoint(x, y) {
  const node = document.elementFromPoint(x, y);
  const cell = node && node.closest ? node.closest('.cell') : null;
  if (!cell) return null;
  return { board: Number(cell.dataset.board), r: Number(cell.dataset.r), c: Number(cell.dataset.c) };
}

function onPointerDown(event) {
  const cell = cellFromPoint(event.clientX, event.clientY);
  if (!cell || event.button > 0) return;
  event.preventDefault();
  state.notice = null;
  if (state.game.cellGame) {
    cellGameClick(cell, event.pointerType === 'touch');
    return;
  }
  if (state.mode === 'edit') {
    const value = !boards()[cell.board].cells[cell.r][cell.c];
    state.paint = { board: cell.board, value, changed: false };
    paintCell(cell);
    return;
  }
  if (state.busy || isEngineTurn(state.cursor)) return;
  const sel = state.selection;
  if (sel && sel.clickMode && sel.board === cell.board) {
    // Second corner of a click-click selection.
    commitMove(rectOf(cell.board, sel.anchor, [cell.r, cell.c]), 'you');
    return;
  }
  if (!boards()[cell.board].cells[cell.r][cell.c]) {
    // No rectangle of ones has a corner on a 0: said now, not after the
    // second corner, as the command line says why a move is illegal.
    const on = boards().length > 1 ? ` of board ${cell.board + 1}` : '';
    state.selection = null;
    state.error = `Cell (${cell.r + 1},${cell.c + 1})${on} is 0: a move clears a rectangle of ones.`;
    render();
    return;
  }
  state.selection = { board: cell.board, anchor: [cell.r, cell.c], end: [cell.r, cell.c], dragging: true, clickMode: false };
  render();
}

function onPointerMove(event) {
  const cell = cellFromPoint(event.clientX, event.clientY);
  if (state.paint) {
    if (cell && cell.board === state.paint.board) paintCell(cell);
    return;
  }
  const changed = JSON.stringify(cell) !== JSON.stringify(state.hoverCell);
  state.hoverCell = cell;
  const sel = state.selection;
  if (sel && cell && cell.board === sel.board) {
    if (sel.end[0] !== cell.r || sel.end[1] !== cell.c) {
      sel.end = [cell.r, cell.c];
      render();
      return;
    }
  }
  if (changed) render();
}

function onPointerUp(event) {
  if (state.paint) {
    const paint = state.paint;
    state.paint = null;
    if (paint.changed) setPosition(boards());
    return;
  }
  const sel = state.selection;
  if (!sel || !sel.dragging) return;
  const cell = cellFromPoint(event.clientX, event.clientY);
  sel.dragging = false;
  if (cell && cell.board === sel.board && (cell.r !== sel.anchor[0] || cell.c !== sel.anchor[1])) {
    commitMove(rectOf(sel.board, sel.anchor, [cell.r, cell.c]), 'you');
    return;
  }
  // A click on one cell: wait for the second corner.
  sel.clickMode = true;
  render();
}

// A click on a cell game's grid: an edit, or a move. A tap (`touch`) on
// cells too small for numbers, with hints on, first shows the cell's value
// (in the readout under the board); a second tap on it plays.
function cellGameClick(cell, touch = false) {
  const game = state.game;
  if (state.mode === 'edit') {
    const next = game.edit(boards(), cell.r, cell.c, state.tool);
    if (next) setPosition(next);
    return;
  }
  if (state.busy || isEngineTurn(state.cursor)) return;
  const p = boards();
  const mv = game.moveAt(p, cell.r, cell.c);
  // A click on another pawn, which the selected one cannot reach, selects it.
  const pick = !mv && game.selectAt ? game.selectAt(p, cell.r, cell.c, game.selected(p, state.pawnSel)) : null;
  if (pick !== null) {
    state.pawnSel = pick;
    state.armed = null;
    state.error = null;
    render();
    return;
  }
  const tiny = document.querySelector('.grid.tiny') !== null;
  const again = state.armed && state.armed.r === cell.r && state.armed.c === cell.c;
  if (touch && tiny && state.hints && !again) {
    state.armed = cell;
    state.hoverCell = cell;
    render();
    return;
  }
  state.armed = null;
  if (mv) {
    commitMove(mv, 'you');
  } else {
    state.error = game.whyIllegal ? game.whyIllegal(p, cell.r, cell.c) : 'That is not a legal move.';
    render();
  }
}

function paintCell(cell) {
  // Paint in place on the start position (edit mode has no history), and
  // analyse once the stroke ends.
  const b = boards()[cell.board];
  if (b.cells[cell.r][cell.c] !== state.paint.value) {
    b.cells[cell.r][cell.c] = state.paint.value;
    state.paint.changed = true;
    state.analysis = null;
    state.analysisFor = null;
    render();
  }
}

// ---------------------------------------------------------------- drawing

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

// Text with its arrows and rectangles kept whole (the CLI's words, e.g.
// "A: 1 -> 6", "clear (1,1)-(12,12)"): a line may break at a space, never
// between "-" and ">" nor inside a rectangle.
function unbroken(text) {
  return String(text)
    .split(/(->|\(\d+,\d+\)-\(\d+,\d+\))/)
    .map((part, i) => (i % 2 ? el('span', { class: 'nowrap', text: part }) : part))
    .filter((part) => part !== '');
}

// A move in the command line's words, `<move>, leaving grundy <v>`: the
// server's `text` for it (grundy-report's one formatter of moves), or the
// same words from `phrase` (the game's `describe`, which is the formatter's
// move phrase) when the server did not list the move.
function movePhrase(game, a, mv, phrase, after) {
  const found = a && a.moves ? a.moves.find((m) => game.sameMove(m, mv)) : null;
  if (found && found.text) return found.text;
  return after === null ? phrase : `${phrase}, leaving grundy ${after}`;
}

// A move and why it leaves what it leaves: a winning move as the command
// line lists it (the server's `text` of it, from grundy-report's one
// formatter), another as the game words it from the server's values.
function moveLine(game, p, a, mv, after) {
  const winning = after === 0 && a && a.winning_moves ? a.winning_moves.find((m) => game.sameMove(m, mv)) : null;
  return winning && winning.text ? winning.text : game.explain(p, a, mv, after);
}

// The value (the total, for a sum) the move leaves, when the server listed it.
function moveValue(mv) {
  const a = state.analysis;
  if (a && !a.moves && a.winning_moves && a.winning_moves.some((m) => state.game.sameMove(m, mv))) return 0;
  if (!a || !a.moves) return null;
  const found = a.moves.find((m) => state.game.sameMove(m, mv));
  return found ? found.grundy : null;
}

// Clear: the option of the analysis for move `mv` (its component and what it
// leaves), when the server listed it.
function findOption(a, mv) {
  if (!a || !a.options) return null;
  return a.options.moves.find((o) => clearGame.sameMove(o, mv)) || null;
}

function previewMove() {
  if (state.hoverMove) return state.hoverMove;
  if (state.picked && !state.selection) return state.picked;
  if (state.game.cellGame) {
    const h = state.hoverCell;
    return state.mode === 'play' && h ? state.game.moveAt(boards(), h.r, h.c) : null;
  }
  const sel = state.selection;
  if (sel) return rectOf(sel.board, sel.anchor, sel.end);
  const h = state.hoverCell;
  // Hovering alone previews the one-cell move, where there is one.
  if (state.mode === 'play' && h && boards()[h.board] && boards()[h.board].cells[h.r][h.c]) {
    return rectOf(h.board, [h.r, h.c], [h.r, h.c]);
  }
  return null;
}

// The colour of a move leaving `value`: green for 0 (it wins), else light
// yellow to near black, darker for larger values (6 and above share one
// shade). Their lightness steps evenly (CIE L* about 92, 77, 66, 53 for the
// green 0, 42, 28, 14), so a greyscale print or screenshot tells them
// apart too; a winning mark also has a ring of its own.
const SHADES = ['#19914b', 'hsl(50, 95%, 80%)', 'hsl(40, 92%, 62%)', 'hsl(28, 88%, 55%)', 'hsl(8, 72%, 42%)', 'hsl(350, 70%, 30%)', 'hsl(330, 60%, 16%)'];
function shade(value) {
  return SHADES[Math.min(value, 6)];
}

// The text colour on a mark of `value`: dark on the two light shades.
function ink(value) {
  return value === 1 || value === 2 ? '#1b1b1b' : '#fff';
}

// The move marks with hints on: for each cell, the value its move leaves
// ({board, r, c, value}). Clear summarises each cell over the rectangles
// through it (their values are in the option list); the pawn and split
// games mark every cell a click would move to, with the value of that very
// move.
function moveMarks() {
  const a = state.analysis;
  if (!state.hints || !a || !a.moves) return new Map();
  const game = state.game;
  const p = boards();
  const marks = new Map();
  if (game === clearGame) {
    // Every cell: the best (least) value a rectangle through it leaves, over
    // every legal move (the server counts them all, listed or not).
    (a.options ? a.options.boards : []).forEach((summary, index) => {
      summary.best.forEach((row, r) => row.forEach((v, c) => {
        if (v !== null) marks.set(`${index},${r},${c}`, v);
      }));
    });
    return marks;
  }
  for (const m of a.moves) {
    {
      const [r, c] = game.moveCell(p, m);
      const clicked = game.moveAt(p, r, c);
      if (clicked && game.sameMove(clicked, m)) marks.set(`0,${r},${c}`, m.grundy);
    }
  }
  return marks;
}

// The move that led to the current position, and the position before it.
function lastMove() {
  if (state.cursor === 0) return null;
  return { mv: state.history[state.cursor].move, before: state.history[state.cursor - 1].boards };
}

const LABEL_W = 20;

// Cells narrower than this (px) are too small for numbers.
const TINY = 14;

function gapFor(cols) {
  return cols > 20 ? 1 : cols > 12 ? 2 : 3;
}

// The cell size (px) that fits `cols` cells in the board column, between
// `min` and `max`; below `min` the board scrolls inside its card.
function fitCell(cols, max, min) {
  const width = $('boards').clientWidth || 320;
  const avail = width - 28 - LABEL_W - 8;
  const size = Math.floor((avail - gapFor(cols) * (cols - 1)) / cols);
  return Math.max(min, Math.min(max, size));
}

// One board: a grid of cells with row and column labels around it.
// spec: {board, rows, cols, size, rowLabel(r), colLabel(c), labelsBelow,
// cell(r, c) -> {cls, label, letter,
// corner, aria, mark}, outlines: [{rect, cls, label}]}.
function drawGrid(spec) {
  const { rows, cols, size } = spec;
  const gap = gapFor(cols);
  const grid = el('div', {
    class: `grid mode-${state.mode}${size >= 22 ? ' roomy' : ''}${size < TINY ? ' tiny' : ''}`,
    'data-board': String(spec.board),
  });
  grid.style.setProperty('--cell', `${size}px`);
  grid.style.gap = `${gap}px`;
  grid.style.gridTemplateColumns = `${LABEL_W}px repeat(${cols}, ${size}px)`;
  grid.style.gridTemplateRows = spec.labelsBelow ? `repeat(${rows}, ${size}px) auto` : `auto repeat(${rows}, ${size}px)`;
  const rowBase = spec.labelsBelow ? 1 : 2;
  const place = (node, r, c, r2 = r, c2 = c) => {
    node.style.gridRow = `${r + rowBase} / ${r2 + rowBase + 1}`;
    node.style.gridColumn = `${c + 2} / ${c2 + 3}`;
    return node;
  };
  // Every label when the cells are large enough to read them, else every 5th.
  const shown = (n) => size >= 16 || n % 5 === 0 || n === spec.base;
  const labelRow = spec.labelsBelow ? rows + 1 : 1;
  for (let c = 0; c < cols; c++) {
    const n = spec.colLabel(c);
    const node = el('span', { class: 'label col-label', text: shown(n) ? String(n) : '', 'aria-hidden': 'true' });
    node.style.gridRow = String(labelRow);
    node.style.gridColumn = String(c + 2);
    grid.append(node);
  }
  for (let r = 0; r < rows; r++) {
    const n = spec.rowLabel(r);
    const node = el('span', { class: 'label row-label', text: shown(n) ? String(n) : '', 'aria-hidden': 'true' });
    node.style.gridRow = String(r + rowBase);
    node.style.gridColumn = '1';
    grid.append(node);
  }
  // One cell of a board is in the Tab order (the one last focused, else
  // the first); the arrow keys move between cells (`onCellKey`), so a
  // 32 x 32 board is one Tab stop, not 1,024.
  const kept = state.keyCell;
  const home = kept && kept.board === String(spec.board) && kept.r < rows && kept.c < cols ? kept : { r: 0, c: 0 };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const view = spec.cell(r, c);
      const node = el('button', {
        type: 'button',
        class: `cell ${view.cls}`,
        'data-board': String(spec.board),
        'data-r': String(r),
        'data-c': String(c),
        'aria-label': view.aria,
        tabindex: r === home.r && c === home.c ? '0' : '-1',
      });
      if (view.letter) node.append(el('span', { class: 'letter', text: view.letter }));
      if (view.label) node.append(el('span', { class: 'mark', text: view.label }));
      if (view.corner) node.append(el('span', { class: 'corner', text: view.corner }));
      if (view.mark !== undefined) {
        // The number where the cell has room for it (a tap shows it on
        // smaller cells: see the readout under the board).
        const text = size >= TINY ? String(view.mark) : '';
        const dot = el('span', { class: `mv${view.mark === 0 ? ' win' : ''}`, text, 'data-value': String(view.mark) });
        dot.style.background = shade(view.mark);
        dot.style.color = ink(view.mark);
        node.append(dot);
      }
      if (view.badge) node.append(el('span', { class: 'badge', text: view.badge }));
      grid.append(place(node, r, c));
    }
  }
  for (const o of spec.outlines) {
    const node = el('div', { class: `overlay ${o.cls}` });
    if (o.label !== undefined) node.append(el('span', { class: 'badge', text: o.label }));
    grid.append(place(node, o.rect.top, o.rect.left, o.rect.bottom, o.rect.right));
  }
  return el('div', { class: 'board-scroll' }, [grid]);
}

// A board's heading: its name, size and value (`null`: not known yet).
function boardTitle(name, rows, cols, value, axes) {
  return el('div', { class: 'board-title' }, [
    el('strong', { text: name }),
    el('span', { class: 'muted', text: ` ${rows} × ${cols}, ${axes}` }),
    el('span', { class: 'board-value', text: value === null ? '' : `grundy ${value}` }),
  ]);
}

// A "label − n +" control; `set` receives the wanted count.
function stepper(label, get, set, canSet = () => true) {
  return el('span', { class: 'stepper' }, [
    el('span', { class: 'muted', text: label }),
    el('button', { type: 'button', 'aria-label': `fewer ${label}`, text: '−', onclick: () => set(get() - 1) }),
    el('span', { class: 'count', text: String(get()) }),
    Object.assign(el('button', { type: 'button', 'aria-label': `more ${label}`, text: '+', onclick: () => set(get() + 1) }), { disabled: !canSet(get() + 1) }),
  ]);
}

// A cell focused (by Tab, the arrows or a click) becomes its board's one
// Tab stop.
function onCellFocus(event) {
  const cell = event.target.closest && event.target.closest('.cell');
  if (!cell) return;
  const grid = cell.closest('.grid');
  for (const other of grid.querySelectorAll('.cell[tabindex="0"]')) other.tabIndex = -1;
  cell.tabIndex = 0;
  state.keyCell = { board: cell.dataset.board, r: Number(cell.dataset.r), c: Number(cell.dataset.c) };
}

// The arrow keys move the focus to the next cell of the same board
// (Home and End: the row's first and last cell).
function onCellKey(event) {
  const cell = event.target.closest && event.target.closest('.cell');
  if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
  const grid = cell.closest('.grid');
  let r = Number(cell.dataset.r);
  let c = Number(cell.dataset.c);
  const cols = grid.querySelectorAll(`.cell[data-r="${r}"]`).length;
  const rows = grid.querySelectorAll(`.cell[data-c="${c}"]`).length;
  switch (event.key) {
    case 'ArrowUp': r -= 1; break;
    case 'ArrowDown': r += 1; break;
    case 'ArrowLeft': c -= 1; break;
    case 'ArrowRight': c += 1; break;
    case 'Home': c = 0; break;
    case 'End': c = cols - 1; break;
    default: return;
  }
  event.preventDefault();
  if (r < 0 || c < 0 || r >= rows || c >= cols) return;
  const next = grid.querySelector(`.cell[data-r="${r}"][data-c="${c}"]`);
  if (next) next.focus();
}

// The cell with the keyboard focus, if any, before the boards are redrawn:
// the redraw replaces every cell, so the focus is put back on the same cell
// (a keyboard user keeps their place; without this the focus falls to the
// page, and the next Tab lands on a neighbouring cell). A cell focused by the
// mouse is not refocused: no ring appears where nobody pointed.
function focusedCell() {
  const active = document.activeElement;
  if (!active || !active.classList || !active.classList.contains('cell') || !$('boards').contains(active)) return null;
  if (!active.matches(':focus-visible')) return null;
  return `.cell[data-board="${active.dataset.board}"][data-r="${active.dataset.r}"][data-c="${active.dataset.c}"]`;
}

function renderBoards() {
  const focus = focusedCell();
  drawBoards();
  const again = focus && $('boards').querySelector(focus);
  if (again) again.focus({ preventScroll: true });
}

function drawBoards() {
  const container = $('boards');
  container.replaceChildren();
  if (state.game.cellGame) {
    container.append(renderCellBoard());
    return;
  }
  const position = boards();
  const several = position.length > 1;
  const a = state.analysis;
  const preview = previewMove();
  const marks = moveMarks();
  const last = lastMove();
  position.forEach((b, index) => {
    const ba = a && a.boards && a.boards[index];
    const title = boardTitle(several ? `Board ${index + 1}` : 'Board', b.rows, b.cols, ba ? ba.grundy : null, '(row,col) from 1');
    const controls = el('div', { class: 'board-controls' });
    if (state.mode === 'edit') {
      controls.append(
        stepper('rows', () => b.rows, (n) => resize(index, n, b.cols), (n) => fitsPage(n, b.cols)),
        stepper('cols', () => b.cols, (n) => resize(index, b.rows, n), (n) => fitsPage(b.rows, n)),
        el('button', { type: 'button', text: 'Fill', onclick: () => editBoards((bs) => { bs[index] = fill(bs[index], true); }) }),
        el('button', { type: 'button', text: 'Empty', onclick: () => editBoards((bs) => { bs[index] = fill(bs[index], false); }) }),
      );
      if (several) {
        controls.append(el('button', {
          type: 'button', class: 'remove', 'aria-label': `remove board ${index + 1}`, text: '✕',
          onclick: () => editBoards((bs) => bs.splice(index, 1)),
        }));
      }
    }
    // Each cell's component letter, as `grundy clear` draws them.
    const comp = new Map();
    const firstCell = new Set();
    if (ba) {
      ba.components.forEach((cp, i) => {
        cp.cells.forEach(([r, c]) => comp.set(`${r},${c}`, i));
        const [r0, c0] = cp.cells.reduce((m, x) => (x[0] < m[0] || (x[0] === m[0] && x[1] < m[1]) ? x : m));
        firstCell.add(`${r0},${c0}`);
      });
    }
    const size = fitCell(b.cols, 52, 16);
    // A label inside its rectangle (never over a neighbouring cell), as
    // long as the rectangle's width lets it be.
    const fit = (rect, full, short, tiny) => {
      const width = (rect.right - rect.left + 1) * (size + gapFor(b.cols));
      return width >= 70 ? full : width >= 34 ? short : tiny;
    };
    const outlines = [];
    if (last && last.mv.board === index) outlines.push({ rect: last.mv, cls: 'last' });
    // Past the server's budget, no move has a value to mark: with Hints on,
    // the winning moves an outcome search (or pairs) proved are outlined;
    // past 64 cells (the large boards' report, no move list), the first
    // winning move (the others are drawn when hovered in the list).
    const proven = state.hints && !preview && state.tooLarge && state.tooLarge.proven;
    const large = state.hints && !preview && a && a.large && a.winning_moves ? a.winning_moves.slice(0, 1) : [];
    for (const mv of [...(proven ? proven.winning_moves : []), ...large].filter((m) => m.board === index)) {
      outlines.push({ rect: mv, cls: 'preview pick wins', label: fit(mv, '→ 0 wins', '→ 0', '0') });
    }
    // One rectangle at a time: the one hovered or picked in the list, or
    // the one being selected on the board.
    if (preview && preview.board === index && (state.mode === 'play' || state.hoverMove || state.picked)) {
      const legal = state.game.isLegal(position, preview);
      const value = legal ? moveValue(preview) : null;
      const label = !legal ? fit(preview, 'not all ones', '✕', '✕')
        : state.hints && value !== null ? fit(preview, `→ ${value}${value === 0 ? ' wins' : ''}`, `→ ${value}`, String(value)) : undefined;
      const listed = preview === state.hoverMove || preview === state.picked;
      const cls = !legal ? 'preview illegal' : `preview${listed ? ' pick' : ''}${value === 0 ? ' wins' : ''}`;
      outlines.push({ rect: preview, cls, label });
    }
    const grid = drawGrid({
      board: index,
      rows: b.rows,
      cols: b.cols,
      size,
      rowLabel: (r) => r + 1,
      colLabel: (c) => c + 1,
      base: 1,
      labelsBelow: false,
      outlines,
      cell: (r, c) => {
        const on = b.cells[r][c];
        const i = comp.get(`${r},${c}`);
        const value = marks.get(`${index},${r},${c}`);
        const what = on ? `one${i === undefined ? '' : `, component ${letter(i)}`}` : 'zero';
        const summary = a && a.options && a.options.boards[index];
        const wins = summary ? summary.winning[r][c] : 0;
        const through = value === undefined ? ''
          : `; the best rectangle through it leaves ${value}${wins ? ` (${plural(wins, 'winning rectangle')} through it)` : ''}`;
        return {
          cls: on ? 'on' : '',
          // The letter on every cell; on the component's first cell also
          // its value, where the cell has room for it.
          letter: on && i !== undefined
            ? `${letter(i)}${size >= 30 && firstCell.has(`${r},${c}`) ? `=${ba.components[i].grundy ?? '?'}` : ''}`
            : '',
          mark: on ? value : undefined,
          aria: `${several ? `board ${index + 1} ` : ''}${rc(r, c)}: ${what}${through}`,
        };
      },
    });
    const parts = [title, controls, grid];
    if (ba && ba.components.length) {
      parts.push(el('p', {
        class: 'summary',
        text: `Components: ${ba.components.map((cp, i) => `${letter(i)} ${plural(cp.cells.length, 'cell')} grundy ${cp.grundy ?? '?'}`).join(' · ')}`,
      }));
    }
    container.append(el('div', { class: 'board-card' }, parts));
  });
}

// One grid of a cell game: size steppers and tools in edit mode, cells
// drawn from the game's cellView, moves marked with hints, the last move.
function renderCellBoard() {
  const game = state.game;
  const p = boards();
  const a = state.analysis;
  const [rows, cols] = game.size(p);
  const title = boardTitle(game.title, rows, cols, a && a.grundy != null ? a.grundy : null, game.axes);
  const controls = el('div', { class: 'board-controls' });
  if (state.mode === 'edit') {
    const fits = (n) => n >= 1 && n <= MAX_GRID;
    const resizeTo = (r, c) => {
      if (fits(r) && fits(c)) setPosition(game.resize(p, r, c));
    };
    const steppers = [
      stepper(game.sizeNames ? game.sizeNames[0] : 'rows', () => rows, (n) => resizeTo(n, cols), fits),
      stepper(game.sizeNames ? game.sizeNames[1] : 'cols', () => cols, (n) => resizeTo(rows, n), fits),
    ];
    // The pawn's grid is sized width first, as its link and title say it.
    controls.append(...(game.sizeNames ? steppers.reverse() : steppers));
    if (game.tools) {
      controls.append(el('span', { class: 'segmented', role: 'group', 'aria-label': 'Edit tool' }, game.tools.map(([tool, label]) => el('button', {
        type: 'button',
        'aria-pressed': String(state.tool === tool),
        text: label,
        onclick: () => { state.tool = tool; render(); },
      }))));
    }
  }
  // A sum of pawns: the pawn a click moves, chosen here or by a click on it.
  const several = Boolean(game.selected) && p.pawns.length > 1 && (state.mode === 'play' || state.hints);
  const moving = game.selected ? game.selected(p, state.pawnSel) : null;
  if (several) controls.append(pawnChooser(p, a, moving));
  // The winning moves ringed are those a click makes: the selected pawn's.
  const winning = new Set();
  if (state.hints && a && a.winning_moves) {
    for (const mv of a.winning_moves) {
      if (moving === null || mv.pawn === moving) winning.add(game.moveCell(p, mv).join(','));
    }
  }
  const movingAt = several ? game.moveCell(p, { x: p.pawns[moving][0], y: p.pawns[moving][1] }).join(',') : null;
  const marks = moveMarks();
  const last = lastMove();
  const lastAt = last ? game.moveCell(p, last.mv).join(',') : null;
  const lastFrom = last && game === pawnGame ? (() => {
    const [x, y] = last.before.pawns[last.mv.pawn];
    return game.moveCell(p, { x, y }).join(',');
  })() : null;
  const preview = previewMove();
  const previewAt = preview ? game.moveCell(p, preview).join(',') : null;
  const size = fitCell(cols, cols > 12 ? 28 : 40, 8);
  const grid = drawGrid({
    board: 0,
    rows,
    cols,
    size,
    rowLabel: (r) => game.rowLabel(p, r),
    colLabel: (c) => game.colLabel(p, c),
    labelsBelow: game.labelsBelow,
    base: game.labelsBelow ? 0 : 1,
    outlines: game.outlines(p, a),
    cell: (r, c) => {
      const view = game.cellView(p, r, c, a, state.hints);
      const here = `${r},${c}`;
      let cls = view.cls;
      if (winning.has(here)) cls += ' win-target';
      if (lastAt === here) cls += ' last';
      if (lastFrom === here) cls += ' last-from';
      if (previewAt === here) cls += ' previewed';
      if (movingAt === here) cls += ' moving';
      const mark = marks.get(`0,${here}`);
      let badge = '';
      if (previewAt === here && state.hints) {
        const value = moveValue(preview);
        if (value !== null) badge = `→ ${value}`;
      }
      const moves = movingAt === here ? `; selected: pawn ${moving + 1} is the one a click moves` : '';
      return { ...view, cls, mark, badge, aria: `${view.aria}${moves}${mark === undefined ? '' : `; a move here leaves ${mark}`}` };
    },
  });
  grid.firstChild.classList.add('cell-grid', `game-${game.name}`);
  const parts = [title, controls, grid];
  if (size < TINY && state.hints && a && a.moves) {
    // Cells too small for numbers: the value of the cell pointed at or
    // tapped, in words.
    const at = state.armed || state.hoverCell;
    const node = at && grid.querySelector(`.cell[data-r="${at.r}"][data-c="${at.c}"]`);
    parts.push(el('p', {
      class: 'readout',
      text: node ? `${node.getAttribute('aria-label')}${state.armed ? ' (tap again to play it)' : ''}` : 'The cells are too small for numbers: point at a cell, or tap it in a game, to read the value its move leaves.',
    }));
  }
  const summary = game.summary(p, a);
  if (summary) parts.push(el('p', { class: 'summary', text: summary }));
  return el('div', { class: 'board-card' }, parts);
}

// "Moving pawn: 1 2 3": the pawn a click on the grid moves (a pawn with no
// move cannot be chosen); with Hints, the pawns with a winning move have a
// green mark.
function pawnChooser(p, a, moving) {
  const wins = new Set(state.hints && a && a.winning_moves ? a.winning_moves.map((m) => m.pawn) : []);
  const buttons = p.pawns.map(([x, y], i) => {
    const button = el('button', {
      type: 'button',
      class: wins.has(i) ? 'has-win' : '',
      'aria-pressed': String(i === moving),
      'aria-label': `pawn ${i + 1} at (${x},${y})${wins.has(i) ? ', has a winning move' : ''}`,
      title: `pawn ${i + 1} at (${x},${y})`,
      text: String(i + 1),
      onclick: () => {
        state.pawnSel = i;
        state.error = null;
        render();
      },
    });
    button.disabled = !pawnGame.pawnHasMove(p, i);
    return button;
  });
  return el('span', { class: 'pawn-pick', role: 'group', 'aria-label': 'The pawn a click moves' }, [
    el('span', { class: 'muted', text: 'Moving pawn' }), ...buttons,
  ]);
}

function fill(b, value) {
  return { rows: b.rows, cols: b.cols, cells: b.cells.map((row) => row.map(() => value)) };
}

// What the marks, letters and outlines on the boards mean.
function renderLegend() {
  const legend = $('legend');
  legend.replaceChildren();
  const a = state.analysis;
  const game = state.game;
  const items = [];
  const swatch = (cls, style, text) => {
    const s = el('span', { class: `swatch ${cls}` });
    if (style) s.style.background = style;
    return el('span', { class: 'legend-item' }, [s, text]);
  };
  if (state.hints && a && a.moves) {
    // The values of the marks drawn, not of every move.
    const values = [...new Set([...moveMarks().values()].map((v) => Math.min(v, 6)))].sort((x, y) => x - y);
    if (game === clearGame && values.length) {
      items.push(el('span', { class: 'legend-item', text: 'Each cell: the best value a rectangle through it leaves.' }));
    }
    const what = game === clearGame ? 'a rectangle through it' : 'a move there';
    for (const v of values) {
      const text = v === 0
        ? `${what} leaves 0: it wins`
        : `leaves ${v}${v === 6 ? ' or more' : ''}`;
      const s = swatch(`dot${v === 0 ? ' win' : ''}`, shade(v), text);
      s.firstChild.textContent = String(v);
      s.firstChild.style.color = ink(v);
      items.push(s);
    }
    if (game === clearGame) {
      if (state.picked) items.push(swatch('ring pick', null, 'the move picked in the list'));
    } else if (a.winning_moves.length) {
      items.push(swatch('ring win', null, 'a winning move'));
    }
    if (game === pawnGame) items.push(swatch('dot hollow', null, 'a losing cell (a pawn there alone loses)'));
    if (game === pawnGame && boards().pawns.length > 1) {
      items.push(el('span', { class: 'legend-item muted', text: 'The marks and rings are the moves of the selected pawn.' }));
    }
    if (!a.moves_complete && game !== clearGame) items.push(el('span', { class: 'legend-item muted', text: `only ${a.moves.length} of ${a.moves_total} moves are marked (large position)` }));
  }
  if (game === clearGame && a && a.boards && a.boards.some((b) => b.components.length)) {
    // The example is this position's own first component, so it agrees with the board.
    const value = a.boards.find((b) => b.components.length).components[0].grundy;
    const example = value === null || value === undefined ? 'A=?: its value is not known' : `A=${value}: its value is ${value}`;
    items.push(el('span', { class: 'legend-item' }, [el('span', { class: 'swatch letter-swatch', text: 'A' }), `a component; ${example} (all values under the board)`]));
  }
  if (game === splitGame) {
    items.push(swatch('cand-swatch', null, 'a candidate'));
    if (boards().moves.length) {
      items.push(swatch('dead-swatch', null, 'deleted'));
      items.push(swatch('cand-swatch faded-swatch', null, 'a candidate deleted'));
      const played = swatch('cand-swatch faded-swatch played-swatch', null, 'a candidate played');
      played.firstChild.textContent = '✕';
      items.push(played);
      items.push(swatch('ring part', null, 'a rectangle in play, with its value'));
    }
  }
  if (game === pawnGame) {
    if (boards().walls.length) items.push(swatch('wall-swatch', null, 'a wall'));
    if (boards().pawns.length > 1 && (state.mode === 'play' || state.hints)) items.push(swatch('moving-swatch', null, 'the selected pawn: a click moves it'));
    if (a && a.pawns && a.pawns.some((q) => q.grundy != null)) {
      items.push(el('span', { class: 'legend-item' }, [el('span', { class: 'swatch pawn-swatch', text: '3' }), "a pawn's value, in its corner"]));
    }
  }
  if (state.cursor > 0) items.push(swatch('ring last', null, 'the last move'));
  if (!state.hints && a) items.push(el('span', { class: 'legend-item muted', text: 'Turn on Hints to mark every move with the value it leaves.' }));
  legend.hidden = items.length === 0;
  legend.append(...items);
}

function renderStatus() {
  const a = state.analysis;
  const ply = state.cursor;
  const position = boards();
  const over = !state.game.hasMoves(position);
  let winner = state.tooLarge ? 'Too large to analyse here' : state.error ? 'Not analysed' : 'Analysing…';
  const known = state.tooLarge && state.tooLarge.tables && state.tooLarge.tables.known_value;
  // Who wins, proven within the budget though the value was not found.
  const proven = state.tooLarge && state.tooLarge.proven && state.tooLarge.proven.winner ? state.tooLarge.proven : null;
  let value = '';
  if (over) {
    const loser = ply % 2;
    winner = `${playerName(1 - loser)} wins`;
    value = state.mode === 'play'
      ? `Game over: ${playerName(ply)} cannot move and loses.`
      : WORDS.no_moves;
  } else if (a && a.grundy === null && !a.winner) {
    winner = 'Winner unknown';
    value = "Grundy value unknown: the server's budget ran out before it was found.";
  } else if (a) {
    const moverWins = a.grundy === null ? a.winner === 'first' : a.grundy !== 0;
    const firstWins = moverWins === (ply % 2 === 0);
    // A verdict of best play, not a result: the winner must not err. In a
    // game of two players the heading also says whose turn it is.
    winner = `${playerName(firstWins ? 0 : 1)} wins with best play`;
    if (state.mode === 'play' && !state.vsEngine) winner = `${playerName(ply)} to move: ${winner.replace('First', 'first').replace('Second', 'second')}`;
    value = a.grundy === null
      ? `Grundy value unknown within the server's budget, but a winning move is proven without it${largeWin(a) ? `: ${largeWin(a)}` : ' (by pairs of equal shapes, X xor X = 0, or by an outcome search)'}. ${moverWins ? 'The player to move wins.' : 'The player to move loses.'}`
      : `Grundy value ${a.grundy}${state.game.valueParts(a)}. ${moverWins ? 'The player to move wins.' : 'The player to move loses.'}${largeWin(a) ? ` A winning move: ${largeWin(a)}.` : ''}`;
  }
  // The engine's last move left a total of 0: the player to move loses,
  // whatever the server can analyse of the position it left.
  const engineProved = !a && !over && state.engineProof === positionKey();
  if (known && !a && !over) {
    winner = `${(known.grundy !== 0) === (ply % 2 === 0) ? 'First' : 'Second'} player wins with best play`;
    value = `Known grundy value ${known.grundy} (from ${known.source}); too large to analyse on this server.`;
  } else if (proven && !a && !over) {
    const moverWins = proven.winner === 'first';
    winner = `${playerName(moverWins === (ply % 2 === 0) ? 0 : 1)} wins with best play`;
    value = proven.grundy === null
      ? `Grundy value unknown within the server's budget, but who wins is proven: ${moverWins ? 'the player to move wins' : 'the player to move loses'}.`
      : `Grundy value ${proven.grundy}, proven by an outcome search: the player to move loses.`;
  } else if (engineProved) {
    winner = `${playerName(ply + 1)} wins with best play`;
    value = `Grundy value 0, proven by the engine's move: it leaves a total of 0, so the player to move loses${state.tooLarge ? ' (the position is too large to analyse here)' : ''}.`;
  }
  if (!a && !over && state.waiting) value = state.waiting;
  $('winner').textContent = winner;
  let firstWon = null;
  if (over) firstWon = ply % 2 === 1;
  else if (a && (a.grundy !== null || a.winner)) firstWon = (a.grundy === null ? a.winner === 'first' : a.grundy !== 0) === (ply % 2 === 0);
  else if (known) firstWon = (known.grundy !== 0) === (ply % 2 === 0);
  else if (proven) firstWon = (proven.winner === 'first') === (ply % 2 === 0);
  else if (engineProved) firstWon = ply % 2 === 1;
  $('winner').className = `winner ${firstWon === null ? '' : firstWon ? 'first' : 'second'}`;
  $('value').replaceChildren(...unbroken(value));
  let turn = '';
  if (state.mode === 'play' && !over) {
    turn = state.busy ? 'Engine is thinking…' : `To move: ${playerName(ply)}`;

  } else if (state.mode === 'edit') {
    // After moves (a link with moves, or Undo back to edit), whose turn it
    // is, which the verdict's "the player to move" refers to.
    turn = `${ply > 0 && !over ? `To move: ${playerName(ply)}. ` : ''}Editing: set up a position, then start a game.`;
  }
  $('turn').textContent = turn;
  // Why the engine played its last move (proven, or the budget's best
  // guess), while that move is the one on the board.
  const note = state.mode === 'play' && !state.busy && state.engineReason && ply === state.engineReasonAt
    ? `The engine's last move: ${state.engineReason}` : '';
  $('engine-note').hidden = !note;
  $('engine-note').replaceChildren(...unbroken(note));
  $('game-over').hidden = !(over && state.mode === 'play');
  const error = $('error');
  error.hidden = !state.error;
  error.textContent = state.error || '';
  if (state.retry && state.retry.message === state.error) {
    const { run } = state.retry;
    error.append(' ', el('button', {
      type: 'button',
      class: 'retry',
      text: 'Try again',
      onclick: () => {
        state.error = null;
        state.retry = null;
        render();
        run();
      },
    }));
  }
  const notice = $('notice');
  notice.hidden = !state.notice;
  $('notice-text').textContent = state.notice || '';
  const large = $('too-large');
  large.hidden = !state.tooLarge;
  large.replaceChildren();
  if (state.tooLarge) renderTooLarge(large, state.tooLarge);
}

// A large board's (past 64 cells) first winning move, and how it was
// proven when the server says so (its `text`), else that it was proven
// without saying how; '' when none is listed.
function largeWin(a) {
  if (!a.large || !a.winning_moves || !a.winning_moves.length) return '';
  const mv = a.winning_moves[0];
  if (mv.text) return mv.text;
  const phrase = clearGame.describe(mv, boards());
  return a.grundy === null
    ? `${phrase}, proven by pairs of equal shapes (X xor X = 0) or by an outcome search`
    : `${phrase}, leaving grundy 0`;
}

// Too large for the server's budget: what is known (a value docs/results.md
// gives), what would answer (a shape database: its box, and its build time
// and size as measured in docs/results.md), and the commands that do it.
function renderTooLarge(large, t) {
  large.append(
    el('strong', { text: 'Too large for this server.' }),
    el('p', { text: `${t.message.replace(/^position too large for this server: /, 'The server ')}.` }),
  );
  const tables = t.tables;
  const known = tables && tables.known_value;
  if (known) {
    large.append(el('p', { class: 'known', text: `Known: the full ${known.rows} × ${known.cols} board has grundy value ${known.grundy}, so the ${known.grundy === 0 ? 'second' : 'first'} player wins (from ${known.source}, not computed by this server).` }));
  }
  if (t.found.length) large.append(el('p', { text: `Found: ${t.found.join('; ')}.` }));
  const proven = t.proven;
  if (proven && proven.winner) {
    const moves = proven.winning_moves.map((m) => m.text);
    const verdict = proven.winner === 'first' ? 'the player to move wins' : 'the player to move loses: every move leaves a non-zero value';
    large.append(el('p', {}, [el('strong', { text: 'Proven all the same: ' }), `${verdict}${moves.length ? `. A winning move: ${moves.join('; ')}` : ''}.`]));
  }
  if (state.game === clearGame) {
    // The server keeps what its searches found (`--kept-memory`): a search
    // sent again goes on from there.
    const done = t.searches === 1 ? 'one search' : `${t.searches} searches`;
    large.append(el('p', { class: 'search-again' }, [
      el('button', { type: 'button', text: 'Search again', onclick: () => analyse() }),
      ` The server keeps what its searches found, so another one goes on from there (${done} so far, each within the budget).`,
    ]));
  }
  const box = tables && tables.box;
  if (box && tables.measured) {
    const [rows, cols] = box;
    const file = `clear-${rows}x${cols}.gdb`;
    const db = tables.measured;
    const cost = `${tables.source} measured its build at ${seconds(db.cpu_seconds)} of CPU${db.wall_seconds ? ` (${seconds(db.wall_seconds)} on 2 cores)` : ''}, and the file at ${db.file_size}`;
    large.append(
      el('p', { text: `The ${rows} × ${cols} shape database answers it at once; this server has no database that holds it. Build it once on your computer (${cost}), then analyse with it:` }),
      el('pre', { class: 'command' }, [el('code', { text: `grundy tables build --box ${rows}x${cols} --out ${file}\n${state.game.command(t.position, `--tables ${file}`)}` })]),
      el('p', { class: 'muted' }, ['Or serve this page with it: ', el('code', { text: `grundy serve --tables ${file}` })]),
    );
    return;
  }
  // A box never built: no command to build it, which would take days of
  // CPU or a cluster; its estimate where one is written.
  if (box) {
    const [rows, cols] = box;
    const est = tables.estimated;
    large.append(el('p', {
      text: est
        ? `A ${rows} × ${cols} shape database would answer it, but none has been built: ${est.source} estimates ${est.cpu} of CPU, a file of ${est.file_size} and ${est.memory} of memory.`
        : `A ${rows} × ${cols} shape database would answer it, but none has been built or estimated (no box that large is in ${tables.source}).`,
    }));
  }
  large.append(
    el('p', {}, [
      tables && tables.needed && tables.needed[0] > 0
        ? `${box ? 'Without it, r' : `No shape database holds components this large (${tables.needed[0]} × ${tables.needed[1]}). R`}un the search on your own computer with the grundy command line, whose budget is larger (it may still run out: exit 3; `
        : 'Run it on your own computer with the grundy command line, whose budget is larger (',
      el('code', { text: '--max-positions' }), ' and ', el('code', { text: '--max-time' }), ' set it, added to this command):',
    ]),
    el('pre', { class: 'command' }, [el('code', { text: t.command })]),
  );
}

// Seconds for people, as the server's CLI says them.
function seconds(s) {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 600) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

function renderMoves() {
  const list = $('move-list');
  list.replaceChildren();
  state.history.slice(1).forEach((entry, i) => {
    const who = entry.by === 'engine' ? 'Engine' : state.vsEngine && state.mode === 'play' ? 'You' : playerName(i);
    list.append(el('li', { class: i + 1 > state.cursor ? 'undone' : i + 1 === state.cursor ? 'current' : '' }, [
      el('span', { class: 'who', text: `${who}: ` }),
      state.game.describe(entry.move, state.history[i].boards),
    ]));
  });
  $('no-moves').hidden = state.history.length > 1;
}

// The "Why" card: the previewed move's reason, and every winning move's.
function renderHints() {
  const card = $('hint-card');
  card.hidden = !state.hints;
  if (!state.hints) return;
  const a = state.analysis;
  const p = boards();
  const game = state.game;
  const preview = previewMove();
  const info = $('hover-info');
  info.hidden = !game.hasMoves(p);
  const h = state.hoverCell;
  const moving = game.selected ? game.selected(p, state.pawnSel) : null;
  const other = !preview && h && state.mode === 'play' && game.selectAt ? game.selectAt(p, h.r, h.c, moving) : null;
  let text = '';
  if (preview && a && game.isLegal(p, preview)) {
    const value = moveValue(preview);
    text = value === null
      ? `${game.describe(preview, p)}: value not listed (large position)`
      : `${moveLine(game, p, a, preview, value)}${value === 0 ? ': a winning move.' : ': not winning (it leaves a non-zero value).'}`;
  } else if (other !== null) {
    text = `Pawn ${other + 1}: click to select it, then click where it goes (now moving: pawn ${moving + 1}).`;
  } else if (a && a.large && a.winning_moves && a.winning_moves.length) {
    // Past 64 cells no move has a value listed; the proven one is outlined.
    text = 'Past 64 cells no move has a listed value; the winning move proven is outlined on the board (hover another below to draw it).';
  } else if (!a && state.tooLarge && state.tooLarge.proven && state.tooLarge.proven.winning_moves.length) {
    // Past the budget no move has a value; the proven one is outlined.
    text = 'No move has a value within the server\'s budget; the winning move proven without the values is outlined on the board.';
  } else {
    text = game === clearGame
      ? 'Each cell shows the best value a rectangle through it leaves. Hover or pick a move below to draw it alone on the board.'
      : moving !== null && p.pawns.length > 1
        ? `The marks give every move of the selected pawn (${moving + 1}) its value; hover a cell to see why its move wins or not, select another pawn for its moves.`
        : 'The marks give every move its value; hover a cell to see why its move wins or not.';
  }
  info.replaceChildren(...unbroken(text));
  const clear = game === clearGame;
  $('hint-title').textContent = clear ? 'Moves and the values they leave' : 'Why a move wins';
  $('option-tools').hidden = !clear || !a || !a.options || !game.hasMoves(p);
  $('winning-list').hidden = clear && !$('option-tools').hidden;
  if (clear) renderOptions();
  const listNode = $('winning-list');
  listNode.replaceChildren();
  if (clear && !$('option-tools').hidden) return;
  if (!game.hasMoves(p)) {
    listNode.append(el('p', { class: 'muted', text: WORDS.no_moves }));
    return;
  }
  if (!a) return;
  // A list that may miss some says so, as the CLI does: a pawn sum whose
  // dropped pawns' moves are not examined, or a large board's search cut
  // short by the budget.
  const partial = a.winning_moves_complete === false;
  if (a.winning_moves.length === 0 && !partial) {
    listNode.append(el('p', { class: 'muted', text: WORDS.no_winning_moves }));
    return;
  }
  const n = a.winning_moves.length;
  let header = `Winning moves (${n}):`;
  if (partial && game === pawnGame) {
    header = `Winning moves found (${n}; the moves of the pawns that drop out of the sum without their values, on losing cells or paired on one cell, are not examined):`;
  } else if (partial) {
    header = `Winning moves found (${n}; the budget ran out before every one was found):`;
  }
  listNode.append(el('p', { text: header }));
  const ul = el('ul');
  const shownMoves = a.winning_moves.slice(0, 40);
  for (const mv of shownMoves) {
    ul.append(winningItem(mv, moveLine(game, p, a, mv, 0)));
  }
  listNode.append(ul);
  if (a.winning_moves.length > shownMoves.length) {
    listNode.append(el('p', { class: 'muted', text: `… and ${a.winning_moves.length - shownMoves.length} more.` }));
  }
}

// A winning move in a list: hovering draws it on the board; a click on a
// pawn's selects that pawn, so the move is a click on its ringed cell.
function winningItem(mv, text) {
  const item = el('li', {
    class: 'winning-move',
    onmouseenter: () => { state.hoverMove = mv; renderBoards(); },
    onmouseleave: () => { state.hoverMove = null; renderBoards(); },
  }, unbroken(text));
  if (mv && mv.pawn !== undefined && state.game === pawnGame) {
    item.addEventListener('click', () => {
      state.pawnSel = mv.pawn;
      render();
    });
  }
  return item;
}

// The theory card, from the server's `explain` (grundy-report's one
// formatter, as `--explain` prints it): the verdict with best play, the
// value as the XOR of the parts' values, each winning move with the
// arithmetic that makes the XOR 0, and on request (a click on a part) the
// part's value as the mex of the values its moves leave. Shown while
// setting up, and in a game with Hints on (it names the winning moves).
function renderTheory() {
  const card = $('theory');
  const a = state.analysis;
  const x = a && a.explain;
  card.hidden = !x || !(state.mode === 'edit' || state.hints) || !state.game.hasMoves(boards());
  if (card.hidden) return;
  $('theory-value').textContent = x.value;
  const parts = $('theory-parts');
  const chips = x.parts.map((part) => el('button', {
    type: 'button',
    class: 'part-chip',
    'aria-pressed': String(state.mexPart === part.name),
    title: `Why ${part.name} = ${part.grundy}: the mex of the values its moves leave`,
    text: `${part.name} = ${part.grundy}`,
    onclick: () => {
      state.mexPart = state.mexPart === part.name ? null : part.name;
      renderTheory();
    },
  }));
  // A far pawn's value comes from a formula (x xor y), not from its moves.
  const formula = x.formula || [];
  parts.replaceChildren(...(chips.length && (x.mex.length || formula.length) ? [el('span', { class: 'muted', text: 'Why this value? ' }), ...chips] : chips));
  const mex = x.mex.find((m) => m.part === state.mexPart);
  const byFormula = state.mexPart === null ? undefined : formula.find((f) => f.startsWith(`${state.mexPart} at `));
  const why = mex ? mex.text : byFormula ? `${byFormula}: no impassable cell at or below-left of it, so it moves as two Nim heaps, x and y.` : '';
  $('theory-mex').hidden = !why;
  $('theory-mex').replaceChildren(...unbroken(why));
  const win = $('theory-winning');
  win.replaceChildren();
  if (!x.winning.length) return;
  // The server explains a splitting game's first 64 winning moves and
  // counts the others.
  const total = x.winning.length + (x.winning_unexplained || 0);
  const how = x.by_outcome
    ? 'Each winning move reaches a losing cell'
    : x.parts.length > 1 ? 'Each winning move makes the XOR 0' : 'Each winning move takes its value to 0';
  win.append(el('p', { text: `${how} (${plural(total, 'move')}):` }));
  const ul = el('ul');
  x.winning.slice(0, 40).forEach((text, i) => {
    ul.append(winningItem(a.winning_moves[i], text));
  });
  win.append(ul);
  const shown = Math.min(x.winning.length, 40);
  if (total > shown) win.append(el('p', { class: 'muted', text: `… and ${total - shown} more.` }));
}

// The setup panel (Edit mode): a paste box read by the server's parser of
// the command line's format, and a random position of a chosen size and
// density.
function renderSetup() {
  const game = state.game;
  $('setup').hidden = state.mode !== 'edit';
  const paste = Boolean(game.fromParsed);
  $('paste-part').hidden = !paste;
  $('paste-none').hidden = paste;
  $('paste-format').hidden = game !== splitGame;
  $('paste-label').textContent = game === clearGame
    ? 'Paste boards as grundy clear reads them: rows of 0/1 (or . and #), a blank line between boards'
    : 'Paste a grid as grundy split reads it';
  $('rand-what').textContent = game === pawnGame ? 'Walls' : game === splitGame ? 'Candidates' : 'Ones';
  $('rand-density-text').textContent = `${$('rand-density').value}%`;
}

function setupError(message) {
  $('setup-error').hidden = !message;
  $('setup-error').textContent = message || '';
}

// A new start position from the setup panel: a new browser-history entry.
function newStart(position) {
  setupError(null);
  state.mode = 'edit';
  state.notice = null;
  state.pushNext = true;
  setPosition(position);
}

async function pastePosition() {
  const game = state.game;
  const body = { text: $('paste-text').value };
  if (game === splitGame) body.format = $('paste-format').value;
  try {
    newStart(game.fromParsed(await api('parse', body, game)));
  } catch (err) {
    setupError(`Cannot read the pasted text: ${err.message}`);
  }
}

function randomPosition() {
  const rows = Number($('rand-rows').value);
  const cols = Number($('rand-cols').value);
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
    setupError('Rows and columns are whole numbers from 1.');
    return;
  }
  try {
    newStart(state.game.random(rows, cols, Number($('rand-density').value) / 100));
  } catch (err) {
    setupError(`Cannot make that position: ${err.message}.`);
  }
}

// Clear's option list: every rectangle with the value it leaves, filtered
// and sorted as chosen. Rebuilt only when the analysis, the filter or the
// sort change (not on hover, which would reset its scrolling); hovering or
// picking a move only redraws the boards and marks the row.
function renderOptions() {
  const a = state.analysis;
  const list = $('option-list');
  if (!a || !a.options) {
    state.optionsDrawn = null;
    list.replaceChildren();
    return;
  }
  const options = a.options.moves;
  const counts = new Map();
  for (const o of options) counts.set(o.grundy, (counts.get(o.grundy) || 0) + 1);
  const values = [...counts.keys()].sort((x, y) => x - y);
  if (state.optFilter.startsWith('v:') && !counts.has(Number(state.optFilter.slice(2)))) state.optFilter = 'all';
  const key = `${state.analysisFor}|${state.optFilter}|${state.optSort}|${state.cursor}`;
  if (state.optionsDrawn !== key) {
    state.optionsDrawn = key;
    const filter = $('opt-filter');
    const wins = counts.get(0) || 0;
    filter.replaceChildren(
      el('option', { value: 'all', text: `All moves (${options.length})` }),
      el('option', { value: 'win', text: `Winning moves, leaving 0 (${wins})` }),
      ...values.filter((v) => v !== 0).map((v) => el('option', { value: `v:${v}`, text: `Leaving ${v} (${counts.get(v)})` })),
    );
    filter.value = state.optFilter;
    $('opt-sort').value = state.optSort;
    let shown = options.map((o, i) => ({ o, i }));
    if (state.optFilter === 'win') shown = shown.filter(({ o }) => o.grundy === 0);
    else if (state.optFilter.startsWith('v:')) shown = shown.filter(({ o }) => o.grundy === Number(state.optFilter.slice(2)));
    const byPosition = (x, y) => x.i - y.i;
    if (state.optSort === 'value') shown.sort((x, y) => x.o.grundy - y.o.grundy || byPosition(x, y));
    else if (state.optSort === 'size') shown.sort((x, y) => y.o.cells - x.o.cells || byPosition(x, y));
    const p = boards();
    const rows = shown.map(({ o, i }) => {
      const value = el('span', { class: 'option-value', text: o.grundy === 0 ? 'leaves 0: wins' : `leaves ${o.grundy}` });
      value.style.background = shade(o.grundy);
      value.style.color = ink(o.grundy);
      return el('li', {}, [el('button', {
        type: 'button',
        class: `option-row${o.grundy === 0 ? ' win' : ''}`,
        'data-i': String(i),
        'aria-pressed': 'false',
      }, [
        el('span', { class: 'option-move', text: clearGame.describe(o, p) }),
        el('span', { class: 'option-size muted', text: plural(o.cells, 'cell') }),
        value,
      ])]);
    });
    list.replaceChildren(...rows);
    const sample = a.options.complete ? '' : ` A sample of ${options.length} of the ${a.options.total} moves is listed (a large position); the marks on the board count them all.`;
    $('option-note').textContent = shown.length
      ? `${plural(shown.length, 'move')} listed.${sample}`
      : `No move leaves that value.${sample}`;
  }
  for (const button of list.querySelectorAll('.option-row')) {
    const o = options[Number(button.dataset.i)];
    const picked = Boolean(state.picked && clearGame.sameMove(o, state.picked));
    button.setAttribute('aria-pressed', String(picked));
    button.classList.toggle('hovered', Boolean(state.hoverMove && clearGame.sameMove(o, state.hoverMove)));
  }
  const play = $('play-picked');
  const canPlay = state.picked && state.mode === 'play' && !state.busy && !isEngineTurn(state.cursor);
  play.hidden = !canPlay;
  if (canPlay) play.textContent = `Play ${clearGame.describe(state.picked, boards())}`;
}

// The option list's row under an event, and its move.
function optionOf(event) {
  const row = event.target.closest && event.target.closest('.option-row');
  const a = state.analysis;
  if (!row || !a || !a.options) return null;
  return a.options.moves[Number(row.dataset.i)] || null;
}

// Hovering or picking a move of the list: the boards, the explanation and
// the list's marks change; the list itself stays (and keeps its scrolling).
function refreshPreview() {
  renderBoards();
  renderLegend();
  renderHints();
}

function render() {
  if (state.analysis && state.analysisFor !== positionKey()) {
    state.analysis = null;
    state.analysisFor = null;
  }
  $('mode-edit').setAttribute('aria-pressed', String(state.mode === 'edit'));
  $('mode-play').setAttribute('aria-pressed', String(state.mode === 'play'));
  $('add-board').hidden = state.mode !== 'edit' || Boolean(state.game.cellGame);
  const sum = state.game === pawnGame && boards().pawns.length > 1 && state.mode === 'play';
  $('help').textContent = sum ? `${state.game.help.play} ${state.game.help.several}` : state.game.help[state.mode];
  $('undo').disabled = undoTarget() === null || state.busy;
  $('redo').disabled = redoTarget() === null || state.busy;
  if ($('game').value !== state.game.name && $('game').options.length) $('game').value = state.game.name;
  document.body.classList.toggle('busy', state.busy);
  renderStatus();
  renderBoards();
  renderLegend();
  renderMoves();
  renderHints();
  renderTheory();
  renderSetup();
}

// ---------------------------------------------------------------- start

async function loadGames() {
  const select = $('game');
  let served = Object.keys(GAMES).map((name) => ({ name, title: GAMES[name].title }));
  try {
    const response = await fetch('/api/v1/games');
    const json = await response.json();
    served = json.games;
    Object.assign(WORDS, json.words);
  } catch (_) {
    // Keep the page's own list.
  }
  for (const { name, title } of served) {
    if (!GAMES[name]) continue;
    GAMES[name].title = title; // one title: the API's
    select.append(el('option', { value: name, text: title }));
  }
  select.value = state.game.name;
  // Each game's last position, kept while another game is shown: a game
  // picked again comes back as it was left (in Edit mode), not as its
  // example.
  const left = {};
  select.addEventListener('change', () => {
    left[state.game.name] = boards();
    state.game = GAMES[select.value];
    state.mode = 'edit';
    state.notice = null;
    state.pushNext = true;
    setPosition(left[state.game.name] || state.game.defaultPosition());
  });
  render();
}

function init() {
  // The browser may restore form controls on reload: the state decides.
  $('hints').checked = state.hints;
  $('vs-engine').checked = state.vsEngine;
  const link = readHash();
  if (link) applyLink(link);
  loadGames();
  const boardsNode = $('boards');
  boardsNode.addEventListener('pointerdown', onPointerDown);
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp);
  boardsNode.addEventListener('pointerleave', () => {
    if (state.hoverCell) {
      state.hoverCell = null;
      render();
    }
  });
  boardsNode.addEventListener('focusin', onCellFocus);
  boardsNode.addEventListener('keydown', onCellKey);
  // Keyboard activation of a cell (Enter/Space) arrives as a click with no pointer.
  boardsNode.addEventListener('click', (event) => {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell || event.detail !== 0) return;
    const rect = cell.getBoundingClientRect();
    const at = { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2, button: 0, preventDefault() {} };
    onPointerDown(at);
    onPointerUp(at);
  });
  $('mode-edit').addEventListener('click', () => setMode('edit'));
  $('mode-play').addEventListener('click', () => setMode('play'));
  $('add-board').addEventListener('click', () => {
    if (boards().length < MAX_BOARDS) editBoards((bs) => bs.push(emptyBoard(3, 3)));
  });
  $('hints').addEventListener('change', (event) => {
    state.hints = event.target.checked;
    writeHash();
    render();
  });
  $('vs-engine').addEventListener('change', (event) => {
    state.vsEngine = event.target.checked;
    writeHash();
    render();
    maybeEngineMove();
  });
  $('start-me').addEventListener('click', () => startGame(false));
  $('start-engine').addEventListener('click', () => startGame(true));
  // After a game: the same start and sides again, or the sides swapped.
  $('new-game').addEventListener('click', () => startGame(state.engineSide === 0, true));
  $('rematch').addEventListener('click', () => startGame(state.engineSide !== 0, true));
  $('notice-close').addEventListener('click', () => {
    state.notice = null;
    writeHash();
    render();
  });
  const optionList = $('option-list');
  optionList.addEventListener('mouseover', (event) => {
    const o = optionOf(event);
    if (o && o !== state.hoverMove) {
      state.hoverMove = o;
      refreshPreview();
    }
  });
  optionList.addEventListener('mouseleave', () => {
    if (state.hoverMove) {
      state.hoverMove = null;
      refreshPreview();
    }
  });
  optionList.addEventListener('click', (event) => {
    const o = optionOf(event);
    if (!o) return;
    state.picked = state.picked && clearGame.sameMove(state.picked, o) ? null : o;
    state.selection = null;
    refreshPreview();
  });
  $('opt-filter').addEventListener('change', (event) => {
    state.optFilter = event.target.value;
    renderHints();
  });
  $('opt-sort').addEventListener('change', (event) => {
    state.optSort = event.target.value;
    renderHints();
  });
  $('play-picked').addEventListener('click', () => {
    if (state.picked) commitMove(state.picked, 'you');
  });
  $('paste-go').addEventListener('click', pastePosition);
  $('random-go').addEventListener('click', randomPosition);
  // Enter in the size fields makes the position, as the button does.
  for (const id of ['rand-rows', 'rand-cols']) {
    $(id).addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      randomPosition();
    });
  }
  $('rand-density').addEventListener('input', renderSetup);
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('share').addEventListener('click', async () => {
    writeHash();
    try {
      await navigator.clipboard.writeText(location.href);
      $('share').textContent = 'Link copied';
    } catch (_) {
      $('share').textContent = 'Link in address bar';
    }
    setTimeout(() => { $('share').textContent = 'Copy link'; }, 1500);
  });
  window.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && (state.selection || state.picked)) {
      state.selection = null;
      state.picked = null;
      render();
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'z') {
      undo();
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'y') {
      redo();
    }
  });
  // A link changed in the address bar of the open tab: open it, unless it
  // is the position already shown (the page writes its own link).
  window.addEventListener('hashchange', onLocation);
  window.addEventListener('popstate', onLocation);
  // Cells are sized to the board column: redraw when it changes.
  let pending = false;
  window.addEventListener('resize', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; renderBoards(); });
  });
  if (state.notice) {
    render();
    analyse();
  } else {
    afterChange();
  }
}

init();
