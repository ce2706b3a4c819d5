#!/bin/sh
# Rebuilds puzzles.jsonl from its batches (docs/puzzles.md, "The shipped
# file"): each batch is a run of "banchess puzzles generate", a function
# of its flags; the file is the batches in this order, a position kept
# once (the first line with its id). Run from puzzles/ ("go generate").
# Set BANCHESS to a built binary to skip "go run"; WORKERS (default 2)
# does not change the output.
set -eu
cd "$(dirname "$0")"
gen=${BANCHESS:-"go run github.com/banchess/banchess"}
workers=${WORKERS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Self-play from the initial position.
$gen puzzles generate --quiet --workers "$workers" --count 2000 --seed 1 --out "$tmp/1-selfplay-seed1.jsonl"
# 2. Games from made endgame-like positions, aimed at the rare themes.
$gen puzzles generate --quiet --workers "$workers" --source endgames --seed 1 --count 4100 \
	--min mateIn1=150,promotion=150,underPromotion=30,stalemateTrap=60,defence=200 \
	--out "$tmp/2-endgames-seed1.jsonl"
# 3. Games from made endgames again, seeking long puzzles (mates in four,
#    material lines of four solver actions) until 300 are kept.
$gen puzzles generate --quiet --workers "$workers" --source endgames --seed 2 --long --count 300 \
	--min long=300 --out "$tmp/3-long-seed2.jsonl"

cat "$tmp"/*.jsonl | awk -F'"' '!seen[$4]++' > puzzles.jsonl.new
mv puzzles.jsonl.new puzzles.jsonl
