#!/usr/bin/env bash
# tumble benchmarks: runs Box2D v3's scenes on tumble (at v3's settings,
# tumble_fast, and at its own defaults, tumble; on the AVX2 path of its contact
# solver, and beside it on the AVX-512 path when the CPU has one: tumble_fast_512,
# tumble_512), on every Box2D v3.1 build that was found (bench_v3_*), on every
# Box2D main build (bench_main_*), on Box2D 2.4 and on Chipmunk, in interleaved
# rounds (each scene runs on every engine back to back, then the next scene,
# then the next round), and prints the medians, the ratios to v3 and main and
# the stability columns.
#
#   tests/bench/run.sh [ARGS...]        ARGS go to every binary (e.g. --steps 100)
#   tests/bench/run.sh --table FILE     only print the tables of an earlier run's results
#
# BENCH_SCENES        comma list (default: all ten)
# BENCH_ROUNDS        rounds of tumble and v3 (default 3)
# BENCH_PEER_ROUNDS   rounds of Box2D 2.4 and Chipmunk, which are only context (default 1)
# BENCH_WIDE=0        leave out tumble's AVX-512 runs (a shorter round)
# BENCH_BIN: where the binaries are (default: tests/bench/bin).
# BENCH_OUT: the results file (default: $BENCH_BIN/results.txt).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${BENCH_BIN:-$here/bin}
out=${BENCH_OUT:-$bin/results.txt}
scenes=${BENCH_SCENES:-large_pyramid,many_pyramids,rain,joint_grid,tumbler,smash,spinner,junkyard,washer,compounds}
rounds=${BENCH_ROUNDS:-3}
peer_rounds=${BENCH_PEER_ROUNDS:-1}

tables() {
	awk '
	function field(line, key,   n, i, kv, parts) {
		n = split(line, parts, " ")
		for (i = 1; i <= n; i++) {
			split(parts[i], kv, "=")
			if (kv[1] == key) return kv[2]
		}
		return ""
	}
	function median(key,   n, i, j, t, v) {
		n = cnt[key]
		if (n == 0) return ""
		for (i = 1; i <= n; i++) v[i] = vals[key, i] + 0
		for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
		if (n % 2) return v[(n + 1) / 2]
		return (v[n / 2] + v[n / 2 + 1]) / 2
	}
	function add(key, value) { if (value == "") return; cnt[key]++; vals[key, cnt[key]] = value }
	function ratio(a, b) { if (a == "" || b == "" || b + 0 <= 0) return "-"; return sprintf("%.2f", a / b) }
	function orna(v) { return v == "" ? "-" : v }
	function fmt(v) { return v == "" ? "-" : sprintf("%.3f", v) }
	/^scene=/ {
		s = field($0, "scene"); e = field($0, "engine")
		if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
		if (!(e in eseen)) { eseen[e] = 1; engines[++ne] = e; if (e ~ /^(v3|main)_/) v3[++nv] = e }
		add(s SUBSEP e SUBSEP "ms", field($0, "ms_per_step"))
		add(s SUBSEP e SUBSEP "wall", field($0, "wall_ms_per_step"))
		if (!((s, e) in first)) {
			first[s, e] = 1
			steps[s] = field($0, "steps")
			drift[s, e] = field($0, "top_drift_cm"); sag[s, e] = field($0, "max_sag_cm")
			gap[s, e] = field($0, "joint_gap_cm"); lodged[s, e] = field($0, "lodged")
			overlap[s, e] = field($0, "wall_overlap_cm"); esc[s, e] = field($0, "escaped")
			sleep[s, e] = field($0, "first_sleep_step"); awake_end[s, e] = field($0, "awake_end")
			hash[s, e] = field($0, "hash")
		}
	}
	END {
		if (ns == 0) { print "no results"; exit 1 }
		printf "\nCPU time per step, ms (median of the rounds; every step but the first)\n"
		printf "%-14s %6s", "scene", "steps"
		for (k = 1; k <= ne; k++) printf " %15s", engines[k]
		printf "\n"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "%-14s %6s", s, steps[s]
			for (k = 1; k <= ne; k++) { m[s, engines[k]] = median(s SUBSEP engines[k] SUBSEP "ms"); printf " %15s", fmt(m[s, engines[k]]) }
			printf "\n"
		}
		# the runs of tumble: the AVX2 path (the headline) and the AVX-512 path beside it
		nt = 0
		if ("tumble_fast" in eseen) { tl[++nt] = "tumble_fast"; th[nt] = "fast" }
		if ("tumble" in eseen) { tl[++nt] = "tumble"; th[nt] = "tumble" }
		if ("tumble_fast_512" in eseen) { tl[++nt] = "tumble_fast_512"; th[nt] = "fast_512" }
		if ("tumble_512" in eseen) { tl[++nt] = "tumble_512"; th[nt] = "tumble_512" }
		for (k = 1; k <= nv; k++) {
			printf "\nRatios to %s (tumble ms / %s ms: below 1 means tumble is faster).\n", v3[k], v3[k]
			printf "fast: 4 substeps, 30 Hz (v3'\''s settings), target <= 0.8; tumble: 8 substeps, 60 Hz, target <= 1.0.\n"
			printf "%-14s", "scene"
			for (t = 1; t <= nt; t++) printf " %11s", th[t]
			printf "\n"
			for (i = 1; i <= ns; i++) {
				s = order[i]
				printf "%-14s", s
				for (t = 1; t <= nt; t++) printf " %11s", ratio(m[s, tl[t]], m[s, v3[k]])
				printf "\n"
			}
		}
		if (("box2d" in eseen) || ("chipmunk" in eseen)) {
			printf "\nRatios of the older peers to tumble (peer ms / tumble ms: above 1 means tumble is faster)\n"
			printf "%-14s %14s %14s\n", "scene", "box2d/tumble", "chipmunk/tumble"
			for (i = 1; i <= ns; i++) {
				s = order[i]
				printf "%-14s %14s %14s\n", s, ratio(m[s, "box2d"], m[s, "tumble"]), ratio(m[s, "chipmunk"], m[s, "tumble"])
			}
		}
		printf "\nWall time per step, ms (median of the rounds)\n"
		printf "%-14s", "scene"
		for (k = 1; k <= ne; k++) printf " %15s", engines[k]
		printf "\n"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "%-14s", s
			for (k = 1; k <= ne; k++) printf " %15s", fmt(median(s SUBSEP engines[k] SUBSEP "wall"))
			printf "\n"
		}
		printf "\nStability at the end of the run (first round). drift: how far the probe moved from its start\n"
		printf "(cm); sag: its largest drop below the start (cm). Probe: the top box (many_pyramids: the worst\n"
		printf "of the 400 tops), the joint grid'\''s bottom-centre circle. gap: largest joint anchor separation\n"
		printf "(cm). tumbler: deepest overlap of a box with a wall (cm) and boxes deeper than 1 cm (lodged).\n"
		printf "escaped: bodies outside their container. sleep: first step a body slept (-1: none).\n"
		printf "%-14s %-16s %9s %9s %8s %8s %7s %7s %6s %7s %s\n", "scene", "engine", "drift_cm", "sag_cm", "gap_cm",
			"wall_cm", "lodged", "escaped", "sleep", "awake", "hash"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			for (k = 1; k <= ne; k++) {
				e = engines[k]
				if (!((s, e) in first)) continue
				printf "%-14s %-16s %9s %9s %8s %8s %7s %7s %6s %7s %s\n", s, e, orna(drift[s, e]), orna(sag[s, e]),
					orna(gap[s, e]), orna(overlap[s, e]), orna(lodged[s, e]), orna(esc[s, e]), orna(sleep[s, e]),
					orna(awake_end[s, e]), orna(hash[s, e])
			}
		}
	}' "$1"
}

if [ "${1:-}" = "--table" ]; then
	tables "${2:?usage: run.sh --table FILE}"
	exit $?
fi

# This script runs what is built; `make bench` builds first. Say so when the
# engine was rebuilt after the binary that measures it.
lib=$here/../../build/libtumble_physics.a
if [ -f "$lib" ] && [ -f "$bin/bench_tumble" ] && [ "$lib" -nt "$bin/bench_tumble" ]; then
	echo "run.sh: warning: $bin/bench_tumble is older than build/libtumble_physics.a (make bench rebuilds it)" >&2
fi

mkdir -p "$(dirname "$out")"
: > "$out"

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
echo "tumble benchmarks: Box2D's benchmark scenes, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "CPU: ${cpu:-unknown} ($(nproc 2>/dev/null || echo '?') cores visible), load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
# The headline runs tumble's AVX2 path (what a CPU without AVX-512 runs; Box2D
# has no AVX-512 path); the AVX-512 path runs beside it where the CPU has one.
# Every path gives the same bits (the hash column says so).
has_path() { "$bin/bench_tumble" --solver "$1" --scene tumbler --steps 1 >/dev/null 2>&1; }
headline=avx2
if [ -x "$bin/bench_tumble" ] && ! has_path avx2; then headline=sse2; fi
wide=
[ "${BENCH_WIDE:-1}" != 0 ] && [ -x "$bin/bench_tumble" ] && has_path avx512 && wide=avx512
echo "tumble's contact solver path: tumble_fast, tumble: $headline${wide:+; tumble_fast_512, tumble_512: $wide}"

echo "Thread CPU ms per step, single-threaded, dt = 1/60 s. tumble_fast: 4 substeps, 30 Hz contacts (v3's"
echo "settings); tumble: 8 substeps, 60 Hz (its defaults); v3_*: Box2D v3.1, main_*: Box2D main, both at"
echo "their defaults (4 substeps, 30 Hz); box2d: Box2D 2.4, 8 velocity / 3 position iterations; chipmunk:"
echo "Chipmunk 7, 10 iterations. junkyard, washer and compounds (Box2D main's newer scenes) need a kinematic"
echo "target and run on tumble, v3 and main only."
echo "$rounds interleaved rounds (Box2D 2.4 and Chipmunk: $peer_rounds); medians. The machine is shared: check"
echo "the load average; callgrind (tests/bench/callgrind.sh) is the steady measure."
for pkg in libbox2d-dev libchipmunk-dev; do
	v=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) && echo "      $pkg $v (Debian's release build)"
done
echo

# engine label, binary, options
runs=()
if [ -x "$bin/bench_tumble" ]; then
	runs+=("tumble_fast|$bin/bench_tumble|--fast --solver $headline" "tumble|$bin/bench_tumble|--solver $headline")
	[ -n "$wide" ] && runs+=("tumble_fast_512|$bin/bench_tumble|--fast --solver $wide --label tumble_fast_512"
		"tumble_512|$bin/bench_tumble|--solver $wide --label tumble_512")
fi
for exe in "$bin"/bench_v3_* "$bin"/bench_main_*; do
	[ -x "$exe" ] && runs+=("$(basename "$exe" | sed 's/^bench_//')|$exe|")
done
peers=()
for engine in box2d chipmunk; do
	if [ -x "$bin/bench_$engine" ]; then peers+=("$engine|$bin/bench_$engine|"); else echo "bench: bench_$engine not built: skipping"; fi
done
if [ ! -x "$bin/bench_tumble" ]; then
	echo "bench: $bin/bench_tumble not built"
	exit 1
fi

status=0
IFS=, read -r -a scene_list <<< "$scenes"
for ((round = 1; round <= rounds; round++)); do
	for scene in "${scene_list[@]}"; do
		list=("${runs[@]}")
		# Box2D 2.4 and Chipmunk have no runner for main's newer scenes.
		case $scene in junkyard | washer | compounds) ;; *) [ "$round" -le "$peer_rounds" ] && list+=("${peers[@]}") ;; esac
		for r in "${list[@]}"; do
			IFS='|' read -r label exe opts <<< "$r"
			# Chipmunk's debug build prints a banner on stdout: keep only the result lines.
			# shellcheck disable=SC2086
			if ! "$exe" $opts --scene "$scene" "$@" | grep --line-buffered '^scene=' | sed "s/\$/ round=$round/" |
				tee -a "$out" | cut -c1-160; then
				echo "bench: $label failed on $scene"
				status=1
			fi
		done
	done
done

tables "$out" || status=1

# Snapshots (tumble only): one line, its own fields.
if [ -x "$bin/bench_snapshot" ]; then
	echo
	echo "Snapshots of large_pyramid after 30 steps (ms: median of 21, wall clock; bytes held and saved):"
	if ! "$bin/bench_snapshot" | tee -a "$out"; then
		echo "bench: bench_snapshot failed"
		status=1
	fi
fi
# Sleeping bodies (tumble only): the same 100 awake boxes with and without
# 100,000 asleep beside them.
if [ -x "$bin/bench_sleeping" ]; then
	echo
	echo "Sleeping bodies (ms/step, best of 7 interleaved rounds of 100 steps):"
	if ! "$bin/bench_sleeping" | tee -a "$out"; then
		echo "bench: bench_sleeping failed"
		status=1
	fi
fi
echo
echo "results: $out"
exit $status
