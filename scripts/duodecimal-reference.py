#!/usr/bin/env python3
"""Independent reference move generator for Verney's 12x12 "duodecimal" chess.

This is a deliberately simple, standard-library-only implementation that is
meant to cross-check the perft numbers of the kirin engine.  It shares no code
with kirin.  Clarity is preferred over speed.

Rules implemented
-----------------
* 12x12 board, files a..l, ranks 1..12.  White moves up the board.
* K king (one step, royal), Q queen, R rook, B bishop, N knight,
  U Unicorn = bishop + knight, C Counsellor = king step + knight leap
  (not royal), F Fool = one step in any direction (not royal).
* Pawns as in FIDE chess: single step, double step from the start rank
  (rank 2 for white, rank 11 for black), diagonal captures, en passant.
* Promotion on the last rank is compulsory and only to a piece type that
  "has been captured": type T is allowed iff the player currently has fewer
  T pieces than in the start array (Q 1, U 2, C 1, R 2, B 2, N 2, F 1).
  If no type is allowed the pawn may not enter the last rank at all.
* No castling.  A move is legal iff the mover's king is not attacked
  afterwards.

Check by a pawn that could not promote (an ambiguity of the rules)
------------------------------------------------------------------
A pawn on its 11th rank diagonally next to the enemy king standing on the
last rank "attacks" the king geometrically, but the capture itself would be
an illegal move when the pawn's owner has no promotion type available.
  --pawn-check-rule always      (default) the pawn gives check anyway
                                (pawn attacks are purely geometric, as in
                                the usual convention for Grand Chess).
  --pawn-check-rule promotable  the pawn only gives check when its owner has
                                at least one promotion type available.

Usage
-----
  duodecimal-reference.py perft --fen FEN --depth N [--divide]
  duodecimal-reference.py play --seed S --plies P
"""

import argparse
import random
import sys
import time

# ---------------------------------------------------------------------------
# Board geometry: a padded mailbox.
#
# Every row is W = 16 cells wide: 2 padding cells, the 12 real files, and
# 2 more padding cells; there are 2 padding rows below and above the 12 real
# ranks.  Knight leaps (at most 2 files/ranks) from a real square therefore
# always land either on a real square or on a padding ("OFF") cell, never
# wrap around to the other side of the board.
# ---------------------------------------------------------------------------

FILES = 12
RANKS = 12
PAD = 2
W = FILES + 2 * PAD            # 16 cells per row
SIZE = W * (RANKS + 2 * PAD)   # 256 cells in total

EMPTY = '.'
OFF = '#'

WHITE, BLACK = 0, 1

FILE_LETTERS = 'abcdefghijkl'


def square(file, rank):
    """Cell index of a real square; file and rank are 0-based."""
    return (rank + PAD) * W + (file + PAD)


def file_of(sq):
    return sq % W - PAD


def rank_of(sq):
    return sq // W - PAD


def square_name(sq):
    return FILE_LETTERS[file_of(sq)] + str(rank_of(sq) + 1)


def parse_square(text):
    """'e3' -> cell index; 'e10' works too (ranks can have two digits)."""
    f = FILE_LETTERS.index(text[0])
    r = int(text[1:]) - 1
    if not (0 <= f < FILES and 0 <= r < RANKS):
        raise ValueError('bad square ' + text)
    return square(f, r)


# All real squares, in a fixed order (a1, b1, ..., l1, a2, ..., l12).
REAL_SQUARES = [square(f, r) for r in range(RANKS) for f in range(FILES)]

# Direction offsets in cell units.
KNIGHT = (2 * W + 1, 2 * W - 1, -2 * W + 1, -2 * W - 1,
          W + 2, W - 2, -W + 2, -W - 2)
KING = (W, -W, 1, -1, W + 1, W - 1, -W + 1, -W - 1)
DIAGONAL = (W + 1, W - 1, -W + 1, -W - 1)
ORTHOGONAL = (W, -W, 1, -1)

# How each (non-pawn) piece type moves: (single leaps, sliding rays).
MOVEMENT = {
    'K': (KING, ()),
    'Q': ((), DIAGONAL + ORTHOGONAL),
    'R': ((), ORTHOGONAL),
    'B': ((), DIAGONAL),
    'N': (KNIGHT, ()),
    'U': (KNIGHT, DIAGONAL),          # Unicorn = bishop + knight
    'C': (KING + KNIGHT, ()),         # Counsellor = king step + knight leap
    'F': (KING, ()),                  # Fool = one step, not royal
}
# Same table keyed by the lowercase (black) letters too.
for _letter in list(MOVEMENT):
    MOVEMENT[_letter.lower()] = MOVEMENT[_letter]

# Number of each promotable type in the start array.
START_COUNT = {'Q': 1, 'U': 2, 'C': 1, 'R': 2, 'B': 2, 'N': 2, 'F': 1}
PROMOTION_ORDER = 'QUCRBNF'

PIECES_OF = (frozenset('KQRBNUCFP'), frozenset('kqrbnucfp'))


def own_case(letter, side):
    return letter.upper() if side == WHITE else letter.lower()


# Per side: which enemy letters attack by a knight leap, by a king step,
# along a diagonal ray and along an orthogonal ray.  Index = attacking side.
KNIGHT_ATTACKERS = (frozenset('NUC'), frozenset('nuc'))
STEP_ATTACKERS = (frozenset('KCF'), frozenset('kcf'))
DIAGONAL_ATTACKERS = (frozenset('BQU'), frozenset('bqu'))
ORTHOGONAL_ATTACKERS = (frozenset('RQ'), frozenset('rq'))
PAWN_LETTER = ('P', 'p')

FORWARD = (W, -W)              # pawn direction per side
PAWN_START_RANK = (1, 10)      # 0-based: rank 2 / rank 11
LAST_RANK = (11, 0)            # 0-based: rank 12 / rank 1

# ALIGNED[a] = set of real squares that share a rank, file or diagonal
# with real square a (used only by the optional legality shortcut).
ALIGNED = {}
for _a in REAL_SQUARES:
    _s = set()
    for _d in DIAGONAL + ORTHOGONAL:
        _t = _a + _d
        while 0 <= _t < SIZE and 0 <= file_of(_t) < FILES and 0 <= rank_of(_t) < RANKS:
            _s.add(_t)
            _t += _d
    ALIGNED[_a] = frozenset(_s)

# Move kinds.
NORMAL, DOUBLE_STEP, EN_PASSANT = 0, 1, 2


# ---------------------------------------------------------------------------
# Position
# ---------------------------------------------------------------------------

class Position:
    """A position plus make/unmake.

    A move is a tuple (from, to, promotion_letter_or_None, kind).
    """

    def __init__(self, fen, pawn_check_rule='always', full_legality=False):
        self.pawn_check_rule = pawn_check_rule
        # The legality shortcut (skip the make/test/unmake for moves that
        # provably cannot expose the king) is only valid under the 'always'
        # rule: under 'promotable' a capture can change whether an enemy
        # pawn gives check.
        self.use_shortcut = (not full_legality) and pawn_check_rule == 'always'
        self.board = [OFF] * SIZE
        self.king = [None, None]
        self.set_fen(fen)

    # ---- FEN ------------------------------------------------------------

    def set_fen(self, fen):
        fields = fen.split()
        if len(fields) < 4:
            raise ValueError('FEN needs at least 4 fields')
        rows = fields[0].split('/')
        if len(rows) != RANKS:
            raise ValueError('FEN must have 12 ranks')
        for sq in REAL_SQUARES:
            self.board[sq] = EMPTY
        self.king = [None, None]
        for i, row in enumerate(rows):
            rank = RANKS - 1 - i          # FEN lists rank 12 first
            file = 0
            j = 0
            while j < len(row):
                c = row[j]
                if c.isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    file += int(row[j:k])   # runs like '12' or '10'
                    j = k
                    continue
                if c.upper() not in 'KQRBNUCFP':
                    raise ValueError('unknown piece ' + c)
                if file >= FILES:
                    raise ValueError('rank too long: ' + row)
                sq = square(file, rank)
                self.board[sq] = c
                if c == 'K':
                    if self.king[WHITE] is not None:
                        raise ValueError('two white kings')
                    self.king[WHITE] = sq
                elif c == 'k':
                    if self.king[BLACK] is not None:
                        raise ValueError('two black kings')
                    self.king[BLACK] = sq
                file += 1
                j += 1
            if file != FILES:
                raise ValueError('rank does not have 12 files: ' + row)
        if None in self.king:
            raise ValueError('each side needs exactly one king')
        if fields[1] not in ('w', 'b'):
            raise ValueError('side to move must be w or b')
        self.side = WHITE if fields[1] == 'w' else BLACK
        # fields[2] is the castling field; there is no castling.
        self.ep = None if fields[3] == '-' else parse_square(fields[3])
        self.halfmove = int(fields[4]) if len(fields) > 4 else 0
        self.fullmove = int(fields[5]) if len(fields) > 5 else 1

    def fen(self):
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row = ''
            empties = 0
            for file in range(FILES):
                p = self.board[square(file, rank)]
                if p == EMPTY:
                    empties += 1
                else:
                    if empties:
                        row += str(empties)
                        empties = 0
                    row += p
            if empties:
                row += str(empties)
            rows.append(row)
        ep = '-' if self.ep is None else square_name(self.ep)
        return '%s %s - %s %d %d' % ('/'.join(rows), 'wb'[self.side], ep,
                                      self.halfmove, self.fullmove)

    # ---- promotion rule ---------------------------------------------------

    def allowed_promotions(self, side):
        """Letters (in the side's case) a pawn of `side` may promote to now."""
        counts = {}
        for sq in REAL_SQUARES:
            p = self.board[sq]
            if p in PIECES_OF[side]:
                u = p.upper()
                counts[u] = counts.get(u, 0) + 1
        return [own_case(t, side) for t in PROMOTION_ORDER
                if counts.get(t, 0) < START_COUNT[t]]

    # ---- attacks ------------------------------------------------------------

    def attacked(self, sq, by):
        """Is square `sq` attacked by side `by`?"""
        b = self.board
        knights = KNIGHT_ATTACKERS[by]
        for d in KNIGHT:
            if b[sq + d] in knights:
                return True
        steppers = STEP_ATTACKERS[by]
        for d in KING:
            if b[sq + d] in steppers:
                return True
        sliders = DIAGONAL_ATTACKERS[by]
        for d in DIAGONAL:
            t = sq + d
            while b[t] == EMPTY:
                t += d
            if b[t] in sliders:
                return True
        sliders = ORTHOGONAL_ATTACKERS[by]
        for d in ORTHOGONAL:
            t = sq + d
            while b[t] == EMPTY:
                t += d
            if b[t] in sliders:
                return True
        # Pawns of side `by` stand one rank "behind" sq (from their view).
        pawn = PAWN_LETTER[by]
        back = -FORWARD[by]
        if b[sq + back + 1] == pawn or b[sq + back - 1] == pawn:
            if self.pawn_check_rule == 'always':
                return True
            # 'promotable': a pawn cannot capture onto its last rank when
            # no promotion type is available, so then it does not attack.
            if rank_of(sq) != LAST_RANK[by] or self.allowed_promotions(by):
                return True
        return False

    def in_check(self):
        return self.attacked(self.king[self.side], 1 - self.side)

    # ---- move generation --------------------------------------------------

    def pseudo_legal_moves(self):
        b = self.board
        side = self.side
        own = PIECES_OF[side]
        enemy = PIECES_OF[1 - side]
        moves = []
        promotions = None   # computed lazily, only if a pawn can promote
        for s in REAL_SQUARES:
            p = b[s]
            if p not in own:
                continue
            if p == 'P' or p == 'p':
                fwd = FORWARD[side]
                last = LAST_RANK[side]
                # Targets: (to-square, kind) for the step and the captures.
                targets = []
                t = s + fwd
                if b[t] == EMPTY:
                    targets.append(t)
                    if rank_of(s) == PAWN_START_RANK[side] and b[t + fwd] == EMPTY:
                        moves.append((s, t + fwd, None, DOUBLE_STEP))
                for t in (s + fwd - 1, s + fwd + 1):
                    if b[t] in enemy:
                        targets.append(t)
                    elif t == self.ep and b[t - fwd] == PAWN_LETTER[1 - side]:
                        # En passant: the enemy pawn that just double-stepped
                        # stands behind the (empty) skipped square.
                        moves.append((s, t, None, EN_PASSANT))
                for t in targets:
                    if rank_of(t) == last:
                        if promotions is None:
                            promotions = self.allowed_promotions(side)
                        # No allowed type -> no move to the last rank at all.
                        for q in promotions:
                            moves.append((s, t, q, NORMAL))
                    else:
                        moves.append((s, t, None, NORMAL))
                continue
            leaps, rays = MOVEMENT[p]
            for d in leaps:
                t = s + d
                q = b[t]
                if q == EMPTY or q in enemy:
                    moves.append((s, t, None, NORMAL))
            for d in rays:
                t = s + d
                while True:
                    q = b[t]
                    if q == EMPTY:
                        moves.append((s, t, None, NORMAL))
                        t += d
                        continue
                    if q in enemy:
                        moves.append((s, t, None, NORMAL))
                    break
        return moves

    def legal_moves(self):
        side = self.side
        ksq = self.king[side]
        checked = self.attacked(ksq, 1 - side)
        legal = []
        for m in self.pseudo_legal_moves():
            frm = m[0]
            # Shortcut: if we are not in check, and the moving piece is not
            # the king, not an en-passant capture, and does not share a line
            # with our king, then moving it cannot expose the king.
            if (self.use_shortcut and not checked and frm != ksq
                    and m[3] != EN_PASSANT and frm not in ALIGNED[ksq]):
                legal.append(m)
                continue
            undo = self.make(m)
            if not self.attacked(self.king[side], 1 - side):
                legal.append(m)
            self.unmake(m, undo)
        return legal

    # ---- make / unmake ------------------------------------------------------

    def make(self, m):
        frm, to, promo, kind = m
        b = self.board
        piece = b[frm]
        side = self.side
        undo = (b[to], self.ep, self.halfmove, self.fullmove)
        if kind == EN_PASSANT:
            captured_sq = to - FORWARD[side]
            captured = b[captured_sq]
            b[captured_sq] = EMPTY
        else:
            captured = b[to]
        b[to] = promo if promo else piece
        b[frm] = EMPTY
        if piece == 'K' or piece == 'k':
            self.king[side] = to
        self.ep = (frm + to) // 2 if kind == DOUBLE_STEP else None
        if piece in ('P', 'p') or captured != EMPTY:
            self.halfmove = 0
        else:
            self.halfmove += 1
        if side == BLACK:
            self.fullmove += 1
        self.side = 1 - side
        return undo

    def unmake(self, m, undo):
        frm, to, promo, kind = m
        b = self.board
        self.side = side = 1 - self.side
        piece = b[to]
        if promo:
            piece = PAWN_LETTER[side]
        b[frm] = piece
        b[to] = undo[0]
        if kind == EN_PASSANT:
            b[to - FORWARD[side]] = PAWN_LETTER[1 - side]
        if piece == 'K' or piece == 'k':
            self.king[side] = frm
        self.ep, self.halfmove, self.fullmove = undo[1], undo[2], undo[3]

    # ---- helpers ------------------------------------------------------------

    def victim_value(self, m):
        """Value of the piece captured by m (0 for a non-capture)."""
        if m[3] == EN_PASSANT:
            return VALUE['P']
        q = self.board[m[1]]
        return 0 if q == EMPTY else VALUE[q.upper()]


VALUE = {'P': 1, 'N': 3, 'F': 2, 'C': 4, 'B': 3, 'R': 5, 'U': 6, 'Q': 9, 'K': 0}


def move_name(m):
    s = square_name(m[0]) + square_name(m[1])
    if m[2]:
        s += m[2].lower()
    return s


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        undo = pos.make(m)
        total += perft(pos, depth - 1)
        pos.unmake(m, undo)
    return total


START_FEN = ('rnubckqfbunr/pppppppppppp/12/12/12/12/12/12/12/12/'
             'PPPPPPPPPPPP/RNUBCKQFBUNR w - - 0 1')


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def cmd_perft(args):
    pos = Position(args.fen, args.pawn_check_rule, args.full_legality)
    start = time.time()
    total = 0
    if args.divide and args.depth >= 1:
        for m in sorted(pos.legal_moves(), key=move_name):
            undo = pos.make(m)
            n = perft(pos, args.depth - 1)
            pos.unmake(m, undo)
            print('%s: %d' % (move_name(m), n))
            total += n
        print()
    else:
        total = perft(pos, args.depth)
    print('Nodes searched: %d' % total)
    if args.time:
        print('Time: %.2f s' % (time.time() - start), file=sys.stderr)


def cmd_play(args):
    rng = random.Random(args.seed)
    pos = Position(args.fen, args.pawn_check_rule)
    print('0 - %s' % pos.fen())
    for ply in range(1, args.plies + 1):
        moves = sorted(pos.legal_moves(), key=move_name)  # deterministic order
        if not moves:
            print('# no legal moves (%s)' % ('checkmate' if pos.in_check() else 'stalemate'))
            break
        best = max(pos.victim_value(m) for m in moves)
        if best > 0:
            # Prefer the most valuable victim; break ties at random.
            candidates = [m for m in moves if pos.victim_value(m) == best]
        else:
            candidates = moves
        m = rng.choice(candidates)
        pos.make(m)
        print('%d %s %s' % (ply, move_name(m), pos.fen()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)

    p = sub.add_parser('perft', help='count leaf nodes')
    p.add_argument('--fen', default=START_FEN)
    p.add_argument('--depth', type=int, required=True)
    p.add_argument('--divide', action='store_true')
    p.add_argument('--time', action='store_true', help='print time to stderr')
    p.add_argument('--full-legality', action='store_true',
                   help='test every move by make/unmake (no shortcut)')

    q = sub.add_parser('play', help='play a capture-preferring random game')
    q.add_argument('--seed', type=int, required=True)
    q.add_argument('--plies', type=int, required=True)
    q.add_argument('--fen', default=START_FEN)

    for sp in (p, q):
        sp.add_argument('--pawn-check-rule', choices=('always', 'promotable'),
                        default='always',
                        help='does a pawn that cannot promote still give '
                             'check to a king on its last rank? (default: always)')

    args = parser.parse_args()
    if args.command == 'perft':
        cmd_perft(args)
    else:
        cmd_play(args)


if __name__ == '__main__':
    main()
