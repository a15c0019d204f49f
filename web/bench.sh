#!/usr/bin/env bash
# make web-bench: what the page weighs and how fast the engine runs in wasm.
# Sizes of build/web's files (raw and gzip -9, as a static host serves them),
# then ms/step of the bench scenes (tests/bench) natively and in node. wasm has
# no per-thread CPU clock, so both sides report wall time per step.
#   WEB_BENCH_STEPS=N  steps per scene (default: the bench's own, 500)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
WEB=${WEB:-build/web}
NODE="node --no-experimental-fetch"
steps=${WEB_BENCH_STEPS:-}
args=(); [ -n "$steps" ] && args=(--steps "$steps")

echo "size of $WEB (what a browser downloads):"
printf '  %-16s %10s %10s\n' file bytes gzip
for f in index.html shell.js tumble.js tumble.wasm tumble.data.js tumble.data; do
  [ -f "$WEB/$f" ] || continue
  printf '  %-16s %10d %10d\n' "$f" "$(stat -c %s "$WEB/$f")" "$(gzip -9c "$WEB/$f" | wc -c)"
done
echo
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
echo "engine speed, wall ms per step (node $(node --version), emcc $(emcc --version | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p'), -O2 -msimd128 -msse2):"
row() { # SCENE STEPS...
  local scene=$1; shift
  n=$("$WEB/native/bench_tumble" --scene "$scene" "$@")
  w=$($NODE "$WEB/node/bench_tumble.js" --scene "$scene" "$@")
  nm=$(echo "$n" | field wall_ms_per_step); wm=$(echo "$w" | field wall_ms_per_step)
  printf '  %-14s %7s %7s %9.3f %9.3f %7.2f\n' "$scene" "$(echo "$n" | field bodies)" "$(echo "$n" | field steps)" \
    "$nm" "$wm" "$(echo "$wm / $nm" | bc -l)"
}
printf '  %-14s %7s %7s %9s %9s %7s\n' scene bodies steps native wasm ratio
echo "  the first 30 steps, every body awake:"
for scene in large_pyramid many_pyramids rain joint_grid; do row "$scene" --steps 30; done
echo "  the bench's run (sleeping on, as a game has it):"
for scene in large_pyramid many_pyramids rain joint_grid; do row "$scene" "${args[@]}"; done
