-- world:snapshot() from Lua on the 5,050-box pyramid (base 100, 1 m boxes on a
-- ground box), after 30 steps with every box awake and touching.
--   LUA_CPATH="./?.so;;" lua5.4 tests/bench/lua_snapshot_bench.lua [rounds]
-- The script holds a handle for every body and shape, 500 bodies with a user
-- value. Prints one line: the first snapshot of the world (whose block its
-- steps have written ahead: a world keeps one ready), then the median of the
-- next ones when the script keeps each, taken back to back (a list of
-- checkpoints: new memory each time, past the world's spares) and taken 30
-- steps apart (spaced: the steps between write a block ahead), when it
-- replaces one checkpoint (the last one left to the collector) and when it
-- closes the last before taking the next (a <close> variable), and
-- world:restore. Times are the process's CPU time (os.clock, which counts the
-- page faults of new memory), ms. No threshold: timing never gates a test.
local tumble = require "tumble"

local ROUNDS = tonumber(arg and arg[1]) or 15
local clock = os.clock

local function median(list)
  local t = {}
  for i, v in ipairs(list) do t[i] = v end
  table.sort(t)
  local n = #t
  if n % 2 == 1 then return t[(n + 1) // 2] end
  return 0.5 * (t[n // 2] + t[n // 2 + 1])
end

local function ms(fn)
  local t0 = clock()
  local r = fn()
  return (clock() - t0) * 1e3, r
end

local world = tumble.world{ sleeping = false }
local ground = world:body{ y = -1 }
ground:box{ w = 120, h = 2 }
local bodies, shapes = {}, {}
local base = 100
for r = 0, base - 1 do
  for i = r, base - 1 do
    local b = world:body{ type = "dynamic", x = (r + 1) * 0.5 + (i - r) - 0.5 * base, y = (2 * r + 1) * 0.5 }
    shapes[#shapes + 1] = b:box{ w = 1, h = 1 }
    bodies[#bodies + 1] = b
  end
end
for i = 1, 500 do bodies[i].user = i end
for _ = 1, 30 do world:step(1 / 60) end

local first = ms(function() return world:snapshot() end)
-- a list of checkpoints: every one new memory
local kept, list = {}, {}
for r = 1, ROUNDS do kept[r], list[r] = ms(function() return world:snapshot() end) end
-- checkpoints half a second apart, each kept: the world readies a block for
-- the next snapshot over the steps between
local spaced, spaced_list = {}, {}
for r = 1, ROUNDS do
  for _ = 1, 30 do world:step(1 / 60) end
  spaced[r], spaced_list[r] = ms(function() return world:snapshot() end)
end
-- (both lists held until now: every snapshot in them had new memory)
list, spaced_list = nil, nil
collectgarbage()
-- one checkpoint, replaced: the last one is garbage, for the collector to free
local replaced, checkpoint = {}, nil
for r = 1, ROUNDS do replaced[r], checkpoint = ms(function() return world:snapshot() end) end
-- one checkpoint, closed (a to-be-closed variable) before the next is taken
local closed = {}
for r = 1, ROUNDS do
  do local old <close> = checkpoint end
  closed[r], checkpoint = ms(function() return world:snapshot() end)
end
local restores = {}
for r = 1, ROUNDS do restores[r] = ms(function() world:restore(checkpoint) end) end
print(("lua_snapshot scene=large_pyramid bodies=%d handles=%d first_ms=%.3f spaced_ms=%.3f kept_ms=%.3f replaced_ms=%.3f "
  .. "closed_ms=%.3f restore_ms=%.3f bytes=%d")
  :format(#bodies + 1, #bodies + #shapes, first, median(spaced), median(kept), median(replaced), median(closed), median(restores),
    checkpoint.bytes))
