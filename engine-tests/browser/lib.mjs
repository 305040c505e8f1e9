// Helpers of the browser tests of `kirin serve` (scripts/browser-tests.sh runs them).
// They rely only on the page's DOM contract (ids, classes and data attributes listed in
// docs/web.md's page section and the contract the page is written to) and on the JSON API
// of docs/web.md.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');

// playwright-core is installed by the script into target/browser-tests (never into the
// repository), so it is resolved from there.
const pwDir = process.env.PLAYWRIGHT_DIR || path.join(ROOT, 'target/browser-tests');
const require = createRequire(path.join(pwDir, 'package.json'));
const { chromium } = require('playwright-core');

if (!process.env.KIRIN_URL) {
  throw new Error('KIRIN_URL is not set: run scripts/browser-tests.sh, which starts kirin serve');
}
export const BASE = new URL(process.env.KIRIN_URL);
export const SHOTS = process.env.SCREENSHOT_DIR || path.join(ROOT, 'target/browser-tests/screenshots');
mkdirSync(SHOTS, { recursive: true });

export const BUILTIN = ['chess', 'courier', 'modern-courier', 'sho', 'duodecimal', 'chu', 'tamerlane',
  'tamerlane-full', 'flee', 'hiashatar', 'littlegreat', 'shofidegi'];

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// ---------------------------------------------------------------- the API, from Node

export function api(p) { return new URL(p, BASE).href; }

export async function post(p, body) {
  const res = await fetch(api(p), {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, text, json };
}

export function game(variant, extra = {}) {
  return { variant, rules: [], start: null, fen: null, moves: [], ...extra };
}

export async function state(g) {
  const r = await post('/api/state', g);
  assert.equal(r.status, 200, `POST /api/state ${JSON.stringify(g)}: ${r.text.slice(0, 300)}`);
  return r.json;
}

export function squareName(index, width) {
  return String.fromCharCode(97 + (index % width)) + (Math.floor(index / width) + 1);
}

// The pieces a state's board holds, as the page must draw them (sorted by square).
export function expectedPieces(st) {
  const out = [];
  st.board.forEach((p, i) => {
    if (p) out.push({ square: squareName(i, st.width), letter: p.letter, color: p.color });
  });
  return sortPieces(out);
}

function sortPieces(list) {
  return list.sort((a, b) => (a.square < b.square ? -1 : a.square > b.square ? 1 : 0));
}

// ---------------------------------------------------------------- the page

// Opens the board in a fresh browser context (its own storage) and records what must not
// happen: uncaught page errors and requests to anything but the kirin server.
export async function openBoard(browser) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:', 'about:'].includes(u.protocol) && u.host !== BASE.host) {
      problems.push(`request to another host: ${r.url()}`);
    }
  });
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).host !== BASE.host) problems.push(`WebSocket to another host: ${ws.url()}`);
  });
  await page.goto(BASE.href);
  await page.waitForSelector('#board svg rect.square', { state: 'attached' });
  await settled(page);
  return {
    page,
    problems,
    context,
    async close() {
      await context.close();
      assert.deepEqual(problems, [], 'the page raised errors or fetched from elsewhere');
    },
  };
}

// Runs a test's body on a fresh board; if it fails, the page as it was then is kept as
// target/browser-tests/screenshots/failed-<test>.png.
export async function withBoard(browser, t, fn) {
  const b = await openBoard(browser);
  try {
    await fn(b.page);
  } catch (e) {
    const name = `failed-${t.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60)}.png`;
    await b.page.screenshot({ path: path.join(SHOTS, name), fullPage: true }).catch(() => {});
    await b.context.close().catch(() => {});
    throw e;
  }
  await b.close();
}

export async function settled(page, timeout = 30000) {
  await page.waitForSelector('#board[data-busy="false"]', { state: 'attached', timeout });
}

export async function boardAttr(page, name) {
  return page.getAttribute('#board', `data-${name}`);
}

export async function ply(page) {
  return Number(await boardAttr(page, 'ply'));
}

export async function waitPly(page, n, timeout = 30000) {
  await page.waitForSelector(`#board[data-ply="${n}"][data-busy="false"]`, { state: 'attached', timeout });
}

export async function pieces(page) {
  return sortPieces(await page.$$eval('#board g.piece', (els) => els.map((e) => ({
    square: e.getAttribute('data-square'), letter: e.getAttribute('data-letter'),
    color: e.getAttribute('data-color'),
  }))));
}

export async function pieceAt(page, square) {
  const list = await pieces(page);
  return list.filter((p) => p.square === square);
}

export async function squares(page) {
  return page.$$eval('#board rect.square', (els) => els.map((e) => ({
    square: e.getAttribute('data-square'), sq: e.getAttribute('data-sq'),
    cls: e.getAttribute('class') || '',
  })));
}

export async function targets(page) {
  return (await page.$$eval('#board rect.square.target', (els) => els.map((e) => e.getAttribute('data-square')))).sort();
}

export async function clickSquare(page, square) {
  await page.click(`#board rect.square[data-square="${square}"]`, { timeout: 5000 });
}

// Polls `read` until `ok(value)` or the time is up; returns the last value read, for the
// caller's assertion (so a failure shows what the page had, and no fixed sleep is needed).
export async function poll(read, ok, timeout = 10000, every = 50) {
  const end = Date.now() + timeout;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, every));
    v = await read();
  }
  return v;
}

export async function waitPieces(page, ok, timeout = 10000) {
  return poll(() => pieces(page), ok, timeout);
}

export function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

export async function errorText(page) {
  return ((await page.textContent('#error')) || '').trim();
}

// Chooses the game and the players, presses New game, and waits for the board of that
// game at ply 0 (the board's pieces as the server's start position has them).
export async function newGame(page, variant, { white = 'human', black = 'human', depth } = {}) {
  await reveal(page, '#variant');
  await page.selectOption('#variant', variant);
  await page.selectOption('#white-player', white);
  await page.selectOption('#black-player', black);
  if (depth !== undefined) await fill(page, '#engine-depth', String(depth));
  await press(page, '#new-game');
  await page.waitForSelector(`#board[data-variant="${variant}"][data-ply="0"]`, { state: 'attached', timeout: 15000 });
  const st = await state(game(variant));
  const want = expectedPieces(st);
  const got = await waitPieces(page, (v) => same(v, want));
  assert.deepEqual(got, want, `${variant}: the pieces drawn after New game`);
  return st;
}

// Loads a FEN through #fen + #load-fen and waits until the board shows it.
export async function loadFen(page, variant, fen) {
  const st = await state(game(variant, { fen }));
  await fill(page, '#fen', fen);
  await press(page, '#load-fen');
  const want = expectedPieces(st);
  const got = await waitPieces(page, (v) => same(v, want));
  assert.deepEqual(got, want, `${variant}: the pieces drawn after loading ${fen}`);
  await waitPly(page, 0);
  assert.equal(await errorText(page), '', 'no error after loading a valid FEN');
  return st;
}

// The chooser's buttons when it is open (it is a <dialog id="chooser"> or a modal div).
export async function visibleChoices(page) {
  return page.$$eval('.choice', (els) => els.filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  }).map((e) => ({ text: e.getAttribute('data-text'), cont: e.getAttribute('data-continue') === 'true', label: e.textContent.trim() })));
}

export async function clickChoice(page, { text, cont }) {
  const sel = cont ? '.choice[data-continue="true"]' : `.choice[data-text="${text}"]`;
  await page.click(sel, { timeout: 5000 });
}

// Plays a move of one path by clicking its squares; returns once the page counts one
// more action (or throws).
export async function playPath(page, path) {
  const before = await ply(page);
  for (const sq of path) await clickSquare(page, sq);
  await page.waitForFunction((p) => Number(document.querySelector('#board').dataset.ply) > p, before, { timeout: 10000 });
  await settled(page);
}

// A control inside a closed <details> (a folded panel) is shown the way a person would:
// by a click on that panel's <summary>.
export async function reveal(page, sel) {
  if (await page.isVisible(sel)) return;
  const closed = await page.$$eval(`details:not([open]):has(${sel})`, (els) => els.length);
  for (let i = 0; i < closed; i++) {
    await page.click(`details:not([open]):has(${sel}) > summary`, { timeout: 5000 });
  }
}

export async function fill(page, sel, value) {
  await reveal(page, sel);
  await page.fill(sel, value);
}

export async function press(page, sel) {
  await reveal(page, sel);
  await page.click(sel, { timeout: 10000 });
}

export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

// A small seeded generator (mulberry32), so a failing game can be replayed.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
