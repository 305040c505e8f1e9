#!/usr/bin/env node
// Chu Shogi perft through lishogi's rules library `shogiops`, as an independent cross-check
// of kirin's Chu Shogi move generator.
//
// shogiops is NOT vendored. Install it once, outside the repository:
//
//     npm install --prefix /tmp/shogiops shogiops
//
// and point SHOGIOPS_DIR at that prefix (default /tmp/shogiops; a node_modules directory
// itself is accepted too). Written against shogiops 0.18.0 (npm, dist/variant/...); the
// later source layout (dist/position/...) is also looked for.
//
// Usage:
//     node scripts/chu-shogiops-perft.mjs --fen FEN [--moves "m1 m2 ..."] --depth N
//                                         [--divide] [--paths] [--ignore-royals]
//     node scripts/chu-shogiops-perft.mjs --fen FEN [--moves "..."] --print-fen
//         (prints the board and side to move after --moves, as kirin FEN, and stops)
//
// FEN is kirin's (XBoard's) Chu FEN: rank 12 first, uppercase = sente (moves first, at the
// bottom), side field `w` = sente to move, `b` = gote to move; further fields may only be
// `-` or numbers and are ignored. Piece letters are shogiops' SFEN letters, which kirin's
// Chu FEN shares (see PIECE LETTERS below), so only the side field is translated:
//     kirin `w` (sente to move)  ->  SFEN `b`;   kirin `b` (gote)  ->  SFEN `w`.
//
// Moves (kirin notation): `f4f5`, promotion `f9f10+`, Lion-power double move
// `f5f6,f6f7` (first leg, comma, second leg), igui `f5f6,f6f5` (f6 holds an enemy piece),
// pass `@@@@` or `f5f6,f6f5` with f6 empty. `--moves` are played through shogiops one by
// one, so its counter-strike state (the square of the last Lion capture by a non-Lion)
// is the one a real game would have.
//
// Counting conventions:
//   default ("unique moves"): every distinct move counts once. A double move counts only
//     when its first step captures (with an empty first step it is the same move as the
//     plain jump/step to its final square, which shogiops also lists); all passes of a
//     position count as one move; promoting and not promoting are two moves.
//   --paths: shogiops' own convention, every from-mid-to path counts (each pass path and
//     each empty-first-step double move separately).
//   Both: moving into check is legal, no repetition or bare-king rule, and a position in
//   which a side has no King or Prince is terminal (no children). --ignore-royals drops
//   that last rule (for shogiops' king-less single-piece fixtures).
//
// Output is Stockfish-like: with --divide one `move: count` line per root move (sorted,
// passes written `@@@@` in the default convention), then a blank line and
// `Nodes searched: N`. Bad input: message on stderr, exit code 2.
//
// Expected from the start position (shogiops 0.18.0), depths 1-4:
//   default 36, 1296, 48315, 1801639;   --paths 36, 1296, 52599, 2134748.
//
// Square mapping. kirin: files a..l from sente's left, ranks 1..12 from sente's side.
// shogiops: square = file + 16 * rank on a 16x16 grid, where file 0 is shogi file "1"
// (sente's RIGHT edge) and rank 0 is shogi rank "a" (gote's back rank, the first SFEN row):
//     shogiops file = 11 - (kirin file index, a = 0)      shogiops rank = 12 - kirin rank
// e.g. kirin f1 (sente's King) = 6 + 16 * 11 = 182 = shogiops "7l".
//
// Lion moves in shogiops' API: a NormalMove {from, to, promotion?, midStep?}. For a double
// move, `midStep` is the INTERMEDIATE square (captured first) and `to` is the final square;
// igui and pass have to === from. Double moves are generated per piece: for every first-step
// square `mid` in pos.moveDests(from) (Lion, +Kirin, and the Lion-power Falcon/Eagle),
// secondLionStepDests(pos, from, mid) gives the final squares. (shogiops' own debug perft,
// src/debug.ts / test/debug.ts, builds {from, to: firstStep, midStep: finalSquare}, i.e. it
// swaps the two squares and so plays wrong moves below the root; it is not reused here.)
//
// PIECE LETTERS (shogiops chushogi SFEN; `+x` = promoted; uppercase = sente):
//   L Lance (+L White Horse)      F Ferocious Leopard (+F Bishop)   C Copper (+C Side Mover)
//   S Silver (+S Vertical Mover)  G Gold (+G Rook)                  K King
//   E Drunk Elephant (+E Prince)  A Reverse Chariot (+A Whale)      B Bishop (+B Dragon Horse)
//   T Blind Tiger (+T Flying Stag) O Kirin (+O Lion)                X Phoenix (+X Free King)
//   M Side Mover (+M Free Boar)   V Vertical Mover (+V Flying Ox)   R Rook (+R Dragon King)
//   H Dragon Horse (+H Horned Falcon) D Dragon King (+D Soaring Eagle) N Lion
//   Q Free King                   P Pawn (+P Tokin)                 I Go-Between (+I Elephant)

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE =
  'usage: node scripts/chu-shogiops-perft.mjs --fen FEN [--moves "m1 m2 ..."] --depth N ' +
  '[--divide] [--paths] [--ignore-royals]\n' +
  '       node scripts/chu-shogiops-perft.mjs --fen FEN [--moves "m1 m2 ..."] --print-fen';

/** Print a message for bad input and exit with code 2. */
function fail(message) {
  process.stderr.write(`chu-shogiops-perft: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------
// Command line

function parseArgs(argv) {
  const opts = { fen: undefined, moves: '', depth: undefined, divide: false, paths: false, ignoreRoyals: false, printFen: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${arg} needs a value\n${USAGE}`);
      return argv[++i];
    };
    switch (arg) {
      case '--fen': opts.fen = value(); break;
      case '--moves': opts.moves = value(); break;
      case '--depth': {
        const d = value();
        if (!/^\d+$/.test(d)) fail(`--depth must be a non-negative integer, got "${d}"`);
        opts.depth = parseInt(d, 10);
        break;
      }
      case '--divide': opts.divide = true; break;
      case '--paths': opts.paths = true; break;
      case '--ignore-royals': opts.ignoreRoyals = true; break;
      case '--print-fen': opts.printFen = true; break;
      case '-h': case '--help':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default: fail(`unknown argument "${arg}"\n${USAGE}`);
    }
  }
  if (opts.fen === undefined) fail(`--fen is required\n${USAGE}`);
  if (opts.depth === undefined && !opts.printFen) fail(`--depth is required\n${USAGE}`);
  return opts;
}

// ---------------------------------------------------------------------------------------
// Loading shogiops from SHOGIOPS_DIR

async function loadShogiops() {
  const dir = process.env.SHOGIOPS_DIR || '/tmp/shogiops';
  const candidates = [join(dir, 'node_modules', 'shogiops'), join(dir, 'shogiops'), dir];
  const pkgDir = candidates.find(d => existsSync(join(d, 'package.json')) && existsSync(join(d, 'dist')));
  if (!pkgDir)
    fail(`shogiops not found under SHOGIOPS_DIR=${dir}; install it with: npm install --prefix ${dir} shogiops`);
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  // 0.18.x keeps the rules in dist/variant/, later versions in dist/position/.
  const pick = (...rel) => {
    const found = rel.find(r => existsSync(join(pkgDir, 'dist', r)));
    if (!found) fail(`shogiops ${version} at ${pkgDir} has none of ${rel.join(', ')}`);
    return import(pathToFileURL(join(pkgDir, 'dist', found)).href);
  };
  const [sfen, chu, util] = await Promise.all([
    pick('sfen.js'),
    pick('variant/chushogi.js', 'position/rules/chushogi.js'),
    pick('variant/util.js', 'position/util.js'),
  ]);
  return {
    version,
    pkgDir,
    parseSfen: sfen.parseSfen,
    makeBoardSfen: sfen.makeBoardSfen,
    secondLionStepDests: chu.secondLionStepDests,
    pieceCanPromote: util.pieceCanPromote('chushogi'),
  };
}

// ---------------------------------------------------------------------------------------
// Squares and moves: kirin notation <-> shogiops

const FILES = 'abcdefghijkl';

/** kirin square name ("f5", "a12") -> shogiops square, or undefined. */
function parseSquare(name) {
  const m = /^([a-l])(1[0-2]|[1-9])$/.exec(name);
  if (!m) return undefined;
  return 11 - FILES.indexOf(m[1]) + 16 * (12 - parseInt(m[2], 10));
}

/** shogiops square -> kirin square name. */
function squareName(sq) {
  return FILES[11 - (sq & 15)] + String(12 - (sq >> 4));
}

/** A shogiops move in kirin notation (every path distinct; passes as two legs). */
function moveName(m) {
  if (m.midStep !== undefined)
    return `${squareName(m.from)}${squareName(m.midStep)},${squareName(m.midStep)}${squareName(m.to)}`;
  return squareName(m.from) + squareName(m.to) + (m.promotion ? '+' : '');
}

// Pieces with a Lion-like double move: Lion, promoted Kirin, Horned Falcon, Soaring Eagle.
const LION_POWER = new Set(['lion', 'lionpromoted', 'falcon', 'eagle']);
const ROYALS = new Set(['king', 'prince']);

// ---------------------------------------------------------------------------------------
// Move generation from shogiops' API

/**
 * All from-mid-to paths of the side to move, as shogiops generates them (the --paths
 * convention). Each is a shogiops NormalMove; plain moves carry `promotion`, double moves
 * carry `midStep` (the intermediate square) and never promote.
 */
function allPaths(so, pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      // shogiops never forces a Chu promotion, so a possible promotion is always optional.
      if (so.pieceCanPromote(piece, from, to, pos.board.get(to))) out.push({ from, to, promotion: true });
      out.push({ from, to, promotion: false });
      if (LION_POWER.has(piece.role)) {
        // `to` is the first step; secondLionStepDests checks it is a legal first step
        // for this piece (adjacent, in the right direction) and gives the final squares.
        for (const last of so.secondLionStepDests(pos, from, to)) out.push({ from, to: last, midStep: to });
      }
    }
  }
  return out;
}

/**
 * The distinct moves (default convention): plain moves, double moves whose first step
 * captures, and at most one pass (the first pass path found stands for all of them).
 * Each entry is { move, name }.
 */
function uniqueMoves(so, pos, paths) {
  const plain = new Set();
  for (const m of paths) if (m.midStep === undefined) plain.add(m.from * 256 + m.to);
  const out = [];
  let pass;
  for (const m of paths) {
    if (m.midStep === undefined) out.push({ move: m, name: moveName(m) });
    else if (pos.board.has(m.midStep)) out.push({ move: m, name: moveName(m) }); // first step captures
    else if (m.to === m.from) pass = pass || m; // step to an empty square and back
    else if (!plain.has(m.from * 256 + m.to)) {
      // An empty first step that reaches a square the plain moves do not: never seen with
      // shogiops 0.18 (the Lion/Falcon/Eagle jumps are plain moves), but count it rather
      // than lose it, as the plain move it stands for.
      const alias = { from: m.from, to: m.to, promotion: false };
      plain.add(m.from * 256 + m.to);
      out.push({ move: alias, name: moveName(alias) });
    }
  }
  if (pass) out.push({ move: pass, name: '@@@@' });
  return out;
}

function hasRoyal(pos, color) {
  for (const sq of pos.board.color(color)) if (ROYALS.has(pos.board.get(sq).role)) return true;
  return false;
}

/** Moves to search from pos under the chosen convention, as { move, name }. */
function movesOf(so, pos, opts) {
  if (!opts.ignoreRoyals && !(hasRoyal(pos, 'sente') && hasRoyal(pos, 'gote'))) return [];
  const paths = allPaths(so, pos);
  return opts.paths ? paths.map(m => ({ move: m, name: moveName(m) })) : uniqueMoves(so, pos, paths);
}

function perft(so, pos, depth, opts) {
  if (depth === 0) return 1;
  const moves = movesOf(so, pos, opts);
  if (depth === 1) return moves.length; // bulk count at the last ply
  let nodes = 0;
  for (const { move } of moves) {
    const child = pos.clone();
    child.play(move);
    nodes += perft(so, child, depth - 1, opts);
  }
  return nodes;
}

// ---------------------------------------------------------------------------------------
// Input: FEN and --moves

function parseFen(so, fen) {
  const fields = fen.trim().split(/\s+/);
  if (fields.length < 2) fail(`FEN needs a board and a side-to-move field: "${fen}"`);
  const [board, side, ...rest] = fields;
  const ranks = board.split('/');
  if (ranks.length !== 12) fail(`FEN board must have 12 ranks, got ${ranks.length}: "${board}"`);
  if (!/^[a-zA-Z0-9+/]+$/.test(board)) fail(`FEN board has an unexpected character: "${board}"`);
  const sfenSide = { w: 'b', b: 'w' }[side];
  if (!sfenSide) fail(`FEN side to move must be "w" (sente, uppercase) or "b" (gote), got "${side}"`);
  for (const f of rest) if (!/^(-|\d+)$/.test(f)) fail(`unexpected FEN field "${f}" in "${fen}"`);
  const result = so.parseSfen('chushogi', `${board} ${sfenSide} - 1`, false);
  if (result.isErr) fail(`shogiops rejects the FEN "${fen}": ${result.error.message}`);
  return result.value;
}

/** Find the shogiops path a kirin-notation move stands for in pos (error if none). */
function resolveMove(so, pos, text) {
  const paths = movesOf(so, pos, { paths: true, ignoreRoyals: true });
  if (text === '@@@@') {
    const pass = paths.find(({ move: m }) => m.midStep !== undefined && m.to === m.from && !pos.board.has(m.midStep));
    if (!pass) fail(`move "${text}": no piece can pass in this position`);
    return pass.move;
  }
  let m = /^([a-l](?:1[0-2]|[1-9]))([a-l](?:1[0-2]|[1-9]))(\+?)$/.exec(text);
  if (m) {
    const from = parseSquare(m[1]), to = parseSquare(m[2]), promotion = m[3] === '+';
    const found = paths.find(({ move: p }) => p.midStep === undefined && p.from === from && p.to === to && p.promotion === promotion);
    if (!found) fail(`illegal move "${text}"`);
    return found.move;
  }
  m = /^([a-l](?:1[0-2]|[1-9]))([a-l](?:1[0-2]|[1-9])),([a-l](?:1[0-2]|[1-9]))([a-l](?:1[0-2]|[1-9]))$/.exec(text);
  if (m) {
    if (m[2] !== m[3]) fail(`double move "${text}": the second leg must start where the first ends`);
    const from = parseSquare(m[1]), mid = parseSquare(m[2]), to = parseSquare(m[4]);
    const found = paths.find(({ move: p }) => p.midStep === mid && p.from === from && p.to === to);
    if (!found) fail(`illegal move "${text}"`);
    return found.move;
  }
  fail(`cannot read move "${text}" (expected e.g. f4f5, f9f10+, f5f6,f6f7 or @@@@)`);
}

// ---------------------------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const so = await loadShogiops();
  const pos = parseFen(so, opts.fen);
  const moveList = opts.moves.trim() === '' ? [] : opts.moves.trim().split(/\s+/);
  for (const text of moveList) pos.play(resolveMove(so, pos, text));
  if (opts.printFen) {
    // shogiops' board SFEN uses the same letters and row order as kirin's FEN.
    process.stdout.write(`${so.makeBoardSfen('chushogi', pos.board)} ${pos.turn === 'sente' ? 'w' : 'b'}\n`);
    return;
  }

  let nodes;
  if (opts.divide && opts.depth > 0) {
    const lines = [];
    nodes = 0;
    for (const { move, name } of movesOf(so, pos, opts)) {
      const child = pos.clone();
      child.play(move);
      const n = perft(so, child, opts.depth - 1, opts);
      lines.push([name, n]);
      nodes += n;
    }
    lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [name, n] of lines) process.stdout.write(`${name}: ${n}\n`);
    process.stdout.write('\n');
  } else nodes = perft(so, pos, opts.depth, opts);
  process.stdout.write(`Nodes searched: ${nodes}\n`);
}

main();
