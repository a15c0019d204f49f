-- A scene built from Lua matches the same scene built in C (lua_selftest.c),
-- step for step and bit for bit: the binding adds nothing to the physics.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble = h.tumble

-- Mirrors tl_c_reference_scene call for call.
local function lua_scene()
  local w = tumble.world()
  local ground = w:body{ type = "static", x = 0, y = 0 }
  ground:box{ w = 40, h = 1 }
  for row = 0, 3 do
    for i = 0, 3 - row do
      local b = w:body{ type = "dynamic", x = -1.5 + row * 0.5 + i * 1.0, y = 1.0 + row * 1.0 }
      b:box{ w = 1, h = 1 }
    end
  end
  for i = 0, 2 do
    local b = w:body{ type = "dynamic", x = -4.0 + i * 0.75, y = 6.0 + i }
    b:circle{ r = 0.25 + 0.125 * i, density = 2, restitution = 0.5 }
  end
  local cap = w:body{ type = "dynamic", x = 4, y = 5, angle = 0.5, spin = 2 }
  cap:capsule{ -0.5, 0, 0.5, 0, 0.25 }
  local arm = w:body{ type = "dynamic", x = 6, y = 3 }
  arm:box{ w = 0.5, h = 2 }
  w:joint{ kind = "revolute", a = ground, b = arm, x = 6.5, y = 4 }
  local bullet = w:body{ type = "dynamic", x = -8, y = 2, vx = 30, bullet = true }
  bullet:circle{ r = 0.2 }
  local damped = w:body{ type = "dynamic", x = 8, y = 8, linear_damping = 0.5 }
  damped:circle{ r = 0.5 }
  return w
end

local function positions(w)
  local out = {}
  for b in w:bodies() do
    out[#out + 1] = b.x; out[#out + 1] = b.y; out[#out + 1] = b.angle
  end
  return out
end

describe("the Lua-built scene", function()
  it("matches the C-built scene bit for bit after every step", function()
    local w = lua_scene()
    local steps = 0
    local checkpoints = {}
    for n = 0, 120 do checkpoints[#checkpoints + 1] = n end
    checkpoints[#checkpoints + 1] = 240
    for _, n in ipairs(checkpoints) do
      while steps < n do w:step(1 / 60); steps = steps + 1 end
      local c, c_hash = tumble._c_reference_scene(n)
      local l = positions(w)
      assert.are.equal(3 * 18, #c)
      assert.are.equal(#c, #l)
      for i = 1, #c do
        assert.is_true(c[i] == l[i], ("step %d, value %d: C %.17g, Lua %.17g"):format(n, i, c[i], l[i]))
      end
      assert.are.equal(c_hash, w:hash())
    end
    -- and it did move: the bullet crossed, the pendulum swung
    local c0 = tumble._c_reference_scene(0)
    local c240 = tumble._c_reference_scene(240)
    assert.are_not.equal(c0[3 * 16 + 1], c240[3 * 16 + 1])
  end)

  it("is deterministic from Lua too: two runs, same hash", function()
    local a, b = lua_scene(), lua_scene()
    h.step(a, 120); h.step(b, 120)
    assert.are.equal(a:hash(), b:hash())
  end)

  it("the hook checks its argument", function()
    assert.are.equal("bad argument #1 to '_c_reference_scene' (integer in [0, 100000] expected, got -1)",
      h.error_of(function() tumble._c_reference_scene(-1) end))
  end)
end)
