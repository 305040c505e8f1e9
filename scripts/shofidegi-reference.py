#!/usr/bin/env python3
"""Independent reference move generator (perft) for ShoFIDEgi (Gilman's sFhIoDgEi).

An independent implementation written for the purpose of cross-checking kirin's perft;
shares no code with kirin.  It was written from the rules text alone (the brief
"ShoFIDEgi as kirin plays it"), uses the Python 3 standard library only, and is not used
by the engine.

Usage
-----
  shofidegi-reference.py perft --fen FEN --depth N [--divide]
        number of legal move sequences of length N; with --divide one line `MOVE COUNT`
        per legal move (sorted by move text) and then `total N`.
  shofidegi-reference.py moves --fen FEN
        the legal move texts, sorted, one a line.
  shofidegi-reference.py fen --fen FEN --moves m1 m2 ...
        plays the moves (given by their text) and prints the resulting FEN.
  `--fen startpos` stands for the start position.  `--slow` (any command) switches off
  the quick legality shortcut and tests every move by making it (used to self-check).

The game in brief
-----------------
17x17 board, files a..q, ranks 1..17, White moves up.  Point classes: odd-odd (odd file
number and odd rank), even-even, mixed.  Pieces (FEN letter, upper case White):
  a Alibaba (2,0)+(2,2) leaps     g Goldthief (2,0) leaps + forward (2,2) leaps
  s Silverthief (2,2) + fwd (0,2) f Calf (+-2,+4) leaps          l Dabchrider fwd (0,2)-rider
  d Dabbarider (2,0)-rider        e Elephrider (2,2)-rider        p Dabchick fwd (0,2) leap
  u Alibarider d+e                n Charolais (4,2) leaps         v Vanguard: move (0,2) fwd,
  t Tusk fwd (2,2) leaps            capture fwd (2,2)             k King  q Queen
  m Marshal R+N  h Chatelaine R+F  c Cardinal B+N  w Primate B+W  j Frog F + (3,0) leaps
  r Rose (up to 6 knight leaps turning the same way)  x Double Rhino (W/F zig-zag slider)
  +p +l +f +s move as Goldthief;  +d Saboteur = d + (2,2) leaps;  +e Howdah = e + (2,0).
Special rules implemented: Vanguard four-step from own rank 4 (halfway square and
destination empty) and its en-passant capture by an enemy Vanguard's capture leap onto the
halfway square; shogi promotion of p l f s (zone = own ranks 13..17 at start or end,
compulsory for p/l ending on own rank 17 and f ending on own rank 15..17) and of d e
(zone and destination odd-odd, never compulsory); Vanguard promotion on own rank 16 to
u d e n, compulsory (also on own rank 17, which only a Vanguard dropped on an odd-odd
point reaches: there too it can go no further, so it must promote, as kirin reads it); captures on odd-odd points go to the captor's reserve (demoted), elsewhere to
the neutral reserve; drops from the own reserve onto empty odd-odd points; the Tusk swap
on own rank 16 with any of a d e u n q m h c w x r j from any of the three reserves (the
piece just captured is already in the neutral reserve); freezing of oddbound/evenbound
pieces (and of drops of bound types) when the side has no Alibaba on an odd-odd/even-even
point; restoration (`=A`); King castling (with attack test) and Alibaba castling (no
attack test) and the Alibaba's en-passant capture (a) and (b); check (a move may not
leave the mover's King attacked; frozen pieces attack nothing, Tusks attack their own
rank 16 only when some reserve holds an eligible swap piece).

Move text: `e5e7`, `e11e13+`, `b14b16u`, `i2m2`, `j2n2`, `D@e5`, `a14c16=Qn`, `c15c17=A`.

Readings chosen where the brief leaves room
--------------------------------------------
* A promoted piece captured on a point that is not odd-odd (which cannot happen from the
  start position: promoted pieces always stand on odd-odd points) goes to the neutral
  reserve demoted, since reserves never hold promoted forms.
* Rights: K/Q (k/q) are lost by any King move of that side (wherever the King stands) and
  by any move from or to q2/a2 (q16/a16); Y Z by any move from or to j2, Y by p2, Z by
  b2 (Black: j16, p16, b16).  Castling needs the right AND the unpromoted King/Chatelaine
  or Alibaba/Dabbarider of the side on the squares named (not a Saboteur).
* King castling: the start, crossed and destination squares are tested for attack in the
  position before the move, and (like every move) the King must not be attacked after it.
* Alibaba en passant (the `:square` in the side field): available only if an enemy
  Alibaba actually stands on that square; (a) needs a capture on the castled
  Dabbarider's square, (b) a move onto the empty j-square; the mover must be evenbound
  (bound, not a Tusk, on an even-even point) and, like any piece, not frozen.  When the
  FEN gives an en-passant square for a Vanguard, the capture needs an enemy Vanguard on
  the square two ranks beyond the halfway square (the four-stepper's square).
* Four-step and both en-passant captures: the removed piece always goes to the neutral
  reserve (it never stands on an odd-odd point).
* FEN output: the en-passant square is written only when the side to move has a Vanguard,
  not frozen, whose capture leap lands on it (King safety not considered); `:square` is
  written after every Alibaba castling.  Halfmove clock (not used by the rules here):
  reset by captures (en passant included), drops and moves of Dabchicks and Vanguards,
  else +1.  Reserve letters are written White's then Black's then `|` and the neutral
  ones (only if any), each in the order a g s f l d e p u n v t q m h c w x r j.
* Drops: a bound type (a g s f l d e p u n v, not t; the Alibaba included) may not be
  dropped while the side has no Alibaba on an odd-odd point; a Dabchick or Dabchrider
  may not be dropped on own rank 17, a Calf not on own rank 15 or 17, a Tusk or Vanguard
  not on own rank 17 (no other piece is ever without a move on an empty 17x17 board).
* Freezing and restoration look at unpromoted Alibabas (there is no promoted Alibaba)
  standing on the board before the move; an Alibaba on a mixed point counts for neither.
  An Alibaba is never frozen (its own presence unfreezes it).
* Tusk swap: X may come from the opponent's reserve; the Tusk then goes into that
  reserve, i.e. becomes the opponent's to drop.  X stands unpromoted and never promotes.
  A Tusk capture on own rank 16 first puts the captured piece in the neutral reserve.
* Restoration is offered for captures too; the replaced piece goes to the opponent's
  reserve as the same type.  It is never offered to a Tusk swap or a castling.
* Moves are identified by their text: a Rose or Double Rhino reaching a square by
  several paths makes one move; an Alibaba en-passant move replaces the plain move.
"""

import argparse
import sys
import time

N = 17
NSQ = N * N
FILES = 'abcdefghijklmnopq'
START = ('lxfmscgqaqgcsmfxl/hdrnwejukajewnrdh/2d11e2/tv1vtv1vtv1vtv1vt/p1p1p1p1p1p1p1p1p/'
         '17/17/17/17/17/17/17/P1P1P1P1P1P1P1P1P/TV1VTV1VTV1VTV1VT/2E11D2/'
         'HDRNWEJUKAJEWNRDH/LXFMSCGQAQGCSMFXL[-] w KQkqYZyz - 0 1')

# ---------------------------------------------------------------- piece codes
# type ids 1..21 unpromoted, 22..27 promoted; code = tid (White) or tid + 32 (Black).
LETTERS = 'agsfldepunvtkqmhcwjrx'
(A, G, S, F, L, D, E, P, U, NN, V, T, K, Q, M, H, C, W, J, R, X) = range(1, 22)
PP, PL, PF, PS, PD, PE = range(22, 28)
BLACK = 32
LETTER = {i + 1: ch for i, ch in enumerate(LETTERS)}
LETTER.update({PP: '+p', PL: '+l', PF: '+f', PS: '+s', PD: '+d', PE: '+e'})
TID = {ch: i for i, ch in LETTER.items()}
PROMOTE = {P: PP, L: PL, F: PF, S: PS, D: PD, E: PE}
DEMOTE = list(range(28))
for _u, _p in PROMOTE.items():
    DEMOTE[_p] = _u
BOUND_T = {A, G, S, F, L, D, E, P, U, NN, V, T, PP, PL, PF, PS, PD, PE}
BOUND_NT_T = BOUND_T - {T}                       # bound types other than the Tusk
RESTORERS = {Q, M, H, C, W, X, R, J}              # unbound types other than the King
ELIG = (A, D, E, U, NN, Q, M, H, C, W, X, R, J)   # Tusk swap pieces
RES_ORDER = 'agsfldepunvtqmhcwxrj'                # FEN writing order of reserves
VPROMO = (U, D, E, NN)

ALL_CODES = [t for t in range(1, 28)] + [t + BLACK for t in range(1, 28)]
BOUND_NT = frozenset(c for c in ALL_CODES if (c & 31) in BOUND_NT_T)


def colour_of(code):
    return code >> 5


# ---------------------------------------------------------------- squares
def sq_of(f, r):          # f, r zero-based
    return r * N + f


def sqname(s):
    return FILES[s % N] + str(s // N + 1)


def parse_sq(t):
    f = FILES.index(t[0])
    r = int(t[1:]) - 1
    if not (0 <= r < N):
        raise ValueError('bad square ' + t)
    return r * N + f


def on(f, r):
    return 0 <= f < N and 0 <= r < N


# CLS: 1 odd-odd, 2 even-even, 0 mixed (file number = f+1, rank = r+1)
CLS = [0] * NSQ
for _s in range(NSQ):
    _f, _r = _s % N, _s // N
    if _f % 2 == 0 and _r % 2 == 0:
        CLS[_s] = 1
    elif _f % 2 == 1 and _r % 2 == 1:
        CLS[_s] = 2
ORANK = [[s // N + 1 for s in range(NSQ)], [N - s // N for s in range(NSQ)]]
ODDSQ = [s for s in range(NSQ) if CLS[s] == 1]

# ---------------------------------------------------------------- patterns
O1 = [(1, 0), (-1, 0), (0, 1), (0, -1)]
D1 = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
O2 = [(2 * x, 2 * y) for x, y in O1]
D2 = [(2 * x, 2 * y) for x, y in D1]
O3 = [(3 * x, 3 * y) for x, y in O1]
KN = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
CH = [(4, 2), (2, 4), (-4, 2), (-2, 4), (4, -2), (2, -4), (-4, -2), (-2, -4)]
GOLD = O2 + [(2, 2), (-2, 2)]
# White orientation (dy > 0 = forward).  leap: move-or-capture leaps; ride: rider steps;
# mo: move-only leaps; co: capture-only leaps; path: 'rose' / 'rhino'.
PAT = {
    A: dict(leap=O2 + D2), G: dict(leap=GOLD), S: dict(leap=D2 + [(0, 2)]),
    F: dict(leap=[(2, 4), (-2, 4)]), L: dict(ride=[(0, 2)]), D: dict(ride=O2),
    E: dict(ride=D2), P: dict(leap=[(0, 2)]), U: dict(ride=O2 + D2), NN: dict(leap=CH),
    V: dict(mo=[(0, 2)], co=[(2, 2), (-2, 2)]), T: dict(leap=[(2, 2), (-2, 2)]),
    K: dict(leap=O1 + D1), Q: dict(ride=O1 + D1), M: dict(ride=O1, leap=KN),
    H: dict(ride=O1, leap=D1), C: dict(ride=D1, leap=KN), W: dict(ride=D1, leap=O1),
    J: dict(leap=D1 + O3), R: dict(path='rose'), X: dict(path='rhino'),
    PP: dict(leap=GOLD), PL: dict(leap=GOLD), PF: dict(leap=GOLD), PS: dict(leap=GOLD),
    PD: dict(ride=O2, leap=D2), PE: dict(ride=D2, leap=O2),
}
ROSE_DIRS = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]  # ccw
COMPASS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]  # clockwise


def rose_paths(s):
    f0, r0 = s % N, s // N
    out = []
    for i in range(8):
        for t in (1, -1):
            f, r = f0, r0
            path = []
            for k in range(6):
                dx, dy = ROSE_DIRS[(i + k * t) % 8]
                f += dx
                r += dy
                if not on(f, r):
                    break
                path.append(sq_of(f, r))
            if path:
                out.append(tuple(path))
    return out


def rhino_paths(s):
    f0, r0 = s % N, s // N
    out = []
    for i in range(8):
        for t in (1, -1):
            f, r = f0, r0
            path = []
            k = 0
            while True:
                dx, dy = COMPASS[i if k % 2 == 0 else (i + t) % 8]
                f += dx
                r += dy
                if not on(f, r):
                    break
                path.append(sq_of(f, r))
                k += 1
            if path:
                out.append(tuple(path))
    return out


def orient(vecs, col):
    return [(x, -y) for x, y in vecs] if col else list(vecs)


def leap_targets(s, vecs):
    f0, r0 = s % N, s // N
    return tuple(sq_of(f0 + x, r0 + y) for x, y in vecs if on(f0 + x, r0 + y))


def ray(s, step):
    f, r = s % N, s // N
    out = []
    while True:
        f += step[0]
        r += step[1]
        if not on(f, r):
            return tuple(out)
        out.append(sq_of(f, r))


# GEN[code][sq] = (leaps, rays, moveonly, captonly, paths)
GEN = [None] * 64
ROSE_P = [rose_paths(s) for s in range(NSQ)]
RHINO_P = [rhino_paths(s) for s in range(NSQ)]
for _code in ALL_CODES:
    _col = _code >> 5
    _pat = PAT[_code & 31]
    _tab = []
    for _s in range(NSQ):
        lp = leap_targets(_s, orient(_pat.get('leap', []), _col))
        rs = tuple(x for x in (ray(_s, st) for st in orient(_pat.get('ride', []), _col)) if x)
        mo = leap_targets(_s, orient(_pat.get('mo', []), _col))
        co = leap_targets(_s, orient(_pat.get('co', []), _col))
        pth = _pat.get('path')
        ps = tuple(ROSE_P[_s]) if pth == 'rose' else tuple(RHINO_P[_s]) if pth == 'rhino' else ()
        _tab.append((lp, rs, mo, co, ps))
    GEN[_code] = _tab


def build_attack_tables():
    """ATT[c][S]: list of (squares, first, rest): walking squares from S, the first
    occupied square attacks S if its piece is in `first` (when it is the first square of
    the list) or in `rest` (further away)."""
    att = [[None] * NSQ for _ in range(2)]
    for col in (0, 1):
        codes = [t + BLACK * col for t in range(1, 28) if t != 0]
        for s in range(NSQ):
            ents = {}
            for code in codes:
                pat = PAT[code & 31]
                for v in orient(pat.get('leap', []) + pat.get('co', []), col):
                    key = (-v[0], -v[1])
                    ents.setdefault(key, [set(), set()])[0].add(code)
                for v in orient(pat.get('ride', []), col):
                    key = (-v[0], -v[1])
                    e = ents.setdefault(key, [set(), set()])
                    e[0].add(code)
                    e[1].add(code)
            out = []
            for key, (fs, rs) in ents.items():
                sqs = ray(s, key)
                if not rs:
                    sqs = sqs[:1]
                if sqs:
                    out.append((sqs, frozenset(fs), frozenset(rs)))
            out.sort(key=lambda e: len(e[0]))
            rose = R + BLACK * col
            rhino = X + BLACK * col
            for pth in ROSE_P[s]:
                out.append((pth, frozenset([rose]), frozenset([rose])))
            for pth in RHINO_P[s]:
                out.append((pth, frozenset([rhino]), frozenset([rhino])))
            att[col][s] = out
    return att


ATT = build_attack_tables()
TUSK_CODES = (T, T + BLACK)

# rights
RK, RQ, RBK, RBQ, RY, RZ, RBY, RBZ = (1, 2, 4, 8, 16, 32, 64, 128)
RIGHT_LETTERS = 'KQkqYZyz'
RMASK = [0] * NSQ
for _name, _bits in (('q2', RK), ('a2', RQ), ('q16', RBK), ('a16', RBQ),
                     ('j2', RY | RZ), ('p2', RY), ('b2', RZ),
                     ('j16', RBY | RBZ), ('p16', RBY), ('b16', RBZ)):
    RMASK[parse_sq(_name)] = _bits
KING_RIGHTS = (RK | RQ, RBK | RBQ)

# drop squares per colour and type
DROPSQ = [[None] * 28 for _ in range(2)]
for _col in (0, 1):
    for _t in range(1, 22):
        if _t == K:
            continue
        bad = ()
        if _t in (P, L, T, V):
            bad = (17,)
        elif _t == F:
            bad = (15, 17)
        DROPSQ[_col][_t] = tuple(s for s in ODDSQ if ORANK[_col][s] not in bad)

# move kinds
NORMAL, DROP, SWAP, RESTORE, KCASTLE, ACASTLE, VEP, AEP = range(8)


# ---------------------------------------------------------------- position
class Pos:
    __slots__ = ('b', 'res', 'side', 'rights', 'ep', 'aep', 'half', 'full', 'alib',
                 'kings')

    def recount(self):
        self.alib = [0, 0, 0, 0]
        self.kings = [-1, -1]
        for s, p in enumerate(self.b):
            if not p:
                continue
            t = p & 31
            if t == A and CLS[s]:
                self.alib[(p >> 5) * 2 + CLS[s] - 1] += 1
            elif t == K:
                self.kings[p >> 5] = s


def parse_fen(fen):
    if fen.strip() == 'startpos':
        fen = START
    fields = fen.split()
    placement = fields[0]
    reserve = ''
    if '[' in placement:
        placement, reserve = placement.split('[', 1)
        reserve = reserve.rstrip(']')
    ranks = placement.split('/')
    if len(ranks) != N:
        raise ValueError('need 17 ranks')
    b = [0] * NSQ
    for i, row in enumerate(ranks):
        r = N - 1 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            prom = False
            if ch == '+':
                prom = True
                j += 1
                ch = row[j]
            t = TID[ch.lower()]
            if prom:
                t = PROMOTE[t]
            if f >= N:
                raise ValueError('rank too long: ' + row)
            b[sq_of(f, r)] = t + (BLACK if ch.islower() else 0)
            f += 1
            j += 1
        if f != N:
            raise ValueError('rank of wrong length: ' + row)
    res = [[0] * 28 for _ in range(3)]
    if reserve not in ('', '-'):
        own, _, neu = reserve.partition('|')
        for ch in own:
            if ch == '-':
                continue
            res[1 if ch.islower() else 0][TID[ch.lower()]] += 1
        for ch in neu:
            if ch == '-':
                continue
            res[2][TID[ch.lower()]] += 1
    pos = Pos()
    pos.b = b
    pos.res = res
    sidef = fields[1] if len(fields) > 1 else 'w'
    sd, _, asq = sidef.partition(':')
    pos.side = 0 if sd == 'w' else 1
    pos.aep = parse_sq(asq) if asq else -1
    rts = fields[2] if len(fields) > 2 else '-'
    pos.rights = 0
    for ch in rts:
        if ch in RIGHT_LETTERS:
            pos.rights |= 1 << RIGHT_LETTERS.index(ch)
    epf = fields[3] if len(fields) > 3 else '-'
    pos.ep = parse_sq(epf) if epf != '-' else -1
    pos.half = int(fields[4]) if len(fields) > 4 else 0
    pos.full = int(fields[5]) if len(fields) > 5 else 1
    pos.recount()
    return pos


def eligible(res):
    for r in res:
        for x in ELIG:
            if r[x]:
                return True
    return False


def vep_victim(pos):
    """Square of the four-stepper that the side to move may take en passant, or -1."""
    if pos.ep < 0:
        return -1
    v = pos.ep - 2 * N if pos.side == 0 else pos.ep + 2 * N
    if 0 <= v < NSQ and pos.b[v] == V + BLACK * (1 - pos.side):
        return v
    return -1


def to_fen(pos):
    rows = []
    for r in range(N - 1, -1, -1):
        row = ''
        empty = 0
        for f in range(N):
            p = pos.b[sq_of(f, r)]
            if not p:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            let = LETTER[p & 31]
            row += let.upper() if p < BLACK else let
        if empty:
            row += str(empty)
        rows.append(row)
    own = ''.join(ch.upper() * pos.res[0][TID[ch]] for ch in RES_ORDER)
    own += ''.join(ch * pos.res[1][TID[ch]] for ch in RES_ORDER)
    neu = ''.join(ch.upper() * pos.res[2][TID[ch]] for ch in RES_ORDER)
    if not own and not neu:
        resv = '[-]'
    else:
        resv = '[' + own + ('|' + neu if neu else '') + ']'
    side = 'wb'[pos.side]
    if pos.aep >= 0:
        side += ':' + sqname(pos.aep)
    rts = ''.join(ch for i, ch in enumerate(RIGHT_LETTERS) if pos.rights >> i & 1) or '-'
    ep = '-'
    if vep_victim(pos) >= 0:
        sd = pos.side
        odd_ok = pos.alib[sd * 2] > 0
        even_ok = pos.alib[sd * 2 + 1] > 0
        mine = V + BLACK * sd
        for s in range(NSQ):
            if pos.b[s] == mine and pos.ep in GEN[mine][s][3]:
                if (CLS[s] == 1 and not odd_ok) or (CLS[s] == 2 and not even_ok):
                    continue
                ep = sqname(pos.ep)
                break
    return '%s%s %s %s %s %d %d' % ('/'.join(rows), resv, side, rts, ep, pos.half, pos.full)


# ---------------------------------------------------------------- attacks
def attacked(pos, s, col):
    """Is square s attacked by side col?"""
    b = pos.b
    for sqs, fs, rs in ATT[col][s]:
        cur = fs
        for q in sqs:
            p = b[q]
            if p:
                if p in cur:
                    if p in BOUND_NT:
                        c = CLS[q]
                        if c and not pos.alib[col * 2 + c - 1]:
                            break               # frozen: attacks nothing
                    elif p in TUSK_CODES and ORANK[col][s] == 16 and not eligible(pos.res):
                        break
                    return True
                break
            cur = rs
    return False


def king_info(pos, side):
    """(in_check, blockers): blockers are the first occupied squares on every line along
    which something could attack the King."""
    ks = pos.kings[side]
    col = 1 - side
    b = pos.b
    chk = False
    blk = set()
    for sqs, fs, rs in ATT[col][ks]:
        cur = fs
        for q in sqs:
            p = b[q]
            if p:
                blk.add(q)
                if not chk and p in cur:
                    ok = True
                    if p in BOUND_NT:
                        c = CLS[q]
                        if c and not pos.alib[col * 2 + c - 1]:
                            ok = False
                    elif p in TUSK_CODES and ORANK[col][ks] == 16 and not eligible(pos.res):
                        ok = False
                    chk = ok
                break
            cur = rs
    return chk, blk


# ---------------------------------------------------------------- move generation
def gen_moves(pos):
    """Pseudo-legal moves (everything but the King-safety test)."""
    b = pos.b
    side = pos.side
    enemy = 1 - side
    base = BLACK * side
    orank = ORANK[side]
    odd_ok = pos.alib[side * 2] > 0
    even_ok = pos.alib[side * 2 + 1] > 0
    res = pos.res
    moves = []
    ap = moves.append
    # Alibaba en passant
    aep_on = pos.aep >= 0 and b[pos.aep] == A + BLACK * enemy
    if aep_on:
        jsq = (pos.aep // N) * N + 9
        dab = (pos.aep + jsq) // 2
    else:
        jsq = dab = -1
    vvict = vep_victim(pos)
    for frm in range(NSQ):
        p = b[frm]
        if not p or (p >> 5) != side:
            continue
        t = p & 31
        cls = CLS[frm]
        if p in BOUND_NT:
            if cls == 1 and not odd_ok:
                continue
            if cls == 2 and not even_ok:
                continue
            evenbound = cls == 2
        else:
            evenbound = False
        lp, rs, mo, co, ps = GEN[p][frm]
        aep_piece = aep_on and evenbound
        if t == V:
            for to in mo:
                if not b[to]:
                    if orank[to] >= 16:
                        for x in VPROMO:
                            ap((NORMAL, frm, to, x + base, 0))
                    else:
                        ap((NORMAL, frm, to, 0, 0))
                    if orank[frm] == 4:
                        far = to + (2 * N if side == 0 else -2 * N)
                        if not b[far]:
                            ap((NORMAL, frm, far, 0, 0))
            for to in co:
                q = b[to]
                kind = NORMAL
                if q:
                    if (q >> 5) == side:
                        continue
                    if aep_piece and to == dab:
                        kind = AEP
                elif to == pos.ep and vvict >= 0:
                    kind = VEP
                elif aep_piece and to == jsq:
                    kind = AEP
                else:
                    continue
                extra = pos.aep if kind == AEP else (vvict if kind == VEP else 0)
                if orank[to] >= 16:
                    for x in VPROMO:
                        ap((kind, frm, to, x + base, extra))
                else:
                    ap((kind, frm, to, 0, extra))
            continue
        dests = []
        da = dests.append
        for to in lp:
            q = b[to]
            if not q or (q >> 5) != side:
                da(to)
        for r in rs:
            for to in r:
                q = b[to]
                if not q:
                    da(to)
                    continue
                if (q >> 5) != side:
                    da(to)
                break
        if ps:
            seen = set()
            for r in ps:
                for to in r:
                    q = b[to]
                    if not q:
                        seen.add(to)
                        continue
                    if (q >> 5) != side:
                        seen.add(to)
                    break
            dests.extend(seen)
        if t in RESTORERS:
            for to in dests:
                ap((NORMAL, frm, to, 0, 0))
                ro = orank[to]
                if ro == 16:
                    if (to % N) % 2 == 1 and not even_ok:
                        ap((RESTORE, frm, to, 0, 0))
                elif ro == 17:
                    if (to % N) % 2 == 0 and not odd_ok:
                        ap((RESTORE, frm, to, 0, 0))
            continue
        if t == T:
            for to in dests:
                if orank[to] == 16:
                    q = b[to]
                    capt = DEMOTE[q & 31] if q else 0
                    for R in (0, 1, 2):
                        rr = res[R]
                        for x in ELIG:
                            if rr[x] or (R == 2 and x == capt):
                                ap((SWAP, frm, to, x, R))
                else:
                    ap((NORMAL, frm, to, 0, 0))
            continue
        if t in PROMOTE:          # p l f s d e (unpromoted)
            for to in dests:
                kind = NORMAL
                extra = 0
                if aep_piece and ((to == dab and b[to]) or (to == jsq and not b[to])):
                    kind = AEP
                    extra = pos.aep
                zone = orank[to] >= 13 or orank[frm] >= 13
                if zone and (t in (P, L, F, S) or CLS[to] == 1):
                    ap((kind, frm, to, PROMOTE[t] + base, extra))
                    ro = orank[to]
                    if (t in (P, L) and ro == 17) or (t == F and ro >= 15):
                        continue
                ap((kind, frm, to, 0, extra))
            continue
        if aep_piece:
            for to in dests:
                if (to == dab and b[to]) or (to == jsq and not b[to]):
                    ap((AEP, frm, to, 0, pos.aep))
                else:
                    ap((NORMAL, frm, to, 0, 0))
        else:
            for to in dests:
                ap((NORMAL, frm, to, 0, 0))
    # castlings
    rights = pos.rights
    if rights:
        rk = 1 if side == 0 else 15          # zero-based rank of own rank 2
        row = rk * N
        if side == 0:
            bk, bq, by, bz = RK, RQ, RY, RZ
        else:
            bk, bq, by, bz = RBK, RBQ, RBY, RBZ
        ksq = row + 8
        king = K + base
        chat = H + base
        if rights & bk and b[ksq] == king and b[row + 16] == chat and \
                all(not b[row + f] for f in range(9, 16)) and \
                not any(attacked(pos, row + f, enemy) for f in range(8, 13)):
            ap((KCASTLE, ksq, row + 12, row + 16, row + 11))
        if rights & bq and b[ksq] == king and b[row] == chat and \
                all(not b[row + f] for f in range(1, 8)) and \
                not any(attacked(pos, row + f, enemy) for f in range(4, 9)):
            ap((KCASTLE, ksq, row + 4, row, row + 5))
        asq = row + 9
        ali = A + base
        dabr = D + base
        if rights & by and b[asq] == ali and b[row + 15] == dabr and \
                not b[row + 11] and not b[row + 13]:
            ap((ACASTLE, asq, row + 13, row + 15, row + 11))
        if rights & bz and b[asq] == ali and b[row + 1] == dabr and \
                not b[row + 3] and not b[row + 5] and not b[row + 7]:
            ap((ACASTLE, asq, row + 5, row + 1, row + 7))
    # drops
    own = res[side]
    for tt in range(1, 22):
        if not own[tt] or tt == K:
            continue
        if tt in BOUND_NT_T and not odd_ok:
            continue
        code = tt + base
        for s in DROPSQ[side][tt]:
            if not b[s]:
                ap((DROP, code, s, 0, 0))
    return moves


def move_text(m):
    kind, frm, to, arg, arg2 = m
    if kind == DROP:
        return LETTER[frm & 31].upper() + '@' + sqname(to)
    txt = sqname(frm) + sqname(to)
    if kind == SWAP:
        return txt + '=' + LETTER[arg].upper() + 'wbn'[arg2]
    if kind == RESTORE:
        return txt + '=A'
    if kind in (NORMAL, VEP, AEP) and arg:
        pt = arg & 31
        return txt + ('+' if pt >= PP else LETTER[pt])
    return txt


# ---------------------------------------------------------------- make
def _capture(res, alib, side, q, s):
    """Piece q captured by `side` on square s: into the proper reserve."""
    if CLS[s] == 1:
        res[side][DEMOTE[q & 31]] += 1
    else:
        res[2][DEMOTE[q & 31]] += 1
    if (q & 31) == A and CLS[s]:
        alib[(q >> 5) * 2 + CLS[s] - 1] -= 1


def make(pos, m):
    kind, frm, to, arg, arg2 = m
    b = pos.b[:]
    side = pos.side
    base = BLACK * side
    np = Pos()
    alib = pos.alib[:]
    kings = pos.kings[:]
    res = pos.res
    rights = pos.rights
    half = pos.half + 1
    ep = -1
    aep = -1
    if kind == DROP:
        res = [r[:] for r in res]
        tt = frm & 31
        res[side][tt] -= 1
        b[to] = frm
        if tt == A:
            alib[side * 2] += 1
        half = 0
    elif kind == KCASTLE or kind == ACASTLE:
        p = b[frm]
        rp = b[arg]
        b[frm] = 0
        b[arg] = 0
        b[to] = p
        b[arg2] = rp
        rights &= ~(RMASK[frm] | RMASK[to] | RMASK[arg] | RMASK[arg2])
        if kind == KCASTLE:
            kings[side] = to
            rights &= ~KING_RIGHTS[side]
        else:
            aep = to
            rights &= ~((RY | RZ) if side == 0 else (RBY | RBZ))
    else:
        p = b[frm]
        q = b[to]
        if q or kind != NORMAL:
            res = [r[:] for r in res]
        if q:
            _capture(res, alib, side, q, to)
            half = 0
        b[frm] = 0
        tt = p & 31
        if tt == P or tt == V:
            half = 0
        if kind == NORMAL:
            b[to] = arg if arg else p
            if tt == K:
                kings[side] = to
                rights &= ~KING_RIGHTS[side]
            elif tt == V and (to - frm == 4 * N or frm - to == 4 * N):
                ep = (frm + to) // 2
        elif kind == SWAP:
            res[arg2][arg] -= 1
            res[arg2][T] += 1
            b[to] = arg + base
            if arg == A and CLS[to]:
                alib[side * 2 + CLS[to] - 1] += 1
        elif kind == RESTORE:
            res[1 - side][tt] += 1
            b[to] = A + base
            if CLS[to]:
                alib[side * 2 + CLS[to] - 1] += 1
        elif kind == VEP:
            b[to] = arg if arg else p
            vq = b[arg2]
            b[arg2] = 0
            res[2][DEMOTE[vq & 31]] += 1
            half = 0
        elif kind == AEP:
            b[to] = arg if arg else p
            vq = b[arg2]
            b[arg2] = 0
            res[2][DEMOTE[vq & 31]] += 1
            if CLS[arg2]:
                alib[(vq >> 5) * 2 + CLS[arg2] - 1] -= 1
            half = 0
        rights &= ~(RMASK[frm] | RMASK[to])
    np.b = b
    np.res = res
    np.side = 1 - side
    np.rights = rights
    np.ep = ep
    np.aep = aep
    np.half = half
    np.full = pos.full + (1 if side == 1 else 0)
    np.alib = alib
    np.kings = kings
    return np


SLOW = False


def legal_filter(pos, moves):
    """Yield (move, new position or None) for the legal moves; the position is None when
    the quick test proved legality without making the move."""
    side = pos.side
    ks = pos.kings[side]
    if ks < 0:
        for m in moves:
            yield m, None
        return
    enemy = 1 - side
    if SLOW:
        chk, blk = True, ()
    else:
        chk, blk = king_info(pos, side)
    risky = ORANK[side][ks] == 2 and not eligible(pos.res)
    b = pos.b
    for m in moves:
        kind = m[0]
        if not chk:
            if kind == DROP:
                yield m, None
                continue
            if kind <= RESTORE and m[1] != ks and m[1] not in blk and \
                    not (risky and (b[m[2]] or kind == RESTORE)):
                yield m, None
                continue
        np = make(pos, m)
        if not attacked(np, np.kings[side], enemy):
            yield m, np


def legal_moves(pos):
    return [m for m, _ in legal_filter(pos, gen_moves(pos))]


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = gen_moves(pos)
    if depth == 1:
        n = 0
        for _ in legal_filter(pos, moves):
            n += 1
        return n
    total = 0
    for m, np in legal_filter(pos, moves):
        if np is None:
            np = make(pos, m)
        total += perft(np, depth - 1)
    return total


# ---------------------------------------------------------------- CLI
def main(argv):
    global SLOW
    ap = argparse.ArgumentParser(description='ShoFIDEgi reference perft (see module doc)')
    ap.add_argument('command', choices=['perft', 'moves', 'fen'])
    ap.add_argument('--fen', default='startpos')
    ap.add_argument('--depth', type=int, default=1)
    ap.add_argument('--divide', action='store_true')
    ap.add_argument('--moves', nargs='*', default=[])
    ap.add_argument('--slow', action='store_true')
    ap.add_argument('--time', action='store_true', help='print elapsed seconds to stderr')
    a = ap.parse_args(argv)
    SLOW = a.slow
    t0 = time.time()
    pos = parse_fen(a.fen)
    if a.command == 'perft':
        if a.divide:
            rows = []
            for m, np in legal_filter(pos, gen_moves(pos)):
                if np is None:
                    np = make(pos, m)
                rows.append((move_text(m), perft(np, a.depth - 1)))
            rows.sort()
            for txt, n in rows:
                print(txt, n)
            print('total', sum(n for _, n in rows))
        else:
            print(perft(pos, a.depth))
    elif a.command == 'moves':
        for txt in sorted(move_text(m) for m in legal_moves(pos)):
            print(txt)
    else:
        for word in a.moves:
            found = {move_text(m): m for m in legal_moves(pos)}
            if word not in found:
                sys.exit('illegal move %s in %s' % (word, to_fen(pos)))
            pos = make(pos, found[word])
        print(to_fen(pos))
    if a.time:
        print('time %.2fs' % (time.time() - t0), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
