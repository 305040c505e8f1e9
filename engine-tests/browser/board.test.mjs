// Browser tests of kirin's web board (`kirin serve`): a headless Chromium drives the page
// as a person would (clicks on squares, reserve pieces, the chooser and the buttons) and
// the page's board is checked against the server's own states (POST /api/state).
// Run by scripts/browser-tests.sh, which starts the server and sets KIRIN_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUILTIN, api, post, game, state, squareName, expectedPieces, launch, withBoard, settled,
  boardAttr, ply, waitPly, pieces, pieceAt, squares, targets, clickSquare, poll, waitPieces,
  same, errorText, newGame, loadFen, visibleChoices, clickChoice, playPath, screenshot, rng,
  fill, press,
} from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// The index of a square name on a board `width` files wide.
function index(name, width) {
  return (Number(name.slice(1)) - 1) * width + (name.charCodeAt(0) - 97);
}

// The one legal action of a state whose path is the given squares (and drop letter).
function action(st, path, dropLetter = null) {
  const want = path.map((s) => index(s, st.width));
  const found = st.legal.filter((a) => same(a.path, want) && (dropLetter === null ? !a.drop : a.drop?.letter === dropLetter));
  assert.equal(found.length, 1, `one legal action with path ${path.join('-')}${dropLetter ? ` (drop ${dropLetter})` : ''}: ${JSON.stringify(found.map((a) => a.text))}`);
  return found[0];
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;

test('every built-in game: its squares, holes, citadels, pieces and reserves are drawn', { timeout: 300000 }, async (t) => withBoard(browser, t, async (page) => {
  const res = await fetch(api('/api/variants'));
  assert.equal(res.status, 200);
  const variants = await res.json();
  const names = variants.map((v) => v.name);
  for (const n of BUILTIN) assert.ok(names.includes(n), `GET /api/variants lists ${n}`);
  const options = await page.$$eval('#variant option', (els) => els.map((e) => e.value));
  assert.deepEqual([...options].sort(), [...names].sort(), 'select#variant offers the games of /api/variants');

  for (const v of variants) {
    const st = await newGame(page, v.name); // asserts the pieces drawn equal the start's
    assert.equal(st.width, v.width, `${v.name}: width`);
    assert.equal(st.height, v.height, `${v.name}: height`);
    const holes = new Set(st.holes);
    const want = [];
    for (let i = 0; i < st.width * st.height; i++) if (!holes.has(i)) want.push(squareName(i, st.width));
    want.sort();
    const sqs = await poll(() => squares(page), (s) => s.length === want.length);
    assert.equal(sqs.length, st.width * st.height - st.holes.length, `${v.name}: count of rect.square`);
    assert.deepEqual(sqs.map((s) => s.square).sort(), want, `${v.name}: the squares drawn (holes left out)`);
    for (const s of sqs) {
      assert.equal(Number(s.sq), index(s.square, st.width), `${v.name}: data-sq of ${s.square}`);
    }
    const drawn = await pieces(page);
    assert.equal(drawn.length, st.board.filter((p) => p !== null).length, `${v.name}: count of g.piece`);
    if (st.citadels) {
      for (const c of st.citadels) {
        const s = sqs.find((x) => x.square === squareName(c, st.width));
        assert.ok(s, `${v.name}: citadel ${squareName(c, st.width)} is drawn`);
        assert.match(s.cls, /\bcitadel\b/, `${v.name}: citadel ${s.square} has class citadel`);
      }
    }
    assert.ok(await page.locator('#board .coord').count() >= Math.min(st.width, st.height), `${v.name}: coordinates drawn`);
    // Reserves and prisoners: one .reserve-piece per owner, kind and letter held.
    const wantRes = [];
    for (const r of st.reserves) {
      for (const p of r.pieces) if (p.count > 0) wantRes.push(`${r.owner}/${r.kind}/${p.piece.letter}`);
    }
    const gotRes = await page.$$eval('.reserve-piece', (els) => els
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => `${e.getAttribute('data-owner')}/${e.getAttribute('data-kind')}/${e.getAttribute('data-letter')}`));
    assert.deepEqual(gotRes.sort(), wantRes.sort(), `${v.name}: the reserve pieces shown`);
    // Piece style: kanji tiles where the pieces have kanji (Sho, Chu), letters otherwise.
    const kanjiPieces = st.board.filter((p) => p && p.kanji);
    const style = await page.inputValue('#piece-style');
    const text = await page.textContent('#board');
    if (kanjiPieces.length > 0) {
      assert.equal(style, 'kanji', `${v.name}: the default piece style`);
      for (const p of kanjiPieces) {
        assert.ok([...p.kanji].some((ch) => text.includes(ch)), `${v.name}: the kanji of ${p.name} (${p.kanji}) drawn`);
      }
    } else {
      assert.equal(style, 'letters', `${v.name}: the default piece style`);
      assert.doesNotMatch(text, CJK, `${v.name}: no kanji with letters`);
    }
    await screenshot(page, `${v.name}.png`);
    if (v.name === 'chess') {
      await page.selectOption('#piece-style', 'figurines');
      const fig = await poll(() => page.textContent('#board'), (t) => /[\u2654-\u265f]/.test(t), 5000);
      assert.match(fig, /[\u2654-\u265f]/, 'chess with figurines shows chess figurines');
      await page.selectOption('#piece-style', 'letters');
    }
    if (v.name === 'chu') {
      // The chu start with kanji tiles is the screenshot above (chu.png); the letters style
      // draws no kanji, and going back to kanji draws them again.
      await page.selectOption('#piece-style', 'letters');
      const plain = await poll(() => page.textContent('#board'), (t) => !CJK.test(t), 5000);
      assert.doesNotMatch(plain, CJK, 'chu with letters draws no kanji');
      await page.selectOption('#piece-style', 'romaji');
      const romaji = await poll(() => page.textContent('#board'), (t) => !CJK.test(t), 5000);
      assert.doesNotMatch(romaji, CJK, 'chu with romaji draws no kanji');
      await page.selectOption('#piece-style', 'kanji');
      const kanji = await poll(() => page.textContent('#board'), (t) => CJK.test(t), 5000);
      assert.match(kanji, CJK, 'chu with kanji again');
    }
  }
}));

test('chu: the Lion captures twice (f6xf7xf8) by clicks through the chooser', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  await newGame(page, 'chu');
  const fen = '11k/12/12/12/5p6/5p6/5N6/12/12/12/12/K11 w 0 1';
  const st = await loadFen(page, 'chu', fen);
  const lion = st.board[index('f6', 12)];
  const want = await state(game('chu', { fen, moves: [action(st, ['f6', 'f7', 'f8']).id] }));

  await clickSquare(page, 'f6');
  const t1 = await poll(() => targets(page), (t) => t.includes('f7'), 5000);
  assert.ok(t1.includes('f7'), `f6 picked up: f7 is a target (targets: ${t1})`);
  assert.match(await page.getAttribute('#board rect.square[data-square="f6"]', 'class'), /\bselected\b/, 'f6 is selected');
  await clickSquare(page, 'f7');
  // f6xf7 alone is legal too: the chooser opens with it and "continue" (or the page
  // highlights the next squares straight away).
  const seen = await poll(async () => ({ choices: await visibleChoices(page), t: await targets(page) }),
    (s) => s.choices.length > 0 || s.t.includes('f8'), 5000);
  if (seen.choices.length > 0) {
    assert.ok(seen.choices.some((c) => c.cont), `the chooser has a continue button: ${JSON.stringify(seen.choices)}`);
    assert.ok(seen.choices.some((c) => c.text === action(st, ['f6', 'f7']).text), `the chooser offers f6xf7 alone: ${JSON.stringify(seen.choices)}`);
    await clickChoice(page, { cont: true });
    const t2 = await poll(() => targets(page), (t) => t.includes('f8'), 5000);
    assert.ok(t2.includes('f8'), `after continue, f8 is a target (targets: ${t2})`);
  }
  assert.equal(await ply(page), 0, 'nothing played before the second leg');
  await clickSquare(page, 'f8');
  await waitPly(page, 1);
  const got = await waitPieces(page, (v) => same(v, expectedPieces(want)));
  assert.deepEqual(got, expectedPieces(want), 'the board after the Lion\'s double capture');
  assert.deepEqual(await pieceAt(page, 'f8'), [{ square: 'f8', letter: lion.letter, color: 'white' }], 'the Lion is on f8');
  assert.deepEqual(await pieceAt(page, 'f7'), [], 'the pawn on f7 is gone');
  assert.deepEqual(await pieceAt(page, 'f6'), [], 'f6 is empty');
  assert.equal(await page.locator('#moves li.move').count(), 1, 'the move list shows one move');
  assert.equal(await boardAttr(page, 'side'), 'black');
  assert.equal(await errorText(page), '');
  await screenshot(page, 'chu-lion.png');

  // The PGN of that game loads back to the same position (a move of two legs in PGN).
  await press(page, '#export-pgn');
  const pgn = await poll(() => page.inputValue('#pgn'), (t) => t.trim().length > 0, 5000);
  assert.ok(pgn.trim().length > 0, '#export-pgn fills #pgn');
  await newGame(page, 'chu');
  await fill(page, '#pgn', pgn);
  await press(page, '#load-pgn');
  await waitPly(page, 1);
  const again = await waitPieces(page, (v) => same(v, expectedPieces(want)));
  assert.deepEqual(again, expectedPieces(want), 'the PGN loads back to the position after the double capture');
}));

test('tamerlane: the King swaps places with its Knight (g2 then c2)', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  await newGame(page, 'tamerlane');
  const fen = '*k10*/6r5*/*11*/*11*/*11*/*11*/*11*/*11*/*1N3K6/*10R* w SCsc - 0 1';
  const st = await loadFen(page, 'tamerlane', fen);
  const want = await state(game('tamerlane', { fen, moves: [action(st, ['g2', 'c2']).id] }));
  await clickSquare(page, 'g2');
  const t = await poll(() => targets(page), (x) => x.includes('c2'), 5000);
  assert.ok(t.includes('c2'), `the King picked up: c2 (its Knight) is a target (targets: ${t})`);
  await clickSquare(page, 'c2');
  await waitPly(page, 1);
  const got = await waitPieces(page, (v) => same(v, expectedPieces(want)));
  assert.deepEqual(got, expectedPieces(want), 'the board after the swap');
  assert.deepEqual(await pieceAt(page, 'c2'), [{ square: 'c2', letter: 'K', color: 'white' }], 'the King is on c2');
  assert.deepEqual(await pieceAt(page, 'g2'), [{ square: 'g2', letter: 'N', color: 'white' }], 'the Knight is on g2');
  assert.equal(await page.locator('#moves li.move').count(), 1);
  await screenshot(page, 'tamerlane-swap.png');
}));

test('shofidegi: a drop from White\'s reserve (T to a3)', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  await newGame(page, 'shofidegi');
  const fen = '4s12/17/2Q14/17/17/17/17/17/17/15k1/17/17/4P12/T2V13/17/1K7A7/6G10[PT] w - - 0 1';
  const st = await loadFen(page, 'shofidegi', fen);
  const want = await state(game('shofidegi', { fen, moves: [action(st, ['a3'], 'T').id] }));
  const sel = '.reserve-piece[data-owner="white"][data-letter="T"]';
  const count = async () => {
    const els = await page.$$eval(sel, (es) => es.filter((e) => e.getClientRects().length > 0).map((e) => e.textContent));
    if (els.length === 0) return 0;
    const n = els[0].match(/\d+/g);
    return n ? Number(n[n.length - 1]) : 1;
  };
  const before = await count();
  assert.ok(before >= 1, 'White\'s reserve shows a T');
  await page.click(sel, { timeout: 5000 });
  const t = await poll(() => targets(page), (x) => x.includes('a3'), 5000);
  assert.ok(t.includes('a3'), `the reserve T picked up: a3 is a drop target (targets: ${t.length} squares)`);
  await clickSquare(page, 'a3');
  await waitPly(page, 1);
  const got = await waitPieces(page, (v) => same(v, expectedPieces(want)));
  assert.deepEqual(got, expectedPieces(want), 'the board after the drop');
  const a3 = await pieceAt(page, 'a3');
  assert.equal(a3.length, 1, 'a piece stands on a3');
  assert.equal(a3[0].color, 'white', 'the piece on a3 is White\'s');
  const afterCount = await poll(count, (n) => n < before, 5000);
  assert.ok(afterCount < before, `White's T in reserve: ${before} before the drop, ${afterCount} after`);
  assert.equal(await boardAttr(page, 'side'), 'black');
  await screenshot(page, 'shofidegi-drop.png');
}));

// Plays White's turn by clicks: a piece whose squares light up (tried in random order),
// one of its targets at random; a promotion picks the queen in the chooser.
async function playWhite(page, random) {
  const mine = (await pieces(page)).filter((p) => p.color === 'white').map((p) => p.square);
  for (let i = mine.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [mine[i], mine[j]] = [mine[j], mine[i]];
  }
  for (const from of mine) {
    await clickSquare(page, from);
    const t = await targets(page);
    if (t.length === 0) continue;
    const to = t[Math.floor(random() * t.length)];
    await clickSquare(page, to);
    const choices = await visibleChoices(page);
    if (choices.length > 0) {
      const c = choices.find((x) => x.text && /q$/i.test(x.text)) || choices.find((x) => x.text);
      assert.ok(c, `the chooser offers a move: ${JSON.stringify(choices)}`);
      await clickChoice(page, c);
    }
    return `${from}${to}`;
  }
  assert.fail(`no White piece can move, yet the game goes on (pieces: ${mine})`);
}

const DEPTH = Number(process.env.GAME_DEPTH || 1);

test(`chess: a whole game by clicks against kirin (depth ${DEPTH}) ends with a result and its reason`, { timeout: 300000 }, async (t) => withBoard(browser, t, async (page) => {
  const engineRequests = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/move')) engineRequests.push(r.postDataJSON());
  });
  await newGame(page, 'chess', { white: 'human', black: 'kirin', depth: DEPTH });
  const random = rng(Number(process.env.GAME_SEED || 20240611)); // GAME_SEED replays another game
  const played = [];
  for (;;) {
    await settled(page, 60000);
    if (await boardAttr(page, 'result')) break;
    const p = await ply(page);
    assert.ok(p < 300, `no result after ${p} plies`);
    assert.equal(await boardAttr(page, 'side'), 'white', `White (the person) to move at ply ${p}`);
    played.push(await playWhite(page, random));
    // kirin answers: wait for its move (or the end of the game).
    await page.waitForFunction((n) => {
      const d = document.querySelector('#board').dataset;
      return d.result || (Number(d.ply) >= n + 2 && d.busy === 'false');
    }, p, { timeout: 60000 });
    assert.equal(await errorText(page), '', `no error after ${played.join(' ')}`);
  }
  const result = await boardAttr(page, 'result');
  const n = await ply(page);
  assert.ok(engineRequests.length > 0, 'kirin was asked for moves');
  for (const r of engineRequests) {
    assert.equal(r.depth, DEPTH, `/api/move sends the depth set: ${JSON.stringify(r).slice(0, 200)}`);
    assert.equal(r.game.variant, 'chess');
  }
  assert.equal(await page.locator('#moves li.move').count(), n, 'one li.move per ply in chess');
  // The page's game, exported as PGN and replayed by the server, ends the same way.
  await press(page, '#export-pgn');
  const pgn = await poll(() => page.inputValue('#pgn'), (t) => t.includes(result), 5000);
  const imp = await post('/api/import', { pgn });
  assert.equal(imp.status, 200, `POST /api/import of the page's PGN: ${imp.text.slice(0, 300)}`);
  assert.equal(imp.json.moves.length, n, 'the PGN holds every move');
  const end = await state(imp.json);
  assert.ok(end.outcome, 'the server sees the game over too');
  assert.equal(result, end.outcome.result, 'data-result is the outcome');
  const status = await page.textContent('#status');
  assert.ok(status.includes(end.outcome.result), `#status shows the result: "${status}"`);
  assert.ok(status.toLowerCase().includes(end.outcome.reason.toLowerCase()), `#status shows the reason (${end.outcome.reason}): "${status}"`);
  console.log(`# game against kirin: ${result} (${end.outcome.reason}) after ${n} plies`);
  await screenshot(page, 'chess-game.png');
}));

test('chess: picking up, last move, flip, take-back and the move list\'s navigation', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  let engineCalls = 0;
  page.on('request', (r) => { if (r.url().includes('/api/move')) engineCalls++; });
  await newGame(page, 'chess');
  await clickSquare(page, 'e2');
  assert.match(await page.getAttribute('#board rect.square[data-square="e2"]', 'class'), /\bselected\b/, 'e2 is selected');
  assert.deepEqual(await targets(page), ['e3', 'e4'], 'the pawn on e2 may go to e3 and e4');
  await clickSquare(page, 'e4');
  await waitPly(page, 1);
  for (const sq of ['e2', 'e4']) {
    assert.match(await page.getAttribute(`#board rect.square[data-square="${sq}"]`, 'class'), /\blast-move\b/, `${sq} marked as the last move`);
  }
  assert.deepEqual(await targets(page), [], 'no targets left after the move');
  await playPath(page, ['e7', 'e5']);
  await playPath(page, ['g1', 'f3']);
  assert.equal(await ply(page), 3);
  assert.equal(await page.locator('#moves li.move').count(), 3);
  const san = await page.$$eval('#moves li.move', (els) => els.map((e) => e.textContent));
  assert.match(san[2], /Nf3/, `the third move reads Nf3: ${san}`);

  // Flip: a1 goes from the bottom to the top.
  const y = async (sq) => (await page.locator(`#board rect.square[data-square="${sq}"]`).boundingBox()).y;
  assert.equal(await boardAttr(page, 'flipped'), 'false');
  assert.ok(await y('a1') > await y('a8'), 'a1 below a8');
  await press(page, '#flip');
  await page.waitForSelector('#board[data-flipped="true"]', { state: 'attached', timeout: 5000 });
  const flipped = await poll(async () => (await y('a1')) < (await y('a8')), (v) => v, 5000);
  assert.ok(flipped, 'flipped: a1 above a8');
  await press(page, '#flip');
  await page.waitForSelector('#board[data-flipped="false"]', { state: 'attached', timeout: 5000 });

  // Take back: one ply fewer (both sides are people), the Knight home again.
  await press(page, '#takeback');
  const afterTb = await poll(() => ply(page), (p) => p < 3, 5000);
  assert.ok(afterTb < 3, `#takeback reduces data-ply (3 -> ${afterTb})`);
  assert.equal(afterTb, 2, 'one turn taken back');
  const home = await waitPieces(page, (v) => v.some((p) => p.square === 'g1'));
  assert.ok(home.some((p) => p.square === 'g1' && p.letter === 'N'), 'the Knight is back on g1');
  assert.ok(!home.some((p) => p.square === 'f3'), 'f3 is empty');
  assert.equal(await page.locator('#moves li.move').count(), 2);

  // Clicking the first move shows the position after 1.e4.
  await page.click('#moves li.move[data-ply="1"]');
  const after1 = await waitPieces(page, (v) => v.some((p) => p.square === 'e7') && !v.some((p) => p.square === 'e5'));
  assert.ok(after1.some((p) => p.square === 'e4'), 'after 1.e4: a pawn on e4');
  assert.ok(after1.some((p) => p.square === 'e7') && !after1.some((p) => p.square === 'e5'), 'after 1.e4: e7 still home');
  await press(page, '#nav-start');
  const start = await waitPieces(page, (v) => v.some((p) => p.square === 'e2'));
  assert.ok(start.some((p) => p.square === 'e2') && !start.some((p) => p.square === 'e4'), '#nav-start: the start position');
  await press(page, '#nav-forward');
  const fwd = await waitPieces(page, (v) => v.some((p) => p.square === 'e4'));
  assert.ok(fwd.some((p) => p.square === 'e4') && fwd.some((p) => p.square === 'e7'), '#nav-forward: after 1.e4');
  await press(page, '#nav-end');
  const endPos = await waitPieces(page, (v) => v.some((p) => p.square === 'e5'));
  assert.ok(endPos.some((p) => p.square === 'e5'), '#nav-end: after 1...e5');
  await press(page, '#nav-back');
  const back = await waitPieces(page, (v) => !v.some((p) => p.square === 'e5'));
  assert.ok(!back.some((p) => p.square === 'e5') && back.some((p) => p.square === 'e7'), '#nav-back: after 1.e4');

  // Playing from an earlier position truncates the game there.
  await clickSquare(page, 'd7');
  await clickSquare(page, 'd5');
  const moves = await poll(() => page.$$eval('#moves li.move', (els) => els.map((e) => e.textContent)),
    (m) => m.length === 2 && /d5/.test(m[1]), 5000);
  await settled(page);
  assert.match(moves[1], /d5/, `the game goes on with 1...d5: ${moves}`);
  assert.doesNotMatch(moves.join(' '), /e5/, `1...e5 is gone: ${moves}`);
  assert.equal(await ply(page), 2);
  const now = await pieces(page);
  assert.ok(now.some((p) => p.square === 'd5') && now.some((p) => p.square === 'e7'), 'the board shows 1.e4 d5');
  assert.equal(engineCalls, 0, 'kirin was not asked to move in a game of two people');
}));

test('chu: live analysis shows lines with depth and PV, and stops when pressed again', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  const sent = [];
  const received = [];
  let closed = false;
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => sent.push(String(f.payload)));
    ws.on('framereceived', (f) => received.push(String(f.payload)));
    ws.on('close', () => { closed = true; });
  });
  const st = await newGame(page, 'chu');
  await fill(page, '#multipv', '2');
  await press(page, '#analyse');
  await page.waitForSelector('#analysis .pv-line', { timeout: 10000 });
  const read = () => page.$$eval('#analysis .pv-line', (els) => els.map((e) => ({
    multipv: e.getAttribute('data-multipv'), depth: Number(e.getAttribute('data-depth')), text: e.textContent,
  })));
  const lines = await poll(read, (l) => l.length >= 2 && l.every((x) => x.depth >= 1), 10000);
  assert.ok(lines.length >= 1, 'at least one .pv-line');
  assert.ok(lines.every((x) => x.depth >= 1), `each line has a depth: ${JSON.stringify(lines)}`);
  assert.deepEqual(lines.map((x) => x.multipv).sort(), ['1', '2'], `MultiPV 2 shows two lines: ${JSON.stringify(lines)}`);
  const sans = new Set(st.legal.map((a) => a.san));
  for (const l of lines) {
    const words = l.text.split(/[\s,]+/).map((w) => w.replace(/^\d+\.+/, ''));
    assert.ok(words.some((w) => sans.has(w)), `the line's PV starts with a legal move in SAN: "${l.text}"`);
  }
  const asked = sent.map((s) => JSON.parse(s)).find((m) => m.analyse);
  assert.ok(asked, 'the page sent {"analyse": GAME}');
  assert.equal(asked.analyse.variant, 'chu');
  assert.equal(asked.multipv, 2);
  await screenshot(page, 'chu-analysis.png');

  await press(page, '#analyse');
  const stopped = await poll(() => closed || sent.some((s) => JSON.parse(s).stop === true), (v) => v, 5000);
  assert.ok(stopped, 'pressing #analyse again sends {"stop": true} (or closes the socket)');
  // No new iterations after the server's "done" (or the socket's close).
  await poll(() => closed || received.some((s) => JSON.parse(s).type === 'done'), (v) => v, 5000);
  const n = received.length;
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(received.length, n, `no analysis arrives after the stop: ${received.slice(n).join(' ')}`);
}));

test('chess: FEN and PGN import and export', { timeout: 60000 }, async (t) => withBoard(browser, t, async (page) => {
  await newGame(page, 'chess');
  await playPath(page, ['e2', 'e4']);
  await playPath(page, ['e7', 'e5']);
  await playPath(page, ['g1', 'f3']);
  const pos = await pieces(page);
  await press(page, '#export-pgn');
  const pgn = await poll(() => page.inputValue('#pgn'), (t) => /Nf3/.test(t), 5000);
  assert.match(pgn, /e4[\s\S]*e5[\s\S]*Nf3/, `the PGN holds the moves: ${pgn}`);

  await newGame(page, 'chess');
  await fill(page, '#pgn', pgn);
  await press(page, '#load-pgn');
  await waitPly(page, 3);
  const loaded = await waitPieces(page, (v) => same(v, pos));
  assert.deepEqual(loaded, pos, 'the PGN loads back to the same position');
  assert.equal(await page.locator('#moves li.move').count(), 3);

  // A FEN of three pieces; then garbage, which the page reports and the board survives.
  const fen = '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1';
  await loadFen(page, 'chess', fen);
  assert.equal((await pieces(page)).length, 3);
  await fill(page, '#fen', 'this is no FEN');
  await press(page, '#load-fen');
  const err = await poll(() => errorText(page), (t) => t.length > 0, 5000);
  assert.ok(err.length > 0, '#error shows why the FEN was refused');
  assert.equal((await pieces(page)).length, 3, 'the board is unchanged');
  await playPath(page, ['e2', 'e4']);
  assert.equal(await ply(page), 1, 'the game goes on after the refused FEN');
}));
