#!/usr/bin/env python3
"""Independent reference move generator for Little Great Chess (`littlegreat`).

An independent implementation of docs/rules/littlegreat.md, written from that page
alone (standard library only, no code shared with kirin), only to cross-check kirin's
perft counts.  It is not used by the engine.  Clarity is preferred over speed.

Usage
-----
  littlegreat-reference.py perft  "<FEN>" <depth>     number of complete-turn sequences
  littlegreat-reference.py divide "<FEN>" <depth>     per first turn, sorted, then the total
  littlegreat-reference.py moves  "<FEN>"             every complete turn, one a line, sorted
  littlegreat-reference.py play   "<FEN>" turn ...    the FEN after the given turns
(`startpos` may stand for the FEN of the start position.)
Options (anywhere): --king-acts  after an ascension only the new King may make the action
  (the other reading of "The new King then makes the turn's action as a King").
  --exchange  prisoner exchange is on (kirin's `--rule exchange=on`): a turn may open,
  after any ascension, with an offer `&R/P` (R: own pieces the opponent holds, asked back;
  P: opponent's pieces held, given; equal value, 1 to 6, S=1 N=B=M=3).  The offer is a
  ply of its own; the opponent's next ply is `accept` or `decline`; then the offering side
  plays the rest of its turn (no second offer; a field promotion owed by the ascension is
  still owed).  FEN side field: `b:&R/P` (offer pending), `w:x` (offer answered), `f`
  before either when a field promotion is owed.

Perft counts WHOLE TURNS: a turn is [ascension] action [field promotion] [honour
promotion] [ransom], written as on the rules page, e.g. `e2e3`, `d4e5+N`, `S@d1+G`,
`e5d6$S/n`, `d8d8;e7e6=c6E`, `c3^d5`, `a3~a5`.  Every choice (including declining an
optional promotion or ransom) gives its own turn; the side to move changes once per turn.

Readings of the rules page taken here (see the report that came with this file):
* no check rule; Kings are captured.  A side with no King on the board (or riding) must
  ascend a Regent (Sheriff D / Cardinal C, on the board or riding); with none it has lost
  and has no turns.  The King leaves the opponent's prisoners, the demoted Regent
  (D->N, C->B) joins them (and may be ransomed back in the same turn).
* after an ascension any action may be made (the King, if it moves, moves as a King);
  --king-acts restricts it to the new King.
* boarding is a non-capturing move onto an empty-handed friendly Cannon; a passenger may
  leave onto the other, empty-handed, friendly Cannon (`^`, a boarding).  A loaded Cannon
  (carrying or leaving behind) may not pick up a piece.  An entry needs an empty square.
* a piece that boards earns nothing, even a Spear boarding on its last rank.
* the turn that captures a King still has its honour and ransom choices.
* entry letters are upper case for both sides (`S@d1`, `S@d8`), like promotion letters.
* FEN reserves are written `[reclaimed:prisoners]` (or `[]`), reclaimed White's then
  Black's, prisoners held by White (lower case) then held by Black (upper case), each in
  the order S N B M (K last); a bracket without `:` is read as reclaimed pieces only.
"""

import itertools
import sys
from collections import Counter

FILES = 'abcdefgh'
START = 'mnbkgbnm/ssssssss/8/8/8/8/SSSSSSSS/MNBGKBNM[] w - - 0 1'

DEMOTE = {'S': 'S', 'G': 'S', 'N': 'N', 'E': 'N', 'D': 'N',
          'B': 'B', 'A': 'B', 'C': 'B', 'M': 'M', 'K': 'K'}
CLASS = {'S': 'common', 'G': 'common', 'M': 'common',
         'N': 'knightly', 'E': 'knightly', 'D': 'knightly',
         'B': 'clerical', 'A': 'clerical', 'C': 'clerical', 'K': 'royal'}
NEXT = {'S': 'G', 'G': 'NB', 'N': 'E', 'E': 'D', 'B': 'A', 'A': 'C'}  # one promotion step
VALUE = {'S': 1, 'N': 3, 'B': 3, 'M': 3}     # ransom values
ORDER = 'SNBMK'                              # order of letters in ransoms and reserves

KING_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTH = KING_STEPS[:4]
DIAG = KING_STEPS[4:]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def sqname(sq):
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_sq(s):
    return FILES.index(s[0]) + 8 * (int(s[1:]) - 1)


def colour(letter):
    return 'w' if letter.isupper() else 'b'


def other(c):
    return 'b' if c == 'w' else 'w'


def in_case(t, c):
    return t.upper() if c == 'w' else t.lower()


# ----------------------------------------------------------------------------------
# Position: board maps square -> (piece letter, passenger letter or None); letters carry
# the colour in their case.  reclaimed[c]: Counter of upper-case types side c may enter.
# prisoners[c]: Counter of upper-case types of the OTHER side's pieces that c holds.
# ----------------------------------------------------------------------------------
class Pos:
    def __init__(self, board, reclaimed, prisoners, side, half, full):
        self.board = board
        self.reclaimed = reclaimed
        self.prisoners = prisoners
        self.side = side
        self.half = half
        self.full = full
        self.offer = None          # (R, P) count tuples S N B M, offered by other(side)
        self.exchanged = False     # the side to move has had its offer answered
        self.field_owed = False    # the side to move ascended earlier in this turn

    def copy(self):
        q = Pos(dict(self.board),
                {c: Counter(v) for c, v in self.reclaimed.items()},
                {c: Counter(v) for c, v in self.prisoners.items()},
                self.side, self.half, self.full)
        q.offer, q.exchanged, q.field_owed = self.offer, self.exchanged, self.field_owed
        return q


def parse_fen(fen):
    fields = fen.split()
    placement = fields[0]
    reserve = ''
    if '[' in placement:
        placement, reserve = placement.split('[', 1)
        reserve = reserve.rstrip(']')
    board = {}
    ranks = placement.split('/')
    assert len(ranks) == 8, 'need 8 ranks'
    for i, row in enumerate(ranks):
        r = 7 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                f += int(ch)
                j += 1
                continue
            pas = None
            if j + 1 < len(row) and row[j + 1] == '(':
                pas = row[j + 2]
                assert row[j + 3] == ')', 'bad passenger in ' + row
                assert ch.upper() == 'M' and colour(pas) == colour(ch) and pas.upper() != 'M'
                j += 4
            else:
                j += 1
            board[f + 8 * r] = (ch, pas)
            f += 1
        assert f == 8, 'rank %s does not have 8 files' % row
    rec_text, _, pri_text = reserve.partition(':')   # no ':' means reclaimed pieces only
    reclaimed = {'w': Counter(), 'b': Counter()}
    prisoners = {'w': Counter(), 'b': Counter()}
    for ch in rec_text:
        reclaimed[colour(ch)][ch.upper()] += 1
    for ch in pri_text:
        prisoners[other(colour(ch))][ch.upper()] += 1   # a black piece is held by White
    side_field = fields[1] if len(fields) > 1 else 'w'
    side, _, state = side_field.partition(':')
    assert side in ('w', 'b'), 'only FENs at the start of a ply are supported'
    half = int(fields[4]) if len(fields) > 4 else 0
    full = int(fields[5]) if len(fields) > 5 else 1
    pos = Pos(board, reclaimed, prisoners, side, half, full)
    if state.startswith('f'):
        pos.field_owed, state = True, state[1:]
    if state == 'x':
        pos.exchanged = True
    elif state.startswith('&'):
        asked, given = state[1:].split('/')
        count = lambda text: tuple(text.upper().count(t) for t in 'SNBM')
        assert all(colour(ch) == other(side) for ch in asked)
        assert all(colour(ch) == side for ch in given)
        pos.offer = (count(asked), count(given))
    else:
        assert state == '', 'unknown turn state ' + state
    return pos


def counter_text(counter, c):
    return ''.join(in_case(t, c) * counter[t] for t in ORDER if counter[t] > 0)


def fen(pos):
    rows = []
    for r in range(7, -1, -1):
        row, empty = '', 0
        for f in range(8):
            occ = pos.board.get(f + 8 * r)
            if occ is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += occ[0] + ('(%s)' % occ[1] if occ[1] else '')
        if empty:
            row += str(empty)
        rows.append(row)
    rec = counter_text(pos.reclaimed['w'], 'w') + counter_text(pos.reclaimed['b'], 'b')
    pri = counter_text(pos.prisoners['w'], 'b') + counter_text(pos.prisoners['b'], 'w')
    reserve = '[%s:%s]' % (rec, pri) if rec or pri else '[]'
    return '%s%s %s - - %d %d' % ('/'.join(rows), reserve, pos.side, pos.half, pos.full)


# ----------------------------------------------------------------------------------
# Piece geometry
# ----------------------------------------------------------------------------------
def targets(ptype, c, sq, board):
    """Squares a piece of type ptype and colour c standing on sq reaches, as a dict
    to -> (may move there, may capture there).  A slider's ray stops at the first
    occupied square, which is included.  Whatever stands on the target is not looked
    at here."""
    f0, r0 = sq % 8, sq // 8
    out = {}

    def add(df, dr, move=True, cap=True):
        f, r = f0 + df, r0 + dr
        if 0 <= f < 8 and 0 <= r < 8:
            m, k = out.get(f + 8 * r, (False, False))
            out[f + 8 * r] = (m or move, k or cap)

    def slide(dirs):
        for df, dr in dirs:
            f, r = f0 + df, r0 + dr
            while 0 <= f < 8 and 0 <= r < 8:
                add(f - f0, r - r0)
                if f + 8 * r in board:
                    break
                f, r = f + df, r + dr

    fwd = 1 if c == 'w' else -1
    if ptype == 'S':                       # fWmfF
        add(0, fwd)
        add(-1, fwd, cap=False)
        add(1, fwd, cap=False)
    elif ptype in 'GK':                    # K
        for d in KING_STEPS:
            add(*d)
    elif ptype == 'M':                     # WD (the D leaps)
        for df, dr in ORTH:
            add(df, dr)
            add(2 * df, 2 * dr)
    elif ptype == 'N':
        for d in KNIGHT:
            add(*d)
    elif ptype == 'E':                     # NK
        for d in KNIGHT + KING_STEPS:
            add(*d)
    elif ptype == 'D':                     # RNK
        slide(ORTH)
        for d in KNIGHT + KING_STEPS:
            add(*d)
    elif ptype == 'B':
        slide(DIAG)
    elif ptype == 'A':                     # BW
        slide(DIAG)
        for d in ORTH:
            add(*d)
    elif ptype == 'C':                     # Q
        slide(ORTH + DIAG)
    else:
        raise ValueError(ptype)
    return out


def king_square(board, c):
    """Square of side c's King, standing or riding in a Cannon; None if it has none."""
    for sq, (L, pas) in board.items():
        if colour(L) == c and (L.upper() == 'K' or (pas is not None and pas.upper() == 'K')):
            return sq
    return None


def gives_check(ptype, c, sq, board):
    ksq = king_square(board, other(c))
    if ksq is None:
        return False
    t = targets(ptype, c, sq, board)
    return ksq in t and t[ksq][1]


# ----------------------------------------------------------------------------------
# Actions.  Each is a dict: text, board (after), captured (types as they were, before
# demotion), mover (type of the piece that made the action), to (its square after),
# riding (it ended inside a Cannon), entry (it was a reinforcement entry).
# ----------------------------------------------------------------------------------
def piece_actions(board, c, frm, L, from_cannon):
    """Moves of the non-Cannon piece L of side c on frm; from_cannon: it rides in the
    Cannon standing on frm and leaves it (text with '^')."""
    t = L.upper()
    acts = []
    for to, (may_move, may_cap) in sorted(targets(t, c, frm, board).items()):
        occ = board.get(to)
        if occ is None:
            if not may_move:
                continue
            kind = 'move'
        elif colour(occ[0]) != c:
            if not may_cap:
                continue
            kind = 'capture'
        elif occ[0].upper() == 'M' and occ[1] is None and may_move:
            kind = 'board'
        else:
            continue
        nb = dict(board)
        if from_cannon:
            nb[frm] = (board[frm][0], None)
        else:
            del nb[frm]
        captured = []
        if kind == 'board':
            nb[to] = (occ[0], L)
        else:
            if kind == 'capture':
                captured = [occ[0].upper()] + ([occ[1].upper()] if occ[1] else [])
            nb[to] = (L, None)
        acts.append(dict(text=sqname(frm) + ('^' if from_cannon else '') + sqname(to),
                         board=nb, captured=captured, mover=t, frm=frm, to=to,
                         riding=(kind == 'board'), entry=False))
    return acts


def cannon_actions(board, c, frm, M, pas):
    """Moves of the Cannon M of side c on frm carrying pas (or None)."""
    acts = []
    for to, (may_move, may_cap) in sorted(targets('M', c, frm, board).items()):
        occ = board.get(to)
        captured = []
        if occ is None:
            pass
        elif colour(occ[0]) != c:
            captured = [occ[0].upper()] + ([occ[1].upper()] if occ[1] else [])
        elif pas is None and occ[0].upper() != 'M':
            # picking up (occ is a non-Cannon piece, so it carries nothing)
            nb = dict(board)
            del nb[frm]
            nb[to] = (M, occ[0])
            acts.append(dict(text=sqname(frm) + sqname(to), board=nb, captured=[],
                             mover='M', frm=frm, to=to, riding=False, entry=False))
            continue
        else:
            continue
        # carrying the passenger along (or moving empty-handed)
        nb = dict(board)
        del nb[frm]
        nb[to] = (M, pas)
        acts.append(dict(text=sqname(frm) + sqname(to), board=nb, captured=captured,
                         mover='M', frm=frm, to=to, riding=False, entry=False))
        if pas is not None:                # leaving the passenger behind
            nb = dict(board)
            nb[frm] = (pas, None)
            nb[to] = (M, None)
            acts.append(dict(text=sqname(frm) + '~' + sqname(to), board=nb,
                             captured=list(captured), mover='M', frm=frm, to=to,
                             riding=False, entry=False))
    return acts


def all_actions(pos, c):
    board = pos.board
    acts = []
    for frm, (L, pas) in sorted(board.items()):
        if colour(L) != c:
            continue
        if L.upper() == 'M':
            acts += cannon_actions(board, c, frm, L, pas)
            if pas is not None:
                acts += piece_actions(board, c, frm, pas, from_cannon=True)
        else:
            acts += piece_actions(board, c, frm, L, from_cannon=False)
    first_rank = 0 if c == 'w' else 7
    for t in ORDER:
        if pos.reclaimed[c][t] > 0:
            for f in range(8):
                sq = f + 8 * first_rank
                if sq not in board:
                    nb = dict(board)
                    nb[sq] = (in_case(t, c), None)
                    acts.append(dict(text='%s@%s' % (t, sqname(sq)), board=nb, captured=[],
                                     mover=t, frm=None, to=sq, riding=False, entry=True))
    return acts


# ----------------------------------------------------------------------------------
# Promotions and ransom
# ----------------------------------------------------------------------------------
def honour_options(act, c):
    """Letters the acting piece may be promoted to (empty: it earned nothing)."""
    if act['riding']:
        return ''                          # a boarding piece earns nothing
    t, caps = act['mover'], act['captured']
    if t not in NEXT:
        return ''                          # Sheriff, Cardinal, Cannon, King
    check = gives_check(t, c, act['to'], act['board'])
    if t == 'S':
        last_rank = 7 if c == 'w' else 0
        earned = bool(caps) or check or (not act['entry'] and act['to'] // 8 == last_rank)
    elif t == 'G':
        earned = any(x != 'S' for x in caps) or check
    else:                                  # Knight, Earl, Bishop, Archbishop
        earned = any(CLASS[x] != 'common' for x in caps)
    return NEXT[t] if earned else ''


def field_options(board, c, excluded_sq):
    """(square, passenger?, new letter) for every possible field promotion."""
    opts = []
    for sq, (L, pas) in sorted(board.items()):
        if colour(L) != c:
            continue
        if L.upper() in NEXT and sq != excluded_sq:
            opts += [(sq, False, n) for n in NEXT[L.upper()]]
        if pas is not None and pas.upper() in NEXT:
            opts += [(sq, True, n) for n in NEXT[pas.upper()]]
    return opts


def value(counts):
    return sum(VALUE[t] * n for t, n in counts.items())


_ransom_cache = {}


def ransom_options(own_held, opp_held):
    """All (R, P): R a non-empty set of the side's pieces held by the opponent, P a set of
    the opponent's pieces the side holds, value(P) >= 2 value(R), P minimal, at most 7 of
    a type in each.  Arguments and results are tuples of counts in the order S N B M."""
    key = (own_held, opp_held)
    if key not in _ransom_cache:
        res = []
        types = 'SNBM'
        for R in itertools.product(*[range(min(n, 7) + 1) for n in own_held]):
            if sum(R) == 0:
                continue
            need = 2 * value(dict(zip(types, R)))
            for P in itertools.product(*[range(min(n, 7) + 1) for n in opp_held]):
                vp = value(dict(zip(types, P)))
                if vp < need:
                    continue
                if all(vp - VALUE[t] < need for t, n in zip(types, P) if n > 0):
                    res.append((R, P))
        _ransom_cache[key] = res
    return _ransom_cache[key]


def held_tuple(counter):
    return tuple(counter['SNBM'[i]] for i in range(4))


def ransom_text(R, P, c):
    own = ''.join(in_case(t, c) * n for t, n in zip('SNBM', R))
    opp = ''.join(in_case(t, other(c)) * n for t, n in zip('SNBM', P))
    return '$%s/%s' % (own, opp)


# ----------------------------------------------------------------------------------
# Whole turns
# ----------------------------------------------------------------------------------
KING_ACTS = False


def starts(pos):
    """The possible beginnings of the turn: (text prefix, position, ascended?,
    square of the new King)."""
    c = pos.side
    if king_square(pos.board, c) is not None:
        return [('', pos, False, None)]
    res = []
    for sq, (L, pas) in sorted(pos.board.items()):
        if colour(L) != c:
            continue
        for rider in (False, True):
            t = (pas if rider else L)
            if t is None or t.upper() not in 'DC':
                continue
            p = pos.copy()
            p.board[sq] = (L, in_case('K', c)) if rider else (in_case('K', c), pas)
            held = p.prisoners[other(c)]
            if held['K'] > 0:
                held['K'] -= 1
                if held['K'] == 0:
                    del held['K']
            held[DEMOTE[t.upper()]] += 1
            res.append(('%s%s;' % (sqname(sq), sqname(sq)), p, True, sq))
    return res                             # empty: no King and no Regent, the side lost


def turn_parts(pos):
    """Yields (prefix, position after ascension, action, field options, honour options,
    ransom options) for every ascension + action; every combination of one field option
    or none, one honour option or none and one ransom option or none is a turn."""
    c = pos.side
    for prefix, p, ascended, ksq in starts(pos):
        for act in all_actions(p, c):
            new_king_acts = act['frm'] == ksq and act['mover'] == 'K'
            if KING_ACTS and ascended and not new_king_acts:
                continue
            prisoners = {x: Counter(v) for x, v in p.prisoners.items()}
            for t in act['captured']:
                prisoners[c][DEMOTE[t]] += 1
            act['prisoners'] = prisoners
            hon = honour_options(act, c)
            excluded = act['to'] if hon else None
            owed = ascended or pos.field_owed
            field = field_options(act['board'], c, excluded) if owed else []
            ransom = ransom_options(held_tuple(prisoners[other(c)]), held_tuple(prisoners[c]))
            yield prefix, p, act, field, hon, ransom


EXCHANGE = False


def offer_options(own_held, opp_held):
    """All (R, P) of equal value from 1 to 6: R a set of the side's pieces held by the
    opponent, P a set of the opponent's pieces the side holds (count tuples S N B M)."""
    types = 'SNBM'
    res = []
    for R in itertools.product(*[range(n + 1) for n in own_held]):
        v = value(dict(zip(types, R)))
        if not 1 <= v <= 6:
            continue
        for P in itertools.product(*[range(n + 1) for n in opp_held]):
            if value(dict(zip(types, P))) == v:
                res.append((R, P))
    return res


def offer_turns(pos):
    """The plies of the exchange: the answers to a pending offer, or the offers that
    may open the side's turn (after an ascension)."""
    c = pos.side
    out = []
    if pos.offer is not None:
        R, P = pos.offer
        offerer = other(c)
        for answer in ('accept', 'decline'):
            q = pos.copy()
            if answer == 'accept':
                for t, n in zip('SNBM', R):
                    q.prisoners[c][t] -= n
                    q.reclaimed[offerer][t] += n
                for t, n in zip('SNBM', P):
                    q.prisoners[offerer][t] -= n
                    q.reclaimed[c][t] += n
                tidy(q)
            q.offer, q.exchanged, q.side = None, True, offerer
            if c == 'b':
                q.full = pos.full + 1
            out.append((answer, q))
        return out
    if not EXCHANGE or pos.exchanged:
        return out
    for prefix, p, ascended, _ in starts(pos):
        for R, P in offer_options(held_tuple(p.prisoners[other(c)]), held_tuple(p.prisoners[c])):
            q = p.copy()
            q.offer, q.field_owed, q.side = (R, P), ascended or pos.field_owed, other(c)
            if c == 'b':
                q.full = pos.full + 1
            out.append((prefix + '&' + ransom_text(R, P, c)[1:], q))
    return out


def tidy(q):
    for d in list(q.reclaimed.values()) + list(q.prisoners.values()):
        for t in [t for t in d if d[t] <= 0]:
            assert d[t] == 0
            del d[t]


def count_turns(pos):
    if pos.offer is not None:
        return 2
    return len(offer_turns(pos)) + sum((1 + len(f)) * (1 + len(h)) * (1 + len(r))
                                       for _, _, _, f, h, r in turn_parts(pos))


def turns(pos):
    """All complete turns (plies) as (text, position after the turn)."""
    c = pos.side
    out = offer_turns(pos)
    if pos.offer is not None:
        return out
    for prefix, p, act, field, hon, ransom in turn_parts(pos):
        for fo in [None] + field:
            for ho in [None] + list(hon):
                for ro in [None] + ransom:
                    q = p.copy()
                    q.board = dict(act['board'])
                    q.prisoners = {x: Counter(v) for x, v in act['prisoners'].items()}
                    text = prefix + act['text']
                    if act['entry']:
                        q.reclaimed[c][act['mover']] -= 1
                    if fo is not None:
                        sq, rider, n = fo
                        L, pas = q.board[sq]
                        q.board[sq] = (L, in_case(n, c)) if rider else (in_case(n, c), pas)
                        text += '=%s%s' % (sqname(sq), n)
                    if ho is not None:
                        q.board[act['to']] = (in_case(ho, c), None)
                        text += '+' + ho
                    if ro is not None:
                        R, P = ro
                        for t, n in zip('SNBM', R):
                            q.prisoners[other(c)][t] -= n
                            q.reclaimed[c][t] += n
                        for t, n in zip('SNBM', P):
                            q.prisoners[c][t] -= n
                            q.reclaimed[other(c)][t] += n
                        text += ransom_text(R, P, c)
                    for d in list(q.reclaimed.values()) + list(q.prisoners.values()):
                        for t in [t for t in d if d[t] <= 0]:
                            assert d[t] == 0
                            del d[t]
                    spear_acted = act['mover'] == 'S'
                    q.half = 0 if (act['captured'] or spear_acted) else p.half + 1
                    if c == 'b':
                        q.full = p.full + 1
                    q.side = other(c)
                    q.offer, q.exchanged, q.field_owed = None, False, False
                    out.append((text, q))
    texts = [t for t, _ in out]
    assert len(texts) == len(set(texts)), 'two turns with the same text'
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return count_turns(pos)
    return sum(perft(q, depth - 1) for _, q in turns(pos))


def main(argv):
    global KING_ACTS, EXCHANGE
    if '--king-acts' in argv:
        KING_ACTS = True
        argv = [a for a in argv if a != '--king-acts']
    if '--exchange' in argv:
        EXCHANGE = True
        argv = [a for a in argv if a != '--exchange']
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, fen_text = argv[0], argv[1]
    if fen_text == 'startpos':
        fen_text = START
    pos = parse_fen(fen_text)
    if cmd == 'perft':
        print(perft(pos, int(argv[2])))
    elif cmd == 'divide':
        depth = int(argv[2])
        total = 0
        for text, q in sorted(turns(pos)):
            n = perft(q, depth - 1)
            total += n
            print('%s: %d' % (text, n))
        print()
        print('Nodes searched: %d' % total)
    elif cmd == 'moves':
        for text, _ in sorted(turns(pos)):
            print(text)
    elif cmd == 'play':
        for word in argv[2:]:
            found = dict(turns(pos))
            if word not in found:
                sys.exit('illegal turn %s in %s' % (word, fen(pos)))
            pos = found[word]
        print(fen(pos))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
