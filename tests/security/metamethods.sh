#!/usr/bin/env bash
# Security suite, class "crashes through metamethods": option tables
# whose __index destroys the world (or the body) in the middle of a binding
# call, and the binding's metatables, run inside `tumble --sandbox` and in
# plain lua5.4 against tumble.so. Expected: a Lua error or success, never a
# crash (fixed in the binding: options read raw, handles taken again after
# anything that runs Lua, protected metatables).
. "$(dirname "$0")/lib.sh"

# Each case is a Lua body run with `T` (the tumble module) in scope; it must
# end normally. `at(n, fn, values)` makes an empty option table whose
# lookups return values[k], and whose n-th lookup runs fn first (so every
# point of a binding call is hit, n = 1..12). A binding that reads option
# tables raw never runs them, which is a fix too: the cases ask only that
# nothing crashes (the harness checks its own poison first).
prelude='
local fires = 0
local function at(n, fn, values)
  local count = 0
  values = values or {}
  return setmetatable({}, { __index = function(t, k)
    count = count + 1
    if count == n then fires = fires + 1 fn(k) end
    return values[k]
  end })
end
do -- the harness itself: the n-th lookup fires
  local probe = at(2, function() end, { x = 1 })
  assert(probe.x == 1 and fires == 0 and probe.y == nil and fires == 1, "the test harness is broken")
  fires = 0
end
local function each(make)
  for n = 1, 12 do
    local w = T.world{}
    pcall(make, w, n)
    pcall(function() w:step(1 / 60) end)
    collectgarbage()
  end
end
local function pair(w)
  local a = w:body{ type = "dynamic" }; a:circle{ r = 1 }
  local b = w:body{ type = "dynamic", x = 2 }; b:circle{ r = 1 }
  return a, b
end
'
declare -A CASES
CASES[body_options]='
each(function(w, n) return w:body(at(n, function() w:destroy() end, { type = "dynamic", x = 1, y = 2, angle = 0.5 })) end)
each(function(w, n) return w:body(setmetatable({}, { __index = function() w:destroy() end })) end)
'
CASES[joint_options]='
each(function(w, n)
  local a, b = pair(w)
  return w:joint(at(n, function() w:destroy() end, { kind = "revolute", a = a, b = b, x = 1, y = 0 }))
end)
each(function(w, n)
  local a, b = pair(w)
  return w:joint(at(n, function() a:destroy() end, { kind = "distance", a = a, b = b, length = 2 }))
end)
'
CASES[prismatic_axis]='
each(function(w, n)
  local a, b = pair(w)
  return w:joint{ kind = "prismatic", a = a, b = b, axis = at(n, function() w:destroy() end, { [1] = 0, [2] = 1 }) }
end)
each(function(w, n)
  local a, b = pair(w)
  return w:joint{ kind = "prismatic", a = a, b = b, axis = setmetatable({}, { __index = function() w:destroy() end }) }
end)
'
CASES[gravity_table]='
each(function(w, n) w.gravity = at(n, function() w:destroy() end, { [1] = 0, [2] = -10 }) end)
each(function(w, n) w.gravity = setmetatable({}, { __index = function() w:destroy() end }) end)
'
CASES[shape_on_fields]='
each(function(w, n)
  local b = w:body{ type = "dynamic" }
  return b:circle(at(n, function() w:destroy() end, { r = 1, density = 1 }))
end)
each(function(w, n)
  local b = w:body{ type = "dynamic" }
  return b:circle(setmetatable({ r = 1 }, { __index = function(t, k) if tostring(k):match("^on_") then w:destroy() end end }))
end)
'
CASES[shape_destroys_body]='
each(function(w, n)
  local b = w:body{ type = "dynamic" }
  return b:box(at(n, function() b:destroy() end, { w = 1, h = 1 }))
end)
each(function(w, n)
  local b = w:body{ type = "dynamic" }
  return b:polygon(at(n, function() b:destroy() end, { [1] = 0, [2] = 0, [3] = 1, [4] = 0, [5] = 0, [6] = 1 }))
end)
'
CASES[metatable_gc]='
local w = T.world{}
local b = w:body{ type = "dynamic" }
local mt = getmetatable(b)
if type(mt) == "table" then
  pcall(function() mt.__gc(b) end)
  pcall(function() mt.__index = function() error("hijacked") end end)
end
local ok = pcall(function() return b.x end)
assert(ok and type(b.x) == "number", "a body is unusable after its metatable was touched")
'
CASES[fuzz_options]='
-- random option tables whose lookups destroy things, for every constructor
local seed = 7
local function rnd(k) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % k end
for i = 1, 400 do
  local w = T.world{}
  local a, b = pair(w)
  local victims = { function() w:destroy() end, function() a:destroy() end, function() b:destroy() end,
                    function() collectgarbage() end, function() error("boom") end }
  local hit = victims[1 + rnd(#victims)]
  local v = {}
  local o = at(1 + rnd(10), hit, v)
  local calls = {
    function() v.type = "dynamic" return w:body(o) end,
    function() v.r = 0.3 return a:circle(o) end,
    function() v.w, v.h = 1, 1 return b:box(o) end,
    function() v.kind, v.a, v.b = "revolute", a, b return w:joint(o) end,
    function() v.kind, v.a, v.b = "weld", a, b return w:joint(o) end,
    function() v.kind, v.a, v.b, v.axis = "prismatic", a, b, at(1 + rnd(3), hit) return w:joint(o) end,
    function() w.gravity = o end,
    function() v[1], v[2], v[3], v[4] = 0, 0, 1, 0 return a:segment(o) end,
    function() v[1], v[2], v[3], v[4], v[5], v[6] = 0, 0, 1, 0, 0, 1 return a:polygon(o) end,
    function() v[1], v[2], v[3], v[4], v[5] = 0, 0, 1, 0, 0.2 return a:capsule(o) end,
  }
  pcall(calls[1 + rnd(#calls)])
  pcall(function() w:step(1 / 60) end)
end
'

for name in body_options joint_options prismatic_axis gravity_table shape_on_fields shape_destroys_body metatable_gc fuzz_options; do
  L=$(level "mm_$name" <<EOF
local T = tumble
$prelude
${CASES[$name]}
tumble.exit(0, "survived (poison ran " .. fires .. " times)")
EOF
)
  host_case "metamethods (host --sandbox): $name" ok "survived" 20 0 --sandbox "$L"
  cat > "$TMP/mm_$name.lua" <<EOF
local T = require "tumble"
$prelude
${CASES[$name]}
print("survived (poison ran " .. fires .. " times)")
EOF
  lua_case "metamethods (module): $name" ok "survived" 20 0 "$TMP/mm_$name.lua"
done
finish
