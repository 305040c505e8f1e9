#!/usr/bin/env python3
"""A scripted engine for the referee tests of `kirin match`.

    fake-engine.py uci|xboard ACTION ACTION ...

Each time the engine is asked to move it takes the next action:
  MOVE              play MOVE (a move text, legal or not: the referee decides)
  MOVE@SCORE        play MOVE after reporting SCORE centipawns at depth 5
  sleep:MS:MOVE     wait MS milliseconds, then play MOVE
  hang              never answer (but keep reading)
  crash             exit at once
  resign            resign (CECP) / bestmove (none) (UCI)
  claim:RESULT      claim RESULT (CECP: `1-0 {claim}`; RESULT written 1-0, 0-1 or draw)
With no action left it answers as `hang` does. The actions run on from game to game
when the process is kept (`restart=off`).

On standard error it writes `started` when it starts and every setting it is given
(UCI `setoption`, CECP `option`, `memory`, `cores`), for the tests of kirin match's
`restart=off` and `cycle.` options.
"""
import sys
import time

proto = sys.argv[1]
actions = sys.argv[2:]


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def answer(action):
    """Plays one action; returns False when the engine must go silent."""
    if action == "hang":
        return False
    if action == "crash":
        sys.exit(3)
    if action == "resign":
        say("resign" if proto == "xboard" else "bestmove (none)")
        return True
    if action.startswith("claim:"):
        result = action.split(":", 1)[1].replace("draw", "1/2-1/2")
        say(f"{result} {{claim}}")
        return True
    move = action
    if action.startswith("sleep:"):
        _, ms, move = action.split(":", 2)
        time.sleep(int(ms) / 1000)
    score = None
    if "@" in move and not move.startswith("@"):
        move, score = move.rsplit("@", 1)
    if score is not None:
        if proto == "uci":
            say(f"info depth 5 score cp {score} nodes 100 pv {move}")
        else:
            say(f"5 {score} 1 100 {move}")
    say(f"move {move}" if proto == "xboard" else f"bestmove {move}")
    return True


silent = False
print("started", file=sys.stderr, flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command in ("setoption", "option", "memory", "cores"):
        print(line.strip(), file=sys.stderr, flush=True)
    if command == "quit":
        break
    if silent:
        continue
    if command == "uci":
        say("id name fake")
        say("option name UCI_Variant type combo default chess var chess var courier")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name Threads type spin default 1 min 1 max 8")
        say("uciok")
    elif command == "isready":
        say("readyok")
    elif command == "protover":
        say('feature ping=1 setboard=1 usermove=1 memory=1 smp=1 variants="normal,courier" myname="fake" done=1')
    elif command == "ping":
        say(f"pong {words[1]}")
    elif command == "go":
        action = actions.pop(0) if actions else "hang"
        silent = not answer(action)
