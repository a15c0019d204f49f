#!/usr/bin/env bash
# tumble benchmarks: runs bench_tumble and, when they were built, bench_box2d and
# bench_chipmunk, then prints one table per measure with the peer / tumble ratios.
#
#   tests/bench/run.sh [ARGS...]        ARGS go to every binary (e.g. --scene rain --steps 100)
#   tests/bench/run.sh --table FILE     only print the tables of an earlier run's results
#
# BENCH_BIN: where the binaries are (default: tests/bench/bin).
# BENCH_OUT: the results file (default: $BENCH_BIN/results.txt).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${BENCH_BIN:-$here/bin}
out=${BENCH_OUT:-$bin/results.txt}

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
	function ratio(peer, base) {
		if (peer == "" || base == "" || base + 0 <= 0) return "-"
		return sprintf("%.2f", peer / base)
	}
	function orna(v) { return v == "" ? "-" : v }
	/^scene=/ {
		s = field($0, "scene"); e = field($0, "engine")
		if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
		ms[s, e] = field($0, "ms_per_step")
		awake[s, e] = field($0, "ms_awake")
		aw_steps = field($0, "awake_steps")
		wall[s, e] = field($0, "wall_ms_per_step")
		steps[s] = field($0, "steps")
		bodies[s, e] = field($0, "bodies")
		drift[s, e] = field($0, "top_drift_cm")
		sag[s, e] = field($0, "max_sag_cm")
		sleep[s, e] = field($0, "first_sleep_step")
		awake_end[s, e] = field($0, "awake_end")
		gap[s, e] = field($0, "joint_gap_cm")
		esc[s, e] = field($0, "escaped")
		if (e == "tumble") has_t = 1
		if (e == "box2d") has_b = 1
		if (e == "chipmunk") has_c = 1
	}
	END {
		if (ns == 0) { print "no results"; exit 1 }
		printf "\nCPU time per step, ms (all steps, sleeping on; ratio = peer ms / tumble ms, > 1 means tumble is faster)\n"
		printf "%-14s %6s %9s %9s %9s %8s %8s\n", "scene", "steps", "tumble", "box2d", "chipmunk", "b2/tb", "cp/tb"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "%-14s %6s %9s %9s %9s %8s %8s\n", s, steps[s], orna(ms[s, "tumble"]), orna(ms[s, "box2d"]),
				orna(ms[s, "chipmunk"]), ratio(ms[s, "box2d"], ms[s, "tumble"]), ratio(ms[s, "chipmunk"], ms[s, "tumble"])
		}
		printf "\nCPU time per step, ms, first %s steps (every body awake in every engine)\n", aw_steps
		printf "%-14s %6s %9s %9s %9s %8s %8s\n", "scene", "steps", "tumble", "box2d", "chipmunk", "b2/tb", "cp/tb"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "%-14s %6s %9s %9s %9s %8s %8s\n", s, aw_steps, orna(awake[s, "tumble"]), orna(awake[s, "box2d"]),
				orna(awake[s, "chipmunk"]), ratio(awake[s, "box2d"], awake[s, "tumble"]),
				ratio(awake[s, "chipmunk"], awake[s, "tumble"])
		}
		printf "\nWall time per step, ms (all steps)\n"
		printf "%-14s %9s %9s %9s\n", "scene", "tumble", "box2d", "chipmunk"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "%-14s %9s %9s %9s\n", s, orna(wall[s, "tumble"]), orna(wall[s, "box2d"]), orna(wall[s, "chipmunk"])
		}
		printf "\nStability at the end of the run. drift: how far the probe moved from its start (cm);\n"
		printf "sag: its largest drop below its start during the run (cm). Probe: the top box of the\n"
		printf "pyramid (many_pyramids: worst of the 20 tops), the bottom-centre circle of the joint grid.\n"
		printf "gap: largest joint anchor separation (cm). escaped: circles outside the container.\n"
		printf "sleep: first step at which a body slept (-1: none); awake: awake dynamic bodies at the end.\n"
		printf "%-14s %-9s %10s %10s %10s %8s %7s %7s %s\n", "scene", "engine", "drift_cm", "sag_cm", "gap_cm", "escaped",
			"sleep", "awake", "status"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			for (k = 1; k <= 3; k++) {
				e = (k == 1 ? "tumble" : k == 2 ? "box2d" : "chipmunk")
				if (ms[s, e] == "") continue
				status = "ok"
				if (drift[s, e] != "" && drift[s, e] + 0 > 1000) status = "collapsed/diverged"
				if (gap[s, e] != "" && gap[s, e] + 0 > 100) status = "diverged"
				if (esc[s, e] != "" && esc[s, e] + 0 > 0) status = "tunnelled"
				printf "%-14s %-9s %10s %10s %10s %8s %7s %7s %s\n", s, e, orna(drift[s, e]), orna(sag[s, e]),
					orna(gap[s, e]), orna(esc[s, e]), orna(sleep[s, e]), orna(awake_end[s, e]), status
			}
		}
	}' "$1"
}

if [ "${1:-}" = "--table" ]; then
	tables "${2:?usage: run.sh --table FILE}"
	exit $?
fi

mkdir -p "$(dirname "$out")"
: > "$out"

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
echo "tumble benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "CPU: ${cpu:-unknown} ($(nproc 2>/dev/null || echo '?') cores visible), load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "NOTE: numbers come from one noisy shared machine; ms are the thread's CPU time per step,"
echo "      single-threaded, dt = 1/60 s. tumble: 8 substeps; Box2D 2.4: 8 velocity / 3 position"
echo "      iterations; Chipmunk 7: 10 iterations, spatial hash. Ratios move by ~10-20% run to run."
for pkg in libbox2d-dev libchipmunk-dev; do
	v=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) && echo "      $pkg $v (Debian's release build)"
done
echo

status=0
for engine in tumble box2d chipmunk; do
	exe=$bin/bench_$engine
	if [ ! -x "$exe" ]; then
		echo "bench: $exe not built: skipping $engine"
		[ "$engine" = tumble ] && status=1
		continue
	fi
	echo "== $engine"
	# Chipmunk's debug build prints a banner on stdout: keep only the result lines.
	if ! "$exe" "$@" | grep --line-buffered '^scene=' | tee -a "$out"; then
		echo "bench: $engine failed"
		status=1
	fi
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
