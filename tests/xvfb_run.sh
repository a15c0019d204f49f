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
set -u
err=$(mktemp)
auth=$(mktemp)
trap 'rm -f "$err" "$auth" "$auth"-*' EXIT
for try in 1 2 3 4 5; do
  num=$((100 + (RANDOM + $$ + try * 7919) % 8000))
  xvfb-run -n "$num" -f "$auth" "$@" 2> "$err"; rc=$?
  if [ $rc -ne 0 ] && grep -q "Xvfb failed to start\|no display to open a window\|Can't open display" "$err"; then
    sleep 0.$((RANDOM % 9 + 1))
    continue
  fi
  break
done
cat "$err" >&2
exit $rc
