-- Cost of the Lua binding (tumble.so), with 10,000 bodies in the world.
--   LUA_CPATH="./?.so;;" lua5.4 tests/bench/lua_binding_bench.lua [rounds]
-- Targets: <= 40 ns per property read, <= 300 ns per event delivered
-- to a world:on handler or to a shape's on_begin. Prints one line per
-- measurement; no thresholds are asserted here (timing never gates a test).
local tumble = require "tumble"

local N = 10000
local ROUNDS = tonumber(arg and arg[1]) or 7
local clock = os.clock

local function median(list)
  local t = {}
  for i, v in ipairs(list) do t[i] = v end
  table.sort(t)
  local n = #t
  if n == 0 then return 0 / 0 end
  if n % 2 == 1 then return t[(n + 1) // 2] end
  return 0.5 * (t[n // 2] + t[n // 2 + 1])
end

local function ns_per(iterations, fn)
  -- median of several runs, so a scheduler hiccup does not count
  local runs = {}
  for r = 1, 5 do
    local t0 = clock()
    fn(iterations)
    runs[r] = clock() - t0
  end
  return median(runs) * 1e9 / iterations
end

local function report(name, value, unit, target)
  local verdict = ""
  if target then verdict = value <= target and "  (target <= " .. target .. ": ok)" or "  (target <= " .. target .. ": MISSED)" end
  print(("%-62s %10.1f %s%s"):format(name, value, unit, verdict))
end

print(("tumble %s Lua binding bench, %d bodies"):format(tumble.version, N))

---------------------------------------------------------------------------
-- properties and methods: 10,000 dynamic balls on a grid over a ground
---------------------------------------------------------------------------

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

-- empty loop cost, subtracted from the per-access numbers
local empty = ns_per(ITER, function(n) local s = 0 for _ = 1, n do s = s + 1 end return s end)

local read = ns_per(ITER, function(n) local s = 0 for _ = 1, n do s = s + b.x end return s end) - empty
report("property read  b.x", read, "ns", 40)
local read_bool = ns_per(ITER, function(n) local c = 0 for _ = 1, n do if b.awake then c = c + 1 end end return c end) - empty
report("property read  b.awake", read_bool, "ns", 40)
local write = ns_per(ITER, function(n) for i = 1, n do b.vx = i * 1e-6 end end) - empty
report("property write b.vx = v", write, "ns")
local write_x = ns_per(ITER // 4, function(n) for i = 1, n do b.x = i * 1e-6 end end) - empty
report("property write b.x = v (teleport)", write_x, "ns")
local s = b:shapes()[1]
local sread = ns_per(ITER, function(n) local t = 0 for _ = 1, n do t = t + s.friction end return t end) - empty
report("property read  s.friction", sread, "ns", 40)
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

-- snapshots of this world, with a handle for every body and shape, 500 of them
-- holding a user value (what the Lua side keeps and puts back)
for i = 1, 500 do bodies[i].user = i end
for i = 1, N do local _ = bodies[i]:shapes()[1] end
local function ms_of(rounds, fn)
  local runs = {}
  for r = 1, rounds do
    local t1 = os.clock()
    fn()
    runs[r] = (os.clock() - t1) * 1e3
  end
  return median(runs)
end
local snap = world:snapshot()
report("world:snapshot(), 10,000 bodies and their handles", ms_of(9, function() world:snapshot() end), "ms")
report("world:restore(snap)", ms_of(9, function() world:restore(snap) end), "ms")
local saved = snap:save()
report("snap:save()", ms_of(9, function() snap:save() end), "ms")
report("tumble.snapshot(bytes)", ms_of(9, function() tumble.snapshot(saved) end), "ms")
print(("  snapshot %d bytes held, %d bytes saved"):format(snap.bytes, #saved))
snap = nil
world:destroy()
world, ground, bodies, b, s = nil, nil, nil, nil, nil
collectgarbage()

---------------------------------------------------------------------------
-- events: (step with handlers - step without) / events
---------------------------------------------------------------------------
-- Identical worlds of 10,000 balls resting just above a long ground: one with
-- no handler, the others with a world:on("begin") handler or with every ball's
-- on_begin set. Each round lifts every ball to the same height and steps until
-- they land: all 10,000 touch down in the same step, so that step delivers
-- 10,000 begin events (the ground has no handler of its own: one handler call
-- per event). The rounds of the worlds are interleaved and the worlds are
-- checked to stay bit-identical (same hash), so the steps compared did the same
-- physics. Reported: the median over the rounds of
--   (touchdown step with handlers - the same step without) / events,
-- and the Lua memory the delivery allocated per event (the garbage a later
-- collection pays for; the step starts right after a full collection, so none
-- runs during it).
-- The handlers count events. The headline ones take no parameters, like the
-- bench before this one; those marked "(a, b, contact)" take the contact too,
-- and a handler that can see it costs its allocation.

local function event_world(mode, takes_contact)
  local w = tumble.world{ gravity = { 0, -10 }, sleeping = false }
  local g = w:body{}
  g:box{ w = 10000, h = 1, y = -0.5 }
  local state = { count = 0 }
  local handler
  if takes_contact then
    handler = function(_, _, contact) state.count = state.count + 1 end
  else
    handler = function() state.count = state.count + 1 end
  end
  local balls = {}
  for i = 1, N do
    local bb = w:body{ type = "dynamic", x = (i - N / 2) * 0.99, y = 0.6 }
    local sh = bb:circle{ r = 0.45 }
    if mode == "shape" then sh.on_begin = handler end
    balls[i] = bb
  end
  if mode == "world" then w:on("begin", handler) end
  state.world, state.balls = w, balls
  return state
end

local function lift(st)
  local balls = st.balls
  for i = 1, N do
    local bb = balls[i]
    bb:set_position(bb.x, 0.6, 0)
    bb:set_velocity(0, 0, 0)
  end
  -- leave the ground: every contact ends (not timed)
  for _ = 1, 3 do st.world:step(1 / 60) end
end

-- Steps until the touchdown step; returns its index, its CPU time (s), the Lua
-- memory it allocated (bytes) and the events it delivered.
local function drop(st, touchdown)
  local w = st.world
  collectgarbage()
  for k = 1, 60 do
    local before = st.count
    local c0 = w.contact_count
    local m0 = collectgarbage("count")
    local t0 = clock()
    w:step(1 / 60)
    local t1 = clock()
    local m1 = collectgarbage("count")
    if (touchdown and k == touchdown) or (not touchdown and w.contact_count - c0 >= N) then
      return k, t1 - t0, (m1 - m0) * 1024, st.count - before
    end
  end
  error("the balls never landed")
end

local cases = {
  { name = "world", label = "event to world:on('begin')", mode = "world" },
  { name = "shape", label = "event to s.on_begin", mode = "shape" },
  { name = "world_c", label = "event to world:on('begin') (a, b, contact)", mode = "world", contact = true },
  { name = "shape_c", label = "event to s.on_begin (self, other, contact)", mode = "shape", contact = true },
}
local worlds = { none = event_world("none") }
local order = { "none" }
for _, c in ipairs(cases) do
  worlds[c.name] = event_world(c.mode, c.contact)
  order[#order + 1] = c.name
  c.step, c.bytes, c.delivered = {}, {}, 0
end
for r = 1, ROUNDS + 1 do
  local t = {}
  local touchdown
  -- rotate the order so no world is always first after a collection
  for i = 0, #order - 1 do
    local name = order[(i + r) % #order + 1]
    local st = worlds[name]
    lift(st)
    local k, step, bytes, events = drop(st, touchdown)
    touchdown = touchdown or k
    t[name] = { step = step, bytes = bytes, events = events }
  end
  local h = worlds.none.world:hash()
  for _, name in ipairs(order) do assert(worlds[name].world:hash() == h, "the event worlds diverged") end
  if r > 1 then -- the first round warms caches and grows the event arrays
    for _, c in ipairs(cases) do
      local ev = t[c.name].events
      assert(ev == N, ("%s: %d events in the touchdown step, %d expected"):format(c.name, ev, N))
      c.delivered = c.delivered + ev
      table.insert(c.step, (t[c.name].step - t.none.step) * 1e9 / ev)
      table.insert(c.bytes, (t[c.name].bytes - t.none.bytes) / ev)
    end
  end
end
for i, c in ipairs(cases) do
  report(("%s (%d events)"):format(c.label, c.delivered), median(c.step), "ns", i <= 2 and 300 or nil)
  report("  Lua memory allocated per event", median(c.bytes), "bytes")
end
