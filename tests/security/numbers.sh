#!/usr/bin/env bash
# Security suite, class "numbers and the world": mass properties
# that would be denormal or infinite are refused or clamped, and every derived
# quantity stays finite; destroy_all delivers end and sensor_exit events.
# Run inside `tumble --sandbox` and in plain lua5.4 (fixed in the engine and
# the binding).
. "$(dirname "$0")/lib.sh"

prelude='
local function finite(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end
local function normal(x) return x == 0 or (finite(x) and math.abs(x) >= 2.2250738585072014e-308 * 2^(1022 - 126)) end
-- a shape either is refused with a Lua error, or leaves a body whose every
-- derived quantity is finite (and whose mass is zero or a normal float)
local function check(make)
  local w = T.world{ gravity = { 0, -10 } }
  local b = w:body{ type = "dynamic" }
  local ok = pcall(make, b)
  if not ok then return end
  w:step(1 / 60)
  assert(normal(b.mass), "mass " .. tostring(b.mass))
  assert(finite(b.inertia), "inertia " .. tostring(b.inertia))
  local cx, cy = b:world_center()
  assert(finite(cx) and finite(cy), "world_center " .. tostring(cx) .. ", " .. tostring(cy))
  local lx, ly = b:local_center()
  assert(finite(lx) and finite(ly), "local_center " .. tostring(lx) .. ", " .. tostring(ly))
  local vx, vy = b:velocity_at(1, 1)
  assert(finite(vx) and finite(vy), "velocity_at " .. tostring(vx) .. ", " .. tostring(vy))
  assert(finite(b.x) and finite(b.y) and finite(b.angle), "position after a step")
end
'
declare -A CASES
CASES[tiny_density]='check(function(b) b:circle{ r = 0.5, density = 1e-40 } end)'
CASES[tiny_radius]='check(function(b) b:circle{ r = 1e-20 } end)'
CASES[tiny_box]='check(function(b) b:box{ w = 1e-20, h = 1e-20 } end)
check(function(b) b:capsule{ 0, 0, 1e-20, 0, 1e-20 } end)
check(function(b) b:polygon{ 0, 0, 1e-19, 0, 0, 1e-19 } end)'
CASES[huge_density]='check(function(b) b:circle{ r = 1000, density = 1e30 } end)
check(function(b) b:box{ w = 1e5, h = 1e5, density = 1e30 } end)'
CASES[destroy_all_events]='
local w = T.world{ gravity = { 0, -10 } }
local ground = w:body{ type = "static" }
ground:box{ w = 10, h = 1 }
local sensor = w:body{ type = "static", y = 1 }
sensor:box{ w = 4, h = 4, sensor = true }
local ball = w:body{ type = "dynamic", y = 1 }
ball:circle{ r = 0.5 }
local ends, exits = 0, 0
w:on("end", function() ends = ends + 1 end)
w:on("sensor_exit", function() exits = exits + 1 end)
for i = 1, 60 do w:step(1 / 60) end
w:destroy_all()
w:step(1 / 60)
assert(ends > 0, "destroy_all delivered no end event")
assert(exits > 0, "destroy_all delivered no sensor_exit event")
'
for name in tiny_density tiny_radius tiny_box huge_density destroy_all_events; do
  L=$(level "num_$name" <<EOF
local T = tumble
$prelude
${CASES[$name]}
tumble.exit(0, "finite")
EOF
)
  host_case "numbers (host --sandbox): $name" ok "finite" 10 0 --sandbox "$L"
  cat > "$TMP/num_$name.lua" <<EOF
local T = require "tumble"
$prelude
${CASES[$name]}
print("finite")
EOF
  lua_case "numbers (module): $name" ok "finite" 10 0 "$TMP/num_$name.lua"
done
finish
