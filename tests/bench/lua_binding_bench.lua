-- Cost of the Lua binding (tumble.so), with 10,000 bodies in the world.
--   LUA_CPATH="./?.so;;" lua5.4 tests/bench/lua_binding_bench.lua
-- Targets: <= 50 ns per property access, <= 300 ns per event delivered.
-- Prints one line per measurement; no thresholds are asserted here.
local tumble = require "tumble"

local N = 10000
local clock = os.clock

local function ns_per(iterations, fn)
  -- best of three runs, so a scheduler hiccup does not count
  local best = math.huge
  for _ = 1, 3 do
    local t0 = clock()
    fn(iterations)
    local t = clock() - t0
    if t < best then best = t end
  end
  return best * 1e9 / iterations
end

local function report(name, value, unit, target)
  local verdict = ""
  if target then verdict = value <= target and "  (target <= " .. target .. ": ok)" or "  (target <= " .. target .. ": MISSED)" end
  print(("%-44s %10.1f %s%s"):format(name, value, unit, verdict))
end

-- 10,000 dynamic balls on a grid, asleep-free, over a ground
local world = tumble.world{ sleeping = false }
local ground = world:body{ y = -1 }
ground:box{ w = 1000, h = 1 }
local bodies = {}
for i = 1, N do
  local b = world:body{ type = "dynamic", x = (i % 100) * 1.5, y = 1 + (i // 100) * 1.5 }
  b:circle{ r = 0.5 }
  bodies[i] = b
end
local b = bodies[1]
local ITER = 2000000

print(("tumble %s Lua binding bench, %d bodies"):format(tumble.version, N))

-- empty loop cost, subtracted from the per-access numbers
local empty = ns_per(ITER, function(n) local s = 0 for _ = 1, n do s = s + 1 end return s end)

local read = ns_per(ITER, function(n) local s = 0 for _ = 1, n do s = s + b.x end return s end) - empty
report("property read  b.x", read, "ns", 50)
local read_bool = ns_per(ITER, function(n) local c = 0 for _ = 1, n do if b.awake then c = c + 1 end end return c end) - empty
report("property read  b.awake", read_bool, "ns", 50)
local write = ns_per(ITER, function(n) for i = 1, n do b.vx = i * 1e-6 end end) - empty
report("property write b.vx = v", write, "ns", 50)
local write_x = ns_per(ITER // 4, function(n) for i = 1, n do b.x = i * 1e-6 end end) - empty
report("property write b.x = v (teleport)", write_x, "ns")
local s = b:shapes()[1]
local sread = ns_per(ITER, function(n) local t = 0 for _ = 1, n do t = t + s.friction end return t end) - empty
report("property read  s.friction", sread, "ns", 50)
local method = ns_per(ITER, function(n) for _ = 1, n do b:apply_force(0, 1) end end) - empty
report("method call    b:apply_force(0, 1)", method, "ns")
local method3 = ns_per(ITER, function(n) local t = 0 for _ = 1, n do local x, y, a = b:get_position() t = t + x + y + a end return t end) - empty
report("method call    b:get_position() -> 3 values", method3, "ns")
local unknown = ns_per(ITER, function(n) local c = 0 for _ = 1, n do if b.no_such then c = c + 1 end end return c end) - empty
report("property read  (unknown name -> nil)", unknown, "ns")

-- all positions vs one step
local function read_all()
  local sx = 0
  for i = 1, N do local bi = bodies[i] sx = sx + bi.x + bi.y end
  return sx
end
local t_read = ns_per(20, function(n) for _ = 1, n do read_all() end end) / 1e6
report("read x, y of all 10,000 bodies", t_read, "ms")
local t_read_iter = ns_per(10, function(n)
  for _ = 1, n do local sx = 0 for bb in world:bodies() do sx = sx + bb.x end end
end) / 1e6
report("iterate world:bodies() and read x", t_read_iter, "ms")
local t0 = clock()
for _ = 1, 5 do world:step(1 / 60) end
local t_step = (clock() - t0) * 1e3 / 5
report("one world:step(1/60), 10,000 bodies", t_step, "ms")
print(("  reading every position costs %.1f%% of a step"):format(100 * t_read / t_step))

-- events: 10,000 balls resting just above a ground all touch down in the same
-- step; every 40 steps they are lifted back so the begin events repeat. The cost
-- is the dispatch time (world.dispatch_ms, the batch after the step) per event,
-- best step of the run.
local function event_world(per_shape)
  local w = tumble.world{ gravity = { 0, -10 } }
  local g = w:body{}
  g:box{ w = 10000, h = 1, y = -0.5 }
  local count = 0
  local handler = function() count = count + 1 end
  local balls = {}
  for i = 1, N do
    local bb = w:body{ type = "dynamic", x = (i - N / 2) * 0.99, y = 0.47 }
    local sh = bb:circle{ r = 0.45 }
    if per_shape then sh.on_begin = handler end
    balls[i] = bb
  end
  if not per_shape then w:on("begin", handler) end
  local best, events = math.huge, 0
  for k = 1, 200 do
    local before = count
    w:step(1 / 60)
    local n = count - before
    if n >= N / 2 then
      best = math.min(best, w.dispatch_ms * 1e6 / n)
      events = events + n
    end
    if k % 40 == 0 then
      for i = 1, N do balls[i].y = 0.47; balls[i].vy = 0 end
    end
  end
  return best, events
end
local per_event, n_events = event_world(false)
report(("event to world:on('begin') (%d events)"):format(n_events), per_event, "ns", 300)
local per_event_shape, n_shape = event_world(true)
report(("event to s.on_begin (%d events)"):format(n_shape), per_event_shape, "ns", 300)
