-- The Body type: world:body{...}, properties, methods, errors.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

local OPTIONS = "x, y, angle, vx, vy, spin, type, awake, enabled, bullet, fixed_rotation, gravity_scale, "
  .. "linear_damping, angular_damping, can_sleep, sleep_threshold, user"

local function zero_g()
  return tumble.world{ gravity = { 0, 0 } }
end

describe("world:body", function()
  it("has defaults", function()
    local w = tumble.world()
    local b = w:body()
    assert.are.equal("static", b.type)
    assert.are.equal(0, b.x); assert.are.equal(0, b.y); assert.are.equal(0, b.angle)
    assert.are.equal(0, b.vx); assert.are.equal(0, b.vy); assert.are.equal(0, b.spin)
    assert.is_false(b.awake) -- static bodies never move, so they never wake
    assert.is_true(b.enabled); assert.is_true(b.can_sleep)
    assert.is_true(w:body{ type = "dynamic" }.awake)
    assert.is_false(b.bullet); assert.is_false(b.fixed_rotation)
    assert.are.equal(1, b.gravity_scale)
    assert.are.equal(0, b.linear_damping); assert.are.equal(0, b.angular_damping)
    assert.is_nil(b.user)
    assert.are.equal(0, b.mass)
    assert.are.equal(w, b.world)
    assert.is_true(b.valid)
    assert.are.equal("integer", math.type(b.id))
    assert.are.equal("Body#" .. b.id .. "(static)", tostring(b))
  end)

  it("takes every option", function()
    local w = tumble.world()
    local u = {}
    local b = w:body{ type = "dynamic", x = 1, y = 2, angle = 0.5, vx = 3, vy = 4, spin = 5, bullet = true,
                      fixed_rotation = true, linear_damping = 0.25, angular_damping = 0.75, gravity_scale = 2,
                      awake = true, enabled = true, can_sleep = false, user = u }
    assert.are.equal("dynamic", b.type)
    assert.are.equal(1, b.x); assert.are.equal(2, b.y); assert.are.equal(0.5, b.angle)
    assert.are.equal(3, b.vx); assert.are.equal(4, b.vy)
    assert.are.equal(0, b.spin) -- no shapes yet, no rotational inertia: the engine drops spin
    assert.are.equal(5, w:body{ type = "kinematic", spin = 5 }.spin)
    assert.is_true(b.bullet); assert.is_true(b.fixed_rotation); assert.is_false(b.can_sleep)
    assert.are.equal(0.25, b.linear_damping); assert.are.equal(0.75, b.angular_damping)
    assert.are.equal(2, b.gravity_scale)
    assert.are.equal(u, b.user)
    local k = w:body{ type = "kinematic", enabled = false, awake = false }
    assert.are.equal("kinematic", k.type)
    assert.is_false(k.enabled)
  end)

  it("suggests the closest names for an unknown option or property", function()
    local w = tumble.world()
    local b = w:body{ type = "dynamic" }
    assert.are.equal("Body has no property 'velocity'; did you mean vx, vy or set_velocity?",
      error_of(function() b.velocity = { 1, 0 } end))
    assert.are.equal("Body has no property 'gravityscale'; did you mean gravity_scale?",
      error_of(function() b.gravityscale = 2 end))
    assert.are.equal("Body has no property 'position'; did you mean x, y or set_position?",
      error_of(function() b.position = { 1, 2 } end))
    assert.are.equal("Body has no property 'angular_velocity'; did you mean spin?",
      error_of(function() b.angular_velocity = 1 end))
    -- nothing close: no suggestion; a very long key is not compared at all
    assert.are.equal("Body has no property 'zzz'", error_of(function() b.zzz = 1 end))
    local long = string.rep("velocity", 20)
    assert.are.equal("Body has no property '" .. long .. "'", error_of(function() b[long] = 1 end))
    assert.are.equal("bad argument #1 to 'circle' (unknown option 'radius' (did you mean r?); valid options: r, x, y, ",
      error_of(function() b:circle{ radius = 1 } end):sub(1, 96))
    local err = error_of(function() w:body{ damping = 1 } end)
    assert.are.equal("bad argument #1 to 'body' (unknown option 'damping' (did you mean linear_damping or angular_damping?); ",
      err:sub(1, 103))
    local s = b:circle{ r = 1 }
    assert.are.equal("Shape has no property 'frction'; did you mean friction?", error_of(function() s.frction = 1 end))
    local b2 = w:body{ type = "dynamic", x = 3 }
    local j = w:joint{ kind = "revolute", a = b, b = b2, x = 1, y = 0 }
    assert.are.equal("Joint has no property 'motorspeed'; did you mean motor or motor_speed?",
      error_of(function() j.motorspeed = 1 end))
  end)

  it("rejects bad options", function()
    local w = tumble.world()
    assert.are.equal("bad argument #1 to 'body' (unknown option 'typ' (did you mean type?); valid options: " .. OPTIONS .. ")",
      error_of(function() w:body{ typ = "dynamic" } end))
    assert.are.equal("bad argument #1 to 'body' (table expected, got string)", error_of(function() w:body("dynamic") end))
    assert.are.equal("bad argument #1 to 'body' (field 'type': one of 'static', 'kinematic', 'dynamic' expected, got 'dynamc')",
      error_of(function() w:body{ type = "dynamc" } end))
    assert.are.equal("bad argument #1 to 'body' (field 'type': one of 'static', 'kinematic', 'dynamic' expected, got number)",
      error_of(function() w:body{ type = 2 } end))
    assert.are.equal("bad argument #1 to 'body' (field 'x': finite number expected, got nan)",
      error_of(function() w:body{ x = 0 / 0 } end))
    assert.are.equal("bad argument #1 to 'body' (field 'y': finite number expected, got -inf)",
      error_of(function() w:body{ y = -math.huge } end))
    assert.are.equal("bad argument #1 to 'body' (field 'x': number in [-1e6, 1e6] expected, got 1e+20)",
      error_of(function() w:body{ x = 1e20 } end))
    assert.are.equal("bad argument #1 to 'body' (field 'bullet': boolean expected, got number)",
      error_of(function() w:body{ bullet = 1 } end))
    assert.are.equal("bad argument #1 to 'body' (field 'linear_damping': non-negative number expected, got -1)",
      error_of(function() w:body{ linear_damping = -1 } end))
    assert.are.equal("bad argument #1 to 'body' (field 'spin': number expected, got table)",
      error_of(function() w:body{ spin = {} } end))
    assert.are.equal(0, w.body_count)
  end)
end)

describe("Body properties", function()
  it("are written and read back", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic" }
    b:circle{ r = 0.5 }
    b.x = 1; assert.are.equal(1, b.x)
    b.y = -2; assert.are.equal(-2, b.y)
    b.angle = 0.25; assert.are.equal(0.25, b.angle)
    assert.are.equal(1, b.x) -- the other coordinates stay
    b.vx = 3; assert.are.equal(3, b.vx)
    b.vy = -4; assert.are.equal(-4, b.vy); assert.are.equal(3, b.vx)
    b.spin = 1.5; assert.are.equal(1.5, b.spin)
    b.gravity_scale = -1; assert.are.equal(-1, b.gravity_scale)
    b.linear_damping = 0.5; assert.are.equal(0.5, b.linear_damping)
    b.angular_damping = 0.125; assert.are.equal(0.125, b.angular_damping)
    b.bullet = true; assert.is_true(b.bullet)
    b.fixed_rotation = true; assert.is_true(b.fixed_rotation)
    b.can_sleep = false; assert.is_false(b.can_sleep)
    b.awake = false; assert.is_false(b.awake)
    b.awake = true; assert.is_true(b.awake)
    b.enabled = false; assert.is_false(b.enabled)
    b.enabled = true; assert.is_true(b.enabled)
    b.type = "kinematic"; assert.are.equal("kinematic", b.type)
    b.type = "static"; assert.are.equal("static", b.type); assert.are.equal(0, b.mass)
    b.type = "dynamic"; assert.is_true(near(b.mass, math.pi * 0.25))
    for _, v in ipairs{ 42, "s", true, print, {} } do
      b.user = v; assert.are.equal(v, b.user)
    end
    b.user = nil; assert.is_nil(b.user)
    assert.is_nil(b.no_such_property)
  end)

  it("report mass and inertia from the shapes", function()
    local w = zero_g()
    local disc = w:body{ type = "dynamic" }
    disc:circle{ r = 0.5, density = 1 }
    -- solid disc: m = rho pi r^2, I = m r^2 / 2
    assert.is_true(near(disc.mass, math.pi * 0.25))
    assert.is_true(near(disc.inertia, math.pi * 0.25 * 0.25 / 2))
    local box = w:body{ type = "dynamic" }
    box:box{ w = 2, h = 1, density = 2 }
    -- box: m = rho w h, I = m (w^2 + h^2) / 12
    assert.is_true(near(box.mass, 4))
    assert.is_true(near(box.inertia, 4 * 5 / 12, 1e-4))
  end)

  it("refuse bad values, read-only properties and unknown names", function()
    local w = tumble.world()
    local b = w:body{ type = "dynamic" }
    assert.are.equal("bad value for Body.x (finite number expected, got nan)", error_of(function() b.x = 0 / 0 end))
    assert.are.equal("bad value for Body.y (number expected, got string)", error_of(function() b.y = "1" end))
    assert.are.equal("bad value for Body.angle (finite number expected, got inf)", error_of(function() b.angle = math.huge end))
    assert.are.equal("bad value for Body.vx (number in [-1e6, 1e6] expected, got 2000000)", error_of(function() b.vx = 2000000 end))
    assert.are.equal("bad value for Body.spin (number expected, got nil)", error_of(function() b.spin = nil end))
    assert.are.equal("bad value for Body.type (one of 'static', 'kinematic', 'dynamic' expected, got 'rigid')",
      error_of(function() b.type = "rigid" end))
    assert.are.equal("bad value for Body.awake (boolean expected, got number)", error_of(function() b.awake = 1 end))
    assert.are.equal("bad value for Body.linear_damping (non-negative number expected, got -0.5)",
      error_of(function() b.linear_damping = -0.5 end))
    for _, k in ipairs{ "mass", "inertia", "world", "valid", "id" } do
      assert.are.equal("cannot assign read-only property '" .. k .. "' of Body", error_of(function() b[k] = 1 end))
    end
    assert.are.equal("Body has no property 'colour'", error_of(function() b.colour = 1 end))
    assert.are.equal("Body has no property '1'", error_of(function() b[1] = 1 end))
    assert.are.equal("cannot assign method 'destroy' of Body", error_of(function() b.destroy = nil end))
  end)
end)

describe("Body settings", function()
  it("change the motion: gravity_scale, damping, fixed_rotation, enabled, type", function()
    local w = tumble.world{ gravity = { 0, -10 } }
    local function ball(opts)
      opts.type = opts.type or "dynamic"
      local b = w:body(opts)
      b:circle{ r = 0.5 }
      return b
    end
    local plain = ball{ x = 0 }
    local floating = ball{ x = 2, gravity_scale = 0 }
    local damped = ball{ x = 4, y = 20, vx = 10, linear_damping = 5 }
    local coasting = ball{ x = 6, y = 40, vx = 10 }
    local fixed = ball{ x = 8, fixed_rotation = true }
    local off = ball{ x = 10, enabled = false }
    local kin = ball{ x = 12, type = "kinematic", vy = 1 }
    fixed:apply_impulse(0, 1, 8.5, 0)
    assert.are.equal(0, fixed.spin)
    h.step(w, 30)
    assert.is_true(plain.y < -1)
    assert.are.equal(0, floating.y)
    assert.is_true(damped.vx < coasting.vx * 0.2)
    assert.is_true(near(coasting.vx, 10))
    assert.are.equal(0, fixed.angle)
    assert.are.equal(0, off.y)
    assert.is_true(near(kin.y, 0.5, 1e-4)) -- kinematic: moves at its velocity, ignores gravity
  end)

  it("sleep when still, unless they may not", function()
    local w = h.world_with_ground()
    local sleeper = w:body{ type = "dynamic", y = 0.5 }
    sleeper:circle{ r = 0.5 }
    local insomniac = w:body{ type = "dynamic", x = 3, y = 0.5, can_sleep = false }
    insomniac:circle{ r = 0.5 }
    h.step(w, 120)
    assert.is_false(sleeper.awake)
    assert.is_true(insomniac.awake)
    sleeper.awake = true
    assert.is_true(sleeper.awake)
    local w2 = h.world_with_ground{ sleeping = false }
    local b = w2:body{ type = "dynamic", y = 0.5 }
    b:circle{ r = 0.5 }
    h.step(w2, 120)
    assert.is_true(b.awake)
  end)

  it("bullets do not tunnel through thin walls", function()
    local w = tumble.world{ gravity = { 0, 0 } }
    local wall = w:body{ x = 5 }
    wall:box{ w = 0.1, h = 4 }
    local shooter = w:body{ type = "dynamic", x = 6.5, vx = 300, bullet = true }
    shooter:circle{ r = 0.1 }
    local dyn_wall = w:body{ type = "dynamic", x = 10 }
    dyn_wall:box{ w = 0.1, h = 4, density = 1000 }
    h.step(w, 10)
    assert.is_true(shooter.x < 10, tostring(shooter.x))
  end)
end)

describe("Body methods", function()
  it("apply forces, impulses and torques with the right units", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic" }
    b:box{ w = 2, h = 1, density = 2 } -- m = 4, I = 5/3
    local m, I = b.mass, b.inertia
    b:apply_impulse(8, 0)
    assert.is_true(near(b.vx, 8 / m))
    b:apply_angular_impulse(1)
    assert.is_true(near(b.spin, 1 / I))
    b.vx, b.spin = 0, 0
    -- impulse (0, 2) at (1, 0): linear 2/m, angular (r x J) / I = 2 / I
    b:apply_impulse(0, 2, 1, 0)
    assert.is_true(near(b.vy, 2 / m)); assert.is_true(near(b.spin, 2 / I))
    b:set_velocity(0, 0, 0)
    b:apply_force(4, 0)
    w:step(1 / 60)
    assert.is_true(near(b.vx, 4 / m / 60))
    b:set_velocity(0, 0, 0)
    b:apply_torque(3)
    w:step(1 / 60)
    assert.is_true(near(b.spin, 3 / I / 60))
    b:set_velocity(0, 0, 0)
    local x = b.x
    b:apply_force(0, 6, b.x + 1, b.y)
    w:step(1 / 60)
    assert.is_true(near(b.vy, 6 / m / 60)); assert.is_true(near(b.spin, 6 / I / 60))
    assert.is_true(b.x ~= x or true)
  end)

  it("convert points and vectors between frames", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic", x = 1, y = 2, angle = math.pi / 2 }
    local x, y = b:world_point(1, 0)
    assert.is_true(near(x, 1)); assert.is_true(near(y, 3))
    x, y = b:local_point(1, 3)
    assert.is_true(near(x, 1)); assert.is_true(near(y, 0))
    x, y = b:world_vector(1, 0)
    assert.is_true(near(x, 0)); assert.is_true(near(y, 1))
    x, y = b:local_vector(0, 1)
    assert.is_true(near(x, 1)); assert.is_true(near(y, 0))
    b:circle{ r = 0.5 }
    b:set_velocity(1, 0, 2)
    -- v + w x r with r = (0, 1): (1 - 2, 0)
    x, y = b:velocity_at(1, 3)
    assert.is_true(near(x, -1)); assert.is_true(near(y, 0))
  end)

  it("set and get position and velocity in one call", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic", angle = 0.5 }
    b:set_position(3, 4)
    local x, y, a = b:get_position()
    assert.are.equal(3, x); assert.are.equal(4, y); assert.is_true(near(a, 0.5))
    b:set_position(5, 6, 1)
    x, y, a = b:get_position()
    assert.are.equal(5, x); assert.are.equal(6, y); assert.are.equal(1, a)
    b:set_velocity(1, 2)
    local vx, vy, spin = b:get_velocity()
    assert.are.equal(1, vx); assert.are.equal(2, vy); assert.are.equal(0, spin)
    b:set_velocity(1, 2, 3)
    assert.are.equal(3, b.spin)
  end)

  it("report centres and bounds", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic", x = 1, y = 2 }
    b:circle{ r = 0.5, x = 1 }
    local lx, ly = b:local_center()
    assert.are.equal(1, lx); assert.are.equal(0, ly)
    local cx, cy = b:world_center()
    assert.are.equal(2, cx); assert.are.equal(2, cy)
    local x1, y1, x2, y2 = b:aabb()
    assert.is_true(near(x1, 1.5)); assert.is_true(near(y1, 1.5))
    assert.is_true(near(x2, 2.5)); assert.is_true(near(y2, 2.5))
  end)

  it("list shapes and joints in creation order", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic" }
    local s1 = b:circle{ r = 1 }
    local s2 = b:box{ w = 1, h = 1 }
    local s3 = b:segment{ 0, 0, 1, 0 }
    assert.are.same({ s1, s2, s3 }, b:shapes())
    local o = w:body{}
    local j = w:joint{ kind = "weld", a = o, b = b }
    assert.are.same({ j }, b:joints())
    assert.are.same({ j }, o:joints())
    assert.are.same({}, o:shapes())
  end)

  it("check their arguments", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic" }
    assert.are.equal("bad argument #1 to 'apply_force' (number expected, got string)",
      error_of(function() b:apply_force("a", 1) end))
    assert.are.equal("bad argument #2 to 'apply_force' (finite number expected, got nan)",
      error_of(function() b:apply_force(1, 0 / 0) end))
    assert.are.equal("bad argument #4 to 'apply_force' (number expected, got no value)",
      error_of(function() b:apply_force(1, 1, 2) end))
    assert.are.equal("bad argument #3 to 'apply_impulse' (number in [-1e6, 1e6] expected, got 1e+30)",
      error_of(function() b:apply_impulse(1, 1, 1e30, 0) end))
    assert.are.equal("bad argument #1 to 'apply_torque' (finite number expected, got inf)",
      error_of(function() b:apply_torque(1 / 0) end))
    assert.are.equal("bad argument #1 to 'apply_angular_impulse' (number expected, got no value)",
      error_of(function() b:apply_angular_impulse() end))
    assert.are.equal("bad argument #2 to 'world_point' (number expected, got nil)",
      error_of(function() b:world_point(1, nil) end))
    assert.are.equal("bad argument #1 to 'local_point' (number in [-1e6, 1e6] expected, got 10000000.0)",
      error_of(function() b:local_point(1e7, 0) end))
    assert.are.equal("bad argument #1 to 'world_vector' (finite number expected, got nan)",
      error_of(function() b:world_vector(0 / 0, 0) end))
    assert.are.equal("bad argument #2 to 'local_vector' (number expected, got boolean)",
      error_of(function() b:local_vector(0, true) end))
    assert.are.equal("bad argument #1 to 'velocity_at' (number expected, got no value)",
      error_of(function() b:velocity_at() end))
    assert.are.equal("bad argument #3 to 'set_position' (finite number expected, got nan)",
      error_of(function() b:set_position(0, 0, 0 / 0) end))
    assert.are.equal("bad argument #3 to 'set_velocity' (number expected, got string)",
      error_of(function() b:set_velocity(0, 0, "fast") end))
    assert.are.equal("bad argument #1 to 'shapes' (Body expected, got World)", error_of(function() b.shapes(w) end))
    local fake = { shapes = b.shapes }
    assert.are.equal("calling 'shapes' on bad self (Body expected, got table)", error_of(function() fake:shapes() end))
  end)
end)

describe("Body:destroy", function()
  it("destroys the body, its shapes and joints; the handles go stale", function()
    local w = zero_g()
    local b = w:body{ type = "dynamic" }
    local s = b:circle{ r = 1 }
    local other = w:body{}
    local j = w:joint{ kind = "distance", a = other, b = b }
    b:destroy()
    assert.is_false(b.valid); assert.is_false(s.valid); assert.is_false(j.valid)
    assert.is_true(other.valid)
    assert.are.equal(1, w.body_count); assert.are.equal(0, w.joint_count)
    assert.are.equal("Body#" .. b.id .. "(destroyed)", error_of(function() error(tostring(b)) end))
    b:destroy() -- again: nothing happens
    for _, k in ipairs{ "x", "y", "angle", "vx", "vy", "spin", "type", "awake", "enabled", "bullet", "fixed_rotation",
                        "gravity_scale", "linear_damping", "angular_damping", "can_sleep", "user", "mass", "inertia",
                        "world" } do
      assert.are.equal("body was destroyed", error_of(function() return b[k] end), k)
    end
    assert.are.equal("body was destroyed", error_of(function() b.x = 1 end))
    assert.are.equal("body was destroyed", error_of(function() b.user = 1 end))
    assert.are.equal("body was destroyed", error_of(function() b:apply_force(1, 1) end))
    assert.are.equal("body was destroyed", error_of(function() b:circle{ r = 1 } end))
    assert.are.equal("body was destroyed", error_of(function() b:shapes() end))
    assert.are.equal("bad argument #1 to 'joint' (field 'b': body was destroyed)",
      error_of(function() w:joint{ kind = "weld", a = other, b = b } end))
    assert.is_nil(error_of(function() return b.no_such_property end)) -- unknown names stay nil
  end)

  it("never hands out a different body for a reused slot", function()
    local w = zero_g()
    local a = w:body{ x = 1 }
    a:destroy()
    local b = w:body{ x = 2 } -- may reuse a's slot
    assert.are_not.equal(a, b)
    assert.are.equal("body was destroyed", error_of(function() return a.x end))
    assert.are.equal(2, b.x)
  end)
end)
