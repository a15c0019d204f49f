-- The World type: constructor, settings, step, iteration, counters, lifetime.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of = h.tumble, h.error_of

local SETTINGS = "gravity, substeps, contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, "
  .. "max_push_speed, restitution_threshold, hit_threshold, max_linear_speed, time_to_sleep, warm_starting, "
  .. "position_correction, sleeping, continuous, motion, contact_cache, friction_mix, restitution_mix"

describe("tumble.world", function()
  it("has the engine defaults", function()
    local w = tumble.world()
    -- the engine's own tb_default_world_def(), read field by field in C
    local d = tumble._c_default_settings()
    local g = w.gravity
    assert.are.equal(d.gravity_x, g.x); assert.are.equal(d.gravity_y, g.y)
    assert.are.equal(0, g[1]); assert.are.equal(-10, g[2])
    assert.are.equal(8, w.substeps)
    assert.is_true(math.type(w.substeps) == "integer")
    for _, k in ipairs{ "substeps", "contact_hertz", "contact_damping_ratio", "joint_hertz", "joint_damping_ratio",
                        "max_push_speed", "restitution_threshold", "hit_threshold", "max_linear_speed",
                        "time_to_sleep" } do
      assert.are.equal(d[k], w[k], k)
    end
    for _, k in ipairs{ "warm_starting", "position_correction", "sleeping", "continuous", "motion", "contact_cache" } do
      assert.is_true(w[k], k)
    end
    assert.is_true(w.valid)
    assert.are.equal(0, w.body_count)
  end)

  it("takes every setting in its table", function()
    local w = tumble.world{
      gravity = { x = 1, y = -20 }, substeps = 8, contact_hertz = 20, contact_damping_ratio = 5,
      joint_hertz = 30, joint_damping_ratio = 1, max_push_speed = 2, restitution_threshold = 0.5,
      hit_threshold = 2, max_linear_speed = 100, time_to_sleep = 1, warm_starting = false,
      position_correction = false, sleeping = false, continuous = false, motion = false, contact_cache = false,
    }
    assert.are.equal(1, w.gravity.x); assert.are.equal(-20, w.gravity.y)
    assert.are.equal(8, w.substeps)
    assert.are.equal(20, w.contact_hertz)
    assert.are.equal(5, w.contact_damping_ratio)
    assert.are.equal(30, w.joint_hertz)
    assert.are.equal(1, w.joint_damping_ratio)
    assert.are.equal(2, w.max_push_speed)
    assert.are.equal(0.5, w.restitution_threshold)
    assert.are.equal(2, w.hit_threshold)
    assert.are.equal(100, w.max_linear_speed)
    assert.are.equal(1, w.time_to_sleep)
    for _, k in ipairs{ "warm_starting", "position_correction", "sleeping", "continuous", "motion", "contact_cache" } do
      assert.is_false(w[k], k)
    end
  end)

  it("rejects bad constructor arguments by name", function()
    assert.are.equal("bad argument #1 to 'world' (table expected, got number)", error_of(function() tumble.world(5) end))
    assert.are.equal("bad argument #1 to 'world' (unknown option 'gravty' (did you mean gravity?); valid options: " .. SETTINGS .. ")",
      error_of(function() tumble.world{ gravty = { 0, -1 } } end))
    assert.are.equal("bad argument #1 to 'world' (unknown option [1]; valid options: " .. SETTINGS .. ")",
      error_of(function() tumble.world{ 0, -10 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'substeps': integer in [1, 64] expected, got 0)",
      error_of(function() tumble.world{ substeps = 0 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'substeps': integer expected, got 1.5)",
      error_of(function() tumble.world{ substeps = 1.5 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'gravity': {x, y} table expected, got number)",
      error_of(function() tumble.world{ gravity = 5 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'gravity': finite number expected, got nan)",
      error_of(function() tumble.world{ gravity = { 0, 0 / 0 } } end))
    assert.are.equal("bad argument #1 to 'world' (field 'gravity': {x, y} table expected, got nil for y)",
      error_of(function() tumble.world{ gravity = { 1 } } end))
    assert.are.equal("bad argument #1 to 'world' (field 'contact_hertz': non-negative number expected, got -1)",
      error_of(function() tumble.world{ contact_hertz = -1 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'warm_starting': boolean expected, got number)",
      error_of(function() tumble.world{ warm_starting = 1 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'max_linear_speed': positive number expected, got 0)",
      error_of(function() tumble.world{ max_linear_speed = 0 } end))
    assert.are.equal("bad argument #1 to 'world' (field 'time_to_sleep': finite number expected, got inf)",
      error_of(function() tumble.world{ time_to_sleep = math.huge } end))
  end)
end)

describe("World settings", function()
  it("are read and written as properties", function()
    local w = tumble.world()
    w.gravity = { 0, -20 }
    assert.are.equal(-20, w.gravity.y)
    w.gravity = { x = 3, y = 4 }
    assert.are.equal(3, w.gravity[1]); assert.are.equal(4, w.gravity[2])
    w.substeps = 2; assert.are.equal(2, w.substeps)
    w.contact_hertz = 15; assert.are.equal(15, w.contact_hertz)
    w.contact_damping_ratio = 3; assert.are.equal(3, w.contact_damping_ratio)
    w.joint_hertz = 10; assert.are.equal(10, w.joint_hertz)
    w.joint_damping_ratio = 0.5; assert.are.equal(0.5, w.joint_damping_ratio)
    w.max_push_speed = 1; assert.are.equal(1, w.max_push_speed)
    w.restitution_threshold = 0.25; assert.are.equal(0.25, w.restitution_threshold)
    w.hit_threshold = 4; assert.are.equal(4, w.hit_threshold)
    w.max_linear_speed = 50; assert.are.equal(50, w.max_linear_speed)
    w.time_to_sleep = 2; assert.are.equal(2, w.time_to_sleep)
    for _, k in ipairs{ "warm_starting", "position_correction", "sleeping", "continuous", "motion", "contact_cache" } do
      w[k] = false; assert.is_false(w[k], k)
      w[k] = true; assert.is_true(w[k], k)
    end
  end)

  it("refuse bad values, read-only and unknown names", function()
    local w = tumble.world()
    assert.are.equal("bad value for World.substeps (integer in [1, 64] expected, got 65)",
      error_of(function() w.substeps = 65 end))
    assert.are.equal("bad value for World.gravity (finite number expected, got inf)",
      error_of(function() w.gravity = { 1 / 0, 0 } end))
    assert.are.equal("bad value for World.gravity (number in [-1e6, 1e6] expected, got -10000000.0)",
      error_of(function() w.gravity = { 0, -1e7 } end))
    assert.are.equal("bad value for World.joint_hertz (number expected, got string)",
      error_of(function() w.joint_hertz = "60" end))
    assert.are.equal("bad value for World.sleeping (boolean expected, got nil)",
      error_of(function() w.sleeping = nil end))
    assert.are.equal("cannot assign read-only property 'body_count' of World",
      error_of(function() w.body_count = 3 end))
    assert.are.equal("World has no property 'foo'", error_of(function() w.foo = 1 end))
    assert.are.equal("cannot assign method 'step' of World", error_of(function() w.step = 1 end))
    assert.is_nil(w.foo)
    assert.are.equal(8, w.substeps) -- unchanged by the failed assignments
  end)

  it("change the simulation: gravity, motion", function()
    local w = tumble.world{ gravity = { 0, -10 } }
    local b = w:body{ type = "dynamic", y = 10 }
    b:circle{ r = 0.5 }
    w:step(1 / 60)
    -- semi-implicit Euler: v = g dt after one step
    assert.is_true(h.near(b.vy, -10 / 60, 1e-5))
    w.gravity = { 0, 0 }
    local vy = b.vy
    h.step(w, 10)
    assert.are.equal(vy, b.vy)
    w.motion = false
    local y = b.y
    h.step(w, 10)
    assert.are.equal(y, b.y)
  end)
end)

describe("world:step", function()
  it("checks dt", function()
    local w = tumble.world()
    assert.are.equal("bad argument #1 to 'step' (number in [0, 1] expected, got -1)", error_of(function() w:step(-1) end))
    assert.are.equal("bad argument #1 to 'step' (finite number expected, got nan)", error_of(function() w:step(0 / 0) end))
    assert.are.equal("bad argument #1 to 'step' (number expected, got string)", error_of(function() w:step("x") end))
    assert.are.equal("bad argument #1 to 'step' (number expected, got no value)", error_of(function() w:step() end))
    assert.are.equal("bad argument #1 to 'step' (World expected, got number)", error_of(function() w.step(5, 1) end))
    w:step(0)
    assert.are.equal(1, w.step_count)
  end)
end)

describe("world:on", function()
  it("checks the event name and the handler", function()
    local w = tumble.world()
    assert.are.equal("bad argument #1 to 'on' (one of 'begin', 'end', 'hit', 'sensor_enter', 'sensor_exit', 'joint_break', 'presolve' expected, got 'bgin')",
      error_of(function() w:on("bgin", print) end))
    assert.are.equal("bad argument #1 to 'on' (one of 'begin', 'end', 'hit', 'sensor_enter', 'sensor_exit', 'joint_break', 'presolve' expected, got nil)",
      error_of(function() w:on(nil, print) end))
    assert.are.equal("bad argument #2 to 'on' (function expected, got number)", error_of(function() w:on("begin", 5) end))
    w:on("begin", print)
    w:on("begin", nil) -- removes
  end)
end)

describe("world:bodies and world:joints", function()
  it("iterate in creation order and skip objects destroyed meanwhile", function()
    local w = tumble.world()
    local made = {}
    for i = 1, 5 do made[i] = w:body{ x = i } end
    local seen = {}
    for b in w:bodies() do
      seen[#seen + 1] = b
      if b == made[2] then made[3]:destroy() end
    end
    assert.are.equal(4, #seen)
    assert.are.equal(made[1], seen[1]); assert.are.equal(made[2], seen[2])
    assert.are.equal(made[4], seen[3]); assert.are.equal(made[5], seen[4])
    local j1 = w:joint{ kind = "weld", a = made[1], b = made[2] }
    local j2 = w:joint{ kind = "distance", a = made[4], b = made[5] }
    local js = {}
    for j in w:joints() do js[#js + 1] = j end
    assert.are.same({ j1, j2 }, js)
  end)
end)

describe("world counters", function()
  it("count bodies, shapes, joints and contacts", function()
    local w = h.world_with_ground()
    local b = w:body{ type = "dynamic", y = 0.5 }
    b:circle{ r = 0.5 }
    -- connected bodies do not collide: hang the ball from a third body
    w:joint{ kind = "distance", a = w:body{ y = 5 }, b = b }
    assert.are.equal(3, w.body_count)
    assert.are.equal(2, w.shape_count)
    assert.are.equal(1, w.joint_count)
    h.step(w, 5)
    assert.are.equal(1, w.contact_count)
    assert.are.equal(5, w.step_count)
    assert.are.equal(1, w.awake_body_count)
    local c = w:counters()
    assert.are.equal(3, c.body_count); assert.are.equal(2, c.shape_count)
    assert.are.equal(1, c.joint_count); assert.are.equal(1, c.touching_contact_count)
    assert.are.equal(5, c.step_count)
    for _, k in ipairs{ "awake_body_count", "contact_count", "island_count", "tree_height", "static_tree_height",
                        "remade_manifold_count" } do
      assert.are.equal("integer", math.type(c[k]), k)
    end
    assert.are.equal("World(3 bodies)", tostring(w))
  end)

  it("count the manifolds the contact cache remade, which it stops doing when switched off", function()
    local w = h.world_with_ground{ sleeping = false }
    local box = w:body{ type = "dynamic", y = 0.5 }
    box:box{ w = 1, h = 1 }
    h.step(w, 60)
    -- the box rests: its one pair with the ground is remade, not collided
    assert.are.equal(1, w:counters().remade_manifold_count)
    local y = box.y
    w.contact_cache = false
    h.step(w, 1)
    assert.are.equal(0, w:counters().remade_manifold_count)
    assert.is_true(math.abs(box.y - y) < 1e-4)
    w.contact_cache = true
    h.step(w, 2)
    assert.are.equal(1, w:counters().remade_manifold_count)
  end)

  it("profile reports every phase in milliseconds", function()
    local w = h.world_with_ground()
    h.step(w, 2)
    local p = w:profile()
    for _, k in ipairs{ "step", "pairs", "collide", "solve", "prepare", "integrate", "warm_start", "solve_contacts",
                        "relax", "restitution", "store", "continuous", "sensors", "sleep", "dispatch" } do
      assert.are.equal("number", type(p[k]), k)
      assert.is_true(p[k] >= 0, k)
    end
    assert.are.equal("number", type(w.dispatch_ms))
  end)

  it("contacts lists touching pairs", function()
    local w, _, gs = h.world_with_ground()
    local b = w:body{ type = "dynamic", y = 0.5 }
    local s = b:circle{ r = 0.5 }
    h.step(w, 3)
    local cs = w:contacts()
    assert.are.equal(1, #cs)
    local pair = cs[1]
    assert.is_true((pair.a == s and pair.b == gs) or (pair.a == gs and pair.b == s))
    assert.are.equal(1, pair.contact.count)
    assert.is_true(h.near(math.abs(pair.contact.ny), 1))
    assert.are.same(cs[1].contact.normal.y, b:contacts()[1].contact.normal.y)
  end)
end)

describe("world:hash", function()
  local function scene()
    local w = h.world_with_ground()
    for i = 1, 3 do w:body{ type = "dynamic", x = i * 0.3, y = i }:box{ w = 0.5, h = 0.5 } end
    return w
  end

  it("is 16 hex digits, equal for equal runs, changing with the state", function()
    local a, b = scene(), scene()
    assert.is_truthy(a:hash():match("^%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x$"))
    assert.are.equal(a:hash(), b:hash())
    local before = a:hash()
    h.step(a, 30); h.step(b, 30)
    assert.are.equal(a:hash(), b:hash())
    assert.are_not.equal(before, a:hash())
  end)
end)

describe("world:destroy_all", function()
  it("destroys every object, keeps the settings and the world usable", function()
    local w = tumble.world{ substeps = 7 }
    local b = w:body{ type = "dynamic" }
    local s = b:circle{ r = 1 }
    local j = w:joint{ kind = "weld", a = w:body{}, b = b }
    w:destroy_all()
    assert.are.equal(0, w.body_count)
    assert.are.equal(7, w.substeps)
    assert.is_false(b.valid); assert.is_false(s.valid); assert.is_false(j.valid)
    assert.are.equal("body was destroyed", error_of(function() return b.x end))
    assert.are.equal("shape was destroyed", error_of(function() return s.friction end))
    assert.are.equal("joint was destroyed", error_of(function() return j.value end))
    local nb = w:body{ type = "dynamic" }
    nb:circle{ r = 1 }
    w:step(1 / 60)
    assert.are_not.equal(b, nb)
    assert.is_false(b.valid)
  end)
end)

describe("world:destroy", function()
  it("frees the engine world now; everything after raises 'world was destroyed'", function()
    local w = tumble.world()
    local b = w:body{}
    w:destroy()
    assert.is_false(w.valid)
    assert.are.equal("World(destroyed)", tostring(w))
    assert.are.equal("world was destroyed", error_of(function() w:step(1 / 60) end))
    assert.are.equal("world was destroyed", error_of(function() return w.gravity end))
    assert.are.equal("world was destroyed", error_of(function() w.gravity = { 0, 0 } end))
    assert.are.equal("world was destroyed", error_of(function() return b.x end))
    assert.are.equal("world was destroyed", error_of(function() b:destroy() end))
    assert.is_false(b.valid)
    w:destroy() -- twice is harmless
  end)

  it("is what a to-be-closed World does at the end of its block", function()
    local kept
    do
      local w <close> = tumble.world()
      kept = w:body{ type = "dynamic" }
      assert.is_true(w.valid)
    end
    assert.is_false(kept.valid)
    assert.are.equal("world was destroyed", error_of(function() return kept.x end))
  end)
end)
