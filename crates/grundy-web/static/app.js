// grundy playground: plain JavaScript, no build step. The server does all
// game analysis (POST /api/v1/{game}/analyze and /play); this page edits
// positions, draws them, and keeps the play history.
//
// Each game is one entry of GAMES with the same small interface (position
// encoding, moves, describing a move). Rectangle clearing draws boards of
// its own; the pawn and split games are "cell games": one grid, drawn by
// renderCellBoard from the game's cellView, edited and played by clicking
// cells (see CELL GAMES below).
'use strict';

const MAX_CELLS = 64;
const MAX_SIDE = 8;
const MAX_BOARDS = 16;

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
    const parts = text.split(',');
    if (parts.length < 1 || parts.length > MAX_BOARDS) return null;
    const boards = [];
    for (const part of parts) {
      const rows = part.split('-');
      if (!rows.every((r) => /^[01]+$/.test(r) && r.length === rows[0].length)) return null;
      if (rows.length > MAX_SIDE || rows[0].length > MAX_SIDE) return null;
      boards.push(board(rows));
    }
    return boards;
  },
  request(boards) {
    return { boards: boards.map((b) => b.cells.map((row) => row.map((c) => (c ? '1' : '0')).join(''))) };
  },
  isLegal(boards, mv) {
    const b = boards[mv.board];
    if (!b || mv.bottom >= b.rows || mv.right >= b.cols) return false;
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
  describe(mv, several) {
    const corner = (r, c) => `(${r + 1},${c + 1})`;
    const where = mv.top === mv.bottom && mv.left === mv.right
      ? corner(mv.top, mv.left)
      : `${corner(mv.top, mv.left)}–${corner(mv.bottom, mv.right)}`;
    return `clear ${where}${several ? ` on board ${mv.board + 1}` : ''}`;
  },
};

// ---------------------------------------------------------------- cell games

const MAX_GRID = 32;

function cellKey(x, y) {
  return `${x},${y}`;
}

// The pawn game. Coordinates as the CLI's `grundy pawn`: x the column, y the
// row, y grows upwards (row 0 is drawn at the bottom); a pawn moves left or
// down, never onto or over a wall. Several pawns are a sum.
const pawnGame = {
  name: 'pawn',
  title: 'Pawn on a grid',
  cellGame: true,
  tools: [['wall', 'Walls'], ['pawn', 'Pawns']],
  help: {
    edit: 'Walls: click cells to toggle impassable cells. Pawns: click to place or remove a pawn (several pawns are a sum). A move takes one pawn any distance left or down, not over a wall; who cannot move loses.',
    play: 'Click a cell left of or below a pawn to move it there.',
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
    if (!m) return null;
    const w = Number(m[1]);
    const h = Number(m[2]);
    if (w < 1 || h < 1 || w > MAX_GRID || h > MAX_GRID) return null;
    const list = (t) => (t ? t.split('_').map((xy) => xy.split('.').map(Number)) : []);
    const walls = list(m[3]);
    const pawns = list(m[4]);
    const inside = ([x, y]) => Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < w && y < h;
    if (!walls.every(inside) || !pawns.every(inside) || pawns.length > MAX_BOARDS) return null;
    const wallSet = new Set(walls.map(([x, y]) => cellKey(x, y)));
    if (wallSet.size !== walls.length || pawns.some(([x, y]) => wallSet.has(cellKey(x, y)))) return null;
    return { w, h, walls, pawns };
  },
  request(p) {
    return { blocked: p.walls, pawns: p.pawns, region: [p.w, p.h] };
  },
  size(p) {
    return [p.h, p.w];
  },
  resize(p, rows, cols) {
    const inside = ([x, y]) => x < cols && y < rows;
    const pawns = p.pawns.filter(inside);
    return { w: cols, h: rows, walls: p.walls.filter(inside), pawns: pawns.length ? pawns : [[0, 0]] };
  },
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
  moveAt(p, r, c) {
    const [x, y] = this.at(p, r, c);
    for (let pawn = 0; pawn < p.pawns.length; pawn++) {
      const mv = { pawn, x, y };
      if (this.isLegal(p, mv)) return mv;
    }
    return null;
  },
  play(p, mv) {
    return { ...p, pawns: p.pawns.map((xy, i) => (i === mv.pawn ? [mv.x, mv.y] : xy)) };
  },
  hasMoves(p) {
    return p.pawns.some(([x, y]) => (x > 0 && !this.wallAt(p, x - 1, y)) || (y > 0 && !this.wallAt(p, x, y - 1)));
  },
  sameMove(a, b) {
    return a.pawn === b.pawn && a.x === b.x && a.y === b.y;
  },
  moveCell(p, mv) {
    return [p.h - 1 - mv.y, mv.x];
  },
  describe(mv, _several, p) {
    const several = p && p.pawns.length > 1;
    return `${several ? `pawn ${mv.pawn + 1}` : 'pawn'} to (${mv.x},${mv.y})`;
  },
  valueParts(a) {
    return a.pawns && a.pawns.length > 1 ? ` = ${a.pawns.map((q) => q.grundy).join(' xor ')}` : '';
  },
  // The class and label of display cell (r, c).
  cellView(p, r, c, a, hints) {
    const [x, y] = this.at(p, r, c);
    const pawnAt = p.pawns.findIndex(([a2, b2]) => a2 === x && b2 === y);
    if (this.wallAt(p, x, y)) return { cls: 'wall', label: '', aria: `(${x},${y}) wall` };
    const losing = hints && a && a.losing && a.losing.some(([a2, b2]) => a2 === x && b2 === y);
    if (pawnAt >= 0) {
      return { cls: `pawn${losing ? ' losing' : ''}`, label: p.pawns.length > 1 ? String(pawnAt + 1) : '♟', aria: `(${x},${y}) pawn ${pawnAt + 1}` };
    }
    return { cls: losing ? 'losing' : '', label: '', aria: `(${x},${y})${losing ? ' losing' : ''}` };
  },
  overlays() {
    return [];
  },
};

// The splitting game: a move picks a candidate inside a rectangle still in
// play and deletes its row and column from that rectangle, leaving up to
// four rectangles. Cells 0-based in requests, shown 1-based.
const splitGame = {
  name: 'split',
  title: 'Splitting a grid',
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
  // "01100-10010;1.2_0.1": rows, then the moves played.
  encode(p) {
    const grid = p.cand.map((row) => row.map((on) => (on ? '1' : '0')).join('')).join('-');
    return `${grid};${p.moves.map(([r, c]) => `${r}.${c}`).join('_')}`;
  },
  decode(text) {
    const [gridText, movesText = ''] = text.split(';');
    const rows = gridText.split('-');
    if (!rows.every((r) => /^[01]+$/.test(r) && r.length === rows[0].length)) return null;
    if (rows.length > MAX_GRID || rows[0].length > MAX_GRID) return null;
    let p = { rows: rows.length, cols: rows[0].length, cand: rows.map((r) => [...r].map((ch) => ch === '1')), moves: [] };
    for (const mv of movesText ? movesText.split('_') : []) {
      const [row, col] = mv.split('.').map(Number);
      if (!this.isLegal(p, { row, col })) return null;
      p = this.play(p, { row, col });
    }
    return p;
  },
  request(p) {
    return { grid: p.cand.map((row) => row.map((on) => (on ? '1' : '0')).join('')), moves: p.moves };
  },
  size(p) {
    return [p.rows, p.cols];
  },
  resize(p, rows, cols) {
    const cand = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => Boolean(p.cand[r] && p.cand[r][c])));
    return { rows, cols, cand, moves: [] };
  },
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
  liveRects(p) {
    return this.rects(p).filter((q) => {
      for (let r = q.top; r <= q.bottom; r++) for (let c = q.left; c <= q.right; c++) if (p.cand[r][c]) return true;
      return false;
    });
  },
  edit(p, r, c) {
    const cand = p.cand.map((row) => row.slice());
    cand[r][c] = !cand[r][c];
    return { ...p, cand, moves: [] };
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
    return `split at (${mv.row + 1},${mv.col + 1})`;
  },
  valueParts(a) {
    return a.rects && a.rects.length > 1 ? ` over ${a.rects.length} rectangles` : '';
  },
  cellView(p, r, c) {
    const live = this.rects(p).some((q) => q.top <= r && r <= q.bottom && q.left <= c && c <= q.right);
    const played = p.moves.some(([a, b]) => a === r && b === c);
    const on = p.cand[r][c];
    const cls = `${on ? 'cand' : ''}${live ? '' : ' dead'}${played ? ' played' : ''}`;
    return { cls, label: played ? '✕' : '', aria: `row ${r + 1} column ${c + 1}${on ? ' candidate' : ''}${live ? '' : ' deleted'}` };
  },
  // Outlines of the rectangles in play (after a move: the parts it left).
  overlays(p) {
    return p.moves.length ? this.liveRects(p).map((q) => ({ rect: q, cls: 'part' })) : [];
  },
};

const GAMES = { clear: clearGame, pawn: pawnGame, split: splitGame };

function board(rows) {
  return {
    rows: rows.length,
    cols: rows[0].length,
    cells: rows.map((row) => [...row].map((ch) => ch === '1')),
  };
}

function emptyBoard(rows, cols) {
  return { rows, cols, cells: Array.from({ length: rows }, () => Array(cols).fill(false)) };
}

function copyBoard(b) {
  return { rows: b.rows, cols: b.cols, cells: b.cells.map((row) => row.slice()) };
}

function sameMove(a, b) {
  return a.board === b.board && a.top === b.top && a.left === b.left && a.bottom === b.bottom && a.right === b.right;
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
  busy: false,
  selection: null, // {board, anchor: [r, c], end: [r, c], dragging, clickMode}
  paint: null, // {board, value} while painting in edit mode
  hoverCell: null, // {board, r, c}
  hoverMove: null, // a move highlighted from the winning list
  requestSeq: 0,
  generation: 0, // bumped whenever the position is replaced (edits, new games)
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

async function api(endpoint, body) {
  const response = await fetch(`/api/v1/${state.game.name}/${endpoint}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  let json = null;
  try {
    json = await response.json();
  } catch (_) {
    json = null;
  }
  if (!response.ok) {
    throw new Error((json && json.error) || `the server answered ${response.status}`);
  }
  return json;
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
  state.analysis = null;
  state.analysisFor = null;
  render();
  try {
    const result = await api('analyze', state.game.request(position));
    if (seq !== state.requestSeq) return; // a newer position was asked for
    state.analysis = result;
    state.analysisFor = key;
    state.error = null;
  } catch (err) {
    if (seq !== state.requestSeq) return;
    state.error = err.message;
  }
  render();
  maybeEngineMove();
}

async function maybeEngineMove() {
  if (!isEngineTurn(state.cursor) || state.busy || !state.game.hasMoves(boards())) return;
  state.busy = true;
  render();
  const at = state.cursor;
  const generation = state.generation;
  const position = boards();
  try {
    const result = await api('play', state.game.request(position));
    state.busy = false;
    // Ignore the answer if the user undid or edited meanwhile.
    if (state.generation !== generation || state.cursor !== at || boards() !== position
        || !isEngineTurn(at) || !result.move) {
      render();
      return;
    }
    commitMove(result.move, 'engine');
  } catch (err) {
    state.busy = false;
    state.error = err.message;
    render();
  }
}

// ---------------------------------------------------------------- actions

function setPosition(newBoards) {
  state.generation += 1;
  state.history = [{ boards: newBoards, move: null, by: null }];
  state.cursor = 0;
  state.selection = null;
  afterChange();
}

// The game and position an analysis answers.
function positionKey() {
  return `${state.game.name}/${state.game.encode(boards())}`;
}

function afterChange() {
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
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ boards: state.game.play(position, mv), move: mv, by });
  state.cursor += 1;
  state.selection = null;
  afterChange();
}

function startGame(engineFirst) {
  state.mode = 'play';
  state.engineSide = engineFirst ? 0 : 1;
  state.vsEngine = true;
  $('vs-engine').checked = true;
  setPosition(boards());
}

function setMode(mode) {
  if (mode === state.mode) return;
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

function resize(index, rows, cols) {
  if (rows < 1 || cols < 1 || rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS) return;
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

function writeHash() {
  const hash = `#${state.game.name}/${state.game.encode(boards())}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function readHash() {
  const match = /^#([a-z]+)\/(.+)$/.exec(location.hash);
  if (!match || !GAMES[match[1]]) return null;
  const game = GAMES[match[1]];
  const position = game.decode(decodeURIComponent(match[2]));
  return position ? { game, position } : null;
}

// ---------------------------------------------------------------- pointer input

function cellFromPoint(x, y) {
  const el = document.elementFromPoint(x, y);
  const cell = el && el.closest ? el.closest('.cell') : null;
  if (!cell) return null;
  return { board: Number(cell.dataset.board), r: Number(cell.dataset.r), c: Number(cell.dataset.c) };
}

function onPointerDown(event) {
  const cell = cellFromPoint(event.clientX, event.clientY);
  if (!cell || event.button > 0) return;
  event.preventDefault();
  if (state.game.cellGame) {
    cellGameClick(cell);
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

// A click on a cell game's grid: an edit, or a move.
function cellGameClick(cell) {
  const game = state.game;
  if (state.mode === 'edit') {
    const next = game.edit(boards(), cell.r, cell.c, state.tool);
    if (next) setPosition(next);
    return;
  }
  if (state.busy || isEngineTurn(state.cursor)) return;
  const mv = game.moveAt(boards(), cell.r, cell.c);
  if (mv) {
    commitMove(mv, 'you');
  } else {
    state.error = 'That is not a legal move.';
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

function moveValue(mv) {
  const a = state.analysis;
  if (!a || !a.moves) return null;
  const same = state.game.sameMove || sameMove;
  const found = a.moves.find((m) => same(m, mv));
  return found ? found.grundy : null;
}

function previewMove() {
  if (state.hoverMove) return state.hoverMove;
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

function overlay(mv, cls, label) {
  const node = el('div', { class: `overlay ${cls}` });
  node.style.gridRow = `${mv.top + 1} / ${mv.bottom + 2}`;
  node.style.gridColumn = `${mv.left + 1} / ${mv.right + 2}`;
  if (label !== undefined) node.append(el('span', { class: 'badge', text: label }));
  return node;
}

function componentValues(index) {
  // The value of each cell's component, for tooltips.
  const a = state.analysis;
  const map = new Map();
  if (!a || !a.boards || !a.boards[index]) return map;
  for (const comp of a.boards[index].components) {
    for (const [r, c] of comp.cells) map.set(`${r},${c}`, comp.grundy);
  }
  return map;
}

// A board's heading: its name, size and value (`null`: not known yet).
function boardTitle(name, rows, cols, value) {
  return el('div', { class: 'board-title' }, [
    el('strong', { text: name }),
    el('span', { class: 'muted', text: ` ${rows} × ${cols}` }),
    el('span', { class: 'board-value', text: value === null ? '' : `grundy ${value}` }),
  ]);
}

// A "label − n +" control; `set` receives the wanted count.
function stepper(label, get, set) {
  return el('span', { class: 'stepper' }, [
    el('span', { class: 'muted', text: label }),
    el('button', { type: 'button', 'aria-label': `fewer ${label}`, text: '−', onclick: () => set(get() - 1) }),
    el('span', { class: 'count', text: String(get()) }),
    el('button', { type: 'button', 'aria-label': `more ${label}`, text: '+', onclick: () => set(get() + 1) }),
  ]);
}

function renderBoards() {
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
  position.forEach((b, index) => {
    const boardValue = a && a.boards && a.boards[index] ? a.boards[index].grundy : null;
    const title = boardTitle(several ? `Board ${index + 1}` : 'Board', b.rows, b.cols, boardValue);
    const controls = el('div', { class: 'board-controls' });
    if (state.mode === 'edit') {
      controls.append(
        stepper('rows', () => b.rows, (n) => resize(index, n, b.cols)),
        stepper('cols', () => b.cols, (n) => resize(index, b.rows, n)),
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
    const grid = el('div', { class: `grid mode-${state.mode}`, 'data-board': String(index) });
    grid.style.gridTemplateColumns = `repeat(${b.cols}, var(--cell))`;
    grid.style.gridTemplateRows = `repeat(${b.rows}, var(--cell))`;
    const values = componentValues(index);
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) {
        const on = b.cells[r][c];
        const comp = values.get(`${r},${c}`);
        grid.append(el('button', {
          type: 'button',
          class: `cell${on ? ' on' : ''}`,
          'data-board': String(index),
          'data-r': String(r),
          'data-c': String(c),
          'aria-label': `board ${index + 1} row ${r + 1} column ${c + 1}: ${on ? 'one' : 'zero'}`,
          title: on && comp !== undefined ? `component value ${comp}` : '',
        }));
        grid.lastChild.style.gridRow = String(r + 1);
        grid.lastChild.style.gridColumn = String(c + 1);
      }
    }
    if (state.hints && a) {
      for (const mv of a.winning_moves) {
        if (mv.board === index) grid.append(overlay(mv, 'winning'));
      }
    }
    if (preview && preview.board === index && (state.mode === 'play' || state.hoverMove)) {
      const legal = state.game.isLegal(position, preview);
      const value = legal ? moveValue(preview) : null;
      const label = !legal ? 'not all ones' : state.hints && value !== null ? `→ ${value}${value === 0 ? ' wins' : ''}` : undefined;
      grid.append(overlay(preview, legal ? 'preview' : 'preview illegal', label));
    }
    container.append(el('div', { class: 'board-card' }, [title, controls, grid]));
  });
}

// One grid of a cell game: size steppers and tools in edit mode, cells
// drawn from the game's cellView, winning moves outlined with hints, the
// hovered move's value as a badge.
function renderCellBoard() {
  const game = state.game;
  const p = boards();
  const a = state.analysis;
  const [rows, cols] = game.size(p);
  const title = boardTitle(game.title, rows, cols, a && a.grundy !== undefined ? a.grundy : null);
  const controls = el('div', { class: 'board-controls' });
  if (state.mode === 'edit') {
    const resizeTo = (r, c) => {
      if (r >= 1 && c >= 1 && r <= MAX_GRID && c <= MAX_GRID) setPosition(game.resize(p, r, c));
    };
    controls.append(stepper('rows', () => rows, (n) => resizeTo(n, cols)), stepper('cols', () => cols, (n) => resizeTo(rows, n)));
    if (game.tools) {
      controls.append(el('span', { class: 'segmented', role: 'group', 'aria-label': 'Edit tool' }, game.tools.map(([tool, label]) => el('button', {
        type: 'button',
        'aria-pressed': String(state.tool === tool),
        text: label,
        onclick: () => { state.tool = tool; render(); },
      }))));
    }
  }
  const grid = el('div', { class: `grid cell-grid game-${game.name} mode-${state.mode}`, 'data-board': '0' });
  // Fit the screen: the page's paddings and the gaps come off the width.
  grid.style.setProperty('--cell', `clamp(6px, calc((100vw - 5rem - ${cols * 2}px) / ${cols}), ${cols > 12 ? 26 : 40}px)`);
  grid.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
  grid.style.gridTemplateRows = `repeat(${rows}, var(--cell))`;
  const winning = new Set();
  if (state.hints && a && a.winning_moves) {
    for (const mv of a.winning_moves) winning.add(game.moveCell(p, mv).join(','));
  }
  const preview = previewMove();
  const previewAt = preview ? game.moveCell(p, preview).join(',') : null;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const view = game.cellView(p, r, c, a, state.hints);
      const here = `${r},${c}`;
      let cls = `cell ${view.cls}`;
      if (winning.has(here)) cls += ' win-target';
      if (previewAt === here) cls += ' previewed';
      const node = el('button', {
        type: 'button',
        class: cls,
        'data-board': '0',
        'data-r': String(r),
        'data-c': String(c),
        'aria-label': view.aria,
      });
      if (view.label) node.append(el('span', { class: 'mark', text: view.label }));
      if (previewAt === here && state.hints) {
        const value = moveValue(preview);
        if (value !== null) node.append(el('span', { class: 'badge', text: `→ ${value}` }));
      }
      node.style.gridRow = String(r + 1);
      node.style.gridColumn = String(c + 1);
      grid.append(node);
    }
  }
  for (const { rect, cls } of game.overlays(p)) grid.append(overlay(rect, cls));
  return el('div', { class: 'board-card' }, [title, controls, grid]);
}

function fill(b, value) {
  return { rows: b.rows, cols: b.cols, cells: b.cells.map((row) => row.map(() => value)) };
}

function renderStatus() {
  const a = state.analysis;
  const ply = state.cursor;
  const position = boards();
  const over = !state.game.hasMoves(position);
  let winner = state.error ? 'Not analysed' : 'Analysing…';
  let value = '';
  if (over) {
    const loser = ply % 2;
    winner = `${playerName(1 - loser)} wins`;
    value = `${playerName(ply)} cannot move.`;
  } else if (a) {
    const moverWins = a.grundy !== 0;
    const firstWins = moverWins === (ply % 2 === 0);
    winner = `${firstWins ? 'First' : 'Second'} player wins`;
    const parts = state.game.valueParts ? state.game.valueParts(a) : a.boards.length > 1 ? ` = ${a.boards.map((b) => b.grundy).join(' xor ')}` : '';
    value = `Grundy value ${a.grundy}${parts}. ${moverWins ? 'The player to move wins.' : 'The player to move loses.'}`;
  }
  $('winner').textContent = winner;
  $('winner').className = `winner ${a && !over ? (a.grundy !== 0) === (ply % 2 === 0) ? 'first' : 'second' : ''}`;
  $('value').textContent = value;
  let turn = '';
  if (state.mode === 'play' && !over) {
    turn = state.busy ? 'Engine is thinking…' : `To move: ${playerName(ply)}`;
  } else if (state.mode === 'edit') {
    turn = 'Editing: set up a position, then start a game.';
  }
  $('turn').textContent = turn;
  const error = $('error');
  error.hidden = !state.error;
  error.textContent = state.error || '';
}

function renderMoves() {
  const list = $('move-list');
  list.replaceChildren();
  const several = boards().length > 1;
  state.history.slice(1).forEach((entry, i) => {
    const who = entry.by === 'engine' ? 'Engine' : state.vsEngine ? 'You' : playerName(i);
    list.append(el('li', { class: i + 1 > state.cursor ? 'undone' : i + 1 === state.cursor ? 'current' : '' }, [
      el('span', { class: 'who', text: `${who}: ` }),
      state.game.describe(entry.move, several, state.history[i].boards),
    ]));
  });
  $('no-moves').hidden = state.history.length > 1;
}

function renderHints() {
  const card = $('hint-card');
  card.hidden = !state.hints;
  if (!state.hints) return;
  const a = state.analysis;
  const preview = previewMove();
  const info = $('hover-info');
  if (preview && a && state.game.isLegal(boards(), preview)) {
    const value = moveValue(preview);
    const several = boards().length > 1;
    info.textContent = value === null
      ? `${state.game.describe(preview, several, boards())}: value not listed (large position)`
      : `${state.game.describe(preview, several, boards())} leads to grundy ${value}${value === 0 ? ': a winning move' : ''}.`;
  } else {
    info.textContent = 'Hover a cell (or select a rectangle) to see the value its move leads to.';
  }
  const listNode = $('winning-list');
  listNode.replaceChildren();
  if (!a) return;
  if (a.winning_moves.length === 0) {
    listNode.append(el('p', { class: 'muted', text: 'No winning move: every move leaves a non-zero value.' }));
    return;
  }
  listNode.append(el('p', { text: `Winning moves (${a.winning_moves.length}):` }));
  const several = boards().length > 1;
  const ul = el('ul');
  for (const mv of a.winning_moves) {
    ul.append(el('li', {
      class: 'winning-move',
      text: state.game.describe(mv, several, boards()),
      onmouseenter: () => { state.hoverMove = mv; renderBoards(); },
      onmouseleave: () => { state.hoverMove = null; renderBoards(); },
    }));
  }
  listNode.append(ul);
}

function render() {
  $('mode-edit').setAttribute('aria-pressed', String(state.mode === 'edit'));
  $('mode-play').setAttribute('aria-pressed', String(state.mode === 'play'));
  $('add-board').hidden = state.mode !== 'edit' || Boolean(state.game.cellGame);
  $('help').textContent = state.game.help[state.mode];
  $('undo').disabled = undoTarget() === null || state.busy;
  $('redo').disabled = redoTarget() === null || state.busy;
  document.body.classList.toggle('busy', state.busy);
  renderBoards();
  renderStatus();
  renderMoves();
  renderHints();
}

// ---------------------------------------------------------------- start

async function loadGames() {
  const select = $('game');
  let served = ['clear'];
  try {
    const response = await fetch('/api/v1/games');
    served = (await response.json()).games.map((g) => g.name);
  } catch (_) {
    // Keep the default list.
  }
  for (const [name, game] of Object.entries(GAMES)) {
    if (!served.includes(name)) continue;
    select.append(el('option', { value: name, text: game.title }));
  }
  select.value = state.game.name;
  select.addEventListener('change', () => {
    state.game = GAMES[select.value];
    state.mode = 'edit';
    setPosition(state.game.defaultPosition());
  });
}

function init() {
  const fromHash = readHash();
  if (fromHash) {
    state.game = fromHash.game;
    state.history = [{ boards: fromHash.position, move: null, by: null }];
  }
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
    render();
  });
  $('vs-engine').addEventListener('change', (event) => {
    state.vsEngine = event.target.checked;
    render();
    maybeEngineMove();
  });
  $('start-me').addEventListener('click', () => startGame(false));
  $('start-engine').addEventListener('click', () => startGame(true));
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
    if (event.key === 'Escape' && state.selection) {
      state.selection = null;
      render();
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'z') {
      undo();
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'y') {
      redo();
    }
  });
  window.addEventListener('hashchange', () => {
    const next = readHash();
    if (next && next.game.encode(next.position) !== state.game.encode(boards())) {
      state.game = next.game;
      setPosition(next.position);
    }
  });
  afterChange();
}

init();
