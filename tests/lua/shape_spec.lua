-- The Shape type: the constructors of Body, properties, areas (fields), methods.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

local COMMON = "density, friction, restitution, rolling_resistance, tangent_speed, one_way, sensor, enabled, category, mask, group, contact_events, hit_events, "
  .. "sensor_events, user, field, on_begin, on_end, on_hit, on_sensor_enter, on_sensor_exit"

-- Handles do not keep their world alive: the spec keeps the worlds it makes.
local worlds = {}
local function body(type_)
  local w = tumble.world{ gravity = { 0, 0 } }
  worlds[#worlds + 1] = w
  return w:body{ type = type_ or "dynamic" }, w
end

describe("b:circle", function()
  it("has defaults and takes every option", function()
    local b = body()
    local s = b:circle{ r = 0.5 }
    assert.are.equal("circle", s.kind)
    assert.are.equal(0.5, s.r)
    assert.is_true(near(s.friction, 0.6)); assert.are.equal(0, s.restitution); assert.are.equal(1, s.density)
    assert.is_false(s.sensor); assert.is_true(s.enabled)
    assert.are.equal(1, s.category); assert.are.equal(-1, s.mask); assert.are.equal(0, s.group)
    assert.is_nil(s.user); assert.is_nil(s.field); assert.is_nil(s.on_begin)
    assert.is_nil(s.w); assert.is_nil(s.h); assert.is_nil(s.chain)
    assert.are.equal(b, s.body)
    assert.is_true(s.valid)
    assert.are.equal("Shape#" .. s.id .. "(circle)", tostring(s))
    local f = function() end
    local u = { "u" }
    local t = b:circle{ r = 1, x = 1, y = 2, density = 2, friction = 0.25, restitution = 0.5, sensor = true,
                        enabled = false, category = 4, mask = 0xFFFF, group = -3, contact_events = false,
                        hit_events = false, sensor_events = false, user = u, on_begin = f, on_end = f, on_hit = f,
                        on_sensor_enter = f, on_sensor_exit = f, field = { kind = "drag", drag = 2 } }
    assert.are.equal(2, t.density); assert.are.equal(0.25, t.friction); assert.are.equal(0.5, t.restitution)
    assert.is_true(t.sensor); assert.is_false(t.enabled)
    assert.are.equal(4, t.category); assert.are.equal(0xFFFF, t.mask); assert.are.equal(-3, t.group)
    assert.are.equal(u, t.user)
    for _, k in ipairs{ "on_begin", "on_end", "on_hit", "on_sensor_enter", "on_sensor_exit" } do
      assert.are.equal(f, t[k], k)
    end
    assert.are.equal("drag", t.field.kind); assert.are.equal(2, t.field.drag)
    local g = t:geometry()
    assert.are.same({ kind = "circle", x = 1, y = 2, r = 1 }, g)
  end)

  it("takes positional r, x, y", function()
    local b = body()
    local s = b:circle(0.25, 1, -1)
    assert.are.same({ kind = "circle", x = 1, y = -1, r = 0.25 }, s:geometry())
    assert.are.equal(0.5, b:circle(0.5).r)
  end)

  it("rejects bad options with the valid ones listed", function()
    local b = body()
    assert.are.equal("bad argument #1 to 'circle' (unknown option 'radus'; valid options: r, x, y, " .. COMMON .. ")",
      error_of(function() b:circle{ radus = 1 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'r': positive number expected, got nil)",
      error_of(function() b:circle{} end))
    assert.are.equal("bad argument #1 to 'circle' (field 'r': positive number expected, got -1)",
      error_of(function() b:circle{ r = -1 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'r': positive number expected, got 0)",
      error_of(function() b:circle{ r = 0 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'r': finite number expected, got nan)",
      error_of(function() b:circle{ r = 0 / 0 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'r': number <= 1e4 expected, got 100000)",
      error_of(function() b:circle{ r = 100000 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'x': finite number expected, got inf)",
      error_of(function() b:circle{ r = 1, x = math.huge } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'density': non-negative number expected, got -2)",
      error_of(function() b:circle{ r = 1, density = -2 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'density': number <= 1e6 expected, got 1000000000.0)",
      error_of(function() b:circle{ r = 1, density = 1e9 } end))
    -- a mass that would not be a normal float (its inverse infinite, centres NaN)
    assert.matches("mass out of range", error_of(function() b:circle{ r = 0.5, density = 1e-40 } end), 1, true)
    assert.matches("mass out of range", error_of(function() b:circle{ r = 1e-20 } end), 1, true)
    assert.are.equal(0, b.mass)
    -- the same through the setters: refused, nothing changed
    local ok_shape = b:circle{ r = 0.5 }
    local mass = b.mass
    assert.are.equal("bad value for Shape.density (mass out of range (density or size too small or too large))",
      error_of(function() ok_shape.density = 1e-40 end))
    assert.are.equal("bad value for Shape.r (mass out of range (density or size too small or too large))",
      error_of(function() ok_shape.r = 1e-20 end))
    assert.are.equal(mass, b.mass); assert.are.equal(0.5, ok_shape.r); assert.are.equal(1, ok_shape.density)
    ok_shape:destroy()
    assert.are.equal("bad argument #1 to 'circle' (field 'friction': number expected, got string)",
      error_of(function() b:circle{ r = 1, friction = "high" } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'sensor': boolean expected, got string)",
      error_of(function() b:circle{ r = 1, sensor = "yes" } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'mask': integer expected, got 1.5)",
      error_of(function() b:circle{ r = 1, mask = 1.5 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'group': integer in [-2147483648, 2147483647] expected, got 4294967296)",
      error_of(function() b:circle{ r = 1, group = 1 << 32 } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'on_begin': function expected, got table)",
      error_of(function() b:circle{ r = 1, on_begin = {} } end))
    assert.are.equal("bad argument #1 to 'circle' (table expected, got string)", error_of(function() b:circle("big") end))
    assert.are.equal("bad argument #1 to 'circle' (positive number expected, got -1)", error_of(function() b:circle(-1) end))
    assert.are.equal("bad argument #3 to 'circle' (number expected, got no value)", error_of(function() b:circle(1, 2) end))
    assert.are.equal("bad argument #1 to 'circle' (shape reaches beyond 1e6 m of its body's origin)",
      error_of(function() b:circle{ r = 10, x = 1e6 } end))
    assert.are.same({}, b:shapes()) -- nothing half made
  end)
end)

describe("b:box", function()
  it("makes a rectangle polygon with w and h", function()
    local b = body()
    local s = b:box{ w = 2, h = 1, density = 3 }
    assert.are.equal("polygon", s.kind)
    assert.are.equal(2, s.w); assert.are.equal(1, s.h); assert.are.equal(0, s.r)
    assert.is_true(near(b.mass, 6))
    local g = s:geometry()
    assert.are.equal(4, #g.points / 2)
    assert.are.equal(0, g.centroid.x)
    local t = b:box{ w = 1, h = 3, x = 1, y = 2, angle = math.pi / 2, radius = 0.1 }
    assert.is_true(near(t.w, 1)); assert.is_true(near(t.h, 3)); assert.is_true(near(t.r, 0.1))
    local x1, y1, x2, y2 = t:aabb()
    -- rotated a quarter turn: 3 wide, 1 high, plus the rounding radius
    assert.is_true(near(x2 - x1, 3.2, 1e-4)); assert.is_true(near(y2 - y1, 1.2, 1e-4))
    local p = b:box(4, 2, 1, 1, 0)
    assert.are.equal(4, p.w); assert.are.equal(2, p.h)
    assert.are.same({ x = 1, y = 1, 1, 1 }, p:geometry().centroid)
  end)

  it("rejects bad sizes", function()
    local b = body()
    assert.are.equal("bad argument #2 to 'box' (positive number expected, got -1)", error_of(function() b:box(1, -1) end))
    assert.are.equal("bad argument #1 to 'box' (field 'w': positive number expected, got -1)",
      error_of(function() b:box{ w = -1, h = 1 } end))
    assert.are.equal("bad argument #1 to 'box' (field 'h': positive number expected, got nil)",
      error_of(function() b:box{ w = 1 } end))
    assert.are.equal("bad argument #1 to 'box' (field 'radius': non-negative number expected, got -0.1)",
      error_of(function() b:box{ w = 1, h = 1, radius = -0.1 } end))
    assert.are.equal("bad argument #1 to 'box' (field 'angle': finite number expected, got nan)",
      error_of(function() b:box{ w = 1, h = 1, angle = 0 / 0 } end))
    assert.are.equal("bad argument #1 to 'box' (unknown option 'width' (did you mean w?); valid options: w, h, x, y, angle, radius, "
      .. COMMON .. ")", error_of(function() b:box{ width = 1, h = 1 } end))
  end)
end)

describe("b:polygon", function()
  it("makes a convex polygon with the right mass", function()
    local b = body()
    local s = b:polygon{ -0.5, 0, 0.5, 0, 0, 1, density = 2 }
    assert.are.equal("polygon", s.kind)
    assert.is_nil(s.w) -- a triangle is no box
    assert.is_true(near(b.mass, 2 * 0.5)) -- area 0.5
    local g = s:geometry()
    assert.are.equal(6, #g.points)
    assert.is_true(near(g.centroid.y, 1 / 3))
    local r = b:polygon{ 0, 0, 1, 0, 1, 1, 0, 1, radius = 0.05 }
    assert.is_true(near(r.r, 0.05)); assert.are.equal(1, r.w) -- a square polygon reads as a box
  end)

  it("rejects bad point lists", function()
    local b = body()
    assert.are.equal("bad argument #1 to 'polygon' (even number of coordinates expected, got 5)",
      error_of(function() b:polygon{ 0, 0, 1, 0, 1 } end))
    assert.are.equal("bad argument #1 to 'polygon' (at least 3 points expected, got 2)",
      error_of(function() b:polygon{ 0, 0, 1, 0 } end))
    assert.are.equal("bad argument #1 to 'polygon' (at most 8 points expected, got 9)",
      error_of(function()
        local t = {}
        for i = 0, 8 do t[#t + 1] = math.cos(i * 0.6); t[#t + 1] = math.sin(i * 0.6) end
        b:polygon(t)
      end))
    assert.are.equal("bad argument #1 to 'polygon' (points do not form a convex polygon)",
      error_of(function() b:polygon{ 0, 0, 2, 0, 1, 0.2, 2, 2, 0, 2 } end))
    assert.are.equal("bad argument #1 to 'polygon' (degenerate shape (zero area, coincident or collinear points))",
      error_of(function() b:polygon{ 0, 0, 1, 0, 2, 0 } end))
    assert.are.equal("bad argument #1 to 'polygon' (field [3]: finite number expected, got nan)",
      error_of(function() b:polygon{ 0, 0, 0 / 0, 0, 1, 1 } end))
    assert.are.equal("bad argument #1 to 'polygon' (field [2]: number expected, got string)",
      error_of(function() b:polygon{ 0, "0", 1, 0, 1, 1 } end))
    assert.are.equal("bad argument #1 to 'polygon' (unknown option 'radious' (did you mean radius?); valid options: radius, " .. COMMON .. ")",
      error_of(function() b:polygon{ 0, 0, 1, 0, 1, 1, radious = 1 } end))
    assert.are.equal("bad argument #1 to 'polygon' (table expected, got no value)", error_of(function() b:polygon() end))
  end)
end)

describe("b:capsule and b:segment", function()
  it("take a list or named fields", function()
    local b = body()
    local c = b:capsule{ -1, 0, 1, 0, 0.5 }
    assert.are.same({ kind = "capsule", x1 = -1, y1 = 0, x2 = 1, y2 = 0, r = 0.5 }, c:geometry())
    local d = b:capsule{ x1 = 0, y1 = -1, x2 = 0, y2 = 1, r = 0.25 }
    assert.are.equal(0.25, d.r)
    -- a capsule is a box of 2 x 2r plus two half discs
    local m = w == nil and 1 * (2 * 1 + math.pi * 0.25) or 0
    local solo = body()
    solo:capsule{ -1, 0, 1, 0, 0.5 }
    assert.is_true(near(solo.mass, 2 + math.pi * 0.25, 1e-4))
    assert.is_truthy(m)
    local s = b:segment{ 0, 0, 2, 0 }
    assert.are.equal("segment", s.kind)
    assert.is_nil(s.r)
    assert.are.same({ kind = "segment", x1 = 0, y1 = 0, x2 = 2, y2 = 0 }, s:geometry())
    assert.are.same({ kind = "segment", x1 = 1, y1 = 1, x2 = 1, y2 = 3 }, b:segment{ x1 = 1, y1 = 1, x2 = 1, y2 = 3 }:geometry())
  end)

  it("reject bad input", function()
    local b = body()
    assert.are.equal("bad argument #1 to 'capsule' (give the points either as a list or as named fields, not both)",
      error_of(function() b:capsule{ 0, 0, 1, 0, 1, x1 = 0 } end))
    assert.are.equal("bad argument #1 to 'capsule' (5 numbers expected in the list, got 4)",
      error_of(function() b:capsule{ 0, 0, 1, 0 } end))
    assert.are.equal("bad argument #1 to 'capsule' (field [5]: positive number expected, got -1)",
      error_of(function() b:capsule{ 0, 0, 1, 0, -1 } end))
    assert.are.equal("bad argument #1 to 'capsule' (field 'r': positive number expected, got nil)",
      error_of(function() b:capsule{ x1 = 0, y1 = 0, x2 = 1, y2 = 0 } end))
    assert.are.equal("bad argument #1 to 'capsule' (unknown option 'radius' (did you mean r?); valid options: x1, y1, x2, y2, r, " .. COMMON .. ")",
      error_of(function() b:capsule{ 0, 0, 1, 0, 1, radius = 1 } end))
    assert.are.equal("bad argument #1 to 'segment' (4 numbers expected in the list, got 2)",
      error_of(function() b:segment{ 0, 0 } end))
    assert.are.equal("bad argument #1 to 'segment' (field 'y2': number expected, got nil)",
      error_of(function() b:segment{ x1 = 0, y1 = 0, x2 = 1 } end))
    assert.are.equal("bad argument #1 to 'segment' (field [1]: finite number expected, got inf)",
      error_of(function() b:segment{ 1 / 0, 0, 1, 0 } end))
    assert.are.equal("bad argument #1 to 'segment' (unknown option [5]; valid options: x1, y1, x2, y2, " .. COMMON .. ")",
      error_of(function() b:segment{ 0, 0, 1, 0, 3 } end))
    assert.are.same({}, b:shapes())
  end)
end)

describe("b:chain", function()
  it("returns the link shapes in order", function()
    local b = body("static")
    local links = b:chain{ 0, 0, 1, 0, 2, 0.5, 3, 0.5, friction = 0.3 }
    assert.are.equal(3, #links)
    for i, s in ipairs(links) do
      assert.are.equal("chain_segment", s.kind)
      assert.are.equal(b, s.body)
      assert.is_true(near(s.friction, 0.3))
      assert.are.equal(links[1].chain, s.chain)
      assert.are.equal(i == 1 and 0 or links[i - 1]:geometry().x2, s:geometry().x1)
    end
    local loop = b:chain{ 0, 0, 1, 0, 1, 1, loop = true }
    assert.are.equal(3, #loop)
    assert.are_not.equal(links[1].chain, loop[1].chain)
    local g = loop[1]:geometry()
    assert.are.same({ x = 1, y = 1, 1, 1 }, g.ghost1)
  end)

  it("rejects bad input", function()
    local b = body("static")
    assert.are.equal("bad argument #1 to 'chain' (at least 2 points expected, got 1)", error_of(function() b:chain{ 0, 0 } end))
    assert.are.equal("bad argument #1 to 'chain' (at least 3 points expected, got 2)",
      error_of(function() b:chain{ 0, 0, 1, 0, loop = true } end))
    assert.are.equal("bad argument #1 to 'chain' (even number of coordinates expected, got 3)",
      error_of(function() b:chain{ 0, 0, 1 } end))
    assert.are.equal("bad argument #1 to 'chain' (unknown option 'closed'; valid options: loop, friction, restitution, rolling_resistance, tangent_speed, category, mask, group, sensor_events)",
      error_of(function() b:chain{ 0, 0, 1, 0, closed = true } end))
    assert.are.equal("bad argument #1 to 'chain' (field [4]: finite number expected, got nan)",
      error_of(function() b:chain{ 0, 0, 1, 0 / 0 } end))
  end)
end)

describe("Shape properties", function()
  it("are written and read back", function()
    local b = body()
    local s = b:circle{ r = 0.5 }
    s.friction = 0.125; assert.are.equal(0.125, s.friction)
    s.restitution = 0.75; assert.are.equal(0.75, s.restitution)
    s.density = 4; assert.are.equal(4, s.density)
    assert.is_true(near(b.mass, 4 * math.pi * 0.25)) -- mass follows density
    s.sensor = true; assert.is_true(s.sensor)
    s.sensor = false; assert.is_false(s.sensor)
    s.enabled = false; assert.is_false(s.enabled)
    s.enabled = true; assert.is_true(s.enabled)
    s.category = 2; assert.are.equal(2, s.category)
    s.mask = 0x5; assert.are.equal(5, s.mask)
    s.mask = ~0; assert.are.equal(-1, s.mask)
    s.group = -7; assert.are.equal(-7, s.group)
    assert.are.equal(2, s.category) -- filter fields are independent
    local f = function() end
    s.on_begin = f; assert.are.equal(f, s.on_begin)
    s.on_begin = nil; assert.is_nil(s.on_begin)
    s.user = "hello"; assert.are.equal("hello", s.user)
  end)

  it("resize shapes and recompute the mass", function()
    local b = body()
    local c = b:circle{ r = 0.5 }
    c.r = 1
    assert.are.equal(1, c.r)
    assert.is_true(near(b.mass, math.pi))
    assert.is_true(near(b.inertia, math.pi / 2))
    c:destroy()
    local box = b:box{ w = 1, h = 1 }
    box.w = 3
    assert.are.equal(3, box.w); assert.are.equal(1, box.h)
    assert.is_true(near(b.mass, 3))
    box.h = 2
    assert.is_true(near(b.mass, 6)); assert.is_true(near(b.inertia, 6 * (9 + 4) / 12, 1e-4))
    box.r = 0.25; assert.are.equal(0.25, box.r)
    local rotated = b:box{ w = 2, h = 1, x = 1, y = 1, angle = 0.5 }
    rotated.w = 4
    assert.is_true(near(rotated.w, 4, 1e-4)); assert.is_true(near(rotated.h, 1, 1e-4))
    local gc = rotated:geometry().centroid
    assert.is_true(near(gc.x, 1, 1e-5)); assert.is_true(near(gc.y, 1, 1e-5))
    local cap = b:capsule{ 0, 0, 1, 0, 0.5 }
    cap.r = 0.125; assert.are.equal(0.125, cap.r)
  end)

  it("refuse bad values, read-only and unknown names", function()
    local b = body()
    local s = b:circle{ r = 0.5 }
    assert.are.equal("bad value for Shape.friction (non-negative number expected, got -1)", error_of(function() s.friction = -1 end))
    assert.are.equal("bad value for Shape.restitution (finite number expected, got nan)", error_of(function() s.restitution = 0 / 0 end))
    assert.are.equal("bad value for Shape.density (number expected, got boolean)", error_of(function() s.density = true end))
    assert.are.equal("bad value for Shape.sensor (boolean expected, got nil)", error_of(function() s.sensor = nil end))
    assert.are.equal("bad value for Shape.mask (integer expected, got string)", error_of(function() s.mask = "all" end))
    assert.are.equal("bad value for Shape.category (integer expected, got nan)", error_of(function() s.category = 0 / 0 end))
    assert.are.equal("bad value for Shape.r (positive number expected, got 0)", error_of(function() s.r = 0 end))
    assert.are.equal("bad value for Shape.on_hit (function expected, got number)", error_of(function() s.on_hit = 1 end))
    assert.are.equal("Shape of kind 'circle' has no property 'w'", error_of(function() s.w = 1 end))
    local tri = b:polygon{ 0, 0, 1, 0, 0, 1 }
    assert.are.equal("Shape of kind 'polygon' has no property 'h' (not a box)", error_of(function() tri.h = 1 end))
    local seg = b:segment{ 0, 0, 1, 0 }
    assert.are.equal("Shape of kind 'segment' has no property 'r'", error_of(function() seg.r = 1 end))
    for _, k in ipairs{ "kind", "body", "valid", "id", "chain" } do
      assert.are.equal("cannot assign read-only property '" .. k .. "' of Shape", error_of(function() s[k] = 1 end))
    end
    assert.are.equal("Shape has no property 'radius'; did you mean r?", error_of(function() s.radius = 1 end))
    assert.are.equal("cannot assign method 'destroy' of Shape", error_of(function() s.destroy = 1 end))
    assert.is_nil(s.radius)
    assert.are.equal(0.5, s.r)
  end)
end)

describe("Shape filtering and event flags", function()
  it("category, mask and group decide who collides", function()
    local w, _, gs = h.world_with_ground()
    local function ball(x, opts)
      local b = w:body{ type = "dynamic", x = x, y = 0.6 }
      opts.r = 0.5
      b:circle(opts)
      return b
    end
    local lands = ball(0, {})
    local ghost = ball(2, { category = 2 })
    gs.mask = ~2 -- the ground ignores category 2
    local lands_too = ball(4, { mask = 1 })
    local masked_out = ball(6, { mask = 4 }) -- the ball ignores the ground's category 1
    h.step(w, 60)
    assert.is_true(near(lands.y, 0.5, 0.02)); assert.is_true(near(lands_too.y, 0.5, 0.02))
    assert.is_true(ghost.y < -1); assert.is_true(masked_out.y < -1)

    -- the same negative group never collides, the same positive group always does
    local function drop(group, mask)
      local w2 = tumble.world()
      w2:body{ y = -0.5 }:box{ w = 10, h = 1, group = group }
      local b = w2:body{ type = "dynamic", y = 0.6 }
      b:circle{ r = 0.5, group = group, mask = mask }
      h.step(w2, 60)
      return b.y
    end
    assert.is_true(drop(-1) < -1)
    assert.is_true(near(drop(1, 4), 0.5, 0.02)) -- despite a mask that misses the ground
    assert.is_true(near(drop(0), 0.5, 0.02))
  end)

  it("contact_events, hit_events and sensor_events switch reports off", function()
    local w = tumble.world()
    -- a pair is reported when either shape asks for it: quiet ball on quiet ground
    w:body{ x = -5, y = -0.5 }:box{ w = 4, h = 1, contact_events = false, hit_events = false }
    w:body{ x = 5, y = -0.5 }:box{ w = 4, h = 1 }
    local function ball(x, y, opts)
      opts.r = 0.5
      return w:body{ type = "dynamic", x = x, y = y }:circle(opts)
    end
    local quiet = ball(-5, 1, { contact_events = false, hit_events = false })
    local loud = ball(5, 1, {})
    local zone = w:body{ x = 10, y = 2 }:box{ w = 2, h = 1, sensor = true }
    local hidden = ball(9.4, 4, { sensor_events = false })
    local visible = ball(10.6, 4, {})
    local seen = {}
    for _, ev in ipairs{ "begin", "hit", "sensor_enter" } do
      w:on(ev, function(a, b) seen[#seen + 1] = { ev, a, b } end)
    end
    h.step(w, 60)
    local kinds = {}
    for _, e in ipairs(seen) do
      assert.is_true(e[2] ~= quiet and e[3] ~= quiet)
      assert.is_true(e[3] ~= hidden)
      if e[2] == loud then kinds[e[1]] = true end
      if e[1] == "sensor_enter" then assert.are.equal(zone, e[2]); assert.are.equal(visible, e[3]) end
    end
    assert.is_true(kinds.begin and kinds.hit)
  end)
end)

describe("Shape fields (areas)", function()
  it("are set from tables, read back as tables and removed with nil", function()
    local b = body()
    local s = b:box{ w = 4, h = 4, sensor = true }
    s.field = { kind = "linear", fx = 1, fy = 30 }
    assert.are.same({ kind = "linear", fx = 1, fy = 30, acceleration = false }, s.field)
    s.field = { kind = "radial", strength = -5, falloff = "inverse_square", x = 1, y = 2, acceleration = true }
    assert.are.same({ kind = "radial", strength = -5, falloff = "inverse_square", x = 1, y = 2, acceleration = true }, s.field)
    s.field = { kind = "drag", drag = 0.5 }
    assert.are.same({ kind = "drag", drag = 0.5, acceleration = false }, s.field)
    s.field = nil
    assert.is_nil(s.field)
    s.field = { kind = "radial" } -- every number defaults to zero
    assert.are.same({ kind = "radial", strength = 0, falloff = "none", x = 0, y = 0, acceleration = false }, s.field)
    s.field = { kind = "none" }
    assert.is_nil(s.field)
  end)

  it("are validated", function()
    local b = body()
    local s = b:box{ w = 4, h = 4, sensor = true }
    assert.are.equal("bad value for Shape.field (field 'kind': one of 'none', 'linear', 'radial', 'drag' expected, got 'wind')",
      error_of(function() s.field = { kind = "wind" } end))
    assert.are.equal("bad value for Shape.field (field 'kind': one of 'none', 'linear', 'radial', 'drag' expected, got nil)",
      error_of(function() s.field = { fx = 1 } end))
    assert.are.equal("bad value for Shape.field (unknown option 'fz'; valid options: kind, fx, fy, acceleration)",
      error_of(function() s.field = { kind = "linear", fz = 1 } end))
    assert.are.equal("bad value for Shape.field (unknown option 'fx'; valid options: kind, strength, falloff, x, y, acceleration)",
      error_of(function() s.field = { kind = "radial", fx = 1 } end))
    assert.are.equal("bad value for Shape.field (field 'fy': finite number expected, got inf)",
      error_of(function() s.field = { kind = "linear", fy = math.huge } end))
    assert.are.equal("bad value for Shape.field (field 'drag': non-negative number expected, got -1)",
      error_of(function() s.field = { kind = "drag", drag = -1 } end))
    assert.are.equal("bad value for Shape.field (field 'falloff': one of 'none', 'linear', 'inverse_square' expected, got 'cubic')",
      error_of(function() s.field = { kind = "radial", falloff = "cubic" } end))
    assert.are.equal("bad value for Shape.field (field table expected, got number)", error_of(function() s.field = 3 end))
    assert.are.equal("bad argument #1 to 'box' (field 'field.fy': number expected, got string)",
      error_of(function() b:box{ w = 1, h = 1, field = { kind = "linear", fy = "up" } } end))
    assert.is_nil(s.field)
  end)

  it("push bodies inside them", function()
    local w = tumble.world{ gravity = { 0, -10 } }
    local area = w:body{}
    area:box{ w = 10, h = 10, sensor = true, field = { kind = "linear", fy = 30, acceleration = true } }
    local b = w:body{ type = "dynamic" }
    b:circle{ r = 0.25 }
    h.step(w, 30)
    -- net acceleration 30 - 10 = 20 m/s^2 upwards while inside
    assert.is_true(b.vy > 5, tostring(b.vy))
    local vy = b.vy
    area:shapes()[1].enabled = false -- a disabled field does nothing
    h.step(w, 6)
    assert.is_true(b.vy < vy)
  end)
end)

describe("Shape methods", function()
  it("test points, give bounds, cast rays, destroy", function()
    local b = body()
    b.x, b.y = 1, 1
    local s = b:circle{ r = 0.5 }
    assert.is_true(s:test_point(1.2, 1.2))
    assert.is_false(s:test_point(2, 2))
    local x1, y1, x2, y2 = s:aabb()
    assert.is_true(near(x1, 0.5)); assert.is_true(near(y1, 0.5)); assert.is_true(near(x2, 1.5)); assert.is_true(near(y2, 1.5))
    local x, y, nx, ny, f = s:raycast(-1, 1, 3, 1)
    assert.is_true(near(x, 0.5)); assert.is_true(near(y, 1)); assert.is_true(near(nx, -1)); assert.is_true(near(ny, 0))
    assert.is_true(near(f, 1.5 / 4))
    assert.is_nil(s:raycast(-1, 3, 3, 3))
    assert.is_nil(s:raycast(0, 0, 0, 0))
    local box = b:box{ w = 1, h = 1, density = 1 }
    local m = b.mass
    s:destroy()
    assert.is_false(s.valid)
    assert.is_true(near(b.mass, m - math.pi * 0.25))
    assert.are.same({ box }, b:shapes())
    s:destroy() -- again: nothing
  end)

  it("check their arguments", function()
    local b = body()
    local s = b:circle{ r = 0.5 }
    assert.are.equal("bad argument #2 to 'test_point' (number expected, got no value)", error_of(function() s:test_point(1) end))
    assert.are.equal("bad argument #1 to 'raycast' (finite number expected, got nan)", error_of(function() s:raycast(0 / 0, 0, 1, 1) end))
    assert.are.equal("bad argument #1 to 'aabb' (Shape expected, got Body)", error_of(function() s.aabb(b) end))
  end)

  it("go stale after destroy", function()
    local b = body()
    local s = b:circle{ r = 0.5 }
    s:destroy()
    for _, k in ipairs{ "friction", "restitution", "density", "sensor", "enabled", "category", "mask", "group", "user",
                        "field", "on_begin", "r", "w", "kind", "body", "chain" } do
      assert.are.equal("shape was destroyed", error_of(function() return s[k] end), k)
    end
    assert.are.equal("shape was destroyed", error_of(function() s.friction = 1 end))
    assert.are.equal("shape was destroyed", error_of(function() s:test_point(0, 0) end))
    assert.are.equal("shape was destroyed", error_of(function() s:aabb() end))
    assert.are.equal("Shape#" .. s.id .. "(destroyed)", tostring(s))
  end)
end)
