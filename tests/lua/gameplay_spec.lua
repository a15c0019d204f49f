-- The binding's gameplay surface: surfaces (rolling resistance, conveyors,
-- one-way platforms, mix rules, sleep thresholds), wheel and motor joints, breakable
-- joints and their events, the pre-solve hook, tumble.distance,
-- world:cast_shape, world:explode and world:mover. Each with what it does
-- and with its bad input (wrong type, NaN, out of range, unknown names):
-- a clear error naming the key, and nothing changed by it.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

local function ground_world(settings)
  local w = tumble.world(settings)
  local g = w:body{ type = "static" }
  g:box{ w = 200, h = 1, y = -0.5, friction = 0.6 }
  return w, g
end

describe("rolling resistance", function()
  it("is an option and a property, and stops a rolling ball where v^2 / (2 a) says, a = 2/3 c g", function()
    local w, g = ground_world{ sleeping = false }
    local c, v0, r = 0.1, 3, 0.5
    local ball = w:body{ type = "dynamic", y = r }
    local s = ball:circle{ r = r, density = 1, friction = 0.8, rolling_resistance = c }
    assert.are.equal("number", type(s.rolling_resistance))
    assert.is_true(near(s.rolling_resistance, c, 1e-6))
    ball.vx, ball.spin = v0, -v0 / r -- rolling, not sliding
    local t = 0
    while ball.vx > 1e-3 and t < 20 do w:step(1 / 60); t = t + 1 / 60 end
    local predicted = 3 * v0 * v0 / (4 * c * 10)
    assert.is_true(math.abs(ball.x - predicted) < 0.05 * predicted, ball.x .. " vs " .. predicted)
    -- without it the ball keeps rolling
    local w2 = ground_world{ sleeping = false }
    local free = w2:body{ type = "dynamic", y = r }
    free:circle{ r = r, density = 1, friction = 0.8 }
    free.vx, free.spin = v0, -v0 / r
    h.step(w2, 120)
    assert.is_true(free.vx > 0.95 * v0)
  end)

  it("refuses what is not a coefficient and keeps its value", function()
    local w = tumble.world()
    local s = w:body{ type = "dynamic" }:circle{ r = 1, rolling_resistance = 0.2 }
    assert.are.equal("bad value for Shape.rolling_resistance (number in [0, 1e6] expected, got -1)",
      error_of(function() s.rolling_resistance = -1 end))
    assert.are.equal("bad value for Shape.rolling_resistance (finite number expected, got nan)",
      error_of(function() s.rolling_resistance = 0 / 0 end))
    assert.are.equal("bad value for Shape.rolling_resistance (number expected, got string)",
      error_of(function() s.rolling_resistance = "high" end))
    assert.are.equal("bad value for Shape.rolling_resistance (number in [0, 1e6] expected, got 2000000.0)",
      error_of(function() s.rolling_resistance = 2e6 end))
    assert.is_true(near(s.rolling_resistance, 0.2, 1e-6))
    assert.are.equal("bad argument #1 to 'box' (field 'rolling_resistance': number in [0, 1e6] expected, got -3)",
      error_of(function() w:body{}:box{ w = 1, h = 1, rolling_resistance = -3 } end))
  end)
end)

describe("tangent speed", function()
  it("carries a box on a belt at the belt's speed, and chains take it too", function()
    for _, use_chain in ipairs{ false, true } do
      local w = tumble.world{ sleeping = false }
      local g = w:body{ type = "static" }
      local belt
      if use_chain then
        -- a chain's front is on the right of its point order: right to left, up
        belt = g:chain{ 50, 0, -50, 0, tangent_speed = 2 }
        for _, link in ipairs(belt) do assert.are.equal(2, link.tangent_speed) end
      else
        belt = g:box{ w = 100, h = 1, y = -0.5, tangent_speed = 2, friction = 0.8 }
        assert.are.equal(2, belt.tangent_speed)
      end
      local box = w:body{ type = "dynamic", y = 0.5 }
      box:box{ w = 1, h = 1, friction = 0.8 }
      h.step(w, 120)
      assert.is_true(near(box.vx, 2, 0.02), tostring(box.vx))
      if not use_chain then
        belt.tangent_speed = -1
        h.step(w, 120)
        assert.is_true(near(box.vx, -1, 0.02), tostring(box.vx))
      end
    end
  end)

  it("refuses NaN and huge speeds", function()
    local s = tumble.world():body{}:box{ w = 1, h = 1, tangent_speed = 3 }
    assert.are.equal("bad value for Shape.tangent_speed (finite number expected, got nan)",
      error_of(function() s.tangent_speed = 0 / 0 end))
    assert.are.equal("bad value for Shape.tangent_speed (number in [-1e6, 1e6] expected, got 2000000.0)",
      error_of(function() s.tangent_speed = 2e6 end))
    assert.are.equal(3, s.tangent_speed)
  end)
end)

describe("one-way platforms", function()
  local function platform_world()
    local w = tumble.world{ sleeping = false }
    local g = w:body{ type = "static" }
    local p = g:box{ w = 6, h = 0.2, y = 3, one_way = { 0, 1 } }
    return w, p
  end

  it("let a body jump up through and land on top, even at 50 m/s", function()
    for _, speed in ipairs{ 9, 50 } do
      local w, p = platform_world()
      local x = p.one_way
      assert.is_true(near(x[1], 0) and near(x[2], 1), "one_way reads back as {0, 1}")
      local b = w:body{ type = "dynamic", y = 1, bullet = speed > 20 }
      b:box{ w = 0.5, h = 0.5 }
      b.vy = speed
      local highest = b.y
      for _ = 1, 900 do
        w:step(1 / 60)
        highest = math.max(highest, b.y)
      end
      assert.is_true(highest > 3.5, "it passed up through")
      assert.is_true(near(b.y, 3.1 + 0.25, 0.02), "and rests on top: " .. b.y)
    end
  end)

  it("reads nil when off, takes any length, and refuses no direction", function()
    local w, p = platform_world()
    p.one_way = { 0, 5 }
    assert.is_true(near(p.one_way[2], 1))
    p.one_way = nil
    assert.is_nil(p.one_way)
    -- off: a body from below bumps its head
    local b = w:body{ type = "dynamic", y = 1 }
    b:box{ w = 0.5, h = 0.5 }
    b.vy = 9
    local highest = b.y
    for _ = 1, 120 do w:step(1 / 60); highest = math.max(highest, b.y) end
    assert.is_true(highest < 3)
    assert.are.equal("bad value for Shape.one_way (a direction expected, got {0, 0} (nil turns it off))",
      error_of(function() p.one_way = { 0, 0 } end))
    assert.are.equal("bad value for Shape.one_way (finite number expected, got nan)",
      error_of(function() p.one_way = { 0 / 0, 1 } end))
    assert.are.equal("bad value for Shape.one_way ({x, y} table expected, got string)",
      error_of(function() p.one_way = "up" end))
    assert.is_nil(p.one_way)
    assert.are.equal("bad argument #1 to 'box' (field 'one_way': a direction expected, got {0, 0} (nil turns it off))",
      error_of(function() w:body{}:box{ w = 1, h = 1, one_way = { 0, 0 } } end))
  end)
end)

describe("mix rules", function()
  it("name the rule for friction and restitution, and each changes a bounce", function()
    local e = {}
    for _, rule in ipairs{ "geometric", "max", "min", "average", "multiply" } do
      local w = tumble.world{ sleeping = false }
      w.restitution_mix = rule
      assert.are.equal(rule, w.restitution_mix)
      w.friction_mix = rule
      assert.are.equal(rule, w.friction_mix)
      local g = w:body{ type = "static" }
      g:box{ w = 10, h = 1, y = -0.5, restitution = 0.25 }
      local b = w:body{ type = "dynamic", y = 2.25, fixed_rotation = true }
      b:box{ w = 0.5, h = 0.5, restitution = 0.81 }
      local down, up = 0, 0
      for _ = 1, 60 do
        w:step(1 / 60)
        if up == 0 then down = math.min(down, b.vy) end
        if b.vy > 0 and down < -1 then up = math.max(up, b.vy) end
      end
      e[rule] = up / -down
    end
    -- the mixed coefficient is the bounce's speed ratio: 0.81 and 0.25 mix to
    -- sqrt(0.81 * 0.25) = 0.45, 0.81, 0.25, 0.53, 0.2025
    local expected = { geometric = 0.45, max = 0.81, min = 0.25, average = 0.53, multiply = 0.2025 }
    for rule, value in pairs(expected) do
      assert.is_true(near(e[rule], value, 0.03), rule .. ": " .. e[rule])
    end
  end)

  it("refuse unknown rules and keep theirs", function()
    local w = tumble.world()
    w.friction_mix = "min"
    assert.are.equal("bad value for World.friction_mix (one of 'geometric', 'max', 'min', 'average', 'multiply' expected, got 'median')",
      error_of(function() w.friction_mix = "median" end))
    assert.are.equal("bad value for World.friction_mix (one of 'geometric', 'max', 'min', 'average', 'multiply' expected, got number)",
      error_of(function() w.friction_mix = 3 end))
    assert.are.equal("bad value for World.restitution_mix (one of 'geometric', 'max', 'min', 'average', 'multiply' expected, got nil)",
      error_of(function() w.restitution_mix = nil end))
    assert.are.equal("min", w.friction_mix)
    assert.are.equal("max", w.restitution_mix) -- Box2D's defaults: geometric friction, max restitution
  end)
end)

describe("sleep_threshold", function()
  it("lets a slowly drifting body sleep when raised, and is refused when bad", function()
    local function drifter(threshold)
      local w = tumble.world{ gravity = { 0, 0 } }
      local b = w:body{ type = "dynamic" }
      b:circle{ r = 0.5 }
      if threshold then b.sleep_threshold = threshold end
      b.vx = 0.2
      h.step(w, 120)
      return b
    end
    assert.is_true(drifter().awake) -- 0.2 m/s is above the default 0.05
    local b = drifter(0.5)
    assert.is_false(b.awake)
    assert.are.equal(0.5, b.sleep_threshold)
    assert.are.equal("bad value for Body.sleep_threshold (number in [0, 1e6] expected, got -1)",
      error_of(function() b.sleep_threshold = -1 end))
    assert.are.equal("bad value for Body.sleep_threshold (finite number expected, got nan)",
      error_of(function() b.sleep_threshold = 0 / 0 end))
    assert.are.equal("bad value for Body.sleep_threshold (number expected, got string)",
      error_of(function() b.sleep_threshold = "low" end))
    assert.are.equal(0.5, b.sleep_threshold)
  end)
end)

describe("wheel joints", function()
  it("hang a wheel on a spring that sags g / omega^2 and drive it with a motor", function()
    local w = tumble.world{ sleeping = false }
    local chassis = w:body{ type = "static", y = 2 }
    local wheel = w:body{ type = "dynamic", y = 1 }
    wheel:circle{ r = 0.3, density = 1 }
    local hz = 2
    local j = w:joint{ kind = "wheel", a = chassis, b = wheel, x = 0, y = 1, axis = { 0, 1 }, hertz = hz,
                       damping = 1, motor_speed = 4, max_torque = 100 }
    assert.are.equal("wheel", j.kind)
    assert.is_true(j.spring); assert.is_true(j.motor)
    assert.are.equal(hz, j.hertz); assert.are.equal(4, j.motor_speed)
    h.step(w, 300)
    local omega = 2 * math.pi * hz
    assert.is_true(near(j.value, -10 / omega ^ 2, 0.003), "sag " .. j.value)
    assert.is_true(near(wheel.spin, 4, 0.01))
    assert.is_true(near(wheel.x, 0, 1e-3))
    j.motor_speed = -2
    h.step(w, 60)
    assert.is_true(near(wheel.spin, -2, 0.01))
  end)

  it("stays within its limits and refuses a zero axis", function()
    local w = tumble.world()
    local a = w:body{ type = "static" }
    local b = w:body{ type = "dynamic", y = -0.5 }
    b:circle{ r = 0.2 }
    local j = w:joint{ kind = "wheel", a = a, b = b, y = -0.5, lower = -0.1, upper = 0.1 }
    h.step(w, 120)
    assert.is_true(j.value > -0.1 - 0.01, tostring(j.value))
    assert.are.equal("bad argument #1 to 'joint' (field 'axis': non-zero vector expected)",
      error_of(function() w:joint{ kind = "wheel", a = a, b = b, axis = { 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'hertz': non-negative number expected, got -1)",
      error_of(function() w:joint{ kind = "wheel", a = a, b = b, hertz = -1 } end))
  end)
end)

describe("motor joints", function()
  it("drive b to an offset and angle in a's frame", function()
    local w = tumble.world{ gravity = { 0, 0 } }
    local a = w:body{ type = "static", x = 1, y = 1 }
    local b = w:body{ type = "dynamic", x = 1, y = 1 }
    b:box{ w = 0.5, h = 0.5 }
    local j = w:joint{ kind = "motor", a = a, b = b, offset = { 2, -1 }, angle = 0.5, max_force = 500, max_torque = 500 }
    assert.are.equal("motor", j.kind)
    assert.are.equal(2, j.offset.x); assert.are.equal(-1, j.offset.y); assert.are.equal(0.5, j.angle)
    h.step(w, 240)
    assert.is_true(near(b.x, 3, 0.01) and near(b.y, 0, 0.01), b.x .. ", " .. b.y)
    assert.is_true(near(b.angle, 0.5, 0.01))
    j.offset = { 0, 0 }
    h.step(w, 240)
    assert.is_true(near(b.x, 1, 0.01) and near(b.y, 1, 0.01))
  end)

  it("holds b where it is by default and refuses bad options", function()
    local w = tumble.world()
    local a = w:body{}
    local b = w:body{ type = "dynamic", x = 2 }
    b:box{ w = 0.5, h = 0.5 }
    local j = w:joint{ kind = "motor", a = a, b = b }
    assert.are.equal(2, j.offset.x); assert.are.equal(0, j.angle)
    assert.is_true(near(j.correction, 0.3, 1e-6))
    assert.are.equal("bad argument #1 to 'joint' (field 'offset': finite number expected, got nan)",
      error_of(function() w:joint{ kind = "motor", a = a, b = b, offset = { 0 / 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'correction': number in [0, 1] expected, got 2)",
      error_of(function() w:joint{ kind = "motor", a = a, b = b, correction = 2 } end))
    assert.matches("unknown option 'axis'",
      error_of(function() w:joint{ kind = "motor", a = a, b = b, axis = { 0, 1 } } end), 1, true)
    assert.are.equal("bad value for Joint.correction (number in [0, 1] expected, got -0.1)",
      error_of(function() j.correction = -0.1 end))
    assert.is_true(near(j.correction, 0.3, 1e-6))
  end)
end)

describe("breakable joints", function()
  it("break past break_force, after the step, with a joint_break event", function()
    local w = tumble.world()
    local a = w:body{ type = "static" }
    local b = w:body{ type = "dynamic", y = -1 }
    b:box{ w = 0.5, h = 0.5, density = 4 } -- 1 kg: 10 N of weight
    local j = w:joint{ kind = "revolute", a = a, b = b, x = 0, y = 0, break_force = 14, user = "rope" }
    assert.are.equal(14, j.break_force)
    assert.are.equal(math.huge, j.break_torque)
    local events = {}
    w:on("joint_break", function(joint, info) events[#events + 1] = { joint = joint, info = info } end)
    h.step(w, 60)
    assert.are.equal(0, #events) -- 10 N holds
    assert.is_true(j.valid)
    b:shapes()[1].density = 8 -- 20 N does not
    h.step(w, 2)
    assert.are.equal(1, #events)
    local e = events[1]
    assert.are.equal(j, e.joint)
    assert.is_false(j.valid)
    assert.are.equal("revolute", e.info.kind)
    assert.are.equal(a, e.info.a); assert.are.equal(b, e.info.b)
    assert.are.equal("rope", e.info.user)
    assert.is_true(e.info.force > 14 and e.info.force < 30, tostring(e.info.force))
    assert.are.equal("number", type(e.info.torque))
    assert.matches("joint was destroyed", error_of(function() return j.break_force end), 1, true)
  end)

  it("break by torque, on every kind, and refuse negative or NaN limits", function()
    local w = tumble.world()
    local a = w:body{ type = "static" }
    local kinds = { "revolute", "prismatic", "distance", "weld", "mouse", "wheel", "motor" }
    for _, kind in ipairs(kinds) do
      local b = w:body{ type = "dynamic", x = 1 }
      b:box{ w = 0.5, h = 0.5 }
      local j = w:joint{ kind = kind, a = a, b = b, break_force = 1e3, break_torque = 2e3 }
      assert.are.equal(1e3, j.break_force); assert.are.equal(2e3, j.break_torque)
      j.break_force = math.huge
      assert.are.equal(math.huge, j.break_force)
      assert.are.equal("bad value for Joint.break_force (number >= 0 (or math.huge) expected, got -1)",
        error_of(function() j.break_force = -1 end))
      assert.are.equal("bad value for Joint.break_torque (finite number expected, got nan)",
        error_of(function() j.break_torque = 0 / 0 end))
      assert.are.equal(2e3, j.break_torque)
    end
    -- a weld holding a 1 m arm: 10 N·m at the root
    local w2 = tumble.world()
    local wall = w2:body{ type = "static" }
    local arm = w2:body{ type = "dynamic", x = 1 }
    arm:box{ w = 2, h = 0.1, density = 5 } -- 1 kg, centre 1 m out
    local weld = w2:joint{ kind = "weld", a = wall, b = arm, x = 0, y = 0, break_torque = 15 }
    local broke = false
    w2:on("joint_break", function() broke = true end)
    h.step(w2, 30)
    assert.is_false(broke); assert.is_true(weld.valid)
    weld.break_torque = 5
    h.step(w2, 2)
    assert.is_true(broke); assert.is_false(weld.valid)
    assert.are.equal("bad argument #1 to 'joint' (field 'break_force': number >= 0 (or math.huge) expected, got -1)",
      error_of(function() w:joint{ kind = "weld", a = a, b = w:body{ type = "dynamic" }, break_force = -1 } end))
  end)
end)

describe("the presolve hook", function()
  local function faller()
    local w, g = ground_world()
    local b = w:body{ type = "dynamic", y = 2 }
    local s = b:box{ w = 0.5, h = 0.5 }
    return w, g, b, s
  end

  it("switches a contact off when it returns false, and costs nothing once removed", function()
    local w, _, b, s = faller()
    local calls = 0
    w:on("presolve", function(sa, sb, contact)
      calls = calls + 1
      assert.is_true(sa == s or sb == s)
      return false
    end)
    h.step(w, 90)
    assert.is_true(calls > 0)
    assert.is_true(b.y < -1, "it fell through: " .. b.y)
    w:on("presolve", nil)
    local w2, _, b2 = faller()
    w2:on("presolve", function() return true end)
    h.step(w2, 90)
    assert.is_true(near(b2.y, 0.25, 0.02))
  end)

  it("raises its error from world:step and refuses changes to the world", function()
    local w, _, b = faller()
    w:on("presolve", function() error("boom") end)
    local err
    for _ = 1, 90 do
      local ok, e = pcall(w.step, w, 1 / 60)
      if not ok then err = e break end
    end
    assert.is_not_nil(err)
    assert.matches("^error in world:on%('presolve'%) handler: .*boom", err)
    -- the step was whole: the contact was kept, and the world goes on
    assert.is_true(b.y > 0)
    w:on("presolve", nil)
    h.step(w, 1)
    for _, change in ipairs{
      function(world) world:body{} end,
      function(world) world:destroy_all() end,
      function(world, snap) world:restore(snap) end,
      function(world) world:on("presolve", nil) end,
      function(world) world:step(1 / 60) end,
    } do
      local w2, _, b2 = faller()
      local snap = w2:snapshot()
      local seen
      w2:on("presolve", function()
        seen = seen or error_of(change, w2, snap)
        return true
      end)
      h.step(w2, 90)
      assert.is_not_nil(seen)
      assert.is_truthy(seen:find("inside a presolve handler", 1, true) or seen:find("(world is locked)", 1, true), seen)
      -- refused, so nothing changed: the box landed and rests
      assert.is_true(b2.valid and near(b2.y, 0.25, 0.02))
    end
    local w3 = faller()
    local msg
    w3:on("presolve", function() msg = msg or error_of(function() w3:destroy_all() end) return true end)
    h.step(w3, 90)
    assert.are.equal("cannot change the world inside a presolve handler (world:step is running)", msg)
  end)
end)

describe("inside the presolve hook", function()
  it("a handler may change a contact's surfaces but not push bodies", function()
    local w = tumble.world()
    local g = w:body{ type = "static" }
    g:box{ w = 100, h = 1, y = -0.5 }
    local sleeper = w:body{ type = "dynamic", x = 30, y = 0.25 }
    sleeper:box{ w = 0.5, h = 0.5 }
    h.step(w, 120)
    assert.is_false(sleeper.awake)
    local slider = w:body{ type = "dynamic", y = 0.25 }
    local s = slider:box{ w = 0.5, h = 0.5, friction = 0.6 }
    slider.vx = 5
    local refused = {}
    w:on("presolve", function(a, b)
      if a == s or b == s then s.friction = 0 end
      refused[#refused + 1] = error_of(function() sleeper:apply_impulse(0, 3) end)
      refused[#refused + 1] = error_of(function() slider:apply_force(1, 0) end)
      refused[#refused + 1] = error_of(function() slider:apply_torque(1) end)
      refused[#refused + 1] = error_of(function() slider:apply_angular_impulse(1) end)
      return true
    end)
    h.step(w, 60)
    assert.is_true(near(slider.vx, 5, 0.01), "frictionless: " .. slider.vx)
    assert.is_true(#refused >= 4)
    for _, msg in ipairs(refused) do
      assert.are.equal("cannot change the world inside a presolve handler (world:step is running)", msg)
    end
    assert.is_false(sleeper.awake)
  end)
end)

describe("tumble.distance", function()
  it("measures any separation between circles and boxes", function()
    local w = tumble.world()
    local c1 = w:body{ x = 0 }:circle{ r = 1 }
    local c2 = w:body{ x = 10 }:circle{ r = 2 }
    local d, x1, y1, x2, y2, nx, ny = tumble.distance(c1, c2)
    assert.is_true(near(d, 7, 1e-4))
    assert.is_true(near(x1, 1, 1e-4) and near(y1, 0, 1e-4))
    assert.is_true(near(x2, 8, 1e-4) and near(y2, 0, 1e-4))
    assert.is_true(near(nx, 1, 1e-5) and near(ny, 0, 1e-5))
    local b1 = w:body{ y = 20 }:box{ w = 2, h = 2 }
    local b2 = w:body{ x = 3, y = 24 }:box{ w = 2, h = 2 }
    -- corner (1, 21) to corner (2, 23): sqrt(1 + 4)
    d, x1, y1, x2, y2 = tumble.distance(b1, b2)
    assert.is_true(near(d, math.sqrt(5), 1e-4), tostring(d))
    assert.is_true(near(x1, 1, 1e-4) and near(y1, 21, 1e-4))
    assert.is_true(near(x2, 2, 1e-4) and near(y2, 23, 1e-4))
    -- overlapping cores: negative
    local c3 = w:body{ x = 1 }:circle{ r = 1 }
    assert.is_true(tumble.distance(c1, c3) < 0)
  end)

  it("wants two shapes of one world", function()
    local w = tumble.world()
    local s = w:body{}:circle{ r = 1 }
    assert.matches("bad argument #2 to '[%w.]*distance' %(Shape expected, got no value%)", error_of(tumble.distance, s))
    assert.matches("bad argument #2 to '[%w.]*distance' %(Shape expected, got string%)", error_of(tumble.distance, s, "x"))
    local other = tumble.world():body{}:circle{ r = 1 }
    assert.is_not_nil(error_of(tumble.distance, s, other))
  end)
end)

describe("world:cast_shape", function()
  local function wall_world()
    local w = tumble.world()
    local wall = w:body{ type = "static", x = 10 }:box{ w = 2, h = 20 } -- its face at x = 9
    return w, wall
  end

  it("sweeps a Shape and every kind of definition into a wall", function()
    local w, wall = wall_world()
    -- a Shape is swept as placed by the call, not where its body is
    local mover = w:body{ type = "dynamic", y = 50 }:circle{ r = 0.5 }
    local cases = {
      { mover, 0.5 },
      { { circle = { r = 1 } }, 1 },
      { { box = { w = 2, h = 1 } }, 1 },
      { { capsule = { x1 = -0.5, y1 = 0, x2 = 0.5, y2 = 0, r = 0.25 } }, 0.75 },
      { { polygon = { -1, -1, 1.5, 0, -1, 1 } }, 1.5 },
    }
    for _, case in ipairs(cases) do
      local shape, x, y, nx, ny, fraction = w:cast_shape(case[1], 0, 0, 0, 20, 0)
      assert.are.equal(wall, shape)
      -- the leading edge reaches x = 9 after 9 - reach of the 20 m sweep
      local expected = (9 - case[2]) / 20
      assert.is_true(fraction <= expected + 1e-4 and fraction > expected - 0.002, tostring(fraction) .. " vs " .. expected)
      assert.is_true(near(x, 9, 0.02), tostring(x))
      assert.is_true(near(y, 0, 0.3))
      assert.is_true(near(nx, -1, 1e-3) and near(ny, 0, 1e-3))
    end
  end)

  it("misses with nothing, skips the mask and refuses bad definitions", function()
    local w = wall_world()
    assert.are.equal(0, select("#", w:cast_shape({ circle = { r = 1 } }, 0, 0, 0, 5, 0)))
    assert.are.equal(0, select("#", w:cast_shape({ circle = { r = 1 } }, 0, 0, 0, 0, 20)))
    assert.are.equal(0, select("#", w:cast_shape({ circle = { r = 1 } }, 0, 0, 0, 20, 0, 0)))
    assert.are.equal("bad argument #1 to 'cast_shape' (unknown key 'triangle'; valid keys: circle, box, capsule, polygon)",
      error_of(function() w:cast_shape({ triangle = {} }, 0, 0, 0, 1, 0) end))
    assert.are.equal("bad argument #1 to 'cast_shape' (field 'circle.r': positive number expected, got -1)",
      error_of(function() w:cast_shape({ circle = { r = -1 } }, 0, 0, 0, 1, 0) end))
    assert.are.equal("bad argument #5 to 'cast_shape' (finite number expected, got nan)",
      error_of(function() w:cast_shape({ circle = { r = 1 } }, 0, 0, 0, 0 / 0, 0) end))
  end)
end)

describe("world:explode", function()
  it("pushes bodies away from the centre, fading over the falloff, within the mask", function()
    local w = tumble.world{ gravity = { 0, 0 } }
    local near_b = w:body{ type = "dynamic", x = 1 }
    near_b:circle{ r = 0.25, category = 2 }
    local far_b = w:body{ type = "dynamic", x = -2.5 }
    far_b:circle{ r = 0.25 }
    local out_b = w:body{ type = "dynamic", y = 10 }
    out_b:circle{ r = 0.25 }
    local n = w:explode{ x = 0, y = 0, radius = 1, impulse = 2, falloff = 2 }
    assert.are.equal(2, n)
    assert.is_true(near_b.vx > 0 and near(near_b.vy, 0, 1e-6))
    assert.is_true(far_b.vx < 0)
    assert.is_true(math.abs(far_b.vx) * far_b.mass < math.abs(near_b.vx) * near_b.mass) -- faded
    assert.are.equal(0, out_b.vx)
    near_b.vx, far_b.vx = 0, 0
    assert.are.equal(1, w:explode{ x = 0, y = 0, radius = 5, impulse = 1, mask = ~2 })
    assert.are.equal(0, near_b.vx)
  end)

  it("refuses bad options", function()
    local w = tumble.world()
    assert.are.equal("bad argument #1 to 'explode' (field 'radius': number in [0, 1e4] expected, got -1)",
      error_of(function() w:explode{ x = 0, y = 0, radius = -1, impulse = 1 } end))
    assert.are.equal("bad argument #1 to 'explode' (field 'impulse': number expected, got nil)",
      error_of(function() w:explode{ x = 0, y = 0, radius = 1 } end))
    assert.are.equal("bad argument #1 to 'explode' (unknown option 'power'; valid options: x, y, radius, impulse, falloff, mask)",
      error_of(function() w:explode{ x = 0, y = 0, radius = 1, impulse = 1, power = 1 } end))
  end)
end)

describe("world:mover", function()
  it("walks on flat ground, is stopped by a wall, and reports its ground", function()
    local w, g = ground_world()
    local wall = w:body{ type = "static", x = 5 }:box{ w = 1, h = 4, y = 2 }
    local m = w:mover{ capsule = { 0, -0.5, 0, 0.5, 0.3 }, x = 0, y = 0.82 }
    assert.are.equal(0, m.x)
    m:move(0, -0.1)
    assert.is_true(m.grounded)
    assert.is_true(near(m.ground_normal[1], 0, 1e-4) and near(m.ground_normal[2], 1, 1e-4))
    assert.are.equal(g, m.ground.body)
    for _ = 1, 60 do m:move(0.2, 0) end
    -- the wall's face at 4.5, the capsule's radius 0.3
    assert.is_true(m.x < 4.2 + 1e-3 and m.x > 4.15, tostring(m.x))
    assert.is_true(m.grounded)
    local dx, dy = m:move(-1, 0)
    assert.is_true(near(dx, -1, 1e-3) and near(dy, 0, 1e-3))
  end)

  it("goes stale when destroyed, comes back with a restore, and refuses bad input", function()
    local w = ground_world()
    local m = w:mover{ y = 0.82 }
    local snap = w:snapshot()
    m:destroy()
    m:destroy() -- a second call does nothing
    assert.is_false(m.valid)
    assert.are.equal("mover was destroyed", error_of(function() return m.x end))
    assert.are.equal("mover was destroyed", error_of(function() m:move(1, 0) end))
    w:restore(snap)
    assert.is_true(m.valid)
    m:move(1, 0)
    assert.is_true(near(m.x, 1, 1e-3))
    assert.are.equal("bad argument #1 to 'move' (finite number expected, got nan)", error_of(function() m:move(0 / 0, 0) end))
    assert.are.equal("bad argument #1 to 'move' (number in [-1e4, 1e4] expected, got 100000.0)",
      error_of(function() m:move(1e5, 0) end))
    assert.is_true(near(m.x, 1, 1e-3))
    assert.matches("radius > 0.01 expected", error_of(function() w:mover{ capsule = { 0, 0, 0, 1, 0.001 } } end), 1, true)
    assert.are.equal("bad argument #1 to 'mover' (field 'max_slope': angle in [0, pi/2) expected, got 2)",
      error_of(function() w:mover{ max_slope = 2 } end))
    assert.matches("unknown option 'bogus'", error_of(function() w:mover{ bogus = 1 } end), 1, true)
  end)
end)

describe("hostile option tables", function()
  it("do not run metamethods or crash the new calls", function()
    local w = ground_world()
    local ran = 0
    local trap = setmetatable({}, {
      __index = function() ran = ran + 1; return 1 end,
      __newindex = function() ran = ran + 1 end,
      __len = function() ran = ran + 1; return 4 end,
      __pairs = function() ran = ran + 1; return next, {} end,
    })
    local calls = {
      function() w:explode(trap) end,
      function() w:mover(trap) end,
      function() w:cast_shape(trap, 0, 0, 0, 1, 0) end,
      function() w:cast_shape({ polygon = trap }, 0, 0, 0, 1, 0) end,
      function() w:body{}:box{ w = 1, h = 1, one_way = trap } end,
      function() w:joint{ kind = "motor", a = w:body{}, b = w:body{ type = "dynamic" }, offset = trap } end,
      function() w:joint{ kind = "wheel", a = w:body{}, b = w:body{ type = "dynamic" }, axis = trap } end,
    }
    for _, call in ipairs(calls) do
      pcall(call)
    end
    assert.are.equal(0, ran)
    -- the world still steps
    h.step(w, 10)
  end)
end)
