#!/usr/bin/env bash
# Security suite, class "budgets that C work and finalizers slip past": the
# soft limit (a Lua error naming the callback) fires before the watchdog's
# hard stop wherever the work happens in C: host metatables a __gc could be
# put in, a rewind that puts back a metatable that gained __gc, Lua's parser
# (quadratic on a chain of `and`s: load, require and the level file itself),
# table.sort driven by __len and C metamethods, C loops below the old charge
# step, string functions that make or scan big strings.
# Cases that test a budget other than time run with a time limit far above
# their own run time, so that limit cannot fire first on a slow machine.
. "$(dirname "$0")/lib.sh"
LONG=(--sandbox --time-limit 120)

# --- no Lua finalizer, whatever path a metatable takes ---
L=$(level image_mt <<'EOF'
local img = tumble.gfx.image("hero.png")
local mt = getmetatable(img)
if type(mt) == "table" then mt.__gc = function() while true do end end end
img = nil
collectgarbage(); collectgarbage()
tumble.exit(0, "image metatable: " .. type(mt))
EOF
)
cp "$ROOT/examples/assets/hero.png" "$(dirname "$L")/"
host_case "finalizer: an Image's metatable is protected (getmetatable gives its name, no __gc can be put in it)" ok \
  "image metatable: string" 30 0 "${LONG[@]}" "$L"

L=$(level sound_mt <<'EOF'
local snd = tumble.beep({})
local mt = getmetatable(snd)
if type(mt) == "table" then mt.__gc = function() while true do end end end
snd = nil
collectgarbage(); collectgarbage()
tumble.exit(0, "sound metatable: " .. type(mt))
EOF
)
host_case "finalizer: a Sound's metatable is protected" ok "sound metatable: string" 30 0 "${LONG[@]}" "$L"

# A rewind (Page Up, then F2 to play on) puts level.state's tables back with
# their metatables; a __gc added to that metatable after setmetatable (which
# Lua ignores) must not become a finalizer then: at close it would loop.
L=$(raw_level rewind_gc <<'EOF'
local level = {}
local mt = {}
local frames = 0
function level.load(world)
  level.state = { t = setmetatable({}, mt) }
end
function level.update()
  frames = frames + 1
  if frames == 100 then mt.__gc = function() while true do end end end
  if frames == 200 then tumble.exit(0, "played on after the rewind") end
end
return level
EOF
)
printf '%s\n' 'tumble-input 1' 'view 640 480' 'F 1 120' 'kd pageup' 'ku pageup' 'F 1' 'kd pageup' 'ku pageup' 'F 1' \
  'kd f2' 'ku f2' 'F 1 200' > "$TMP/rewind_gc.rec"
host_case "finalizer: a rewind does not turn a __gc added after setmetatable into a finalizer (it would loop at close)" \
  ok "played on after the rewind" 60 0 --sandbox --time-limit 20 --frames 600 --replay "$TMP/rewind_gc.rec" "$L"

# --- Lua's parser: its quadratic work ends at the time limit ---
L=$(level parse_load <<'EOF'
local src = "local a = true return a" .. (" and a"):rep(100000)
local f, e = load(src)
tumble.exit(0, "parsed: " .. tostring(e))
EOF
)
host_case "parse: load of 100,000 'and's ends at the time limit, not the hard stop" error \
  "time limit exceeded in load \(1 s\)" 10 0 --sandbox --time-limit 1 "$L"

L=$(level parse_reader <<'EOF'
local src = "local a = true return a" .. (" and a"):rep(100000)
local given = false
local f, e = load(function() if given then return nil end given = true return src end)
tumble.exit(0, "parsed: " .. tostring(e))
EOF
)
host_case "parse: the same chain handed over in one block by a reader function" error \
  "time limit exceeded in load \(1 s\)" 10 0 --sandbox --time-limit 1 "$L"

L=$(level parse_require <<'EOF'
require("chain")
EOF
)
python3 -c "print('local a = true return a' + ' and a' * 100000)" > "$(dirname "$L")/chain.lua"
host_case "parse: require of a module holding the chain" error "time limit exceeded in load \(1 s\)" 10 0 \
  --sandbox --time-limit 1 "$L"

dir="$TMP/parse_level"; mkdir -p "$dir"
python3 -c "print('local a = true return a' + ' and a' * 100000)" > "$dir/level.lua"
host_case "parse: a level file holding the chain (parsed before any callback runs)" error \
  "time limit exceeded in main chunk \(1 s\)" 10 0 --sandbox --time-limit 1 "$dir/level.lua"
host_case "parse: the same without --sandbox (the watchdog of every run)" error \
  "time limit exceeded in main chunk \(1 s\)" 10 0 --time-limit 1 "$dir/level.lua"
L=$(level parse_loadfile <<EOF
local f, e = loadfile("$dir/level.lua")
tumble.exit(0, "parsed: " .. tostring(e))
EOF
)
host_case "parse: loadfile of that file without --sandbox" error "time limit exceeded in load \(1 s\)" 10 0 \
  --time-limit 1 "$L"

# --- C loops charged in proportion to their work ---
L=$(level sort_len <<'EOF'
local t = setmetatable({}, { __len = function() return 2^31 - 2 end, __index = rawequal, __newindex = rawequal })
table.sort(t, rawequal)
EOF
)
host_case "sort: a __len of 2^31 with C reads, writes and order is charged per comparison" error \
  "instruction limit exceeded in load" 30 0 "${LONG[@]}" --instr-limit 1000000 "$L"
host_case "sort: the same ends at the time limit too (each comparison lets a stop through)" error \
  "time limit exceeded in load \(1 s\)" 10 0 --sandbox --time-limit 1 --instr-limit 1000000000000 "$L"

L=$(level concat_small <<'EOF'
local t = {}
for i = 1, 4000 do t[i] = "x" end
for i = 1, 100000 do table.concat(t) end
tumble.exit(0, "not charged")
EOF
)
host_case "concat: calls of fewer than 4,096 elements are charged too" error "instruction limit exceeded in load" \
  30 0 "${LONG[@]}" --instr-limit 10000000 "$L"

L=$(level unpack_charged <<'EOF'
local t = setmetatable({}, { __index = rawequal })
for i = 1, 100000 do table.unpack(t, 1, 900000) end
tumble.exit(0, "not charged")
EOF
)
host_case "unpack: each element is charged (its reads may be C metamethods)" error \
  "instruction limit exceeded in load" 30 0 "${LONG[@]}" --instr-limit 10000000 "$L"

L=$(level string_charged <<'EOF'
local big = ("x"):rep(1 << 20)
for i = 1, 100000 do local s = big:upper() end
tumble.exit(0, "not charged")
EOF
)
host_case "string: upper of a megabyte is charged for what it makes" error "instruction limit exceeded in load" \
  30 0 "${LONG[@]}" --instr-limit 10000000 "$L"

L=$(level utf8_charged <<'EOF'
local big = ("x"):rep(1 << 20)
for i = 1, 100000 do local n = utf8.len(big) end
tumble.exit(0, "not charged")
EOF
)
host_case "utf8: len of a megabyte is charged for what it scans" error "instruction limit exceeded in load" \
  30 0 "${LONG[@]}" --instr-limit 10000000 "$L"

L=$(level same_results <<'EOF'
local a = {}
for i = 1, 500 do a[i] = (i * 7919) % 101 end
table.sort(a)
for i = 2, #a do assert(a[i - 1] <= a[i]) end
local b = { 5, 3, 1, 4, 2 }
table.sort(b, function(x, y) return x > y end)
assert(table.concat(b, ",") == "5,4,3,2,1")
assert(select("#", table.unpack({ 1, nil, 3 }, 1, 3)) == 3)
assert(not pcall(table.sort, { 3, 2, 1, 5, 4, 7, 6, 9, 8 }, function() return true end))
local ok, e = pcall(string.format, "%d", "x")
assert(e:find("bad argument #2 to 'string.format'", 1, true), e)
ok, e = pcall(function() return ("%d"):format("x") end)
assert(e:find("bad argument #1 to 'format'", 1, true), e)
assert(("%5.1f|%s"):format(3.14159, "a") == "  3.1|a")
assert(utf8.len("h\u{e9}llo") == 5 and ("abc"):upper() == "ABC")
tumble.exit(0, "same results")
EOF
)
host_case "library: the charged functions give the stock results and messages" ok "same results" 30 0 "${LONG[@]}" "$L"

finish
