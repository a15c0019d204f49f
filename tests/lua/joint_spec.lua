-- The Joint type: world:joint{...} for every kind, properties, errors.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

local function pair(settings)
  local w = tumble.world(settings)
  local a = w:body{}
  local b = w:body{ type = "dynamic", x = 1 }
  b:box{ w = 0.5, h = 0.5 }
  return w, a, b
end

describe("revolute joints", function()
  it("pin two bodies at a world anchor", function()
    local w, a, b = pair()
    local j = w:joint{ kind = "revolute", a = a, b = b, x = 0, y = 0 }
    assert.are.equal("revolute", j.kind)
    assert.are.equal(a, j.a); assert.are.equal(b, j.b)
    assert.is_false(j.motor); assert.is_false(j.limit); assert.is_false(j.spring); assert.is_false(j.collide)
    assert.is_nil(j.lower); assert.is_nil(j.upper)
    assert.is_nil(j.length); assert.is_nil(j.target) -- other kinds' properties read as nil
    assert.are.equal(0, j.anchor_a.x); assert.are.equal(0, j.anchor_b.y)
    assert.are.equal(w, j.world)
    assert.are.equal("Joint#" .. j.id .. "(revolute)", tostring(j))
    h.step(w, 30)
    -- the pendulum swings about the origin: its arm stays 1 long and the joint angle is the body angle
    assert.is_true(near(math.sqrt(b.x * b.x + b.y * b.y), 1, 0.01))
    assert.is_true(b.y < -0.5)
    assert.is_true(near(j.value, b.angle, 1e-4))
    local f = j.force
    assert.are.equal("number", type(f.x)); assert.are.equal("number", type(j.torque))
  end)

  it("drive a motor and respect limits", function()
    local w, a, b = pair{ gravity = { 0, 0 } }
    local j = w:joint{ kind = "revolute", a = a, b = b, x = 1, y = 0, motor_speed = 2, max_torque = 1000 }
    assert.is_true(j.motor)
    assert.are.equal(2, j.motor_speed); assert.are.equal(1000, j.max_torque)
    h.step(w, 30)
    assert.is_true(near(b.spin, 2, 1e-3))
    j.motor_speed = -1
    h.step(w, 30)
    assert.is_true(near(b.spin, -1, 1e-3))
    j.motor = false
    assert.is_false(j.motor)

    local w2, a2, b2 = pair()
    local lim = w2:joint{ kind = "revolute", a = a2, b = b2, x = 0, y = 0, lower = -0.25, upper = 0.25 }
    assert.is_true(lim.limit)
    assert.are.equal(-0.25, lim.lower); assert.are.equal(0.25, lim.upper)
    for _ = 1, 120 do
      w2:step(1 / 60)
      assert.is_true(lim.value > -0.25 - 0.05 and lim.value < 0.25 + 0.05, tostring(lim.value))
    end
    lim.upper = 0.5; assert.are.equal(0.5, lim.upper)
    lim.lower = nil
    assert.is_false(lim.limit); assert.is_nil(lim.lower)
    lim.limit = true
    assert.are.equal(-0.25, lim.lower)
  end)
end)

describe("prismatic joints", function()
  it("slide along an axis with limits and a motor", function()
    local w, a, b = pair()
    local j = w:joint{ kind = "prismatic", a = a, b = b, axis = { 0, 1 }, lower = -1, upper = 0.5 }
    assert.are.equal("prismatic", j.kind)
    h.step(w, 120)
    -- gravity pulls b down its vertical rail until the lower limit
    assert.is_true(near(b.x, 1, 1e-3))
    assert.is_true(near(j.value, -1, 0.02))
    assert.is_true(near(b.y, -1, 0.02))
    j.motor_speed = 1; j.max_force = 50 -- a soft limit yields to a huge motor: keep it modest
    assert.is_false(j.motor) -- a motor is switched on explicitly
    j.motor = true
    h.step(w, 120)
    assert.is_true(near(j.value, 0.5, 0.02))
  end)
end)

describe("distance joints", function()
  it("keep the anchors at their length, or spring", function()
    local w, a, b = pair()
    local j = w:joint{ kind = "distance", a = a, b = b }
    assert.are.equal(1, j.length) -- default: the anchors' current distance
    assert.are.equal(0, j.min_length)
    h.step(w, 60)
    assert.is_true(near(j.value, 1, 0.01))
    j.length = 2
    assert.are.equal(2, j.length)
    local w2, a2, b2 = pair()
    local s = w2:joint{ kind = "distance", a = a2, b = b2, x1 = 0, y1 = 0, x2 = 1, y2 = 0, length = 1, hertz = 1,
                        damping = 0 }
    assert.is_true(s.spring)
    assert.are.equal(1, s.hertz); assert.are.equal(0, s.damping)
    h.step(w2, 30)
    assert.is_true(s.value > 1.05) -- a soft spring stretches under the weight
    s.min_length = 0.5; s.max_length = 1.5
    assert.are.equal(0.5, s.min_length); assert.are.equal(1.5, s.max_length)
  end)
end)

describe("weld and mouse joints", function()
  it("weld holds the relative pose", function()
    local w, a, b = pair()
    local j = w:joint{ kind = "weld", a = a, b = b, x = 0.5, y = 0 }
    h.step(w, 60)
    assert.is_true(near(b.x, 1, 0.02)); assert.is_true(near(b.y, 0, 0.05))
    assert.are.equal(0, j.angular_hertz)
    j.angular_hertz = 5; assert.are.equal(5, j.angular_hertz)
    j.angular_damping = 1; assert.are.equal(1, j.angular_damping)
  end)

  it("mouse pulls the body to the target", function()
    local w, a, b = pair{ gravity = { 0, 0 } }
    local j = w:joint{ kind = "mouse", a = a, b = b, target = { 3, 2 }, max_force = 1000 }
    assert.are.equal(3, j.target.x); assert.are.equal(2, j.target[2])
    assert.are.equal(1000, j.max_force)
    h.step(w, 120)
    assert.is_true(near(b.x, 3, 0.1) and near(b.y, 2, 0.1), b.x .. "," .. b.y)
    j.target = { x = -1, y = 0 }
    assert.are.equal(-1, j.target.x)
  end)
end)

describe("world:joint errors", function()
  it("name the bad option", function()
    local w, a, b = pair()
    local other = tumble.world():body{}
    assert.are.equal("bad argument #1 to 'joint' (field 'kind': one of 'revolute', 'prismatic', 'distance', 'weld', 'mouse', 'wheel', 'motor' expected, got 'hinge')",
      error_of(function() w:joint{ kind = "hinge", a = a, b = b } end))
    assert.are.equal("bad argument #1 to 'joint' (unknown option 'axis'; valid options: kind, a, b, collide, user, x, y, motor, motor_speed, max_torque, limit, lower, upper, spring, hertz, damping, break_force, break_torque)",
      error_of(function() w:joint{ kind = "revolute", a = a, b = b, axis = { 1, 0 } } end))
    assert.are.equal("bad argument #1 to 'joint' (unknown option 'max_torque'; valid options: kind, a, b, collide, user, x1, y1, x2, y2, length, min_length, max_length, spring, hertz, damping, break_force, break_torque)",
      error_of(function() w:joint{ kind = "distance", a = a, b = b, max_torque = 1 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'a': Body expected, got nil)",
      error_of(function() w:joint{ kind = "weld", b = b } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'b': Body expected, got World)",
      error_of(function() w:joint{ kind = "weld", a = a, b = w } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'b': the same body as 'a')",
      error_of(function() w:joint{ kind = "weld", a = a, b = a } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'b': body of another world)",
      error_of(function() w:joint{ kind = "weld", a = a, b = other } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'upper': number expected with 'lower', got nil)",
      error_of(function() w:joint{ kind = "revolute", a = a, b = b, lower = 0 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'lower': number <= upper expected, got 1.0)",
      error_of(function() w:joint{ kind = "revolute", a = a, b = b, lower = 1, upper = 0 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'axis': non-zero vector expected)",
      error_of(function() w:joint{ kind = "prismatic", a = a, b = b, axis = { 0, 0 } } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'max_torque': non-negative number expected, got -5)",
      error_of(function() w:joint{ kind = "revolute", a = a, b = b, max_torque = -5 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'x': finite number expected, got nan)",
      error_of(function() w:joint{ kind = "revolute", a = a, b = b, x = 0 / 0 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'target': {x, y} table expected, got number)",
      error_of(function() w:joint{ kind = "mouse", a = a, b = b, target = 5 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'min_length': number <= max_length expected, got 2.0)",
      error_of(function() w:joint{ kind = "distance", a = a, b = b, min_length = 2, max_length = 1 } end))
    assert.are.equal("bad argument #1 to 'joint' (table expected, got nil)", error_of(function() w:joint(nil) end))
    assert.are.equal(0, w.joint_count)
  end)

  it("refuse bad property values", function()
    local w, a, b = pair()
    local j = w:joint{ kind = "revolute", a = a, b = b, lower = -1, upper = 1 }
    assert.are.equal("bad value for Joint.motor_speed (finite number expected, got nan)", error_of(function() j.motor_speed = 0 / 0 end))
    assert.are.equal("bad value for Joint.max_torque (non-negative number expected, got -1)", error_of(function() j.max_torque = -1 end))
    assert.are.equal("bad value for Joint.lower (number <= upper (1.0) expected, got 2)", error_of(function() j.lower = 2 end))
    assert.are.equal("bad value for Joint.upper (number >= lower (-1.0) expected, got -3)", error_of(function() j.upper = -3 end))
    assert.are.equal("bad value for Joint.limit (boolean expected, got string)", error_of(function() j.limit = "on" end))
    assert.are.equal("Joint of kind 'revolute' has no property 'length'", error_of(function() j.length = 1 end))
    assert.are.equal("Joint of kind 'revolute' has no property 'target'", error_of(function() j.target = { 0, 0 } end))
    for _, k in ipairs{ "kind", "a", "b", "value", "anchor_a", "anchor_b", "force", "torque", "world", "valid", "id" } do
      assert.are.equal("cannot assign read-only property '" .. k .. "' of Joint", error_of(function() j[k] = 1 end))
    end
    assert.are.equal("Joint has no property 'speed'; did you mean motor_speed?", error_of(function() j.speed = 1 end))
    assert.are.equal("cannot assign method 'destroy' of Joint", error_of(function() j.destroy = 1 end))
    local d = w:joint{ kind = "distance", a = a, b = b }
    assert.are.equal("bad value for Joint.max_length (non-negative number expected, got -1)",
      error_of(function() d.max_length = -1 end))
    d.min_length = 0.5
    assert.are.equal("bad value for Joint.max_length (number >= min_length (0.5) expected, got 0.25)",
      error_of(function() d.max_length = 0.25 end))
    assert.are.equal("bad value for Joint.length (non-negative number expected, got -1)", error_of(function() d.length = -1 end))
  end)
end)

describe("Joint:destroy", function()
  it("frees the bodies and leaves a stale handle", function()
    local w, a, b = pair()
    local u = {}
    local j = w:joint{ kind = "revolute", a = a, b = b, x = 0, y = 0, user = u }
    assert.are.equal(u, j.user)
    j.user = 5; assert.are.equal(5, j.user)
    j:destroy()
    assert.is_false(j.valid)
    assert.are.equal(0, w.joint_count)
    assert.are.same({}, b:joints())
    assert.are.equal("joint was destroyed", error_of(function() return j.value end))
    assert.are.equal("joint was destroyed", error_of(function() j.motor_speed = 1 end))
    assert.are.equal("Joint#" .. j.id .. "(destroyed)", tostring(j))
    j:destroy()
    h.step(w, 30)
    assert.is_true(b.y < -0.5) -- falls freely now
  end)
end)
