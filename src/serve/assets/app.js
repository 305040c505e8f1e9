// kirin's web board: the page of `kirin serve` (docs/web.md).
//
// The server keeps no game. The page holds the game as the server takes it,
// {variant, rules, start, fen, moves: [ids]}, and asks for the state of the position it
// shows after every change; the state lists the legal actions with the squares a person
// clicks for each, so the page knows nothing of any game's rules.
'use strict';

// ================================================================ api

// Sends `body` as JSON (GET without one) and returns the JSON answer; a refusal throws
// the server's own reason (`{"error": why}`).
async function api(path, body, signal) {
  const request = body === undefined ? { signal } : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  };
  const response = await fetch(path, request);
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch { /* an answer that is no JSON is reported below */ }
  if (!response.ok) throw new Error(data?.error ?? `${path}: ${response.status} ${text.slice(0, 200)}`);
  if (data === null) throw new Error(`${path}: the answer is not JSON`);
  return data;
}

// The game up to its `ply`-th action: what the server needs for that position.
function gameUpTo(ply) {
  return { ...app.game, moves: app.game.moves.slice(0, ply) };
}

// ================================================================ state

const app = {
  variants: [],           // GET /api/variants
  game: null,             // the game as the server takes it
  shownPly: 0,            // how many of game.moves the board shows
  state: null,            // the server's state of the shown position
  endHistory: [],         // the whole game's history, for the move list
  scores: new Map(),      // ply -> kirin's score there, in pawns from White's side
  flipped: false,
  selection: { squares: [], drop: null },
  // Bumped by every change made by hand (a move, New game, navigation, take-back): an
  // answer asked for in an older epoch is dropped, so a late reply never undoes a change.
  epoch: 0,
  engine: null,           // the AbortController of kirin's move being thought about
  rects: new Map(),       // square -> its rect on the board drawn
  marks: null,            // the board's layer of target marks
};

const $ = (id) => document.getElementById(id);

function otherSide(side) {
  return side === 'white' ? 'black' : 'white';
}

function capitalised(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function playerOf(side) {
  return $(`${side}-player`).value;
}

function atEnd() {
  return app.shownPly === app.game.moves.length;
}

// Whether a click may play now: a person's turn in a game that goes on.
function humanToMove() {
  const st = app.state;
  return Boolean(st) && !st.outcome && !app.engine && playerOf(st.side) === 'human';
}

function bumpEpoch() {
  app.epoch += 1;
  if (app.engine) {
    app.engine.abort(); // the server stops a search whose requester has gone
    app.engine = null;
    renderStatus();
  }
}

// The actions of a history grouped into turns; an unfinished turn counts as one.
function turnsOf(history) {
  const turns = [];
  let open = null;
  history.forEach((entry, index) => {
    if (!open) {
      open = { side: entry.side, entries: [], ply: 0 };
      turns.push(open);
    }
    open.entries.push(entry);
    open.ply = index + 1;
    if (entry.turn_end) open = null;
  });
  return turns;
}

// Scores come from the side to move; the page shows and plots them from White's side.
function whiteScore(score, side) {
  const sign = side === 'white' ? 1 : -1;
  return 'mate' in score ? { mate: sign * score.mate } : { cp: sign * score.cp };
}

function formatScore(score) {
  if ('mate' in score) return `#${score.mate}`;
  return `${score.cp >= 0 ? '+' : ''}${(score.cp / 100).toFixed(2)}`;
}

const GRAPH_LIMIT = 10; // pawns either way

function scorePawns(score) {
  if ('mate' in score) return score.mate >= 0 ? GRAPH_LIMIT : -GRAPH_LIMIT;
  return Math.max(-GRAPH_LIMIT, Math.min(GRAPH_LIMIT, score.cp / 100));
}

function dropScoresAfter(ply) {
  for (const key of [...app.scores.keys()]) if (key > ply) app.scores.delete(key);
}

// Shows the position after `ply` actions of the game.
async function show(ply) {
  const epoch = app.epoch;
  const state = await api('/api/state', gameUpTo(ply));
  if (epoch === app.epoch) applyState(ply, state);
}

function applyState(ply, state) {
  app.shownPly = ply;
  app.state = state;
  if (ply === app.game.moves.length) app.endHistory = state.history;
  app.selection = { squares: [], drop: null };
  render();
  requestAnalysis();
  saveGameInUrl();
  maybeEngineMove();
}

// Replaces the game (New game, an import, a reload) and shows its end.
async function startGame(game) {
  bumpEpoch();
  const epoch = app.epoch;
  const state = await api('/api/state', game);
  if (epoch !== app.epoch) return;
  const sameVariant = app.game?.variant === game.variant;
  app.game = game;
  app.scores = new Map();
  if (!sameVariant) $('piece-style').value = hasKanji(state) ? 'kanji' : 'letters';
  applyState(game.moves.length, state);
}

// Plays a person's action; from an earlier position it cuts the game there.
async function playAction(action) {
  bumpEpoch();
  const epoch = app.epoch;
  const moves = [...app.game.moves.slice(0, app.shownPly), action.id];
  app.selection = { squares: [], drop: null };
  renderHighlights();
  const state = await api('/api/state', { ...app.game, moves });
  if (epoch !== app.epoch) return;
  dropScoresAfter(app.shownPly);
  app.game = { ...app.game, moves };
  applyState(moves.length, state);
}

// Removes the last turn, and the one before when that gives the move back to kirin, so
// that a person playing kirin gets their own turn back.
async function takeBack() {
  bumpEpoch();
  const turns = turnsOf(app.endHistory);
  if (turns.length === 0) return;
  let side = turns.pop().side;
  if (playerOf(side) === 'kirin' && playerOf(otherSide(side)) === 'human' && turns.length > 0) {
    side = turns.pop().side;
  }
  const keep = turns.length > 0 ? turns[turns.length - 1].ply : 0;
  app.game = { ...app.game, moves: app.game.moves.slice(0, keep) };
  dropScoresAfter(keep);
  await show(keep);
}

async function goTo(ply) {
  bumpEpoch();
  await show(Math.max(0, Math.min(ply, app.game.moves.length)));
}

// The plies at which a turn ends (and 0), where the navigation buttons stop.
function turnEnds() {
  return [0, ...turnsOf(app.endHistory).map((turn) => turn.ply)];
}

function navigate(where) {
  const ends = turnEnds();
  const targets = {
    start: 0,
    back: [...ends].reverse().find((p) => p < app.shownPly) ?? 0,
    forward: ends.find((p) => p > app.shownPly) ?? app.game.moves.length,
    end: app.game.moves.length,
  };
  run(() => goTo(targets[where]));
}

// The game in the address, so that a reload keeps it.
function saveGameInUrl() {
  history.replaceState(null, '', `#${encodeURIComponent(JSON.stringify(app.game))}`);
}

function gameFromUrl() {
  try {
    const game = JSON.parse(decodeURIComponent(location.hash.slice(1)));
    return typeof game?.variant === 'string' && Array.isArray(game.moves) ? game : null;
  } catch {
    return null;
  }
}

// Runs a task started by a person; its failure is shown, never left hanging.
function run(task) {
  showError('');
  task().catch((e) => showError(e.message || String(e)));
}

function showError(message) {
  $('error').textContent = message;
}

// ================================================================ board rendering

const SVG_NS = 'http://www.w3.org/2000/svg';
const SQ = 100;       // a square's side, in the board's SVG units
const MARGIN = 38;    // room for the coordinates (left and bottom)
const PAD = 6;        // room above and to the right
const FILES = 'abcdefghijklmnopqrstuvwxyz';

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

function squareName(sq, width) {
  return FILES[sq % width] + (Math.floor(sq / width) + 1);
}

// The top left corner of a square, White at the bottom unless the board is flipped.
function squareXY(sq, st) {
  const file = sq % st.width;
  const rank = Math.floor(sq / st.width);
  const col = app.flipped ? st.width - 1 - file : file;
  const row = app.flipped ? rank : st.height - 1 - rank;
  return { x: MARGIN + col * SQ, y: PAD + row * SQ };
}

function hasKanji(st) {
  const held = st.reserves.flatMap((r) => r.pieces.map((p) => p.piece));
  return [...st.board, ...held].some((p) => p?.kanji);
}

function lastMoveSquares(st) {
  const last = turnsOf(st.history).pop();
  return new Set(last ? last.entries.flatMap((e) => e.path) : []);
}

function renderBoard() {
  const st = app.state;
  const holes = new Set(st.holes);
  const citadels = new Set(st.citadels ?? []);
  const lastMove = lastMoveSquares(st);
  const shogi = hasKanji(st);
  const width = MARGIN + st.width * SQ + PAD;
  const height = PAD + st.height * SQ + MARGIN;
  const squares = svg('g', { class: 'squares' });
  const pieces = svg('g', { class: 'pieces' });
  app.rects = new Map();
  for (let sq = 0; sq < st.width * st.height; sq++) {
    if (holes.has(sq)) continue;
    const { x, y } = squareXY(sq, st);
    const name = squareName(sq, st.width);
    const shade = (sq % st.width + Math.floor(sq / st.width)) % 2 === 0 ? 'dark' : 'light';
    const classes = ['square', shade];
    if (citadels.has(sq)) classes.push('citadel');
    if (lastMove.has(sq)) classes.push('last-move');
    const rect = svg('rect', {
      class: classes.join(' '), 'data-square': name, 'data-sq': sq,
      x, y, width: SQ, height: SQ,
    });
    const piece = st.board[sq];
    if (piece) {
      // Pieces let clicks through to their square, so the tooltip lives here.
      const carrying = piece.carried ? `, carrying a ${piece.carried.name}` : '';
      rect.append(svg('title', {}, `${name}: ${piece.color} ${piece.name}${carrying}`));
      pieces.append(boardPiece(piece, name, x + SQ / 2, y + SQ / 2));
    }
    squares.append(rect);
    app.rects.set(sq, rect);
  }
  app.marks = svg('g', { class: 'marks' });
  const board = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: shogi ? 'shogi' : 'checkered',
    role: 'img',
    'aria-label': `${st.variant} board`,
  }, squares, coordinates(st), app.marks, pieces);
  board.addEventListener('click', onBoardClick);
  const holder = $('board');
  holder.style.setProperty('--aspect', width / height);
  holder.replaceChildren(board);
}

function coordinates(st) {
  const g = svg('g', { class: 'coords' });
  for (let file = 0; file < st.width; file++) {
    const col = app.flipped ? st.width - 1 - file : file;
    g.append(svg('text', {
      class: 'coord', x: MARGIN + col * SQ + SQ / 2, y: PAD + st.height * SQ + MARGIN / 2 + 2,
    }, FILES[file]));
  }
  for (let rank = 0; rank < st.height; rank++) {
    const row = app.flipped ? rank : st.height - 1 - rank;
    g.append(svg('text', { class: 'coord', x: MARGIN / 2, y: PAD + row * SQ + SQ / 2 }, String(rank + 1)));
  }
  return g;
}

function boardPiece(piece, square, cx, cy) {
  const g = svg('g', {
    class: 'piece', 'data-square': square, 'data-letter': piece.letter, 'data-color': piece.color,
    transform: `translate(${cx} ${cy})`,
  }, svg('title', {}, piece.name), pieceBody(piece));
  if (piece.carried) {
    const carried = piece.carried;
    g.append(svg('g', {
      class: 'passenger', 'data-square': square, 'data-letter': carried.letter, 'data-color': carried.color,
      transform: 'translate(31 -31) scale(0.4)',
    }, svg('title', {}, `carrying ${carried.name}`), pieceBody(carried)));
  }
  return g;
}

// A piece drawn around (0, 0) in a square of side SQ, in the chosen style.
function pieceBody(piece) {
  const style = $('piece-style').value;
  if (piece.kanji && (style === 'kanji' || style === 'romaji')) return tile(piece, style);
  if (style === 'figurines' && FIGURINES[piece.name]) return figurine(piece);
  return disc(piece);
}

// Tiles and figurines face their owner's opponent: up for the side at the bottom.
function pointsUp(piece) {
  return (piece.color !== 'black') !== app.flipped;
}

// The letter without the promotion's `+` (the drawing marks it); dressed letters
// (`R'`, `p!`) keep their marks, and the case tells the side as in FEN.
function plainLetter(piece) {
  return piece.letter.replace(/^\+/, '');
}

const TILE_OUTLINE = 'M0,-46 L31,-33 L38,44 L-38,44 L-31,-33 Z';

// A shogi pentagon with its kanji stacked vertically or its romaji name.
function tile(piece, style) {
  const g = svg('g', {
    class: `tile${piece.promoted ? ' promoted' : ''}`,
    transform: pointsUp(piece) ? '' : 'rotate(180)',
  }, svg('path', { class: 'tile-body', d: TILE_OUTLINE }));
  if (style === 'kanji') g.append(...kanjiText(piece.kanji));
  else g.append(...romajiText(piece.romaji ?? plainLetter(piece)));
  return g;
}

function kanjiText(kanji) {
  const chars = [...kanji];
  const size = chars.length === 1 ? 44 : Math.min(34, 72 / chars.length);
  return chars.map((ch, i) => svg('text', {
    class: 'kanji', 'font-size': size, y: 5 + (i - (chars.length - 1) / 2) * size * 0.98,
  }, ch));
}

// The romaji name in one or two lines, squeezed to the tile's width when long.
function romajiText(romaji) {
  const words = romaji.split(/[\s-]+/);
  const lines = words.length <= 2 ? words : [words[0], words.slice(1).join(' ')];
  const size = 19;
  const room = 62;
  return lines.map((line, i) => {
    const attrs = { class: 'romaji', 'font-size': size, y: 6 + (i - (lines.length - 1) / 2) * size * 1.1 };
    if (line.length * size * 0.56 > room) Object.assign(attrs, { textLength: room, lengthAdjust: 'spacingAndGlyphs' });
    return svg('text', attrs, line);
  });
}

const DISC_FONT = [0, 52, 42, 32, 26];

// A disc in the side's colour with the piece's letter; a red ring marks a promotion.
function disc(piece) {
  const text = plainLetter(piece);
  return svg('g', { class: `disc ${piece.color}${piece.promoted ? ' promoted' : ''}` },
    svg('circle', { class: 'disc-body', r: 40 }),
    svg('text', { class: 'disc-letter', 'font-size': DISC_FONT[Math.min(text.length, 4)] }, text));
}

// The solid figurines, filled in the side's colour (the outlined ones vary by font).
const FIGURINES = { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' };

function figurine(piece) {
  const g = svg('g', { class: `figurine ${piece.color}` },
    svg('text', { class: 'figurine-glyph', 'font-size': 78 }, `${FIGURINES[piece.name]}\uFE0E`));
  if (piece.promoted) g.append(svg('text', { class: 'promotion-mark', x: 30, y: -28, 'font-size': 34 }, '+'));
  return g;
}

// The selected squares, where the selection may go next, and the chosen reserve piece.
function renderHighlights() {
  if (!app.marks) return;
  const { squares, drop } = app.selection;
  const picked = squares.length > 0 || drop !== null;
  const next = new Set(picked ? candidates(app.selection)
    .filter((a) => a.path.length > squares.length)
    .map((a) => a.path[squares.length]) : []);
  for (const [sq, rect] of app.rects) {
    rect.classList.toggle('selected', squares.includes(sq));
    rect.classList.toggle('target', next.has(sq));
  }
  app.marks.replaceChildren(...[...next].map((sq) => targetMark(sq)));
  for (const el of document.querySelectorAll('.reserve-piece')) {
    el.classList.toggle('selected', sameDrop(drop, reserveDrop(el)));
  }
}

// A dot on an empty target, a ring around a piece to take or swap with.
function targetMark(sq) {
  const { x, y } = squareXY(sq, app.state);
  const occupied = app.state.board[sq] !== null;
  return svg('circle', {
    class: occupied ? 'mark ring' : 'mark dot', cx: x + SQ / 2, cy: y + SQ / 2, r: occupied ? 45 : 15,
  });
}

// The reserves beside the board: each side's hand and prisoners, and the neutral one.
const RESERVE_BOXES = ['reserves-white', 'reserves-black', 'reserves-neutral', 'prisoners-white', 'prisoners-black'];

function renderReserves() {
  for (const id of RESERVE_BOXES) {
    $(id).replaceChildren();
    $(id).hidden = true;
  }
  for (const reserve of app.state.reserves) {
    const box = $(reserve.kind === 'prisoners' ? `prisoners-${reserve.owner}` : `reserves-${reserve.owner}`);
    box.hidden = false;
    const title = reserve.kind === 'prisoners' ? `${capitalised(reserve.owner)}'s prisoners`
      : reserve.owner === 'neutral' ? 'neutral reserve' : `${capitalised(reserve.owner)}'s hand`;
    box.append(Object.assign(document.createElement('span'), { className: 'reserve-title', textContent: title }));
    for (const held of reserve.pieces) box.append(reservePiece(reserve, held));
    if (reserve.pieces.length === 0) {
      box.append(Object.assign(document.createElement('span'), { className: 'reserve-empty', textContent: 'empty' }));
    }
  }
  $('play').classList.toggle('flipped', app.flipped);
  $('play').classList.toggle('with-reserves', app.state.reserves.length > 0);
}

function reservePiece(reserve, held) {
  const button = document.createElement('button');
  button.className = 'reserve-piece';
  Object.assign(button.dataset, {
    owner: reserve.owner, letter: held.piece.letter, kind: reserve.kind, reserve: reserve.index,
  });
  button.title = held.piece.name;
  button.append(svg('svg', { viewBox: '-50 -50 100 100', class: 'reserve-icon' }, pieceBody(held.piece)));
  if (held.count > 1) {
    button.append(Object.assign(document.createElement('span'), { className: 'count', textContent: held.count }));
  }
  button.addEventListener('click', () => pickReserve(reserveDrop(button)));
  return button;
}

function reserveDrop(el) {
  return { reserve: Number(el.dataset.reserve), letter: el.dataset.letter };
}

// Actions made without a square (a choice not to promote, a ransom) are buttons.
function renderActions() {
  const box = $('actions');
  box.replaceChildren();
  if (!humanToMove()) return;
  for (const action of app.state.legal.filter((a) => a.path.length === 0)) {
    const button = document.createElement('button');
    button.className = 'action-button';
    button.dataset.text = action.text;
    button.textContent = action.label;
    button.title = action.san;
    button.addEventListener('click', () => run(() => playAction(action)));
    box.append(button);
  }
}

function renderStatus() {
  const st = app.state;
  if (!st) return;
  $('board').dataset.busy = String(app.engine !== null);
  $('status').textContent = statusText(st);
  $('status-detail').textContent = atEnd() ? winnerText(st)
    : `viewing ply ${app.shownPly} of ${app.game.moves.length}`;
}

function statusText(st) {
  if (app.engine) return 'kirin is thinking';
  if (st.outcome) return `${st.outcome.result} (${st.outcome.reason})`;
  return `${capitalised(st.side)} to move${st.in_check ? ', in check' : ''}`;
}

function winnerText(st) {
  if (!st.outcome) return '';
  return { '1-0': 'White wins', '0-1': 'Black wins' }[st.outcome.result] ?? 'a draw';
}

function renderBoardAttributes() {
  const st = app.state;
  Object.assign($('board').dataset, {
    variant: st.variant,
    side: st.side,
    ply: st.history.length,
    result: st.outcome?.result ?? '',
    flipped: String(app.flipped),
  });
}

function render() {
  renderBoardAttributes();
  renderBoard();
  renderReserves();
  renderHighlights();
  renderActions();
  renderStatus();
  renderMoves();
  renderGraph();
  if (document.activeElement !== $('fen')) $('fen').value = app.state.fen;
}

// ================================================================ move input

function sameDrop(a, b) {
  if (!a || !b) return !a && !b;
  return a.reserve === b.reserve && a.letter.toUpperCase() === b.letter.toUpperCase();
}

// The legal actions that begin with the selection: its drop and the squares clicked.
function candidates(selection) {
  const { squares, drop } = selection;
  return app.state.legal.filter((a) => a.path.length > 0
    && sameDrop(a.drop, drop)
    && a.path.length >= squares.length
    && squares.every((sq, i) => a.path[i] === sq));
}

function clearSelection() {
  app.selection = { squares: [], drop: null };
  renderHighlights();
}

function onBoardClick(event) {
  const rect = event.target.closest('rect.square');
  if (rect) clickSquare(Number(rect.dataset.sq));
}

function clickSquare(sq) {
  if (!humanToMove()) return;
  const { squares, drop } = app.selection;
  const extended = { squares: [...squares, sq], drop };
  if (candidates(extended).length > 0) return advance(extended);
  // Not a way on: start again from this square, unless it was the piece picked up.
  const reclicked = !drop && squares.length === 1 && squares[0] === sq;
  const fresh = { squares: [sq], drop: null };
  if (!reclicked && candidates(fresh).length > 0) return advance(fresh);
  clearSelection();
}

function pickReserve(drop) {
  if (!humanToMove()) return;
  const selection = { squares: [], drop };
  const again = sameDrop(app.selection.drop, drop) && app.selection.squares.length === 0;
  if (again || candidates(selection).length === 0) return clearSelection();
  advance(selection);
}

// Plays the one action the selection names, asks which when several end there (or it
// could go on), else shows where it may go next.
function advance(selection) {
  app.selection = selection;
  const found = candidates(selection);
  const exact = found.filter((a) => a.path.length === selection.squares.length);
  const longer = found.length - exact.length;
  if (exact.length === 1 && longer === 0) {
    run(() => playAction(exact[0]));
    return;
  }
  renderHighlights();
  if (exact.length > 0) openChooser(exact, longer > 0);
}

function openChooser(actions, canContinue) {
  const buttons = actions.map((action) => chooserButton(
    action.label === action.san ? action.san : `${action.label} (${action.san})`,
    { text: action.text },
    () => run(() => playAction(action)),
  ));
  if (canContinue) buttons.push(chooserButton('continue', { continue: 'true' }, renderHighlights));
  $('choices').replaceChildren(...buttons);
  $('chooser').showModal();
}

function chooserButton(label, data, choose) {
  const button = document.createElement('button');
  button.className = 'choice';
  button.textContent = label;
  Object.assign(button.dataset, data);
  button.addEventListener('click', () => {
    $('chooser').close();
    choose();
  });
  return button;
}

function cancelChooser() {
  $('chooser').close();
  clearSelection();
}

// ================================================================ engine play

function engineLimit() {
  const depth = parseInt($('engine-depth').value, 10);
  if (depth > 0) return { depth };
  const movetime = parseInt($('engine-movetime').value, 10);
  return { movetime: movetime > 0 ? movetime : 1000 };
}

// When kirin plays the side to move at the end of the game, asks for its turn, plays it
// and goes on (kirin against kirin plays to the end). A change by hand cancels it.
async function maybeEngineMove() {
  const st = app.state;
  if (!st || st.outcome || app.engine || !atEnd() || playerOf(st.side) !== 'kirin') return;
  const epoch = app.epoch;
  const controller = new AbortController();
  app.engine = controller;
  renderStatus();
  renderActions();
  try {
    const reply = await api('/api/move', { game: app.game, ...engineLimit() }, controller.signal);
    if (reply.actions.length === 0) throw new Error('kirin answered without a move');
    const moves = [...app.game.moves, ...reply.actions];
    const state = await api('/api/state', { ...app.game, moves }, controller.signal);
    if (epoch !== app.epoch) return;
    app.engine = null;
    app.game = { ...app.game, moves };
    if (reply.score) app.scores.set(moves.length, scorePawns(whiteScore(reply.score, st.side)));
    applyState(moves.length, state);
  } catch (e) {
    if (epoch !== app.epoch) return;
    app.engine = null;
    showError(e.message);
    renderStatus();
    renderActions();
  }
}

// ================================================================ analysis

const analysis = {
  on: false,
  socket: null,
  lines: new Map(),     // multipv -> the latest info of that line
  retry: null,          // the timer of a reconnection
};

function toggleAnalysis() {
  analysis.on = !analysis.on;
  $('analyse').setAttribute('aria-pressed', String(analysis.on));
  $('analyse').classList.toggle('active', analysis.on);
  if (analysis.on) {
    requestAnalysis();
  } else {
    sendAnalysis({ stop: true });
    analysis.lines.clear();
    renderAnalysis();
  }
}

function multipv() {
  return Math.max(1, Math.min(8, parseInt($('multipv').value, 10) || 1));
}

// The socket, opened on first use; when it closes while analysing it is opened again.
function analysisSocket() {
  if (analysis.socket) return analysis.socket;
  const url = `${location.protocol === 'https:' ? 'wss://' : 'ws://'}${location.host}/api/analyse`;
  const socket = new WebSocket(url);
  socket.addEventListener('open', () => { if (analysis.on) requestAnalysis(); });
  socket.addEventListener('message', (event) => onAnalysisMessage(JSON.parse(event.data)));
  socket.addEventListener('close', () => {
    analysis.socket = null;
    if (analysis.on && analysis.retry === null) {
      analysis.retry = setTimeout(() => { analysis.retry = null; if (analysis.on) requestAnalysis(); }, 1000);
    }
  });
  analysis.socket = socket;
  return socket;
}

function sendAnalysis(message) {
  const socket = analysis.socket;
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// Analyses the shown position (a new request replaces the running one).
function requestAnalysis() {
  analysis.lines.clear();
  if (analysis.on) {
    const socket = analysisSocket(); // once open, it asks again
    if (app.state.outcome) sendAnalysis({ stop: true });
    else if (socket.readyState === WebSocket.OPEN) {
      sendAnalysis({ analyse: gameUpTo(app.shownPly), multipv: multipv() });
    }
  }
  renderAnalysis();
}

function onAnalysisMessage(message) {
  if (message.type === 'error') {
    showError(message.message);
  } else if (message.type === 'info' && analysis.on) {
    // Lines of the position analysed before may still arrive: each names its position.
    if (message.fen !== app.state.fen) return;
    analysis.lines.set(message.multipv, message);
    if (message.multipv === 1) {
      app.scores.set(app.shownPly, scorePawns(whiteScore(message.score, app.state.side)));
      renderGraph();
    }
    renderAnalysis();
  }
}

function formatCount(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

function renderAnalysis() {
  const box = $('analysis');
  if (!analysis.on) {
    box.replaceChildren();
    return;
  }
  if (app.state.outcome) {
    box.replaceChildren(note('the game is over'));
    return;
  }
  const lines = [...analysis.lines.values()]
    .filter((info) => info.multipv <= multipv())
    .sort((a, b) => a.multipv - b.multipv);
  box.replaceChildren(...(lines.length > 0 ? lines.map(pvLine) : [note('kirin is analysing…')]));
}

function note(text) {
  return Object.assign(document.createElement('div'), { className: 'note', textContent: text });
}

// One principal variation; a click plays its first move when a person is to move.
function pvLine(info) {
  const line = document.createElement('div');
  line.className = 'pv-line';
  Object.assign(line.dataset, { multipv: info.multipv, depth: info.depth });
  const part = (className, text, title) => Object.assign(document.createElement('span'), { className, textContent: text, title });
  // Spaces between the parts keep the moves words of their own.
  line.append(
    part('pv-score', formatScore(whiteScore(info.score, app.state.side)), 'score, White\'s view'), ' ',
    part('pv-depth', `d${info.depth}/${info.seldepth}`, 'depth / selective depth'), ' ',
    part('pv-nodes', formatCount(info.nodes), `${info.nodes} nodes, ${formatCount(info.nps)} nodes/s`), ' ',
    part('pv-moves', info.pv_san.join(' '), 'click to play the first move'),
  );
  const first = app.state.legal.find((a) => a.id === info.pv[0]);
  if (first) line.addEventListener('click', () => { if (humanToMove()) run(() => playAction(first)); });
  return line;
}

// ================================================================ graph

const GRAPH_W = 300;
const GRAPH_H = 100;

// The plies the graph spans: the whole game.
function graphPlies() {
  return Math.max(app.endHistory.length, 1);
}

// kirin's score per ply from White's side, clipped to ±10 pawns, and the shown ply.
function renderGraph() {
  const graph = $('graph');
  const plies = graphPlies();
  const x = (ply) => (ply / plies) * GRAPH_W;
  const y = (pawns) => GRAPH_H / 2 - (pawns / GRAPH_LIMIT) * (GRAPH_H / 2 - 4);
  const points = [...app.scores.entries()]
    .filter(([ply]) => ply <= plies)
    .sort((a, b) => a[0] - b[0])
    .map(([ply, pawns]) => `${x(ply).toFixed(1)},${y(pawns).toFixed(1)}`);
  const parts = [svg('line', { class: 'graph-zero', x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2 })];
  if (points.length > 0) {
    const first = points[0].split(',')[0];
    const last = points[points.length - 1].split(',')[0];
    // A lone score is drawn as a segment of no length, which its round caps make a dot.
    const line = points.length === 1 ? [points[0], points[0]] : points;
    parts.push(
      svg('polygon', { class: 'graph-area', points: `${first},${GRAPH_H / 2} ${points.join(' ')} ${last},${GRAPH_H / 2}` }),
      svg('polyline', { class: 'graph-line', points: line.join(' ') }),
    );
  }
  const cursor = x(app.shownPly);
  parts.push(svg('line', { class: 'graph-cursor', x1: cursor, y1: 0, x2: cursor, y2: GRAPH_H }));
  graph.replaceChildren(...parts);
}

function onGraphClick(event) {
  const box = $('graph').getBoundingClientRect();
  run(() => goTo(Math.round(((event.clientX - box.left) / box.width) * graphPlies())));
}

// ================================================================ move list

function renderMoves() {
  const list = $('moves');
  let number = 1;
  const items = turnsOf(app.endHistory).map((turn, index) => {
    const li = document.createElement('li');
    li.className = `move ${turn.side}${turn.ply === app.shownPly ? ' current' : ''}`;
    li.dataset.ply = turn.ply;
    if (turn.side === 'white' || index === 0) {
      li.append(Object.assign(document.createElement('span'), {
        className: 'num', textContent: `${number}${turn.side === 'white' ? '.' : '…'}`,
      }));
    }
    li.append(turn.entries.map((e) => e.san).join(' '));
    li.addEventListener('click', () => run(() => goTo(turn.ply)));
    if (turn.side === 'black') number += 1;
    return li;
  });
  list.replaceChildren(...items);
  const current = list.querySelector('.current');
  if (current) {
    // Scrolls the list only, never the page.
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  } else if (atEnd()) {
    list.scrollTop = list.scrollHeight;
  }
  $('nav-start').disabled = $('nav-back').disabled = app.shownPly === 0;
  $('nav-forward').disabled = $('nav-end').disabled = atEnd();
  $('takeback').disabled = app.endHistory.length === 0;
}

// ================================================================ import/export

async function loadFen() {
  const fen = $('fen').value.trim();
  const game = await api('/api/import', { variant: $('variant').value, rules: chosenRules(), fen });
  await startGame(game);
}

async function exportPgn() {
  const { pgn } = await api('/api/pgn', app.game);
  $('pgn').value = pgn;
}

async function loadPgn() {
  const game = await api('/api/import', { pgn: $('pgn').value });
  showGameSetup(game);
  await startGame(game);
}

// ================================================================ game setup

function variantInfo(name) {
  return app.variants.find((v) => v.name === name);
}

// Shows a game's variant, its start positions and options, set as the game has them.
function showGameSetup({ variant, rules = [], start = null }) {
  $('variant').value = variant;
  const info = variantInfo(variant);
  $('start').replaceChildren(new Option('default', ''), ...info.starts.map((s) => new Option(s, s)));
  $('start').value = start ?? '';
  $('rules').replaceChildren(...ruleSelects(info, rules));
}

// A label and a select per option key, set to the value described as the default (or
// the first) unless `rules` chose another.
function ruleSelects(info, rules) {
  const keys = [...new Set(info.options.map((o) => o.key))];
  return keys.flatMap((key) => {
    const values = info.options.filter((o) => o.key === key);
    const preset = values.find((o) => /\bthe default\b/.test(o.description)) ?? values[0];
    const chosen = rules.find((r) => r.startsWith(`${key}=`))?.slice(key.length + 1);
    const select = document.createElement('select');
    select.id = `rule-${key}`;
    select.dataset.key = key;
    select.dataset.default = preset.value;
    select.append(...values.map((o) => Object.assign(new Option(o.value, o.value), { title: o.description })));
    select.value = chosen ?? preset.value;
    const label = Object.assign(document.createElement('label'), { htmlFor: select.id, textContent: key.replace(/_/g, ' ') });
    return [label, select];
  });
}

// The options set away from their defaults, as the server takes them.
function chosenRules() {
  return [...$('rules').querySelectorAll('select')]
    .filter((s) => s.value !== s.dataset.default)
    .map((s) => `${s.dataset.key}=${s.value}`);
}

async function newGame() {
  await startGame({
    variant: $('variant').value, rules: chosenRules(), start: $('start').value || null, fen: null, moves: [],
  });
}

function onPlayersChanged() {
  // kirin may have been thinking for a side a person now plays, or the reverse.
  bumpEpoch();
  renderStatus();
  renderActions();
  maybeEngineMove();
}

function onKey(event) {
  if (event.target.closest('input, textarea, select') || $('chooser').open) return;
  const where = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end' }[event.key];
  if (where) {
    event.preventDefault();
    navigate(where);
  } else if (event.key === 'Escape') {
    clearSelection();
  }
}

function wireControls() {
  $('variant').addEventListener('change', () => showGameSetup({ variant: $('variant').value }));
  $('new-game').addEventListener('click', () => run(newGame));
  $('white-player').addEventListener('change', onPlayersChanged);
  $('black-player').addEventListener('change', onPlayersChanged);
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    render();
  });
  $('piece-style').addEventListener('change', () => render());
  $('takeback').addEventListener('click', () => run(takeBack));
  for (const where of ['start', 'back', 'forward', 'end']) {
    $(`nav-${where}`).addEventListener('click', () => navigate(where));
  }
  $('analyse').addEventListener('click', toggleAnalysis);
  $('multipv').addEventListener('change', () => { if (analysis.on) requestAnalysis(); });
  $('graph').addEventListener('click', onGraphClick);
  $('load-fen').addEventListener('click', () => run(loadFen));
  $('export-pgn').addEventListener('click', () => run(exportPgn));
  $('load-pgn').addEventListener('click', () => run(loadPgn));
  $('chooser-cancel').addEventListener('click', cancelChooser);
  $('chooser').addEventListener('cancel', (event) => {
    event.preventDefault();
    cancelChooser();
  });
  document.addEventListener('keydown', onKey);
}

async function init() {
  wireControls();
  app.variants = await api('/api/variants');
  $('variant').replaceChildren(...app.variants.map((v) => Object.assign(new Option(v.name, v.name), { title: v.description })));
  const saved = gameFromUrl();
  if (saved && variantInfo(saved.variant)) {
    try {
      showGameSetup(saved);
      await startGame(saved);
      return;
    } catch (e) {
      showError(`the game in the address could not be restored: ${e.message}`);
    }
  }
  showGameSetup({ variant: variantInfo('chu') ? 'chu' : app.variants[0].name });
  await newGame();
}

run(init);
