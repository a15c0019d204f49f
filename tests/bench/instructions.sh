#!/usr/bin/env bash
# Instructions per step (callgrind) of every scene on tumble_fast, tumble and
# each Box2D v3.1 and Box2D main runner that was built: the steady measure on a shared machine,
# where wall and CPU times move by 10-20 % with the load.
#
#   tests/bench/instructions.sh [SCENE[:STEPS] ...]
#
# Default: every scene, with fewer steps than the timed bench (callgrind runs
# ~50x slower): large_pyramid:60 many_pyramids:30 rain:400 joint_grid:60
# tumbler:300 smash:120 spinner:400 junkyard:200 washer:60 compounds:200. Only the engine's step function is counted
# (tb_world_step, b2World_Step), not the scene's building or its per-step update,
# and the count is divided by the steps. ENGINES="tumble_fast tumble v3_avx2 main_avx2"
# picks engines. valgrind's CPU has no AVX-512: tumble runs its AVX2 path. Needs valgrind; build first (make bench, or make -C tests/bench build).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${BENCH_BIN:-$here/bin}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found" >&2; exit 1; }

if [ $# -eq 0 ]; then
	set -- large_pyramid:60 many_pyramids:30 rain:400 joint_grid:60 tumbler:300 smash:120 spinner:400 \
		junkyard:200 washer:60 compounds:200
fi
engines=${ENGINES:-"tumble_fast tumble $(cd "$bin" && ls bench_v3_* bench_main_* 2>/dev/null | sed 's/^bench_//' | tr '\n' ' ')"}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-14s %6s" scene steps
for e in $engines; do printf " %14s" "$e"; done
printf "   (millions of instructions per step)\n"
for spec in "$@"; do
	scene=${spec%%:*}
	steps=${spec#*:}
	[ "$steps" = "$spec" ] && steps=60
	printf "%-14s %6s" "$scene" "$steps"
	for e in $engines; do
		case $e in
		tumble_fast) cmd=("$bin/bench_tumble" --fast); fn=tb_world_step ;;
		tumble) cmd=("$bin/bench_tumble"); fn=tb_world_step ;;
		*) cmd=("$bin/bench_$e"); fn=b2World_Step ;;
		esac
		out=$tmp/cg.$e.$scene
		valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$fn" \
			"${cmd[@]}" --scene "$scene" --steps "$steps" >/dev/null 2>&1
		total=$(awk '/^summary:/ { print $2 }' "$out")
		printf " %14.2f" "$(echo "$total / $steps / 1000000" | bc -l)"
	done
	printf "\n"
done
