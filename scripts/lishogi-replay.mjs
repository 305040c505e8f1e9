#!/usr/bin/env node
// Replays kirin's Chu Shogi games through lishogi's rules library `shogiops`, to show that
// kirin's USI mode (VariantRules preset=lishogi) writes positions (SFEN) and moves (USI
// text) that lishogi reads unchanged, and that every move kirin plays is legal there.
//
// Normally run through scripts/lishogi-replay.sh, which installs shogiops outside the
// repository's tracked files and builds kirin when needed. Directly:
//
//     node scripts/lishogi-replay.mjs --kirin target/release/kirin \
//          --shogiops target/lishogi-replay [--games 20] [--plies 200] [--seed 1]
//          [--nodes 3000] [--rules 'preset=lishogi'] [--tolerate-repetition] [--verbose]
//
// --shogiops is an npm prefix (it holds node_modules/shogiops) or the package directory.
//
// Games: odd-numbered games (1, 3, ...) pick every move at random (seeded PRNG) from kirin's
// `go perft 1` list, often preferring Lion double moves, captures, igui, passes and
// promotions; even-numbered games open with a few random plies and then let kirin choose
// with `go nodes N`. Before every ply:
//   - the game is over if shogiops' `pos.outcome()` reports an end, or kirin answers a
//     `go` with `info string game over` / `bestmove resign`, or lists no legal move;
//   - kirin's `go perft 1` list is compared with shogiops' legal moves (as USI texts; a
//     double move with an empty first step is the plain move to its final square, and all
//     passes count as one, as in kirin's list);
//   - the move kirin chose (its USI text) is parsed with shogiops' `parseUsi`, checked
//     with `pos.isLegal`, played with `pos.play`; shogiops' text for it (`makeUsi`) is
//     what is sent back to kirin, and any difference from kirin's text is counted;
//   - kirin is given `position startpos moves <the lishogi texts so far>` and `d`, and
//     its `info string sfen` is compared with shogiops' `makeSfen(pos)`, all four fields
//     (a difference in the move-number field alone is still a mismatch).
// shogiops has no repetition rule; kirin's Chu forbids a move that recreates an earlier
// position (unless the mover is in check), also under preset=lishogi. A move shogiops
// allows that kirin's `position` refuses for that reason is counted as a repetition
// refusal and shown; a random game then goes on with another move. Such refusals fail the
// run unless --tolerate-repetition is given. --rules sets VariantRules (default
// `preset=lishogi`; e.g. `preset=lishogi repetition_rule=draw`).
// Exit status: 0 when every position is identical, every move legal and written the
// same, and no repetition refused (unless tolerated); 1 otherwise; 2 for bad arguments
// or a broken engine session.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const USAGE =
  'usage: node scripts/lishogi-replay.mjs --kirin PATH --shogiops DIR [--games N] ' +
  '[--plies N] [--seed N] [--nodes N] [--tolerate-repetition] [--rules TEXT] [--verbose]';

function die(message) {
  process.stderr.write(`lishogi-replay: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------
// Command line

function parseArgs(argv) {
  const opts = {
    kirin: process.env.KIRIN || 'target/release/kirin',
    shogiops: process.env.SHOGIOPS_DIR || 'target/lishogi-replay',
    games: 20,
    plies: 200,
    seed: 1,
    nodes: 3000,
    verbose: false,
    tolerateRepetition: false,
    rules: 'preset=lishogi',
  };
  const num = (arg, v) => {
    if (!/^\d+$/.test(v ?? '')) die(`${arg} needs a non-negative integer, got "${v}"\n${USAGE}`);
    return parseInt(v, 10);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case '--kirin': opts.kirin = argv[++i]; break;
      case '--shogiops': opts.shogiops = argv[++i]; break;
      case '--games': opts.games = num(arg, argv[++i]); break;
      case '--plies': opts.plies = num(arg, argv[++i]); break;
      case '--seed': opts.seed = num(arg, argv[++i]); break;
      case '--nodes': opts.nodes = num(arg, argv[++i]); break;
      case '--verbose': case '-v': opts.verbose = true; break;
      case '--tolerate-repetition': opts.tolerateRepetition = true; break;
      case '--rules': opts.rules = argv[++i]; break;
      case '-h': case '--help': process.stdout.write(`${USAGE}\n`); process.exit(0); break;
      default: die(`unknown argument "${arg}"\n${USAGE}`);
    }
  }
  if (!opts.kirin || !existsSync(opts.kirin)) die(`no kirin binary at "${opts.kirin}"`);
  return opts;
}

// ---------------------------------------------------------------------------------------
// shogiops

async function loadShogiops(dir) {
  const candidates = [join(dir, 'node_modules', 'shogiops'), dir];
  const pkgDir = candidates.find(d => existsSync(join(d, 'package.json')) && existsSync(join(d, 'dist', 'index.js')));
  if (!pkgDir) die(`shogiops not found under "${dir}" (npm install --no-save --prefix ${dir} shogiops@VERSION)`);
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  const so = await import(pathToFileURL(resolve(pkgDir, 'dist', 'index.js')).href);
  for (const name of ['Chushogi', 'parseUsi', 'makeUsi', 'sfen'])
    if (!so[name]) die(`shogiops ${version} at ${pkgDir} exports no ${name}`);
  const chu = await import(pathToFileURL(resolve(pkgDir, 'dist', 'variant', 'chushogi.js')).href);
  if (!chu.secondLionStepDests) die(`shogiops ${version} at ${pkgDir} has no variant/chushogi.js secondLionStepDests`);
  return {
    version, pkgDir, Chushogi: so.Chushogi, parseUsi: so.parseUsi, makeUsi: so.makeUsi, makeSfen: so.sfen.makeSfen,
    secondLionStepDests: chu.secondLionStepDests,
  };
}

// ---------------------------------------------------------------------------------------
// kirin, line by line

class Engine {
  constructor(path) {
    this.path = path;
    this.proc = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.waiter = null;
    this.closed = false;
    this.stderr = '';
    createInterface({ input: this.proc.stdout }).on('line', line => {
      this.lines.push(line);
      this.wake();
    });
    this.proc.stderr.on('data', d => { this.stderr += d; });
    this.proc.on('exit', (code, signal) => {
      this.closed = true;
      this.exitInfo = `exit code ${code}${signal ? `, signal ${signal}` : ''}`;
      this.wake();
    });
    this.proc.on('error', e => { this.closed = true; this.exitInfo = String(e); this.wake(); });
  }
  wake() {
    if (this.waiter) { const w = this.waiter; this.waiter = null; w(); }
  }
  send(text) {
    this.proc.stdin.write(`${text}\n`);
  }
  /** Lines up to and including the first one for which `done(line)` holds. */
  async until(done, what, timeoutMs = 60000) {
    const got = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.lines.length) {
        const line = this.lines.shift();
        got.push(line);
        if (done(line)) return got;
      }
      if (this.closed) die(`kirin ended (${this.exitInfo}) while waiting for ${what}; stderr: ${this.stderr.trim()}`);
      const left = deadline - Date.now();
      if (left <= 0) die(`kirin did not answer ${what} within ${timeoutMs / 1000}s; last lines: ${got.slice(-5).join(' | ')}`);
      await new Promise(res => {
        const t = setTimeout(() => { this.waiter = null; res(); }, left);
        this.waiter = () => { clearTimeout(t); res(); };
      });
    }
  }
  async quit() {
    if (this.closed) return;
    this.send('quit');
    await new Promise(res => {
      const t = setTimeout(() => { this.proc.kill(); res(); }, 2000);
      this.proc.on('exit', () => { clearTimeout(t); res(); });
    });
  }
}

// ---------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32)

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (rng, list) => list[Math.floor(rng() * list.length)];

// ---------------------------------------------------------------------------------------
// Move kinds, judged on shogiops' board before the move

function kindOf(pos, m) {
  const enemy = sq => {
    const p = pos.board.get(sq);
    return p !== undefined && p.color !== pos.turn;
  };
  const k = { capture: enemy(m.to), twoLeg: m.midStep !== undefined, double: false, igui: false, pass: false, promotion: !!m.promotion, lionCapture: false };
  if (k.twoLeg) {
    const midEnemy = enemy(m.midStep);
    if (m.to === m.from) {
      k.igui = midEnemy;
      k.pass = !pos.board.get(m.midStep);
      k.capture = midEnemy;
    } else {
      k.double = midEnemy && enemy(m.to);
      k.capture = k.capture || midEnemy;
    }
  }
  const lionAt = sq => { const p = pos.board.get(sq); return p && enemy(sq) && (p.role === 'lion' || p.role === 'lionpromoted'); };
  k.lionCapture = lionAt(m.to) || (m.midStep !== undefined && lionAt(m.midStep));
  return k;
}

/** A random move from kirin's list, often one of the rarer kinds. */
function randomMove(rng, so, pos, texts) {
  const parsed = texts.map(t => ({ text: t, move: so.parseUsi(t) }));
  const ok = parsed.filter(p => p.move);
  if (ok.length === 0) return pick(rng, texts);
  for (const p of ok) p.kind = kindOf(pos, p.move);
  const of = f => ok.filter(p => f(p.kind));
  const r = rng();
  const tiers = [
    [0.05, of(k => k.pass)],
    [0.25, of(k => k.double || k.igui)],
    [0.35, of(k => k.twoLeg && k.capture)],
    [0.45, of(k => k.promotion)],
    [0.65, of(k => k.capture)],
  ];
  for (const [p, list] of tiers) if (r < p && list.length) return pick(rng, list).text;
  return pick(rng, ok).text;
}

// ---------------------------------------------------------------------------------------
// The legal moves of a position, both ways, as comparable sets of USI texts

const LION_POWER = new Set(['lion', 'lionpromoted', 'falcon', 'eagle']);

/**
 * shogiops' legal moves as USI texts, in kirin's convention: a double move whose first
 * step is empty is the plain move to its final square (not listed twice), and all passes
 * are one move, written `pass`.
 */
function shogiopsMoves(so, pos) {
  const out = new Set();
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      for (const promotion of [false, true]) {
        const m = { from, to, promotion };
        if (pos.isLegal(m)) out.add(so.makeUsi(m));
      }
      if (!LION_POWER.has(piece.role)) continue;
      for (const fin of so.secondLionStepDests(pos, from, to)) {
        const m = { from, to: fin, midStep: to };
        if (!pos.isLegal(m)) continue;
        if (fin === from && !pos.board.get(to)) out.add('pass');
        else if (pos.board.get(to)) out.add(so.makeUsi(m));
      }
    }
  }
  return out;
}

/** kirin's `go perft 1` list in the same convention. */
function kirinMoves(so, pos, texts) {
  const out = new Set();
  for (const t of texts) {
    const m = so.parseUsi(t);
    if (m && m.midStep !== undefined && m.to === m.from && !pos.board.get(m.midStep)) out.add('pass');
    else out.add(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The replay

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const so = await loadShogiops(opts.shogiops);
  const started = Date.now();
  const kirin = new Engine(opts.kirin);

  kirin.send('usi');
  const idLines = await kirin.until(l => l === 'usiok', 'usi');
  const idName = (idLines.find(l => l.startsWith('id name ')) || 'id name ?').slice(8);
  kirin.send(`setoption name VariantRules value ${opts.rules}`);
  kirin.send('isready');
  const ready = await kirin.until(l => l === 'readyok', 'isready');
  const optErr = ready.find(l => l.startsWith('info string error'));
  if (optErr) die(`kirin refused VariantRules ${opts.rules}: ${optErr}`);

  const stats = {
    games: 0, plies: 0, positions: 0, identical: 0, mismatches: 0, numberOnly: 0,
    illegal: 0, textDiffs: 0, rejected: 0, repetitionRefusals: 0, listsCompared: 0, listDiffs: 0,
    endBoth: 0, endShogiops: 0, endKirin: 0, endPlies: 0,
    kinds: { capture: 0, twoLeg: 0, double: 0, igui: 0, pass: 0, promotion: 0, lionCapture: 0, counterStrike: 0 },
  };
  const reports = { mismatches: [], illegal: [], textDiffs: [], rejected: [], repetition: [], lists: [] };
  const endReasons = new Map();
  const bump = key => endReasons.set(key, (endReasons.get(key) || 0) + 1);
  const MAX_SHOWN = 5;

  /** Sends the line so far, returns kirin's SFEN and any error lines. */
  const kirinSfen = async moves => {
    kirin.send(moves.length ? `position startpos moves ${moves.join(' ')}` : 'position startpos');
    kirin.send('d');
    const lines = await kirin.until(l => l.startsWith('info string sfen '), 'd');
    return { sfen: lines[lines.length - 1].slice('info string sfen '.length), errors: lines.filter(l => l.startsWith('info string error')) };
  };

  /** Compares the two SFENs; true when the game may go on. */
  const compare = (game, moves, ours, theirs) => {
    stats.positions++;
    if (ours === theirs) { stats.identical++; return true; }
    stats.mismatches++;
    const a = ours.split(' '), b = theirs.split(' ');
    const numberOnly = a.length === 4 && b.length === 4 && a.slice(0, 3).join(' ') === b.slice(0, 3).join(' ');
    if (numberOnly) stats.numberOnly++;
    if (reports.mismatches.length < MAX_SHOWN)
      reports.mismatches.push({ game, ply: moves.length, moves: moves.join(' '), kirin: ours, shogiops: theirs, numberOnly });
    return numberOnly;
  };

  for (let g = 0; g < opts.games; g++) {
    const rng = prng(opts.seed * 1000003 + g);
    const engineGame = g % 2 === 1;
    const openingPlies = engineGame ? 2 + Math.floor(rng() * 5) : Infinity;
    let pos = so.Chushogi.default();
    const moves = [];
    stats.games++;
    kirin.send('usinewgame');

    let { sfen } = await kirinSfen(moves);
    let going = compare(g + 1, moves, sfen, so.makeSfen(pos));
    let end = 'ply limit';

    while (going) {
      if (moves.length >= opts.plies) { stats.endPlies++; break; }
      const outcome = pos.outcome();
      const soEnd = outcome && `${outcome.result}${outcome.winner ? `, ${outcome.winner} wins` : ''}`;

      // kirin's legal moves, compared with shogiops' (while neither side sees an end).
      kirin.send('go perft 1');
      const lines = await kirin.until(l => l.startsWith('Nodes searched'), 'go perft 1');
      const list = lines.filter(l => /^\S+: 1$/.test(l)).map(l => l.slice(0, -3));

      // kirin's choice, and its own view of whether the game is over (a `go` answered
      // `info string game over` / `bestmove resign`, or an empty `go perft 1`). A random
      // ply asks `go nodes 1` only for that view.
      const random = !engineGame || moves.length < openingPlies;
      const nodes = random || soEnd ? 1 : opts.nodes;
      kirin.send(`go nodes ${nodes}`);
      const go = await kirin.until(l => l.startsWith('bestmove'), `go nodes ${nodes}`);
      const best = go[go.length - 1].split(/\s+/)[1];
      const over = go.find(l => l.startsWith('info string game over'));
      let choice, kirinEnd;
      if (over || list.length === 0 || best === 'resign' || best === undefined)
        kirinEnd = over ? over.slice(12) : list.length === 0 ? 'no legal move' : 'bestmove resign';
      else
        choice = random ? randomMove(rng, so, pos, list) : best;

      if (!soEnd && !kirinEnd) {
        stats.listsCompared++;
        const theirs = shogiopsMoves(so, pos), ours = kirinMoves(so, pos, list);
        const onlyKirin = [...ours].filter(t => !theirs.has(t)).sort();
        const onlyShogiops = [...theirs].filter(t => !ours.has(t)).sort();
        if (onlyKirin.length || onlyShogiops.length) {
          stats.listDiffs++;
          if (reports.lists.length < MAX_SHOWN)
            reports.lists.push({
              game: g + 1, ply: moves.length, sfen: so.makeSfen(pos), moves: moves.join(' '),
              onlyKirin: onlyKirin.join(' ') || '-', onlyShogiops: onlyShogiops.join(' ') || '-',
            });
        }
      }
      if (soEnd || kirinEnd) {
        if (soEnd && kirinEnd) { stats.endBoth++; end = `both: shogiops ${soEnd}; kirin ${kirinEnd}`; }
        else if (soEnd) { stats.endShogiops++; end = `shogiops only: ${soEnd}`; }
        else { stats.endKirin++; end = `kirin only: ${kirinEnd}`; }
        break;
      }

      // shogiops' reading of kirin's move; then kirin's reading of lishogi's text.
      let candidates = list, committed = false;
      while (!committed) {
        const move = so.parseUsi(choice);
        if (!move || !pos.isLegal(move)) {
          stats.illegal++;
          if (reports.illegal.length < MAX_SHOWN)
            reports.illegal.push({ game: g + 1, ply: moves.length + 1, move: choice, parsed: !!move, before: so.makeSfen(pos), moves: moves.join(' ') });
          end = `illegal move ${choice}`;
          break;
        }
        const text = so.makeUsi(move);
        if (text !== choice) {
          stats.textDiffs++;
          if (reports.textDiffs.length < MAX_SHOWN)
            reports.textDiffs.push({ game: g + 1, ply: moves.length + 1, kirin: choice, lishogi: text, moves: moves.join(' ') });
        }
        const next = pos.clone();
        next.play(move);
        const line = [...moves, text];
        const answer = await kirinSfen(line);
        const repeats = answer.errors.find(e => e.includes('would repeat an earlier position'));
        if (repeats) {
          // Legal for shogiops (no repetition rule), refused by kirin's Chu repetition
          // rule: counted and shown; a random game goes on with another move.
          stats.repetitionRefusals++;
          if (reports.repetition.length < MAX_SHOWN)
            reports.repetition.push({ game: g + 1, ply: line.length, move: text, error: repeats, moves: line.join(' '), shogiops: so.makeSfen(next), kirin: answer.sfen });
          candidates = candidates ? candidates.filter(t => t !== choice) : [];
          if (candidates.length === 0) { end = `kirin refused the repetition ${text}`; break; }
          choice = randomMove(rng, so, pos, candidates);
          continue;
        }
        committed = true;
        const kind = kindOf(pos, move);
        for (const k of Object.keys(kind)) if (kind[k]) stats.kinds[k]++;
        pos = next;
        if (pos.lastLionCapture !== undefined) stats.kinds.counterStrike++;
        moves.push(text);
        stats.plies++;
        if (answer.errors.length) {
          stats.rejected++;
          if (reports.rejected.length < MAX_SHOWN)
            reports.rejected.push({ game: g + 1, ply: moves.length, move: text, error: answer.errors.join(' | '), moves: moves.join(' ') });
        }
        going = compare(g + 1, moves, answer.sfen, so.makeSfen(pos)) && !answer.errors.length;
        if (!going) end = answer.errors.length ? 'kirin rejected a move' : 'position mismatch';
      }
      if (!committed) break;
    }
    bump(end);
    if (opts.verbose)
      process.stdout.write(`game ${g + 1} (${engineGame ? 'engine' : 'random'}): ${moves.length} plies, ${end}\n`);
  }
  await kirin.quit();
  const seconds = (Date.now() - started) / 1000;

  // -------------------------------------------------------------------------------------
  // Report
  const show = (title, list) => {
    if (!list.length) return;
    process.stdout.write(`\n${title}\n`);
    for (const r of list) {
      for (const [k, v] of Object.entries(r)) process.stdout.write(`  ${k.padEnd(9)} ${v}\n`);
      process.stdout.write('\n');
    }
  };
  show('POSITION MISMATCHES (first few):', reports.mismatches);
  show('MOVES SHOGIOPS CALLS ILLEGAL (first few):', reports.illegal);
  show('POSITIONS WHOSE LEGAL MOVES DIFFER (first few):', reports.lists);
  show('MOVES LISHOGI WRITES DIFFERENTLY (first few):', reports.textDiffs);
  show('LISHOGI TEXTS KIRIN REJECTED (first few):', reports.rejected);
  show('MOVES LEGAL FOR SHOGIOPS THAT KIRIN REFUSES AS REPETITIONS (first few):', reports.repetition);

  const rows = [
    ['engine', idName],
    ['shogiops', `${so.version} (${so.pkgDir})`],
    ['VariantRules', opts.rules],
    ['seed', opts.seed],
    ['games', `${stats.games} (${Math.ceil(stats.games / 2)} random, ${Math.floor(stats.games / 2)} kirin go nodes ${opts.nodes})`],
    ['plies', stats.plies],
    ['positions compared', `${stats.positions} (start positions included)`],
    ['identical SFEN', stats.identical],
    ['mismatches', `${stats.mismatches}${stats.numberOnly ? ` (${stats.numberOnly} only in the move number)` : ''}`],
    ['illegal in shogiops', stats.illegal],
    ['move lists compared', `${stats.listsCompared} (kirin's go perft 1 against shogiops' legal moves)`],
    ['move lists differ', stats.listDiffs],
    ['move text differs', stats.textDiffs],
    ['texts kirin rejected', stats.rejected],
    ['repetition refusals', `${stats.repetitionRefusals} (shogiops-legal moves kirin's Chu repetition rule refuses${opts.tolerateRepetition ? '; tolerated by --tolerate-repetition' : ''})`],
    ['ended, both agree', stats.endBoth],
    ['ended, shogiops only', stats.endShogiops],
    ['ended, kirin only', stats.endKirin],
    ['ended at ply limit', stats.endPlies],
    ['moves played', Object.entries(stats.kinds).map(([k, v]) => `${k} ${v}`).join(', ')],
    ['time', `${seconds.toFixed(1)} s`],
  ];
  process.stdout.write('\nlishogi replay summary\n');
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(21)} ${v}\n`);
  process.stdout.write('  game ends:\n');
  for (const [k, v] of [...endReasons].sort((a, b) => b[1] - a[1])) process.stdout.write(`    ${String(v).padStart(4)}  ${k}\n`);
  const bad = stats.mismatches + stats.illegal + stats.textDiffs + stats.rejected + stats.listDiffs +
    (opts.tolerateRepetition ? 0 : stats.repetitionRefusals);
  process.stdout.write(bad ? '\nFAIL\n' : '\nOK\n');
  process.exit(bad ? 1 : 0);
}

main().catch(e => die(e && e.stack ? e.stack : String(e)));
