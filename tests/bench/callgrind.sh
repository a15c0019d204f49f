#!/usr/bin/env bash
# Profiles tumble's step on a small large_pyramid under callgrind and prints the
# functions with the most instructions (self, then inclusive).
#
#   tests/bench/callgrind.sh [ARGS...]   ARGS go to bench_tumble instead of the default
#                                        "--scene large_pyramid --base 40 --steps 60"
# TOP=N      lines of each listing (default 30)
# COLLECT_ALL=1  count scene building too (default: only inside tb_world_step)
# The raw profile stays in build/bench/callgrind.out.tumble for kcachegrind.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
top=${TOP:-30}

for tool in valgrind callgrind_annotate; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "callgrind.sh: $tool not found (apt-get install valgrind)" >&2
		exit 1
	fi
done

make --no-print-directory -C "$root" build/libtumble_physics.a
make --no-print-directory -C "$here" tumble ROOT="$root" PHYS_LIB="$root/build/libtumble_physics.a"

outdir=$root/build/bench
mkdir -p "$outdir"
out=$outdir/callgrind.out.tumble
rm -f "$out"

if [ $# -eq 0 ]; then
	set -- --scene large_pyramid --base 40 --steps 60
fi
collect=(--toggle-collect=tb_world_step)
[ "${COLLECT_ALL:-0}" = 1 ] && collect=()

valgrind --tool=callgrind --callgrind-out-file="$out" "${collect[@]}" "$here/bin/bench_tumble" "$@"

# The totals line and the function lines, without libc's and the loader's frames.
# callgrind_annotate lists code inlined from a header (tb_math.h:fn) apart from
# the function's own lines (file.c:fn): add both for a function's real share.
listing() {
	sed -n '/PROGRAM TOTALS/,$p' | grep -v -e '^-*$' -e 'csu/' -e '(below main)' -e 'ld-linux' -e '^ *$' |
		head -n "$((top + 2))"
}

echo
echo "== self cost (instructions spent in the function itself)"
callgrind_annotate --threshold=100 "$out" 2>/dev/null | listing
echo
echo "== inclusive cost (the function and everything it calls)"
callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | listing
echo
echo "profile: $out"
