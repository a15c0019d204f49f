# tests/security/lib.sh: helpers for the security regression suite, sourced
# by the case files. Every case runs a level (or a plain lua5.4 script
# against tumble.so) under `timeout` and GNU time, and passes only if:
#   - it ended within its budget (no hang),
#   - it did not crash (no signal, no sanitizer report),
#   - it ended the expected way (a clear Lua error naming the limit, a clean
#     refusal at start, or success),
#   - its peak RSS stayed under the case's ceiling.
# Output is TAP. A case for a fix not made yet (in the binding, the engine or
# the host) that fails today is reported as
#   ok N - ... # TODO-SKIP waiting for <who>: <what went wrong>
# so the suite counts it without failing, and the line says what is missing.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
SO_DIR=${TUMBLE_SO_DIR:-$ROOT}
SAN=${TUMBLE_SANITIZE:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tumble-security.XXXXXX")
# Removed by this shell only: a subshell forked for a background job (a
# case's guard) still holds this trap until it has set itself up, and a
# signal in that moment (the guard killed as soon as its host ended) ran it
# there, removing the folder under the rest of the suite. The playtests' own
# folders are guarded the same way.
trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
N=0
TIMEFMT=/usr/bin/time
if [ -n "$SAN" ]; then
  # a smaller quarantine keeps the sanitizer's own RSS from hiding the level's
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=16:malloc_context_size=4"
  PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
  # slower code, bigger heaps: looser wall and memory ceilings, same limits inside
  SLOW=3; RSS_EXTRA=100
else
  PRELOAD=""; SLOW=1; RSS_EXTRA=0
fi

# raw_level NAME <<'EOF' ... EOF: writes a level file into its own folder, prints its path
raw_level() {
  local dir="$TMP/$1"
  mkdir -p "$dir"
  cat > "$dir/level.lua"
  echo "$dir/level.lua"
}

# level NAME <<'EOF' ... EOF: the same, the text being the body of level.load(world)
level() {
  local dir="$TMP/$1"
  mkdir -p "$dir"
  { echo "local level = {}"; echo "function level.load(world)"; cat; echo "end"; echo "return level"; } > "$dir/level.lua"
  echo "$dir/level.lua"
}

# run_capture SECONDS CMD...: runs CMD under timeout and GNU time; sets
# RC, SECS, RSS_MB and the files $TMP/out, $TMP/err.
run_capture() {
  local limit=$1; shift
  local t0 t1
  t0=$(date +%s%N)
  "$TIMEFMT" -f %M -o "$TMP/rss" timeout -k 2 "$limit" "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null
  RC=$?
  t1=$(date +%s%N)
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  local kb
  kb=$(grep -E '^[0-9]+$' "$TMP/rss" | tail -1)
  RSS_MB=$(( ${kb:-0} / 1024 ))
  # GNU time reports a killed child as "Command terminated by signal N" and exit 128+N
  if grep -q "Command terminated by signal" "$TMP/rss"; then
    RC=$((128 + $(sed -n 's/.*signal \([0-9]*\).*/\1/p' "$TMP/rss" | head -1)))
  fi
}

# why_bad EXPECT PATTERN BUDGET RSS_CEILING: empty if the last run met the case
why_bad() {
  local expect=$1 pattern=$2 budget=$3 ceiling=$4
  if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then echo "hung: killed after ${budget}s"; return; fi
  if [ "$RC" -ge 128 ]; then echo "crashed: signal $((RC - 128))"; return; fi
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|Segmentation fault|unprotected Lua error' "$TMP/err"; then
    echo "crashed: $(grep -m1 -E 'AddressSanitizer|runtime error:|Segmentation|unprotected' "$TMP/err")"; return
  fi
  case $expect in
    error) [ "$RC" -ne 0 ] || { echo "exit 0, expected an error"; return; } ;;
    ok) [ "$RC" -eq 0 ] || { echo "exit $RC: $(head -c 300 "$TMP/err" | tr '\n' ' ')"; return; } ;;
    any) ;;
  esac
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$TMP/err" "$TMP/out"; then
    echo "no /$pattern/ in the output: $(head -c 300 "$TMP/err" | tr '\n' ' ')"; return
  fi
  if [ "$ceiling" -gt 0 ] && [ "$RSS_MB" -gt "$ceiling" ]; then echo "peak RSS ${RSS_MB} MB > ${ceiling} MB"; return; fi
}

report() {
  local label=$1 bad=$2 todo=${3:-}
  N=$((N + 1))
  if [ -z "$bad" ]; then
    echo "ok $N - $label (exit $RC, ${SECS} s, ${RSS_MB} MB)"
  elif [ -n "$todo" ]; then
    echo "ok $N - $label # TODO-SKIP waiting for $todo: $bad"
  else
    echo "not ok $N - $label: $bad (exit $RC, ${SECS} s, ${RSS_MB} MB)"
    sed 's/^/#   /' "$TMP/err" | head -8
  fi
}

# The host's time limit for a case that gives none: a case that tests another
# limit must not end on the host's 1 s default first because the machine is
# slow or busy. A suite that tests the default itself sets HOST_TIME_LIMIT=
# (empty: the host's own default).
HOST_TIME_LIMIT=${HOST_TIME_LIMIT-30}
time_limit_args() {
  TL_ARGS=()
  case " $* " in *" --time-limit "*) return ;; esac
  [ -n "$HOST_TIME_LIMIT" ] && TL_ARGS=(--time-limit "$HOST_TIME_LIMIT")
}

# host_case LABEL EXPECT PATTERN BUDGET RSS_CEILING_MB ARGS...
#   EXPECT: error (non-zero exit) | ok (exit 0) | any; PATTERN: an ERE that must
#   appear on stderr/stdout ("" for none); BUDGET: seconds before it counts as
#   a hang; RSS_CEILING_MB: 0 for no check. The host runs headless, with
#   --time-limit HOST_TIME_LIMIT unless ARGS give one.
host_case() {
  local label=$1 expect=$2 pattern=$3 budget=$4 ceiling=$5; shift 5
  local b
  b=$(awk -v a="$budget" -v s="$SLOW" 'BEGIN { printf "%g", a * s }')
  [ "$ceiling" -gt 0 ] && ceiling=$((ceiling + RSS_EXTRA))
  time_limit_args "$@"
  run_capture "$b" "$BIN" --headless "${TL_ARGS[@]}" "$@"
  report "$label" "$(why_bad "$expect" "$pattern" "$b" "$ceiling")"
}

# host_todo WHO LABEL EXPECT PATTERN BUDGET RSS ARGS...: as host_case, but a
# failure is reported as TODO-SKIP, waiting for WHO.
host_todo() {
  local who=$1 label=$2 expect=$3 pattern=$4 budget=$5 ceiling=$6; shift 6
  local b
  b=$(awk -v a="$budget" -v s="$SLOW" 'BEGIN { printf "%g", a * s }')
  [ "$ceiling" -gt 0 ] && ceiling=$((ceiling + RSS_EXTRA))
  time_limit_args "$@"
  run_capture "$b" "$BIN" --headless "${TL_ARGS[@]}" "$@"
  report "$label" "$(why_bad "$expect" "$pattern" "$b" "$ceiling")" "$who"
}

# lua_case LABEL EXPECT PATTERN BUDGET RSS SCRIPT_FILE: the module under plain lua5.4
lua_case() {
  local label=$1 expect=$2 pattern=$3 budget=$4 ceiling=$5 script=$6 who=${7:-}
  local b
  b=$(awk -v a="$budget" -v s="$SLOW" 'BEGIN { printf "%g", a * s }')
  [ "$ceiling" -gt 0 ] && ceiling=$((ceiling + RSS_EXTRA))
  run_capture "$b" env LD_PRELOAD="$PRELOAD" LUA_CPATH="$SO_DIR/?.so;;" LUA_PATH="$ROOT/lua/?.lua;;" lua5.4 "$script"
  report "$label" "$(why_bad "$expect" "$pattern" "$b" "$ceiling")" "$who"
}

finish() {
  echo "1..$N"
}
