#!/usr/bin/env python3
"""Trims a fuzz corpus to a few files that together reach every code edge the whole
corpus reaches, so that the corpus kept in the repository stays small and `cargo test`
replays it in seconds.

    scripts/fuzz-trim.py CONTROL_FILE CORPUS_DIR [MOST]

CONTROL_FILE is libFuzzer's merge control file for CORPUS_DIR (`-merge=1
-merge_control_file=...`, written by scripts/fuzz.sh): for each input its number, then
`COV n e1 e2 ...`, the edges it reached. Inputs are taken greedily, the one adding most
edges first (the shorter on a tie), at most MOST of them (default: as many as it takes);
every other file of CORPUS_DIR is removed.
"""
import os
import sys


def read_control(path):
    with open(path) as f:
        lines = f.read().splitlines()
    count = int(lines[0])
    files = lines[2:2 + count]
    edges = {}
    for line in lines[2 + count:]:
        words = line.split()
        if words and words[0] == "COV":
            edges[files[int(words[1])]] = set(words[2:])
    return files, edges


def greedy_cover(edges):
    left = set().union(*edges.values()) if edges else set()
    chosen = []
    while left:
        best = max(edges, key=lambda f: (len(edges[f] & left), -os.path.getsize(f)))
        gain = edges[best] & left
        if not gain:
            break
        chosen.append(best)
        left -= gain
    return chosen


def main():
    control, corpus = sys.argv[1], sys.argv[2]
    files, edges = read_control(control)
    most = int(sys.argv[3]) if len(sys.argv) > 3 else None
    keep = {os.path.basename(f) for f in greedy_cover(edges)[:most]}
    removed = 0
    for name in os.listdir(corpus):
        if name not in keep:
            os.remove(os.path.join(corpus, name))
            removed += 1
    print(f"{corpus}: kept {len(keep)} of {len(keep) + removed} inputs")


if __name__ == "__main__":
    main()
