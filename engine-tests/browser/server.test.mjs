// `kirin serve` survives malformed input: each bad request gets status 400 with
// {"error": "..."} and the server goes on answering. Plain HTTP from Node; the WebSocket
// through the page (Node 20 has no WebSocket of its own).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN, api, post, game, state, launch, withBoard } from './lib.mjs';

// The browser (for the WebSocket test only) is started when that test runs, so that its
// start-up does not load the machine during the HTTP requests.
let browser;
after(async () => { await browser?.close(); });

async function refused(what, p, body) {
  // A server that answers an oversized body before reading all of it and then closes the
  // connection can make the client's write fail (EPIPE, ECONNRESET) before the answer is
  // read: such a transport error is retried, up to five tries (and reported); the 400 must
  // come.
  let r;
  const lost = [];
  while (!r) {
    try {
      r = await post(p, body);
    } catch (e) {
      lost.push(e.cause?.code || e.message);
      if (lost.length === 5) assert.fail(`${what}: no HTTP answer (${lost.join(', ')})`);
    }
  }
  if (lost.length > 0) console.log(`# ${what}: the answer was lost ${lost.length} time(s) (${lost.join(', ')}) before it came`);
  assert.equal(r.status, 400, `${what}: status (body ${r.text.slice(0, 200)})`);
  assert.ok(r.json && typeof r.json.error === 'string' && r.json.error.length > 0,
    `${what}: a JSON {"error": ...} (got ${r.text.slice(0, 200)})`);
  return r.json.error;
}

async function alive() {
  const r = await fetch(api('/api/variants'));
  assert.equal(r.status, 200, 'GET /api/variants still answers');
  const names = (await r.json()).map((v) => v.name);
  for (const n of BUILTIN) assert.ok(names.includes(n), `GET /api/variants lists ${n}`);
}

// Legal ids of the chess start and after its first legal action, and a number that is
// none of them in each position.
const ctx = {};
function notIn(ids) {
  let n = 1;
  while (ids.has(n)) n++;
  return n;
}
before(async () => {
  const st = await state(game('chess'));
  ctx.ids = new Set(st.legal.map((a) => a.id));
  ctx.first = st.legal[0].id;
  ctx.bad = notIn(ctx.ids);
  const st1 = await state(game('chess', { moves: [ctx.first] }));
  ctx.bad1 = notIn(new Set(st1.legal.map((a) => a.id)));
});

// [what, path, body (or a function of ctx giving it)]
const CASES = [
  ['invalid JSON', '/api/state', '{"variant": "chess", "moves": ['],
  ['not JSON at all', '/api/state', 'hello'],
  ['JSON of the wrong shape', '/api/state', { variant: 7, moves: 'e2e4' }],
  ['a game without its fields', '/api/state', {}],
  ['an unknown variant', '/api/state', game('no-such-variant')],
  ['an unknown rule', '/api/state', game('chess', { rules: ['no_such_rule=on'] })],
  ['an unknown start', '/api/state', game('chess', { start: 'no-such-start' })],
  ['a 1 MB body', '/api/state', JSON.stringify(game('chess', { fen: 'x'.repeat(1 << 20) }))],
  ['an illegal move id', '/api/state', (c) => game('chess', { moves: [c.bad] }), (c, why) => {
    assert.ok(why.includes(String(c.bad)), `the error names the refused action ${c.bad}: "${why}"`);
  }],
  ['a negative move id', '/api/state', game('chess', { moves: [-1] })],
  ['a legal move then an illegal one', '/api/state', (c) => game('chess', { moves: [c.first, c.bad1] })],
  ['a FEN with a garbage piece', '/api/state', game('chess', { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1' })],
  ['a FEN of nonsense', '/api/state', game('chess', { fen: '\u0000\u00ff garbage ///' })],
  ['a FEN over 1024 bytes', '/api/state', game('chess', { fen: `${'8/'.repeat(600)}8 w - - 0 1` })],
  ['more than 4096 moves', '/api/state', (c) => game('chess', { moves: new Array(5000).fill(c.first) })],
  ['/api/move with an illegal move id', '/api/move', (c) => ({ game: game('chess', { moves: [c.bad] }), depth: 1 })],
  ['/api/move without a game', '/api/move', { depth: 1 }],
  ['/api/move at depth 1000', '/api/move', { game: game('chess'), depth: 1000 }],
  ['/api/import of an unknown variant', '/api/import', { variant: 'no-such-variant', rules: [], fen: null }],
  ['/api/import of a garbage FEN', '/api/import', { variant: 'chess', rules: [], fen: 'garbage' }],
  ['/api/import of a PGN with an illegal move', '/api/import', { pgn: '[Variant "chess"]\n\n1. e4 e5 2. Ke3 *\n' }],
  ['/api/pgn of an unknown variant', '/api/pgn', game('no-such-variant')],
];

for (const [what, p, body, check] of CASES) {
  test(`400 with {"error"}: ${what} (POST ${p})`, { timeout: 30000 }, async () => {
    const why = await refused(what, p, typeof body === 'function' ? body(ctx) : body);
    if (check) check(ctx, why);
  });
}

test('after the malformed requests the server still answers good ones', { timeout: 30000 }, async () => {
  await alive();
  const ok = await post('/api/state', game('chess', { moves: [ctx.first] }));
  assert.equal(ok.status, 200);
  assert.equal(ok.json.history.length, 1);
  const mv = await post('/api/move', { game: game('chess'), depth: 1 });
  assert.equal(mv.status, 200, `POST /api/move: ${mv.text.slice(0, 200)}`);
  assert.ok(mv.json.actions.length >= 1 && mv.json.actions.every((id) => ctx.ids.has(id)), 'kirin answers with a legal action');
});

test('the analysis WebSocket refuses a message that is not JSON and goes on', { timeout: 60000 }, async (t) => {
  browser = await launch();
  await withBoard(browser, t, async (page) => {
    const url = api('/api/analyse').replace(/^http/, 'ws');
    const replies = await page.evaluate(async ({ url, g }) => {
      const ws = new WebSocket(url);
      const got = [];
      await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error('WebSocket did not open')); });
      const next = () => new Promise((res) => {
        const t = setTimeout(() => res({ timeout: true }), 10000);
        ws.onmessage = (e) => { clearTimeout(t); res({ data: e.data }); };
        ws.onclose = (e) => { clearTimeout(t); res({ closed: e.code }); };
      });
      ws.send('this is not JSON');
      got.push(await next());
      ws.send(JSON.stringify({ hello: 'world' }));
      got.push(await next());
      // The same socket (or, if the server closed it, a new one) still analyses.
      let sock = ws;
      if (ws.readyState !== WebSocket.OPEN) {
        sock = new WebSocket(url);
        await new Promise((res) => { sock.onopen = res; });
      }
      const info = await new Promise((res) => {
        const t = setTimeout(() => res({ timeout: true }), 10000);
        sock.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'info') { clearTimeout(t); res(m); } };
        sock.send(JSON.stringify({ analyse: g, multipv: 1 }));
      });
      got.push(info);
      sock.send(JSON.stringify({ stop: true }));
      sock.close();
      return got;
    }, { url, g: game('chess') });
    for (const [i, what] of ['not JSON', 'JSON of no known form'].entries()) {
      const r = replies[i];
      assert.ok(r.data, `${what}: the server answers with an error message (got ${JSON.stringify(r)})`);
      const m = JSON.parse(r.data);
      assert.equal(m.type, 'error', `${what}: {"type": "error"} (got ${r.data})`);
      assert.ok(typeof m.message === 'string' && m.message.length > 0, `${what}: the error has a message`);
    }
    const info = replies[2];
    assert.equal(info.type, 'info', `analysis still works after the bad messages (got ${JSON.stringify(info)})`);
    assert.ok(info.depth >= 1 && Array.isArray(info.pv) && info.pv.length >= 1 && info.pv_san.length === info.pv.length,
      `an info has depth and PV: ${JSON.stringify(info)}`);
    await alive();
  });
});
