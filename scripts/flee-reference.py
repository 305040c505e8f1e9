#!/usr/bin/env python3
"""Independent reference move generator for Andy Kurnia's "Flee!" (16x16).

A second implementation of the rules, written from the rules text alone (the
contest page and docs/rules/flee.md), sharing no code with kirin, standard
library only.  It exists to confirm kirin's perft counts.

Rules implemented
-----------------
* 16x16 board, files a..p, ranks 1..16; White moves up the board first.
* Start: rank 1 R N B . R N B Q K B N R . B N R, rank 2 sixteen pawns,
  Black the same on ranks 16 and 15 (the Kings face each other on file i).
* Every piece captures the way it moves.
    R Rook   any distance orthogonally
    B Bishop any distance diagonally
    N Knight leaps to any square at most two files and two ranks away
             (F + A + W + N + D: the 24 squares of the 5x5 box)
    Q Queen  any distance in the 8 directions, plus the N, A and D leaps
    K King   the Queen's move; royal
    G Guard  up to 4 squares in the 8 directions, plus N, A and D leaps
    P Pawn   up to 4 squares diagonally forward (a slide, stopped by the first
             piece, which it may take), or one square forward or sideways.
             No double step, no en passant.
* A pawn ending a move on the last rank becomes a Guard (the only choice,
  compulsory).
* A move is legal when it leaves the mover's King unattacked; the King may
  slide across attacked squares (nothing special is needed for that).
* Castling exists only through the castling field of the FEN (the default
  start has none): the King moves two squares towards its Rook and the Rook
  lands on the square the King crossed.  Every square between and including
  the King's and Rook's start and end squares must be empty (but for the two
  pieces), and the King's start, crossed and end squares may not be attacked.
  Rights are letters: K/Q (k/q) for the outermost Rook on that side, or the
  Rook's file letter (X-FEN), e.g. LEle for the inner Rooks l1/e1, l16/e16.
  A right is lost when the King moves or something moves from or to the
  Rook's square.

Speed
-----
CPython is slow, so `perft` counts the last ply in bulk: at depth 1 the moves
are counted, not made.  A move of a piece other than the King that is not
pinned, while the King is not in check, is legal without being tried; every
other move is made, tested and unmade.  `--full` tries every move and makes
every leaf (slower; a check of the shortcuts).  `--jobs N` splits the root
moves over N processes.

Usage
-----
  flee-reference.py perft [--fen FEN] [--moves "i2i3 i15i14"] --depth N
                          [--divide] [--full] [--jobs N]
  flee-reference.py moves [--fen FEN] [--moves ...]     (legal moves, sorted)
Moves are written as kirin writes them: from-square and to-square (`i2i3`), a
promotion with `g` (`c15c16g`); castling is the King's move (`i1k1`), which in
divides is marked `i1k1(castle)` since the plain King move has the same text.
"""

import argparse
import sys
import time

# ---------------------------------------------------------------------------
# Geometry: a padded mailbox.  Each row has 2 guard cells left and right of
# the 16 files, with 2 guard rows below and above: no leap of at most two
# squares can leave the padded array or wrap onto the other edge.
# ---------------------------------------------------------------------------
N_FILES = 16
N_RANKS = 16
PAD = 2
ROW = N_FILES + 2 * PAD          # 20
CELLS = ROW * (N_RANKS + 2 * PAD)  # 400

EMPTY = 0
GUARDCELL = 32                   # outside the board
WHITE_BIT = 16
BLACK_BIT = 8
TYPE_MASK = 7
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, GUARD = 1, 2, 3, 4, 5, 6, 7
LETTERS = {PAWN: 'p', KNIGHT: 'n', BISHOP: 'b', ROOK: 'r', QUEEN: 'q',
           KING: 'k', GUARD: 'g'}
TYPES = {v: k for k, v in LETTERS.items()}


def cell(file, rank):
    """Mailbox index of (file, rank), both from 0."""
    return (rank + PAD) * ROW + file + PAD


def name(sq):
    rank, file = divmod(sq, ROW)
    return 'abcdefghijklmnop'[file - PAD] + str(rank - PAD + 1)


def parse_square(text):
    return cell(ord(text[0]) - ord('a'), int(text[1:]) - 1)


def rank_of(sq):
    return sq // ROW - PAD


def file_of(sq):
    return sq % ROW - PAD


SQUARES = [cell(f, r) for r in range(N_RANKS) for f in range(N_FILES)]

UP, RIGHT = ROW, 1
ORTHO = (UP, -UP, RIGHT, -RIGHT)
DIAG = (UP + RIGHT, UP - RIGHT, -UP + RIGHT, -UP - RIGHT)
ALL8 = ORTHO + DIAG
# The leaps at distance exactly two: D (4), A (4) and N (8).
RING2 = tuple(dy * ROW + dx for dy in range(-2, 3) for dx in range(-2, 3)
              if max(abs(dx), abs(dy)) == 2)
# The square an A or D leap passes over (the N leap passes over none).
MIDDLE = {dy * ROW + dx: (dy // 2) * ROW + dx // 2
          for dy in (-2, 0, 2) for dx in (-2, 0, 2) if (dx, dy) != (0, 0)}
BOX24 = tuple(dy * ROW + dx for dy in range(-2, 3) for dx in range(-2, 3)
              if (dx, dy) != (0, 0))

INF = 99
# Per piece type and colour (0 white, 1 black): slides as (direction, range)
# and leaps as offsets.  Every move may also capture.
SLIDES = {}
LEAPS = {}
for colour, fwd in ((0, UP), (1, -UP)):
    SLIDES[ROOK, colour] = tuple((d, INF) for d in ORTHO)
    SLIDES[BISHOP, colour] = tuple((d, INF) for d in DIAG)
    SLIDES[QUEEN, colour] = tuple((d, INF) for d in ALL8)
    SLIDES[KING, colour] = SLIDES[QUEEN, colour]
    SLIDES[GUARD, colour] = tuple((d, 4) for d in ALL8)
    SLIDES[KNIGHT, colour] = ()
    SLIDES[PAWN, colour] = ((fwd + RIGHT, 4), (fwd - RIGHT, 4), (fwd, 1),
                            (RIGHT, 1), (-RIGHT, 1))
    LEAPS[ROOK, colour] = ()
    LEAPS[BISHOP, colour] = ()
    LEAPS[QUEEN, colour] = RING2
    LEAPS[KING, colour] = RING2
    LEAPS[GUARD, colour] = RING2
    LEAPS[KNIGHT, colour] = BOX24
    LEAPS[PAWN, colour] = ()

# RAY_ATTACK[colour][direction] = list of (type, range): a piece of `colour`
# and that type found first at distance n <= range along `direction` from a
# square attacks it (it moves along -direction).
RAY_ATTACK = ({}, {})
for colour in (0, 1):
    for d in ALL8:
        found = []
        for t in (PAWN, BISHOP, ROOK, QUEEN, KING, GUARD):
            for (sd, r) in SLIDES[t, colour]:
                if sd == -d:
                    found.append((t, r))
        RAY_ATTACK[colour][d] = found
# Types that attack a square from a RING2 offset, and from the 8 neighbours by
# a leap (only the Knight's box covers the neighbours without sliding).
RING_ATTACKERS = {KNIGHT, QUEEN, KING, GUARD}

START_FEN = ('rnb1rnbqkbnr1bnr/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/'
             '16/16/PPPPPPPPPPPPPPPP/RNB1RNBQKBNR1BNR w - - 0 1')


class Position:
    def __init__(self, fen=START_FEN):
        self.board = [GUARDCELL] * CELLS
        for sq in SQUARES:
            self.board[sq] = EMPTY
        self.kings = [None, None]
        fields = fen.split()
        rows = fields[0].split('/')
        if len(rows) != N_RANKS:
            raise ValueError('expected 16 ranks')
        for i, row in enumerate(rows):
            rank = N_RANKS - 1 - i
            file = 0
            j = 0
            while j < len(row):
                c = row[j]
                if c.isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    file += int(row[j:k])
                    j = k
                    continue
                t = TYPES[c.lower()]
                colour = 0 if c.isupper() else 1
                sq = cell(file, rank)
                self.board[sq] = t | (WHITE_BIT if colour == 0 else BLACK_BIT)
                if t == KING:
                    self.kings[colour] = sq
                file += 1
                j += 1
            if file != N_FILES:
                raise ValueError('rank %d has %d files' % (rank + 1, file))
        self.side = 0 if len(fields) < 2 or fields[1] == 'w' else 1
        # Castling rights: a set of (colour, rook square).
        self.rights = frozenset()
        if len(fields) > 2 and fields[2] != '-':
            rights = set()
            for c in fields[2]:
                colour = 0 if c.isupper() else 1
                king = self.kings[colour]
                rank = rank_of(king)
                bit = WHITE_BIT if colour == 0 else BLACK_BIT
                rooks = [cell(f, rank) for f in range(N_FILES)
                         if self.board[cell(f, rank)] == ROOK | bit]
                letter = c.lower()
                if letter == 'k':
                    rook = max(r for r in rooks if r > king)
                elif letter == 'q':
                    rook = min(r for r in rooks if r < king)
                else:
                    rook = cell(ord(letter) - ord('a'), rank)
                    if rook not in rooks:
                        raise ValueError('no rook for right ' + c)
                rights.add((colour, rook))
            self.rights = frozenset(rights)

    # -- attacks -----------------------------------------------------------
    def attacked(self, sq, colour):
        """Is `sq` attacked by a piece of `colour`?"""
        board = self.board
        bit = WHITE_BIT if colour == 0 else BLACK_BIT
        for off in RING2:
            x = board[sq + off]
            if x & bit and (x & TYPE_MASK) in RING_ATTACKERS:
                return True
        rays = RAY_ATTACK[colour]
        for d in ALL8:
            t = sq + d
            n = 1
            x = board[t]
            while x == EMPTY:
                t += d
                n += 1
                x = board[t]
            if x & bit:
                typ = x & TYPE_MASK
                if typ == KNIGHT:
                    if n == 1:
                        return True
                    continue
                for (at, r) in rays[d]:
                    if at == typ and n <= r:
                        return True
        return False

    def pinned(self, king, colour):
        """Squares of `colour`'s pieces that shield its King from an enemy
        line piece (they are the only piece in between)."""
        board = self.board
        us = WHITE_BIT if colour == 0 else BLACK_BIT
        them = BLACK_BIT if colour == 0 else WHITE_BIT
        rays = RAY_ATTACK[1 - colour]
        out = set()
        for d in ALL8:
            t = king + d
            n = 1
            while board[t] == EMPTY:
                t += d
                n += 1
            if not board[t] & us:
                continue
            shield = t
            t += d
            n += 1
            while board[t] == EMPTY:
                t += d
                n += 1
            x = board[t]
            if x & them:
                typ = x & TYPE_MASK
                for (at, r) in rays[d]:
                    if at == typ and n <= r:
                        out.add(shield)
                        break
        return out

    # -- moves -------------------------------------------------------------
    def pseudo_moves(self):
        """Moves as (from, to, promotion piece or 0, castling rook or 0)."""
        board = self.board
        colour = self.side
        us = WHITE_BIT if colour == 0 else BLACK_BIT
        last_rank = N_RANKS - 1 if colour == 0 else 0
        out = []
        for sq in SQUARES:
            x = board[sq]
            if not x & us:
                continue
            typ = x & TYPE_MASK
            for (d, r) in SLIDES[typ, colour]:
                t = sq + d
                n = 1
                while n <= r:
                    y = board[t]
                    if y == EMPTY:
                        out.append((sq, t))
                    else:
                        if not (y & us) and y != GUARDCELL:
                            out.append((sq, t))
                        break
                    t += d
                    n += 1
            for off in LEAPS[typ, colour]:
                # An A or D leap over an empty square lands where the slide
                # of the same piece already went: one move, not two.
                mid = MIDDLE.get(off)
                if mid and typ != KNIGHT and board[sq + mid] == EMPTY:
                    continue
                y = board[sq + off]
                if y == EMPTY or (not (y & us) and y != GUARDCELL):
                    out.append((sq, sq + off))
        moves = []
        guard = GUARD | us
        for (f, t) in out:
            if (board[f] & TYPE_MASK) == PAWN and rank_of(t) == last_rank:
                moves.append((f, t, guard, 0))
            else:
                moves.append((f, t, 0, 0))
        moves.extend(self.castling_moves())
        return moves

    def castling_moves(self):
        out = []
        colour = self.side
        king = self.kings[colour]
        for (c, rook) in self.rights:
            if c != colour:
                continue
            step = 1 if rook > king else -1
            to = king + 2 * step
            rook_to = king + step
            lo = min(king, to, rook, rook_to)
            hi = max(king, to, rook, rook_to)
            if any(self.board[s] != EMPTY for s in range(lo, hi + 1)
                   if s != king and s != rook):
                continue
            if any(self.attacked(s, 1 - colour)
                   for s in (king, king + step, to)):
                continue
            out.append((king, to, 0, rook))
        return out

    def make(self, m):
        f, t, promo, rook = m
        board = self.board
        moved = board[f]
        colour = self.side
        if rook:
            # The Rook may stand on the King's target square: lift both first.
            rook_piece = board[rook]
            board[rook] = EMPTY
            board[f] = EMPTY
            board[t] = moved
            board[f + (1 if t > f else -1)] = rook_piece
            captured = EMPTY
        else:
            captured = board[t]
            board[f] = EMPTY
            board[t] = promo or moved
        undo = (captured, self.rights)
        if moved & TYPE_MASK == KING:
            self.kings[colour] = t
        if self.rights:
            rights = self.rights
            if moved & TYPE_MASK == KING:
                rights = frozenset(r for r in rights if r[0] != colour)
            rights = frozenset(r for r in rights if r[1] != f and r[1] != t)
            self.rights = rights
        self.side = 1 - colour
        return undo

    def unmake(self, m, undo):
        f, t, promo, rook = m
        board = self.board
        captured, self.rights = undo
        self.side = colour = 1 - self.side
        moved = board[t]
        if rook:
            step = 1 if t > f else -1
            rook_piece = board[f + step]
            board[f + step] = EMPTY
            board[t] = EMPTY
            board[f] = moved
            board[rook] = rook_piece
        else:
            if promo:
                moved = PAWN | (moved & (WHITE_BIT | BLACK_BIT))
            board[f] = moved
            board[t] = captured
        if moved & TYPE_MASK == KING:
            self.kings[colour] = f

    def legal_moves(self, full=False):
        colour = self.side
        king = self.kings[colour]
        them = 1 - colour
        moves = self.pseudo_moves()
        if full:
            out = []
            for m in moves:
                u = self.make(m)
                if not self.attacked(self.kings[colour], them):
                    out.append(m)
                self.unmake(m, u)
            return out
        in_check = self.attacked(king, them)
        pins = self.pinned(king, colour)
        out = []
        board = self.board
        for m in moves:
            f = m[0]
            if f == king and not m[3]:
                # The King's own move: its target must not be attacked once
                # the King has left its square.
                board[king] = EMPTY
                ok = not self.attacked(m[1], them)
                board[king] = KING | (WHITE_BIT if colour == 0 else BLACK_BIT)
                if ok:
                    out.append(m)
            elif in_check or f in pins or m[3]:
                u = self.make(m)
                if not self.attacked(self.kings[colour], them):
                    out.append(m)
                self.unmake(m, u)
            else:
                out.append(m)
        return out

    def move_text(self, m):
        s = name(m[0]) + name(m[1])
        if m[2]:
            s += 'g'
        return s

    def parse_move(self, text):
        for m in self.legal_moves():
            if self.move_text(m) == text and not m[3]:
                return m
        for m in self.legal_moves():
            if self.move_text(m) + '(castle)' == text:
                return m
        raise ValueError('illegal move ' + text)

    def to_fen_board(self):
        rows = []
        for rank in range(N_RANKS - 1, -1, -1):
            row = ''
            empty = 0
            for file in range(N_FILES):
                x = self.board[cell(file, rank)]
                if x == EMPTY:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                c = LETTERS[x & TYPE_MASK]
                row += c.upper() if x & WHITE_BIT else c
            if empty:
                row += str(empty)
            rows.append(row)
        return '/'.join(rows)


def perft(pos, depth, full=False):
    if depth == 0:
        return 1
    moves = pos.legal_moves(full)
    if depth == 1 and not full:
        return len(moves)
    total = 0
    for m in moves:
        u = pos.make(m)
        total += perft(pos, depth - 1, full)
        pos.unmake(m, u)
    return total


def label(pos, m):
    return pos.move_text(m) + ('(castle)' if m[3] else '')


def divide_job(args):
    fen, moves, depth, full, chosen = args
    pos = setup(fen, moves)
    out = []
    for m in pos.legal_moves(full):
        text = label(pos, m)
        if text not in chosen:
            continue
        u = pos.make(m)
        out.append((text, perft(pos, depth - 1, full)))
        pos.unmake(m, u)
    return out


def setup(fen, moves):
    pos = Position(fen)
    for text in moves:
        pos.make(pos.parse_move(text))
    return pos


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('perft', help='count the leaf nodes of the move tree')
    p.add_argument('--fen', default=START_FEN)
    p.add_argument('--moves', default='', help='moves played first')
    p.add_argument('--depth', type=int, required=True)
    p.add_argument('--divide', action='store_true')
    p.add_argument('--full', action='store_true',
                   help='make every move and leaf (no shortcuts)')
    p.add_argument('--jobs', type=int, default=1,
                   help='processes to split the root moves over')
    q = sub.add_parser('moves', help='list the legal moves')
    q.add_argument('--fen', default=START_FEN)
    q.add_argument('--moves', default='')
    args = parser.parse_args()
    moves = args.moves.replace(',', ' ').split()
    pos = setup(args.fen, moves)
    if args.command == 'moves':
        print(' '.join(sorted(label(pos, m) for m in pos.legal_moves())))
        return
    start = time.time()
    if args.depth < 1:
        print(1)
        return
    texts = [label(pos, m) for m in pos.legal_moves(args.full)]
    if args.jobs > 1 and args.depth > 1:
        import multiprocessing
        chunks = [set(texts[i::args.jobs]) for i in range(args.jobs)]
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.map(divide_job, [(args.fen, moves, args.depth,
                                           args.full, c) for c in chunks])
        counts = dict(x for part in parts for x in part)
    elif args.divide:
        counts = dict(divide_job((args.fen, moves, args.depth, args.full,
                                  set(texts))))
    else:
        counts = {'': perft(pos, args.depth, args.full)}
    total = sum(counts.values())
    if args.divide:
        for text in sorted(counts):
            print('%s: %d' % (text, counts[text]))
    print('Nodes searched: %d' % total)
    elapsed = time.time() - start
    print('Time: %.1f s, %.0f nodes per second'
          % (elapsed, total / elapsed if elapsed else 0), file=sys.stderr)


if __name__ == '__main__':
    main()
