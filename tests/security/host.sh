#!/usr/bin/env bash
# Security suite, class "host": a failed hot reload leaves nothing
# of itself behind; replay files are not trusted (step counts, NaN, view
# sizes); exit codes do not lie; error messages are clear (fixed in the host).
. "$(dirname "$0")/lib.sh"

# --- a failed reload is not partly applied ---
dir="$TMP/reload"; mkdir -p "$dir"
# (the level ends a second after the broken file is written, in real time)
cat > "$dir/level.lua" <<EOF
local level = {}
local frames = 0
function level.update()
  frames = frames + 1
  if frames == $((60 * (SLOW + 1))) then
    if LEAKED ~= nil then tumble.exit(3, "the failed reload left LEAKED = " .. tostring(LEAKED)) end
    tumble.exit(0, "the failed reload left nothing behind")
  end
end
return level
EOF
(
  sleep $((1 * SLOW))
  printf 'LEAKED = "from the broken file"\nerror("this reload fails")\n' > "$dir/level.lua.new"
  # keep the same size and mtime order as an editor would not: just replace it
  mv "$dir/level.lua.new" "$dir/level.lua"
) &
run_capture $((15 * SLOW)) "$BIN" --headless --realtime --watch --watch-poll-ms 20 --frames 1000 "$dir/level.lua"
wait
bad=$(why_bad ok "left nothing behind" 15 0)
[ -z "$bad" ] && ! grep -q "reload failed" "$TMP/err" && bad="the reload did not run"
report "host: a failed hot reload leaves no globals behind" "$bad"

# --- replay files are input, not trusted ---
L=$(raw_level replay <<'EOF'
local level = {}
local function check(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) == "number" and (v ~= v or v == math.huge or v == -math.huge) then
      tumble.exit(3, "a non-finite number reached the level")
    end
  end
end
level.gamepadaxis = check
level.wheelmoved = check
level.mousemoved = check
function level.update() if tumble.frame == 20 then tumble.exit(0, "replay checked") end end
return level
EOF
)
L2=$(raw_level replay_steps <<'EOF'
local level = {}
function level.update() end
return level
EOF
)
printf 'tumble-input 1\nview 1280 720\nF 1 2\nF 2000000000\nF 1 30\n' > "$TMP/steps.rec"
host_case "host: a replay frame of 2,000,000,000 steps is refused or capped" any "" 3 0 --frames 10 \
  --replay "$TMP/steps.rec" "$L2"
printf 'tumble-input 1\nview 1280 720\nF 1 2\npc 1\npa leftx nan\nF 1\npa lefty inf\nmw nan inf\nF 1\nmw -inf 1e309\nF 1 30\n' \
  > "$TMP/nan.rec"
host_case "host: NaN and inf axis and wheel values from a replay are refused or never reach the level" any \
  "replay checked|not understood" 5 0 --replay "$TMP/nan.rec" "$L"
N=$((N + 1)); grep -q "non-finite number reached" "$TMP/err" && \
  echo "not ok $N - host: a non-finite number from a replay reached the level" || \
  echo "ok $N - host: no non-finite number from a replay reached the level"
printf 'tumble-input 1\nview 100000 100000\nF 1 30\n' > "$TMP/view.rec"
host_case "host: a replay's oversized view is refused, not a silently failed screenshot" error "view|size" 10 0 \
  --replay "$TMP/view.rec" --screenshot "$TMP/view.bmp" "$L"

# --- exit codes ---
L=$(level exit256 <<'EOF'
tumble.exit(256, "exit 256")
EOF
)
host_case "host: tumble.exit(256) does not exit 0" error "" 5 0 "$L"
L=$(level shot <<'EOF'
tumble.exit(0)
EOF
)
host_case "host: --screenshot into a missing folder exits non-zero" error "screenshot" 5 0 \
  --screenshot /nonexistent/dir/x.bmp "$L"
host_case "host: --sandbox --screenshot into a missing folder is refused at start" error "cannot write screenshot" 5 0 \
  --sandbox --screenshot /nonexistent/dir/x.bmp "$L"

# --- messages ---
L=$(raw_level error_table <<'EOF'
-- the host looks callbacks up through the level table: its __index raises a table
return setmetatable({}, { __index = function() error({ code = 42 }) end })
EOF
)
host_case "host: an error that is a table names the table, not '(no message)'" error "table" 5 0 "$L"
N=$((N + 1)); grep -q "(no message)" "$TMP/err" && \
  echo "not ok $N - host: an error table's message says (no message)" || \
  echo "ok $N - host: the error table's message is not '(no message)'"
L=$(level error_huge <<'EOF'
error(("e"):rep(50 * 1024 * 1024))
EOF
)
host_case "host: a 50 MB error message is cut to a readable size" error "bytes cut" 60 0 --time-limit 30 "$L"
size=$(stat -c %s "$TMP/err")
N=$((N + 1))
if [ "$size" -lt 100000 ]; then echo "ok $N - host: the error report stayed small ($size bytes)"; else
  echo "not ok $N - host: the error report: $size bytes reached stderr"; fi
finish
