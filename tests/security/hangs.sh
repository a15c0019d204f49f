#!/usr/bin/env bash
# Security suite, class "sandbox hangs and limits": every way to
# hold the host in a callback ends with a clear error within its budget:
# finalizers, xpcall handlers, C functions that loop (patterns, table.move,
# table.insert/remove/concat, string.rep), loops that keep hitting the memory
# limit, finalizers at close, print.
. "$(dirname "$0")/lib.sh"
SB=(--sandbox --time-limit 0.5)

# --- finalizers ---
L=$(level gc_run <<'EOF'
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
EOF
)
host_case "hang: an endless __gc is refused in the sandbox (no hook can stop a finalizer)" error \
  "__gc metamethods are not allowed in the sandbox" 5 0 "${SB[@]}" "$L"

L=$(level gc_late <<'EOF'
local mt = {}
local t = setmetatable({}, mt)
mt.__gc = function() while true do end end -- too late: Lua marks objects at setmetatable
t = nil
collectgarbage(); collectgarbage()
tumble.exit(0, "no finalizer ran")
EOF
)
host_case "hang: a __gc added after setmetatable never runs" ok "no finalizer ran" 5 0 "${SB[@]}" "$L"

L=$(raw_level gc_plain <<'EOF'
local level = {}
function level.update()
  for i = 1, 100 do setmetatable({}, { __gc = function() while true do end end }) end
  collectgarbage()
end
return level
EOF
)
host_case "hang: without --sandbox an endless __gc ends the process (hard stop, message)" error \
  "watchdog: update has run for .* cannot be interrupted" 6 0 --time-limit 0.5 "$L"

L=$(level gc_close <<'EOF'
GLOBAL_KEEP = setmetatable({}, { __gc = function() while true do end end })
EOF
)
host_case "hang: an endless __gc at lua_close ends the process (bounded lua_close)" error \
  "watchdog: closing the level \(finalizers\) has run" 6 0 --frames 2 --time-limit 0.5 "$L"

L=$(level gc_close_alloc <<'EOF'
GLOBAL_KEEP = setmetatable({}, { __gc = function()
  local t = {}
  for i = 1, 1e9 do t[i] = { i } end
end })
EOF
)
host_case "limit: a finalizer at close that allocates stops at the memory cap" ok "" 8 120 --frames 2 --mem-limit 32 "$L"

# --- level code the host's own glue runs ---
L=$(level camera_glue <<'EOF'
local target = setmetatable({}, { __index = function() error("boom") end })
tumble.camera = setmetatable({}, {
  __index = function(t, k) if k == "target" then return target end end,
  __newindex = function() while true do end end, -- run when the host stops following
})
EOF
)
host_case "hang: a camera table whose __newindex loops when the host unfollows it" error "limit exceeded in camera" \
  5 0 "${SB[@]}" "$L"

L=$(raw_level conf_tostring <<'EOF'
local level = {}
level.conf = { width = setmetatable({}, { __tostring = function() while true do end end }) }
return level
EOF
)
host_case "hang: a level.conf value whose __tostring loops (the host's message calls it)" error \
  "limit exceeded in level.conf" 5 0 "${SB[@]}" "$L"
L=$(raw_level conf_camera <<'EOF'
local level = {}
level.conf = { camera = { x = 1 } }
rawset(tumble.camera, "x", nil)
setmetatable(tumble.camera, { __newindex = function() while true do end end })
return level
EOF
)
host_case "hang: a camera table whose __newindex loops when level.conf sets it" error \
  "limit exceeded in (level.conf|camera)" 5 0 "${SB[@]}" "$L"

# --- message handlers ---
L=$(level xpcall_instr <<'EOF'
xpcall(function() while true do end end, function(m) while true do end end)
EOF
)
host_case "hang: an xpcall handler that loops after the instruction limit" error "instruction limit exceeded in load" \
  5 0 --sandbox --instr-limit 1000000 "$L"

L=$(level xpcall_time <<'EOF'
xpcall(function() while true do end end, function(m) while true do end end)
EOF
)
host_case "hang: an xpcall handler that loops after the time limit (no --sandbox)" error "time limit exceeded in load" \
  5 0 --time-limit 0.5 "$L"

L=$(level xpcall_nested <<'EOF'
local co = coroutine.wrap(function()
  xpcall(function() xpcall(function() while true do end end, function() while true do end end) end,
         function() while true do end end)
end)
co()
EOF
)
host_case "hang: nested xpcall handlers inside a coroutine" error "limit exceeded in load" 5 0 "${SB[@]}" "$L"

L=$(level tostring_error <<'EOF'
error(setmetatable({}, { __tostring = function() while true do end end }))
EOF
)
host_case "hang: an error object whose __tostring loops (the host's traceback calls it)" error \
  "limit exceeded in load" 5 0 "${SB[@]}" "$L"

# --- C functions that loop without returning to the VM ---
pattern_case() {
  local label=$1 code=$2
  L=$(level "pat_$N" <<EOF
$code
EOF
)
  host_case "hang: $label" error "limit exceeded in load" 5 0 "${SB[@]}" "$L"
}
pattern_case "string.match backtracking (a* twelve times against 3000 a's)" 'string.match(("a"):rep(3000), ("a*"):rep(12) .. "b")'
pattern_case "string.gsub backtracking" 'string.gsub(("a"):rep(5000), "a-a-a-a-b", "")'
pattern_case "string.gmatch backtracking" 'for _ in ("a"):rep(3000):gmatch(("a-"):rep(12) .. "b") do end'
pattern_case "string.find backtracking on a method call" 'local s = ("a"):rep(32); s:find(("a?"):rep(32) .. ("a"):rep(32))'
pattern_case "table.move({}, 1, 2^53, 1, {})" 'table.move({}, 1, 2^53, 1, {})'
pattern_case "table.insert with a __len that says 2^63" \
  'table.insert(setmetatable({}, { __len = function() return math.maxinteger - 1 end }), 1, "x")'
pattern_case "table.remove with a __len that says 2^63" \
  'table.remove(setmetatable({}, { __len = function() return math.maxinteger - 1 end }), 1)'
pattern_case "table.concat with __index = table.concat (C calling C)" \
  'table.concat(setmetatable({}, { __index = table.concat }), "", 1, math.maxinteger)'
pattern_case "load with a C reader that never ends" 'load(math.random)'

L=$(level rep_empty <<'EOF'
assert(string.rep("", math.maxinteger) == "" and ("").rep("", 2^40, "") == "")
tumble.exit(0, "instant")
EOF
)
host_case "hang: string.rep of nothing, 2^63 times, returns at once" ok "instant" 5 0 "${SB[@]}" "$L"

L=$(level sort_big <<'EOF'
local t = {}
for i = 1, 3e6 do t[i] = (i * 7919) % 1000003 end
table.sort(t)
EOF
)
host_case "limit: table.sort of 3e6 numbers is charged before it runs" error "limit exceeded in load" 8 400 \
  --sandbox --instr-limit 20000000 "$L"

# --- the memory limit, hit again and again ---
L=$(level mem_rep <<'EOF'
while true do pcall(string.rep, "x", 1e8) end
EOF
)
host_case "limit: pcall(string.rep) past the memory limit, in a loop" error "memory limit exceeded in load \(16 MB\)" \
  5 120 --sandbox --mem-limit 16 "$L"

L=$(level mem_table <<'EOF'
while true do
  pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end)
end
EOF
)
host_case "limit: a table filled to the memory limit, caught and refilled" error "memory limit exceeded in load" \
  10 120 --sandbox --mem-limit 16 "$L"

L=$(level mem_co <<'EOF'
local keep = {}
for i = 1, 100 do keep[i] = ("k"):rep(100000) .. i end -- most of the heap stays live
while true do
  local co = coroutine.create(function() local s = {} for i = 1, 1e9 do s[i] = tostring(i) end end)
  coroutine.resume(co)
end
EOF
)
host_case "limit: coroutines that hit the memory limit, resumed in a loop" error "memory limit exceeded in load" \
  60 120 --sandbox --mem-limit 32 --time-limit 30 "$L"

L=$(level mem_plain <<'EOF'
while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = {} end end) end
EOF
)
host_case "limit: the same loop without --sandbox, under --mem-limit" error "memory limit exceeded in load" \
  10 120 --mem-limit 16 "$L"

# --- print ---
L=$(level print_loop <<'EOF'
local line = ("x"):rep(1000)
for i = 1, 1e9 do print(line) end
EOF
)
host_case "limit: print in an endless loop stops at the output budget" error "output limit exceeded in load" \
  10 0 --sandbox --output-limit 2 "$L"
size=$(stat -c %s "$TMP/out")
N=$((N + 1))
if [ "$size" -le $((2 * 1024 * 1024 + 1000)) ] && [ "$size" -gt 1000000 ]; then
  echo "ok $N - limit: what print wrote stayed within the budget ($size bytes of 2 MB)"
else
  echo "not ok $N - limit: what print wrote stayed within the budget ($size bytes of 2 MB)"
fi

L=$(level print_big <<'EOF'
print(("y"):rep(20 * 1024 * 1024))
EOF
)
host_case "limit: one print bigger than the budget writes nothing" error "output limit exceeded" 10 0 --sandbox "$L"
size=$(stat -c %s "$TMP/out")
N=$((N + 1))
if [ "$size" -lt 1000 ]; then echo "ok $N - limit: nothing of it reached stdout ($size bytes)"; else echo "not ok $N - limit: $size bytes reached stdout"; fi

L=$(level print_args <<'EOF'
local t = {}
for i = 1, 7000 do t[i] = ("z"):rep(1000) end
for i = 1, 1e9 do print(table.unpack(t)) end
EOF
)
host_case "limit: print with thousands of arguments stops at the budget" error "output limit exceeded" 10 0 --sandbox "$L"

finish
