-- Events: world:on and per-shape handlers, order, contact data, mutation inside
-- handlers, errors inside handlers.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

-- A ball of radius 0.5 whose bottom is `drop` above the ground.
local function drop_ball(w, x, drop)
  local b = w:body{ type = "dynamic", x = x or 0, y = 0.5 + (drop or 0.5) }
  return b, b:circle{ r = 0.5 }
end

local function name(s, ball, ground)
  if s == ball then return "ball" elseif s == ground then return "ground" else return tostring(s) end
end

describe("event handlers", function()
  it("run after the step in a fixed order: begin, end, hit; world handler, then a's, then b's", function()
    local w, _, gs = h.world_with_ground()
    local _, ball = drop_ball(w)
    local log = {}
    local function logger(tag)
      return function(a, b) log[#log + 1] = tag .. " " .. name(a, ball, gs) .. "/" .. name(b, ball, gs) end
    end
    w:on("begin", logger("world:begin"))
    w:on("hit", logger("world:hit"))
    w:on("end", logger("world:end"))
    ball.on_begin = logger("ball.on_begin"); gs.on_begin = logger("ground.on_begin")
    ball.on_hit = logger("ball.on_hit"); gs.on_hit = logger("ground.on_hit")
    ball.on_end = logger("ball.on_end")
    local landed
    for i = 1, 60 do
      w:step(1 / 60)
      if #log > 0 and not landed then landed = i; break end
    end
    assert.is_truthy(landed)
    -- the engine reports the ball as shape a (created last, it is the moving one)
    assert.are.same({
      "world:begin ball/ground", "ball.on_begin ball/ground", "ground.on_begin ground/ball",
      "world:hit ball/ground", "ball.on_hit ball/ground", "ground.on_hit ground/ball",
    }, log)
    log = {}
    h.step(w, 5)
    assert.are.same({}, log) -- resting: nothing new
    ball.body.y = 5 -- lift it away: the contact ends at the next step
    w:step(1 / 60)
    assert.are.same({ "world:end ball/ground", "ball.on_end ball/ground" }, log)
  end)

  it("give the contact data: normal, points, approach speed", function()
    local w, _, gs = h.world_with_ground()
    local body, ball = drop_ball(w, 0, 0.5)
    local got, theirs, hit
    w:on("begin", function(a, b, c) got = { a = a, b = b, c = c, vy = body.vy } end)
    gs.on_begin = function(self, other, c) theirs = { self = self, other = other, c = c } end
    w:on("hit", function(a, b, c) hit = c end)
    h.step(w, 40)
    assert.is_truthy(got)
    assert.are.equal(ball, got.a); assert.are.equal(gs, got.b)
    local c = got.c
    -- normal from a (the ball) to b (the ground): straight down
    assert.is_true(near(c.nx, 0)); assert.is_true(near(c.ny, -1))
    assert.are.equal(c.nx, c.normal.x); assert.are.equal(c.ny, c.normal[2])
    assert.are.equal(1, c.count); assert.are.equal(1, #c.points)
    assert.is_true(near(c.points[1].x, 0, 1e-4)); assert.is_true(math.abs(c.points[1].y) < 0.05)
    assert.are.equal(c.points[1].x, c.point.x)
    assert.are.equal(1, #c.separations)
    assert.is_true(c.depth >= 0)
    -- falling 0.5 m: v = sqrt(2 g h) = 3.16 m/s, within a step's worth of gravity
    assert.is_true(math.abs(c.approach_speed - math.sqrt(2 * 10 * 0.5)) < 0.35, tostring(c.approach_speed))
    -- the ground's own handler sees itself first and the normal from itself to the ball
    assert.are.equal(gs, theirs.self); assert.are.equal(ball, theirs.other)
    assert.is_true(near(theirs.c.ny, 1))
    assert.are.equal(c.approach_speed, theirs.c.approach_speed)
    -- hit: one point and the approach speed, no separations
    assert.is_truthy(hit)
    assert.are.equal(1, hit.count); assert.is_nil(hit.separations); assert.is_nil(hit.depth)
    assert.are.equal(c.approach_speed, hit.approach_speed)
    assert.are.equal("Contact is read-only", error_of(function() c.nx = 1 end))
    assert.is_truthy(tostring(c):match("^Contact%(1 points"))
  end)

  it("report two points for a box landing flat", function()
    local w = h.world_with_ground()
    local b = w:body{ type = "dynamic", y = 1 }
    b:box{ w = 1, h = 1 }
    local c
    w:on("begin", function(_, _, contact) c = contact end)
    h.step(w, 40)
    assert.are.equal(2, c.count)
    assert.is_true(near(math.abs(c.ny), 1))
    local xs = { c.points[1].x, c.points[2].x }
    table.sort(xs)
    assert.is_true(near(xs[1], -0.5, 0.01) and near(xs[2], 0.5, 0.01))
  end)

  it("respect the world's hit threshold", function()
    local w = h.world_with_ground{ hit_threshold = 100 }
    drop_ball(w)
    local hits = 0
    w:on("hit", function() hits = hits + 1 end)
    h.step(w, 40)
    assert.are.equal(0, hits)
  end)

  it("deliver sensor enter and exit with (sensor, visitor)", function()
    local w = tumble.world()
    local zone = w:body{ y = 5 }:box{ w = 4, h = 1, sensor = true }
    local body, ball = drop_ball(w, 0, 8)
    local log = {}
    w:on("sensor_enter", function(s, v, c) log[#log + 1] = { "enter", s, v, c } end)
    w:on("sensor_exit", function(s, v, c) log[#log + 1] = { "exit", s, v, c } end)
    zone.on_sensor_enter = function(self, other) log[#log + 1] = { "zone enter", self, other } end
    zone.on_sensor_exit = function(self, other) log[#log + 1] = { "zone exit", self, other } end
    ball.on_sensor_enter = function() log[#log + 1] = { "visitor handler must not run" } end
    h.step(w, 120)
    assert.is_true(body.y < 3)
    assert.are.equal(4, #log)
    assert.are.same({ "enter", zone, ball }, log[1])
    assert.are.same({ "zone enter", zone, ball }, log[2])
    assert.are.same({ "exit", zone, ball }, log[3])
    assert.are.same({ "zone exit", zone, ball }, log[4])
  end)

  it("survive the Lua handles being dropped (handlers are kept with the shape)", function()
    local w = h.world_with_ground()
    local count = 0
    do
      local _, ball = drop_ball(w)
      ball.on_begin = function() count = count + 1 end
    end
    h.collect()
    h.step(w, 40)
    assert.are.equal(1, count)
  end)

  it("give the contact to every handler that can see it, whatever its other handlers take", function()
    local w, _, gs = h.world_with_ground()
    local _, ball = drop_ball(w)
    local got = {}
    w:on("begin", function(...) got.world = select(3, ...) end)              -- vararg
    ball.on_begin = function(self, other) got.two = { self, other } end       -- cannot see it
    gs.on_begin = function(self, other, contact) got.three = contact end
    h.step(w, 40)
    assert.are.equal("Contact", getmetatable(got.world))
    assert.are.equal("Contact", getmetatable(got.three))
    assert.are.same({ ball, gs }, got.two)
    -- a copy each: the ground's normal points the other way
    assert.is_true(near(got.world.ny, -got.three.ny))
    -- switched to a handler that takes it: it gets it
    ball.body.y = 3
    h.step(w, 5)
    ball.on_begin = function(_, _, contact) got.now = contact end
    w:on("begin", function() end) -- one that cannot see it
    h.step(w, 60)
    assert.are.equal("Contact", getmetatable(got.now))
    assert.is_true(near(got.now.ny, got.world.ny))
  end)

  it("stop when removed", function()
    local w, _, gs = h.world_with_ground()
    local _, ball = drop_ball(w)
    local count = 0
    local f = function() count = count + 1 end
    w:on("begin", f); ball.on_begin = f; gs.on_begin = f
    w:on("begin", nil); ball.on_begin = nil
    h.step(w, 40)
    assert.are.equal(1, count) -- the ground's only
  end)

  it("run in the same order on every run", function()
    local function run()
      local w = h.world_with_ground()
      local log = {}
      for i = 1, 6 do
        local b = w:body{ type = "dynamic", x = (i - 3.5) * 0.9, y = 1 + i * 0.3 }
        b:box{ w = 0.8, h = 0.8, user = i }
      end
      for _, ev in ipairs{ "begin", "end", "hit" } do
        w:on(ev, function(a, b) log[#log + 1] = ev .. ":" .. tostring(a.body.user) .. "-" .. tostring(b.body.user) end)
      end
      h.step(w, 90)
      return log
    end
    local a, b = run(), run()
    assert.is_true(#a > 6)
    assert.are.same(a, b)
  end)
end)

describe("mutation inside handlers", function()
  it("may destroy the other body; later events of that shape are skipped", function()
    local w, _, gs = h.world_with_ground()
    local b1, s1 = drop_ball(w, -2)
    local _, s2 = drop_ball(w, 2)
    local seen = {}
    w:on("begin", function(a, b)
      seen[#seen + 1] = a
      if a == s1 or b == s1 then s2.body:destroy() end
    end)
    w:on("hit", function(a) seen[#seen + 1] = a end)
    h.step(w, 40)
    assert.are.same({ s1, s1 }, seen) -- s2's begin and both hits of s2 were dropped
    assert.is_false(s2.valid)
    assert.is_true(b1.valid)
    assert.are.equal(2, w.body_count)
    h.step(w, 10)
    assert.is_true(near(b1.y, 0.5, 0.02))
    assert.is_true(gs.valid)
  end)

  it("deliver end events of destroyed shapes with the stale handle", function()
    local w, _, gs = h.world_with_ground()
    local body, ball = drop_ball(w, 0, 0)
    h.step(w, 5)
    local ended
    gs.on_end = function(self, other) ended = { self = self, other = other, valid = other.valid } end
    body:destroy()
    w:step(1 / 60)
    assert.is_truthy(ended)
    assert.are.equal(gs, ended.self)
    assert.are.equal(ball, ended.other)
    assert.is_false(ended.valid)
  end)

  it("deliver end and sensor_exit events of everything world:destroy_all removed", function()
    local w, _, gs = h.world_with_ground()
    local _, ball = drop_ball(w, 0, 0)
    local zone = w:body{ x = 5, y = 2.1 } -- clear of the ground
    local sensor = zone:box{ w = 4, h = 4, sensor = true }
    local _, visitor = drop_ball(w, 5, 0)
    local entered = 0
    sensor.on_sensor_enter = function(self, other) if other == visitor then entered = entered + 1 end end
    h.step(w, 10)
    assert.are.equal(1, entered)
    local ends, exits = {}, {}
    w:on("end", function(a, b) ends[#ends + 1] = (a == gs and b or a) end)
    -- per-shape handlers go with their shapes: the world handler hears these
    w:on("sensor_exit", function(s, v) exits[#exits + 1] = { self = s, other = v } end)
    w:destroy_all()
    assert.are.equal(0, #ends) -- they come with the next step
    w:step(1 / 60)
    assert.are.equal(2, #ends)
    assert.is_true((ends[1] == ball and ends[2] == visitor) or (ends[1] == visitor and ends[2] == ball))
    assert.are.equal(1, #exits)
    assert.are.equal(sensor, exits[1].self)
    assert.are.equal(visitor, exits[1].other)
    assert.is_false(exits[1].other.valid)
    w:step(1 / 60)
    assert.are.equal(2, #ends)
    assert.are.equal(1, #exits)
  end)

  it("may create bodies and change settings", function()
    local w = h.world_with_ground()
    drop_ball(w)
    local made
    w:on("begin", function()
      made = w:body{ type = "dynamic", y = 5 }
      made:circle{ r = 0.25 }
      w.gravity = { 0, 10 }
    end)
    h.step(w, 40)
    assert.is_truthy(made)
    assert.are.equal(3, w.body_count)
    assert.are.equal(10, w.gravity.y)
    local y = made.y
    h.step(w, 10)
    assert.is_true(made.y > y) -- falls upwards now
  end)

  it("may clear the world; pending events are skipped", function()
    local w = h.world_with_ground()
    drop_ball(w, -2); drop_ball(w, 2)
    local n = 0
    w:on("begin", function() n = n + 1; w:destroy_all() end)
    h.step(w, 40)
    assert.are.equal(1, n)
    assert.are.equal(0, w.body_count)
    h.step(w, 5)
  end)

  it("may destroy the world itself", function()
    local w = h.world_with_ground()
    drop_ball(w)
    w:on("begin", function() w:destroy() end)
    for _ = 1, 40 do
      w:step(1 / 60) -- returns normally from the step whose handler destroyed the world
      if not w.valid then break end
    end
    assert.is_false(w.valid)
    assert.are.equal("world was destroyed", error_of(function() w:step(1 / 60) end))
  end)

  it("may not step the world", function()
    local w = h.world_with_ground()
    drop_ball(w)
    local msg
    w:on("begin", function() msg = error_of(function() w:step(1 / 60) end) end)
    h.step(w, 40)
    assert.are.equal("cannot step the world from inside an event handler", msg)
  end)
end)

describe("an error inside a handler", function()
  it("comes out of world:step with a traceback naming the handler; the world steps on", function()
    local w, _, gs = h.world_with_ground()
    local body, ball = drop_ball(w)
    local line = debug.getinfo(1, "l").currentline + 1
    local function exploding_handler() error("boom") end
    ball.on_begin = exploding_handler
    local later = 0
    gs.on_begin = function() later = later + 1 end
    local msg
    for _ = 1, 40 do
      local ok, err = pcall(w.step, w, 1 / 60)
      if not ok then msg = err; break end
    end
    assert.is_truthy(msg)
    assert.are.equal("error in on_begin handler of Shape#" .. ball.id .. ": ", msg:sub(1, #("error in on_begin handler of Shape#" .. ball.id .. ": ")))
    assert.is_truthy(msg:find("events_spec.lua:" .. line .. ": boom", 1, true))
    assert.is_truthy(msg:find("stack traceback:", 1, true))
    assert.is_truthy(msg:find("events_spec.lua:" .. line .. ":", msg:find("stack traceback:", 1, true), true))
    -- the rest of that step's events were dropped: the ground's handler never ran
    assert.are.equal(0, later)
    ball.on_begin = nil
    h.step(w, 20)
    assert.are.equal(0, later)
    assert.is_true(near(body.y, 0.5, 0.02))
  end)

  it("names world:on handlers and non-string errors", function()
    local w = h.world_with_ground()
    drop_ball(w)
    w:on("hit", function() error({ code = 1 }) end)
    local msg
    for _ = 1, 40 do
      local ok, err = pcall(w.step, w, 1 / 60)
      if not ok then msg = err; break end
    end
    assert.are.equal("error in world:on('hit') handler: (error object is a table value)", msg:match("^[^\n]*"))
    w:on("hit", nil)
    w:step(1 / 60)
  end)
end)
