#!/usr/bin/env bash
# Security suite, class "output and input files": every byte a level makes
# the host write goes through the output budget (tumble.exit's message, the
# errors of every frame with --keep-going), and input files are read as what
# they claim to be: a replay is a regular file of text lines of bounded
# length, and junk (NUL bytes, control characters) is refused with its line
# number; a device or a FIFO given as a replay or as the level is refused at
# once.
. "$(dirname "$0")/lib.sh"
LONG=(--time-limit 120)

# bytes_case LABEL STREAM MAX_BYTES EXPECT PATTERN ARGS...: host_case, and the
# stream (out or err) must hold at most MAX_BYTES
bytes_case() {
  local label=$1 stream=$2 max=$3 expect=$4 pattern=$5; shift 5
  local b=$((60 * SLOW)) bad size
  run_capture "$b" "$BIN" --headless "$@"
  bad=$(why_bad "$expect" "$pattern" "$b" 0)
  size=$(wc -c < "$TMP/$stream")
  [ -z "$bad" ] && [ "$size" -gt "$max" ] && bad="$size bytes on std$stream, at most $max expected"
  report "$label" "$bad"
}

# --- output ---
L=$(level exit_big <<'EOF'
tumble.exit(0, ("x"):rep(64 * 1024 * 1024))
EOF
)
bytes_case "output: a 64 MB tumble.exit message is cut (16 KB) and counted" out 20000 ok "bytes cut" \
  --sandbox "${LONG[@]}" --output-limit 1 "$L"

L=$(level exit_counted <<'EOF'
print(("p"):rep(1040000))
tumble.exit(3, ("x"):rep(16000))
EOF
)
bytes_case "output: tumble.exit's message is written within what print left of the budget" err 1200 error \
  "output limit reached" --sandbox "${LONG[@]}" --output-limit 1 "$L"

L=$(raw_level errors_every_frame <<'EOF'
local level = {}
local n = 0
function level.update()
  n = n + 1
  error(("e"):rep(16000) .. n) -- a different 16 KB error every frame
end
return level
EOF
)
bytes_case "output: --keep-going, a different 16 KB error every frame stays within --output-limit" err 1100000 ok \
  "output limit reached" --sandbox "${LONG[@]}" --keep-going --output-limit 1 --frames 300 "$L"
bytes_case "output: the same without --sandbox" err 1100000 ok "output limit reached" "${LONG[@]}" --keep-going \
  --output-limit 1 --frames 300 "$L"

# --- input files ---
L=$(raw_level plain <<'EOF'
local level = {}
function level.update() end
return level
EOF
)
host_case "input: --replay /dev/zero is refused at once" error "cannot open replay /dev/zero: not a regular file" 10 0 \
  "${LONG[@]}" --replay /dev/zero "$L"
mkfifo "$TMP/replay.fifo"
host_case "input: a FIFO as the replay is refused without waiting on it" error "not a regular file" 10 0 "${LONG[@]}" \
  --replay "$TMP/replay.fifo" "$L"
host_case "input: a folder as the replay is refused" error "is a directory" 10 0 "${LONG[@]}" --replay "$TMP" "$L"

printf 'tumble-input 1\nview 640 480\nF 1\n\0\0junk\nF 1\n' > "$TMP/nul.rec"
host_case "input: a replay line starting with NUL bytes is refused with its line number (not skipped as blank)" error \
  "replay line 4 is not text: byte 0x00" 10 0 "${LONG[@]}" --replay "$TMP/nul.rec" "$L"
printf 'tumble-input 1\nF 1\nkd a\033[2J\nF 1\n' > "$TMP/escape.rec"
host_case "input: a replay line holding an escape character is refused" error "replay line 3 is not text: byte 0x1b" 10 0 \
  "${LONG[@]}" --replay "$TMP/escape.rec" "$L"
printf 'tumble-input 1\n\0view 640 480\n' > "$TMP/nul_header.rec"
host_case "input: junk in a replay's header is refused with its line number" error "line 2: byte 0x00" 10 0 \
  "${LONG[@]}" --replay "$TMP/nul_header.rec" "$L"
# (a guard: the stricter reader still takes what Windows editors write)
printf 'tumble-input 1\r\nview 640 480\r\nF 1 3\r\n' > "$TMP/crlf.rec"
host_case "input: a replay with CRLF line ends still plays" ok "frames=3" 10 0 "${LONG[@]}" --frames 3 \
  --replay "$TMP/crlf.rec" "$L"

finish
