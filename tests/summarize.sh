#!/usr/bin/env bash
# Totals the result files of every build and prints the one closing line.
p=0; f=0
for r in "$@"; do
  [ -f "$r" ] || { echo "missing results: $r"; f=$((f + 1)); continue; }
  while read -r _ rp rf; do p=$((p + rp)); f=$((f + rf)); done < "$r"
done
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
