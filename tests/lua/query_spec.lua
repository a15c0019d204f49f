-- Queries: ray casts, box/point/shape overlap, tumble.collide.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of, near = h.tumble, h.error_of, h.near

-- Ground top at y = 0; unit boxes centred at x = 2 and x = 5, a ball at x = 8.
local function scene()
  local w, ground, gs = h.world_with_ground()
  local b1 = w:body{ x = 2, y = 0.5 }:box{ w = 1, h = 1 }
  local b2 = w:body{ x = 5, y = 0.5 }:box{ w = 1, h = 1 }
  local c = w:body{ x = 8, y = 0.5 }:circle{ r = 0.5 }
  return w, b1, b2, c, gs, ground
end

describe("world:raycast", function()
  it("returns the closest hit", function()
    local w, b1, b2 = scene()
    local s, x, y, nx, ny, f = w:raycast(0, 0.5, 10, 0.5)
    assert.are.equal(b1, s)
    assert.is_true(near(x, 1.5)); assert.is_true(near(y, 0.5))
    assert.is_true(near(nx, -1)); assert.is_true(near(ny, 0))
    assert.is_true(near(f, 0.15))
    s = w:raycast(10, 0.5, 0, 0.5)
    assert.is_true(s ~= b1 and s ~= b2) -- from the right the ball comes first
  end)

  it("returns nothing on a miss or a zero-length ray", function()
    local w = scene()
    assert.are.equal(0, select("#", w:raycast(0, 5, 10, 5)))
    assert.are.equal(0, select("#", w:raycast(2, 5, 2, 5)))
  end)

  it("filters by mask", function()
    local w, b1, b2 = scene()
    b1.category = 2
    local s = w:raycast(0, 0.5, 10, 0.5, ~2)
    assert.are.equal(b2, s)
    s = w:raycast(0, 0.5, 10, 0.5, 2)
    assert.are.equal(b1, s)
    b1.mask = 8 -- a shape's own mask does not hide it from queries
    assert.are.equal(b1, w:raycast(0, 0.5, 10, 0.5))
    b1.mask = 0 -- but a shape that collides with nothing is never reported
    assert.are.equal(b2, w:raycast(0, 0.5, 10, 0.5))
  end)

  it("checks its arguments", function()
    local w = scene()
    assert.are.equal("bad argument #3 to 'raycast' (finite number expected, got nan)",
      error_of(function() w:raycast(0, 0, 0 / 0, 1) end))
    assert.are.equal("bad argument #5 to 'raycast' (integer expected, got 1.5)",
      error_of(function() w:raycast(0, 0, 1, 1, 1.5) end))
    assert.are.equal("bad argument #4 to 'raycast' (number expected, got no value)",
      error_of(function() w:raycast(0, 0, 1) end))
    assert.are.equal("bad argument #1 to 'raycast' (finite number expected, got 1e+300)",
      error_of(function() w:raycast(1e300, 0, 1, 1) end))
    assert.are.equal("bad argument #2 to 'raycast' (number in [-1e6, 1e6] expected, got 1e+20)",
      error_of(function() w:raycast(0, 1e20, 1, 1) end))
  end)
end)

describe("world:raycast_all", function()
  it("returns every hit sorted by fraction", function()
    local w, b1, b2, c = scene()
    local hits = w:raycast_all(0, 0.5, 10, 0.5)
    assert.are.equal(3, #hits)
    assert.are.equal(b1, hits[1].shape); assert.are.equal(b2, hits[2].shape); assert.are.equal(c, hits[3].shape)
    assert.is_true(near(hits[1].fraction, 0.15)); assert.is_true(near(hits[2].fraction, 0.45))
    assert.is_true(near(hits[3].fraction, 0.75))
    assert.is_true(near(hits[2].x, 4.5)); assert.is_true(near(hits[2].y, 0.5))
    assert.is_true(near(hits[3].nx, -1)); assert.is_true(near(hits[3].ny, 0))
    assert.are.same({}, w:raycast_all(0, 5, 10, 5))
    assert.are.same({}, w:raycast_all(0, 5, 0, 5))
    c.category = 8
    assert.are.equal(2, #w:raycast_all(0, 0.5, 10, 0.5, ~8))
  end)

  it("orders equal fractions by shape id", function()
    local w = tumble.world()
    local b = w:body{}
    local s1 = b:box{ w = 1, h = 1, x = 1 }
    local s2 = b:box{ w = 1, h = 1, x = 1 } -- the same place
    local hits = w:raycast_all(0, 0, 2, 0)
    assert.are.equal(2, #hits)
    assert.are.equal(hits[1].fraction, hits[2].fraction)
    assert.are.equal(s1, hits[1].shape); assert.are.equal(s2, hits[2].shape)
  end)
end)

describe("world:query_box, query_point, overlap", function()
  it("find shapes by box and by point", function()
    local w, b1, b2, c, gs = scene()
    assert.are.same({ b1, b2 }, w:query_box(1, 0.1, 6, 1))
    assert.are.same({ b1, b2 }, w:query_box(6, 1, 1, 0.1)) -- corners in any order
    assert.are.same({ gs, b1, b2, c }, w:query_box(-100, -100, 100, 100))
    assert.are.same({ b1 }, w:query_point(2, 0.5))
    assert.are.same({ c }, w:query_point(8.2, 0.6))
    assert.are.same({}, w:query_point(0, 5))
    b2.category = 4
    assert.are.same({ b1 }, w:query_box(1, 0.1, 6, 1, ~4))
    assert.are.equal("bad argument #2 to 'query_point' (number expected, got no value)", error_of(function() w:query_point(1) end))
    assert.are.equal("bad argument #4 to 'query_box' (finite number expected, got -inf)",
      error_of(function() w:query_box(0, 0, 1, -math.huge) end))
  end)

  it("overlap tests the real shapes", function()
    local w = tumble.world()
    local a = w:body{}:box{ w = 1, h = 1 }
    local near_ball = w:body{ x = 0.8 }:circle{ r = 0.5 }
    w:body{ x = 0.5, y = 1.3 }:circle{ r = 0.5 } -- its box overlaps a's box, the disc does not touch a
    w:body{ x = 3 }:circle{ r = 0.5 }
    assert.are.same({ near_ball }, w:overlap(a))
    local other = tumble.world():body{}:circle{ r = 1 }
    assert.are.equal("bad argument #1 to 'overlap' (shape of another world)", error_of(function() w:overlap(other) end))
    assert.are.equal("bad argument #1 to 'overlap' (Shape expected, got Body)", error_of(function() w:overlap(a.body) end))
    a:destroy()
    assert.are.equal("shape was destroyed", error_of(function() w:overlap(a) end))
  end)
end)

describe("tumble.collide", function()
  it("tells whether and how two shapes touch", function()
    local w = tumble.world()
    local a = w:body{}:circle{ r = 1 }
    local bb = w:body{ x = 1.5 }
    local b = bb:circle{ r = 1 }
    local touching, c = tumble.collide(a, b)
    assert.is_true(touching)
    assert.is_true(near(c.nx, 1)); assert.is_true(near(c.ny, 0)) -- from a to b
    assert.are.equal(1, c.count)
    assert.is_true(near(c.depth, 0.5))
    assert.is_true(near(c.separations[1], -0.5))
    assert.is_true(near(c.point.x, 0.75))
    assert.is_nil(c.approach_speed)
    bb.x = 2.01 -- 1 cm apart: within the speculative distance, not touching
    touching, c = tumble.collide(a, b)
    assert.is_false(touching)
    assert.is_true(near(c.separations[1], 0.01, 1e-4))
    assert.are.equal(0, c.depth)
    bb.x = 5
    touching, c = tumble.collide(a, b)
    assert.is_false(touching); assert.is_nil(c)
  end)

  it("checks its arguments", function()
    local w = tumble.world()
    local a = w:body{}:circle{ r = 1 }
    local b = w:body{}:circle{ r = 1 }
    local other = tumble.world():body{}:circle{ r = 1 }
    assert.are.equal("bad argument #2 to 'collide' (shape of another world)", error_of(function() tumble.collide(a, other) end))
    assert.are.equal("bad argument #2 to 'collide' (the same shape as argument #1)", error_of(function() tumble.collide(a, a) end))
    assert.are.equal("bad argument #1 to 'collide' (Shape expected, got number)", error_of(function() tumble.collide(1, a) end))
    b:destroy()
    assert.are.equal("shape was destroyed", error_of(function() tumble.collide(a, b) end))
  end)
end)
