-- Handles: identity, user values, stale handles (destroy, destroy_all, a
-- collected world), and that nothing the world owns is freed by a handle.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble, error_of = h.tumble, h.error_of

-- A weak-valued table: after h.collect(), what only it refers to is gone.
local function weak() return setmetatable({}, { __mode = "v" }) end

describe("handle identity", function()
  it("is one userdata per engine object, so == and table keys work", function()
    local w = tumble.world()
    local b = w:body{ type = "dynamic" }
    local s = b:circle{ r = 1 }
    local j = w:joint{ kind = "weld", a = w:body{}, b = b }
    assert.is_true(rawequal(b, s.body))
    assert.is_true(rawequal(b, j.b))
    assert.is_true(rawequal(s, b:shapes()[1]))
    assert.is_true(rawequal(j, b:joints()[1]))
    local first
    for x in w:bodies() do first = first or x end
    assert.is_true(rawequal(b, first) or rawequal(b, select(2, w:bodies()())))
    local t = { [b] = "body", [s] = "shape" }
    assert.are.equal("body", t[s.body]); assert.are.equal("shape", t[b:shapes()[1]])
  end)

  it("survives the collector: a handle dropped and found again is equal and keeps its values", function()
    local w = tumble.world()
    local id
    do
      local b = w:body{ type = "dynamic", user = { tag = "kept" } }
      b:circle{ r = 1, user = "shape value" }
      id = b.id
    end
    h.collect()
    local again
    for b in w:bodies() do if b.id == id then again = b end end
    assert.are.equal("kept", again.user.tag)
    assert.are.equal("shape value", again:shapes()[1].user)
  end)

  it("never confuses kinds or worlds", function()
    local w1, w2 = tumble.world(), tumble.world()
    local b1, b2 = w1:body{}, w2:body{}
    assert.are.equal(b1.id, b2.id)
    assert.are_not.equal(b1, b2)
    local s = b1:circle{ r = 1 }
    assert.are.equal(b1.id, s.id)
    assert.are_not.equal(b1, s)
    assert.are.equal("bad argument #1 to 'joint' (field 'b': body of another world)",
      error_of(function() w1:joint{ kind = "weld", a = b1, b = b2 } end))
  end)
end)

describe("user values", function()
  it("hold any Lua value and are released when the object dies", function()
    local w = tumble.world()
    local refs = weak()
    local b = w:body{ type = "dynamic" }
    local s = b:circle{ r = 1 }
    local other = w:body{}
    local j = w:joint{ kind = "weld", a = other, b = b }
    do
      local bu, su, ju, handler = {}, {}, {}, function() end
      b.user, s.user, j.user, s.on_begin = bu, su, ju, handler
      refs.b, refs.s, refs.j, refs.h = bu, su, ju, handler
    end
    h.collect()
    assert.is_truthy(refs.b and refs.s and refs.j and refs.h) -- alive while the objects live
    b:destroy() -- takes the shape and the joint with it
    h.collect()
    assert.is_nil(refs.b); assert.is_nil(refs.s); assert.is_nil(refs.j); assert.is_nil(refs.h)
  end)

  it("are released by shape and joint destroy and by destroy_all", function()
    local w = tumble.world()
    local refs = weak()
    local b = w:body{}
    local s1, s2 = b:circle{ r = 1 }, b:circle{ r = 2 }
    local j = w:joint{ kind = "weld", a = b, b = w:body{} }
    do
      local a, c, d = {}, {}, {}
      s1.user, s2.user, j.user = a, c, d
      refs.s1, refs.s2, refs.j = a, c, d
    end
    s1:destroy(); j:destroy()
    h.collect()
    assert.is_nil(refs.s1); assert.is_nil(refs.j); assert.is_truthy(refs.s2)
    w:destroy_all()
    h.collect()
    assert.is_nil(refs.s2)
  end)

  it("do not keep the world alive through a cycle", function()
    local refs = weak()
    do
      local w = tumble.world()
      local b = w:body{}
      b.user = { world = w }
      b:circle{ r = 1 }.on_begin = function() return w end
      w:on("begin", function() return w, b end)
      refs.w = w
    end
    h.collect()
    assert.is_nil(refs.w)
  end)
end)

describe("stale handles", function()
  it("after destroy raise '<kind> was destroyed', never touch another object", function()
    local w = tumble.world()
    local b = w:body{ type = "dynamic" }
    local s = b:circle{ r = 1 }
    local j = w:joint{ kind = "weld", a = w:body{}, b = b }
    b:destroy()
    local nb = w:body{ type = "dynamic", x = 7 } -- likely takes the freed slot
    local ns = nb:circle{ r = 2 }
    assert.are.equal("body was destroyed", error_of(function() return b.x end))
    assert.are.equal("shape was destroyed", error_of(function() return s.r end))
    assert.are.equal("joint was destroyed", error_of(function() return j.kind end))
    assert.are.equal(7, nb.x); assert.are.equal(2, ns.r)
    assert.is_false(b == nb); assert.is_false(s == ns)
  end)

  it("after the world is collected raise 'world was destroyed'", function()
    local b, s, j
    do
      local w = tumble.world()
      b = w:body{ type = "dynamic" }
      s = b:circle{ r = 1 }
      j = w:joint{ kind = "weld", a = w:body{}, b = b }
    end
    h.collect()
    assert.is_false(b.valid); assert.is_false(s.valid); assert.is_false(j.valid)
    assert.are.equal("world was destroyed", error_of(function() return b.x end))
    assert.are.equal("world was destroyed", error_of(function() b.x = 1 end))
    assert.are.equal("world was destroyed", error_of(function() return b.world end))
    assert.are.equal("world was destroyed", error_of(function() b:circle{ r = 1 } end))
    assert.are.equal("world was destroyed", error_of(function() return s.friction end))
    assert.are.equal("world was destroyed", error_of(function() s:destroy() end))
    assert.are.equal("world was destroyed", error_of(function() return j.value end))
    assert.are.equal("world was destroyed", error_of(function() tumble.collide(s, s) end))
    assert.is_truthy(tostring(b):match("^Body#%d+%(destroyed%)$"))
    b, s, j = nil, nil, nil
    h.collect() -- the handles' finalizers run after the world's
  end)

  it("handles and world collected in one cycle, in either order, free all of it", function()
    -- round 1: nothing refers to the world but its handles; round 2: every
    -- body's user value holds every shape, a cycle through the world
    for round = 1, 2 do
      local refs = weak()
      h.collect()
      local before = collectgarbage("count")
      do
        local w = tumble.world()
        local list = {}
        for i = 1, 50 do
          local b = w:body{ type = "dynamic", x = i }
          list[i] = b:circle{ r = 0.5 }
          if round == 2 then b.user = list end
          refs[#refs + 1] = b
        end
        w:step(1 / 60)
        assert.are.equal(50, w.body_count)
        assert.is_true(list[1].body.y < 0) -- the step ran: they fell
        refs.w, refs.shape = w, list[50]
      end
      -- the world's engine memory is allocated through Lua's allocator: it
      -- counts, and all but a little (the weak table's own slots) goes back
      local held = collectgarbage("count") - before
      h.collect()
      local left = collectgarbage("count") - before
      assert.is_nil(refs.w, "round " .. round)
      assert.is_nil(refs.shape, "round " .. round)
      assert.is_nil(next(refs), "round " .. round)
      assert.is_true(held > 16 and left < held / 4,
        ("round %d: %.1f KB held, %.1f KB left"):format(round, held, left))
    end
  end)
end)

describe("every method", function()
  local w = tumble.world()
  local b = w:body{ type = "dynamic" }
  local s = b:circle{ r = 1 }
  local j = w:joint{ kind = "weld", a = w:body{}, b = b }
  local methods = {
    World = { w, { "step", "body", "joint", "on", "bodies", "joints", "destroy_all", "destroy", "hash", "profile",
                   "counters", "contacts", "raycast", "raycast_all", "query_box", "query_point", "overlap" } },
    Body = { b, { "apply_force", "apply_impulse", "apply_torque", "apply_angular_impulse", "destroy", "shapes",
                  "joints", "contacts", "world_point", "local_point", "world_vector", "local_vector", "velocity_at",
                  "world_center", "local_center", "set_position", "get_position", "set_velocity", "get_velocity",
                  "aabb", "circle", "box", "polygon", "capsule", "segment", "chain" } },
    Shape = { s, { "destroy", "test_point", "aabb", "raycast", "geometry" } },
    Joint = { j, { "destroy" } },
  }

  it("refuses a receiver of the wrong type, by name", function()
    for type_name, entry in pairs(methods) do
      local object, names = entry[1], entry[2]
      for _, m in ipairs(names) do
        local f = object[m]
        assert.are.equal("function", type(f), type_name .. "." .. m)
        assert.are.equal("bad argument #1 to 'f' (" .. type_name .. " expected, got number)", error_of(function() f(42) end))
        local fake = { m = f }
        assert.are.equal("calling 'm' on bad self (" .. type_name .. " expected, got table)",
          error_of(function() fake:m() end))
      end
    end
    assert.are.equal("bad argument #1 to 'f' (World expected, got Body)", error_of(function() local f = w.step; f(b) end))
    assert.are.equal("bad argument #1 to 'f' (Shape expected, got Joint)", error_of(function() local f = s.aabb; f(j) end))
  end)

  it("of a destroyed object raises '<kind> was destroyed' (destroy itself does nothing)", function()
    local w2 = tumble.world()
    local b2 = w2:body{ type = "dynamic" }
    local s2 = b2:circle{ r = 1 }
    local j2 = w2:joint{ kind = "weld", a = w2:body{}, b = b2 }
    b2:destroy()
    for _, m in ipairs(methods.Body[2]) do
      if m ~= "destroy" then
        assert.are.equal("body was destroyed", error_of(function() b2[m](b2, 1, 1, 1, 1) end), m)
      end
    end
    for _, m in ipairs(methods.Shape[2]) do
      if m ~= "destroy" then
        assert.are.equal("shape was destroyed", error_of(function() s2[m](s2, 1, 1, 1, 1) end), m)
      end
    end
    assert.is_nil(error_of(function() b2:destroy(); s2:destroy(); j2:destroy() end))
  end)
end)
