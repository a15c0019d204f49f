#!/usr/bin/env bash
# xvfb-run for the tests, safe when several run at once: `xvfb-run -a` picks
# the first free display number, and two runs started together can pick the
# same one, so one of them gets no server ("Xvfb failed to start", or the
# program finds no display). This picks a random number and tries again, up
# to five times, when the server was what failed. Arguments are xvfb-run's,
# without -a. The command's stdout, stderr and exit code pass through.
#
# The X authority file is this script's own (-f): xvfb-run's own temporary
# folder for it, removed after the program ends, now and then failed to go
# ("problem while cleaning up temporary directory", status 5) on a busy
# machine, after the program had ended as it should.
#
# When every try fails, what each try printed goes to stderr, with how long
# it took and the machine's load, so a failure on a busy machine says more.
#
# The server runs with -noreset: by default an X server resets when its last
# client leaves, and a client that connects during the reset is refused. The
# readiness probe below is such a last client, and so is a program that
# closes its display and opens it again (SDL_Quit, then SDL_Init: 5 in 200
# refused here, none with -noreset).
set -u
# xvfb-run's own options (those the tests use, each with its value), then the command
server="-screen 0 1280x1024x24"
opts=()
while [ $# -gt 0 ]; do
  case $1 in
  -s | --server-args) server=$2; shift 2 ;;
  -e | --error-file) opts+=("$1" "$2"); shift 2 ;;
  -*) opts+=("$1"); shift ;;
  *) break ;;
  esac
done
opts+=(-s "$server -noreset")
err=$(mktemp)
auth=$(mktemp)
tries=$(mktemp)
trap 'rm -f "$err" "$auth" "$auth"-* "$tries"' EXIT
failed=0
for try in 1 2 3 4 5; do
  failed=0
  num=$((100 + (RANDOM + $$ + try * 7919) % 8000))
  # a fresh authority file each try: xvfb-run adds its cookie to the file
  rm -f "$auth"; : > "$auth"
  start=$(date +%s%N)
  # the command starts once the server answers a client (up to 5 s): a window
  # opened the moment xvfb-run starts it found no display, now and then
  xvfb-run -n "$num" -f "$auth" "${opts[@]}" bash -c '
    if command -v xdotool > /dev/null; then
      for i in $(seq 50); do xdotool getdisplaygeometry > /dev/null 2>&1 && break; sleep 0.1; done
    fi
    exec "$@"' xvfb_run "$@" 2> "$err"; rc=$?
  if [ $rc -ne 0 ] && grep -q "Xvfb failed to start\|no display to open a window\|Can't open display" "$err"; then
    {
      echo "xvfb_run.sh: try $try on display :$num failed (exit $rc, after $((($(date +%s%N) - start) / 1000000)) ms, load $(cut -d' ' -f1-3 /proc/loadavg)):"
      sed 's/^/  /' "$err"
    } >> "$tries"
    failed=1
    sleep 0.$((RANDOM % 9 + 1))
    continue
  fi
  break
done
[ "$failed" -eq 1 ] && cat "$tries" >&2
cat "$err" >&2
exit $rc
