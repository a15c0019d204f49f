-- Hostile scripts (crashes through metamethods): Lua that runs in
-- the middle of a binding call -- a metamethod of an argument, a handler, the
-- finalizer of some garbage -- and destroys the world, a body or a shape, or
-- calls back into the binding. Every call must end in a result or a clear Lua
-- error, never in a crash; `make test` runs this spec under AddressSanitizer
-- too, where a use after free is a failure. Each class has several instances.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local h = dofile(here .. "helpers.lua")
local tumble, error_of = h.tumble, h.error_of

-- Every metamethod a table can carry. Each one notes that it ran and runs
-- `action`; __index answers 5 and __len 1e9, to inject values if they were used.
local METAMETHODS = { "__index", "__newindex", "__len", "__pairs", "__call", "__concat", "__eq", "__lt", "__le",
                      "__unm", "__add", "__tostring", "__close", "__name" }

local function hostile(base, action)
  local ran = {}
  local mt = {}
  for _, m in ipairs(METAMETHODS) do
    mt[m] = function()
      ran[#ran + 1] = m
      if action then pcall(action) end
      if m == "__index" then return 5 end
      if m == "__len" then return 1e9 end
      if m == "__tostring" then return "hostile" end
      if m == "__pairs" then return function() return nil end, nil, nil end
    end
  end
  return setmetatable(base or {}, mt), ran
end

-- A small scene; `kill` holds the ways to destroy parts of it.
local function scene()
  local w = tumble.world()
  local ground = w:body{ y = -0.5 }
  local gs = ground:box{ w = 20, h = 1 }
  local b = w:body{ type = "dynamic", y = 2 }
  local s = b:circle{ r = 0.5 }
  local sc = { w = w, ground = ground, gs = gs, b = b, s = s }
  sc.kill = {
    world = function() w:destroy() end,
    body = function() b:destroy() end,
    shape = function() s:destroy() end,
    all = function() w:destroy_all() end,
  }
  return sc
end

-- Finalizers. A finalizer runs when an allocation lets the collector call
-- it: inside a binding call, any new string, table or userdata may run the
-- __gc of some garbage. To make that likely, the calls run in a child process
-- (a small heap: a collection cycle ends every few allocations) with the
-- collector as eager as it gets: each round arms garbage whose __gc runs
-- ctx.action (destroying something), then makes the call; every call must
-- return or raise a string, and the child must not crash (under the ASan
-- build it runs sanitized too). The child reports how many finalizers ran
-- inside a call: a test where none did would prove nothing, so that is checked.
local CHILD_PRELUDE = [==[
local tumble = require "tumble"
local function scene()
  local w = tumble.world()
  local ground = w:body{ y = -0.5 }
  local gs = ground:box{ w = 20, h = 1 }
  local b = w:body{ type = "dynamic", y = 2 }
  local s = b:circle{ r = 0.5 }
  local sc = { w = w, ground = ground, gs = gs, b = b, s = s }
  sc.kill = {
    world = function() w:destroy() end,
    body = function() b:destroy() end,
    shape = function() s:destroy() end,
    all = function() w:destroy_all() end,
  }
  return sc
end
local function step(w, n) for _ = 1, n do w:step(1 / 60) end end
-- Arms garbage whose __gc runs action and drives the collector, in its
-- smallest steps, until that garbage is set apart for finalization (a weak
-- reference to it is cleared then, before its finalizer runs); then makes the
-- next step big enough to finish the cycle. So the finalizer runs at the first
-- allocation after arm() returns -- inside the binding call that follows, if
-- that call allocates anything (its arguments are made before arm()).
local state = { inside = false, fired_inside = 0 }
local function arm(action)
  local fired = false
  local bomb = setmetatable({}, { __gc = function()
    fired = true
    if state.inside then state.fired_inside = state.fired_inside + 1 end
    pcall(action)
  end })
  local probe = setmetatable({ bomb }, { __mode = "v" })
  bomb = nil
  collectgarbage("incremental", 100, 100, 1) -- (a 0 would keep the old value)
  local steps = 0
  while probe[1] ~= nil and steps < 1e6 do
    collectgarbage("step", 0)
    steps = steps + 1
  end
  collectgarbage("incremental", 100, 1000, 20)
  return not fired
end

-- Runs call(ctx) `rounds` times, each time right after arm(ctx.action): every
-- call must return or raise a string. Returns how many finalizers ran inside.
local function bombard(rounds, setup, call)
  state.fired_inside = 0
  for i = 1, rounds do
    local ctx = setup(i)
    if not arm(ctx.action) then error("the finalizer ran before the call") end
    state.inside = true
    local done, res = pcall(call, ctx)
    state.inside = false
    if not done and type(res) ~= "string" then error("a call raised a " .. type(res) .. ": " .. tostring(res)) end
  end
  collectgarbage("incremental", 200, 100, 13)
  return state.fired_inside
end
]==]

-- Runs source (after CHILD_PRELUDE) in a child lua5.4 with this module path;
-- returns its exit code and output.
local function child(source, env)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(CHILD_PRELUDE, source)
  f:close()
  local setup = "package.cpath = " .. ("%q"):format(package.cpath)
  local p = io.popen(("%slua5.4 -e %q %q 2>&1"):format(env or "", setup, path))
  local out = p:read("a")
  local _, _, code = p:close()
  os.remove(path)
  return code, out
end

-- bombard() in a child: setup is the body of function(i) returning ctx (with
-- ctx.action), call the body of function(sc). Returns the finalizers that ran
-- inside a call.
local function bombard(rounds, setup, call)
  local code, out = child(("print('FIRED ' .. bombard(%d, function(i) %s end, function(sc) %s end))")
    :format(rounds, setup, call))
  assert.are.equal(0, code, out)
  return tonumber(out:match("FIRED (%d+)")) or error("no count from the child: " .. out)
end

describe("option tables", function()
  it("are read raw: no metamethod of tumble.world's settings runs", function()
    local sc = scene()
    local opts, ran = hostile({ gravity = { 0, -3 }, substeps = 2 }, sc.kill.world)
    local w = tumble.world(opts)
    assert.are.same({}, ran)
    assert.are.equal(-3, w.gravity.y); assert.are.equal(2, w.substeps)
    assert.is_true(sc.w.valid)
  end)

  it("are read raw: world:body, b:circle, b:box, b:polygon, b:capsule, b:segment", function()
    local sc = scene()
    local all_ran = {}
    local function opts(t, action)
      local o, ran = hostile(t, action)
      all_ran[#all_ran + 1] = ran
      return o
    end
    local nb = sc.w:body(opts({ type = "dynamic", x = 3 }, sc.kill.world))
    assert.are.equal(3, nb.x); assert.are.equal("dynamic", nb.type)
    assert.are.equal(0, nb.y) -- not the 5 __index would give
    assert.are.equal(0.25, nb:circle(opts({ r = 0.25 }, sc.kill.body)).r)
    assert.are.equal(2, nb:box(opts({ w = 2, h = 1 }, sc.kill.shape)).w)
    -- __len says 1e9: the list is its raw length
    assert.are.equal("polygon", nb:polygon(opts({ 0, 0, 1, 0, 0, 1 }, sc.kill.world)).kind)
    assert.are.equal("capsule", nb:capsule(opts({ 0, 0, 1, 0, 0.2 }, sc.kill.all)).kind)
    assert.are.equal("segment", nb:segment(opts({ x1 = 0, y1 = 0, x2 = 1, y2 = 1 }, sc.kill.world)).kind)
    for _, ran in ipairs(all_ran) do assert.are.same({}, ran) end
    assert.is_true(sc.w.valid); assert.is_true(sc.b.valid); assert.is_true(sc.s.valid)
  end)

  it("give nothing through __index: a required option only there is missing", function()
    local sc = scene()
    local o1, r1 = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'circle' (field 'r': positive number expected, got nil)",
      error_of(function() sc.b:circle(o1) end))
    local o2, r2 = hostile({ w = 1 }, sc.kill.world)
    assert.are.equal("bad argument #1 to 'box' (field 'h': positive number expected, got nil)",
      error_of(function() sc.b:box(o2) end))
    local o3, r3 = hostile({ x1 = 0, y1 = 0, x2 = 1 }, sc.kill.body)
    assert.are.equal("bad argument #1 to 'segment' (field 'y2': number expected, got nil)",
      error_of(function() sc.b:segment(o3) end))
    assert.are.same({}, r1); assert.are.same({}, r2); assert.are.same({}, r3)
    assert.is_true(sc.w.valid); assert.is_true(sc.b.valid)
  end)

  it("never run a metamethod of an option's value", function()
    local sc = scene()
    local v, ran = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'body' (field 'x': number expected, got table)",
      error_of(function() sc.w:body{ x = v } end))
    assert.are.equal("bad argument #1 to 'circle' (field 'density': number expected, got table)",
      error_of(function() sc.b:circle{ r = 1, density = v } end))
    assert.are.equal("bad argument #1 to 'world' (field 'sleeping': boolean expected, got table)",
      error_of(function() tumble.world{ sleeping = v } end))
    assert.are.same({}, ran)
    assert.is_true(sc.w.valid)
  end)
end)

describe("vectors", function()
  it("{x, y} and x/y forms are read raw", function()
    local sc = scene()
    local g1, r1 = hostile({ 0, -3 }, sc.kill.world)
    assert.are.equal(-3, tumble.world{ gravity = g1 }.gravity.y)
    local g2, r2 = hostile({ x = 1, y = -4 }, sc.kill.world)
    local w2 = tumble.world{ gravity = g2 }
    assert.are.equal(1, w2.gravity.x); assert.are.equal(-4, w2.gravity.y)
    local t, r3 = hostile({ x = 2, y = 3 }, sc.kill.body)
    local j = sc.w:joint{ kind = "mouse", a = sc.ground, b = sc.b, target = t }
    assert.are.equal(2, j.target.x); assert.are.equal(3, j.target.y)
    assert.are.same({}, r1); assert.are.same({}, r2); assert.are.same({}, r3)
    assert.is_true(sc.b.valid)
  end)

  it("with x or y only behind __index are refused", function()
    local sc = scene()
    local v1, r1 = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'world' (field 'gravity': {x, y} table expected, got nil for x)",
      error_of(function() tumble.world{ gravity = v1 } end))
    local v2, r2 = hostile({ x = 1 }, sc.kill.world)
    assert.are.equal("bad value for World.gravity ({x, y} table expected, got nil for y)",
      error_of(function() sc.w.gravity = v2 end))
    local j = sc.w:joint{ kind = "mouse", a = sc.ground, b = sc.b }
    local v3, r3 = hostile({ 1 }, sc.kill.body)
    assert.are.equal("bad value for Joint.target ({x, y} table expected, got nil for y)",
      error_of(function() j.target = v3 end))
    assert.are.same({}, r1); assert.are.same({}, r2); assert.are.same({}, r3)
    assert.is_true(sc.w.valid); assert.is_true(sc.b.valid)
  end)

  it("j.target = v takes the joint again after reading v", function()
    local sc = scene()
    local j = sc.w:joint{ kind = "mouse", a = sc.ground, b = sc.b }
    local v, ran = hostile({ 4, 5 }, function() j:destroy() end)
    j.target = v
    assert.are.same({}, ran)
    assert.are.equal(4, j.target.x)
    -- the joint gone before the assignment: named as such
    j:destroy()
    assert.are.equal("joint was destroyed", error_of(function() j.target = { 1, 1 } end))
    sc.w:destroy()
    assert.are.equal("world was destroyed", error_of(function() j.target = { 1, 1 } end))
  end)
end)

describe("a prismatic joint's axis", function()
  it("is read raw", function()
    local sc = scene()
    local axis, ran = hostile({ 0, 1 }, function() sc.ground:destroy(); sc.b:destroy() end)
    local j = sc.w:joint{ kind = "prismatic", a = sc.ground, b = sc.b, axis = axis }
    assert.are.same({}, ran)
    assert.is_true(j.valid); assert.is_true(sc.b.valid)
    h.step(sc.w, 30)
    assert.is_true(math.abs(sc.b.x) < 1e-4) -- it slides along y only
  end)

  it("refuses an axis behind __index or made of tables", function()
    local sc = scene()
    local a1, r1 = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'joint' (field 'axis': {x, y} table expected, got nil for x)",
      error_of(function() sc.w:joint{ kind = "prismatic", a = sc.ground, b = sc.b, axis = a1 } end))
    local inner, r2 = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'joint' (field 'axis': {x, y} table expected, got table for x)",
      error_of(function() sc.w:joint{ kind = "prismatic", a = sc.ground, b = sc.b, axis = { inner, 0 } } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'axis': non-zero vector expected)",
      error_of(function() sc.w:joint{ kind = "prismatic", a = sc.ground, b = sc.b, axis = hostile({ 0, 0 }) } end))
    assert.are.same({}, r1); assert.are.same({}, r2)
    assert.are.equal(0, sc.w.joint_count)
  end)

  it("is read before the bodies are taken: bodies destroyed meanwhile are named", function()
    -- a finalizer is the only Lua that can run while the options are read
    local n = bombard(100, [[
      local sc = scene()
      sc.action = function() sc.b:destroy() end
      sc.opts = { kind = "prismatic", a = sc.ground, b = sc.b, axis = { x = 0, y = 1 }, lower = 0, upper = 1 }
      return sc
    ]], "return sc.w:joint(sc.opts)")
    assert.is_true(n > 0, "no finalizer ran inside world:joint")
  end)
end)

describe("w.gravity = v", function()
  it("reads v raw, then the world", function()
    local sc = scene()
    local v, ran = hostile({ 0, -20 }, sc.kill.world)
    sc.w.gravity = v
    assert.are.same({}, ran)
    assert.is_true(sc.w.valid)
    assert.are.equal(-20, sc.w.gravity.y)
    sc.w.gravity = hostile({ x = 1, y = 2 })
    assert.are.equal(1, sc.w.gravity.x)
  end)

  it("keeps the old value when v is refused", function()
    local sc = scene()
    sc.w.gravity = { 0, -7 }
    local v, ran = hostile({ 0 / 0, 1 }, sc.kill.world)
    assert.are.equal("bad value for World.gravity (finite number expected, got nan)",
      error_of(function() sc.w.gravity = v end))
    assert.are.same({}, ran)
    assert.are.equal(-7, sc.w.gravity.y)
  end)
end)

describe("a shape constructor's on_* fields", function()
  it("take handlers from the raw table only", function()
    local sc = scene()
    local o, ran = hostile({ r = 0.5 }, sc.kill.world) -- on_begin only via __index
    local s = sc.b:circle(o)
    assert.is_nil(s.on_begin)
    assert.are.same({}, ran)
    local callable = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'box' (field 'on_hit': function expected, got table)",
      error_of(function() sc.b:box{ w = 1, h = 1, on_hit = callable } end))
  end)

  it("may destroy the world, their own shape or the other body when they run", function()
    for _, what in ipairs{ "world", "own", "other", "all" } do
      local w, ground = h.world_with_ground()
      local b = w:body{ type = "dynamic", y = 1 }
      local other = w:body{ type = "dynamic", x = 3, y = 1 }
      other:circle{ r = 0.5 }
      local calls = 0
      local s
      s = b:circle{ r = 0.5, on_begin = function(self, o, contact)
        calls = calls + 1
        if what == "world" then w:destroy()
        elseif what == "own" then self:destroy(); o.body:destroy()
        elseif what == "other" then other:destroy(); ground:destroy()
        else w:destroy_all() end
        assert.is_truthy(contact.normal) -- the copy outlives what it describes
      end, on_end = function() calls = calls + 1 end }
      for _ = 1, 60 do
        if not w.valid then break end
        w:step(1 / 60)
      end
      assert.is_true(calls >= 1, what)
      assert.are.equal(what == "other", s.valid, what)
    end
  end)
end)

describe("fields", function()
  it("s.field = t reads t raw", function()
    local sc = scene()
    local area = sc.ground:box{ w = 2, h = 2, y = 3, sensor = true }
    local f, ran = hostile({ kind = "linear", fy = 5 }, function() area:destroy() end)
    area.field = f
    assert.are.same({}, ran)
    assert.are.equal(5, area.field.fy)
    local f2, ran2 = hostile({ fy = 5 }, sc.kill.world)
    assert.are.equal("bad value for Shape.field (field 'kind': one of 'none', 'linear', 'radial', 'drag' expected, got nil)",
      error_of(function() area.field = f2 end))
    assert.are.same({}, ran2)
  end)

  it("the constructor's field option reads raw", function()
    local sc = scene()
    local f, ran = hostile({ kind = "radial", strength = -3 }, sc.kill.world)
    local s = sc.ground:box{ w = 2, h = 2, sensor = true, field = f }
    assert.are.equal("radial", s.field.kind); assert.are.equal(-3, s.field.strength)
    local v = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'box' (field 'field.drag': number expected, got table)",
      error_of(function() sc.ground:box{ w = 1, h = 1, field = { kind = "drag", drag = v } } end))
    assert.are.same({}, ran)
    assert.is_true(sc.w.valid)
  end)
end)

describe("chain point lists", function()
  it("are read raw: __len and __index are not used", function()
    local sc = scene()
    local pts, ran = hostile({ 0, 0, 1, 0, 2, 0 }, sc.kill.world)
    local links = sc.ground:chain(pts)
    assert.are.equal(2, #links)
    local empty, ran2 = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'chain' (at least 2 points expected, got 0)",
      error_of(function() sc.ground:chain(empty) end))
    local v = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'chain' (field [3]: number expected, got table)",
      error_of(function() sc.ground:chain{ 0, 0, v, 0 } end))
    assert.are.same({}, ran); assert.are.same({}, ran2)
    assert.is_true(sc.w.valid)
  end)

  it("say when finite coordinates are too large", function()
    local sc = scene()
    assert.are.equal("bad argument #1 to 'chain' (field [3]: coordinate too large (|v| < 1e6 expected), got 1000000.0)",
      error_of(function() sc.ground:chain{ 0, 0, 1e6, 0 } end))
    assert.are.equal("bad argument #1 to 'chain' (field [2]: coordinate too large (|v| < 1e6 expected), got -5000000.0)",
      error_of(function() sc.ground:chain{ 0, -5e6, 1, 0 } end))
    assert.are.equal("bad argument #1 to 'chain' (field [6]: coordinate too large (|v| < 1e6 expected), got 1e+30)",
      error_of(function() sc.ground:chain{ 0, 0, 1, 0, 2, 1e30, loop = true } end))
    assert.are.equal("bad argument #1 to 'chain' (field [1]: finite number expected, got inf)",
      error_of(function() sc.ground:chain{ math.huge, 0, 1, 0 } end))
  end)

  it("survive a finalizer that destroys the body as the buffers are made", function()
    local n = bombard(100, [[
      local sc = scene()
      sc.action = sc.kill.body
      sc.pts = {}
      for k = 0, 40 do sc.pts[#sc.pts + 1] = k; sc.pts[#sc.pts + 1] = (k % 2) * 0.5 end
      return sc
    ]], "return sc.b:chain(sc.pts)")
    assert.is_true(n > 0, "no finalizer ran inside b:chain")
  end)
end)

describe("query filters", function()
  it("refuse a table mask without running it", function()
    local sc = scene()
    local m, ran = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #5 to 'query_box' (integer expected, got table)",
      error_of(function() sc.w:query_box(-1, -1, 1, 1, m) end))
    assert.are.equal("bad argument #5 to 'raycast' (integer expected, got table)",
      error_of(function() sc.w:raycast(0, 5, 0, -5, m) end))
    assert.are.equal("bad argument #2 to 'overlap' (integer expected, got table)",
      error_of(function() sc.w:overlap(sc.s, m) end))
    assert.are.equal("bad argument #3 to 'query_point' (integer expected, got table)",
      error_of(function() sc.w:query_point(0, 0, m) end))
    assert.are.same({}, ran)
  end)

  it("survive finalizers that destroy the world or run another query while results are built", function()
    local setup = [[
      local sc = scene()
      for k = 1, 30 do sc.ground:circle{ r = 0.2, x = k * 0.1 - 1.5, y = 0.2 } end
      local actions = { sc.kill.world, sc.kill.all, function() sc.w:query_box(-5, -5, 5, 5) end,
                        function() sc.w:raycast_all(-5, 0, 5, 0) end }
      sc.action = actions[i % #actions + 1]
      return sc
    ]]
    for _, call in ipairs{ "return sc.w:query_box(-2, -2, 2, 2)", "return sc.w:raycast_all(-3, 0.1, 3, 0.1)",
                           "return sc.w:query_point(0, 0)", "return sc.w:overlap(sc.gs)" } do
      assert.is_true(bombard(40, setup, call) > 0, "no finalizer ran inside " .. call)
    end
  end)

  it("give each shape once, sorted, even when a finalizer queried meanwhile", function()
    local code, out = child([[
      local sc = scene()
      for k = 1, 20 do sc.ground:circle{ r = 0.2, x = k * 0.1 - 1, y = 0.2 } end
      local want = sc.w:query_box(-2, -2, 2, 2)
      local wrong = 0
      local n = bombard(100, function() return { action = function() sc.w:query_point(100, 100) end } end,
        function()
          local got = sc.w:query_box(-2, -2, 2, 2)
          if #got ~= #want then wrong = wrong + 1 end
          for i = 1, #got do if got[i] ~= want[i] then wrong = wrong + 1 end end
        end)
      print("FIRED " .. n, "WRONG " .. wrong)
    ]])
    assert.are.equal(0, code, out)
    assert.are.equal("0", out:match("WRONG (%d+)"), out)
    assert.is_true(tonumber(out:match("FIRED (%d+)")) > 0, out)
  end)
end)

describe("joint options", function()
  it("are read raw: bodies behind __index are missing", function()
    local sc = scene()
    local o, ran = hostile({ kind = "revolute" }, sc.kill.world)
    assert.are.equal("bad argument #1 to 'joint' (field 'a': Body expected, got nil)",
      error_of(function() sc.w:joint(o) end))
    local o2, ran2 = hostile({ a = sc.ground, b = sc.b }, sc.kill.world)
    assert.are.equal("bad argument #1 to 'joint' (field 'kind': one of 'revolute', 'prismatic', 'distance', 'weld', 'mouse', 'wheel', 'motor' expected, got nil)",
      error_of(function() sc.w:joint(o2) end))
    assert.are.same({}, ran); assert.are.same({}, ran2)
  end)

  it("with every field raw make the joint, running nothing", function()
    local sc = scene()
    local u = hostile({}, sc.kill.world)
    local o, ran = hostile({ kind = "distance", a = sc.ground, b = sc.b, x1 = 0, y1 = 0, user = u }, sc.kill.body)
    local j = sc.w:joint(o)
    assert.are.same({}, ran)
    assert.are.equal("distance", j.kind)
    assert.is_true(rawequal(u, j.user))
    assert.is_true(sc.b.valid)
  end)

  it("name bodies destroyed by a finalizer while the options were read", function()
    local code, out = child([[
      local named = 0
      local n = bombard(100, function()
        local sc = scene()
        sc.action = sc.kill.body
        sc.opts = { kind = "weld", a = sc.ground, b = sc.b, hertz = 1, damping = 0.5, angular_hertz = 2,
                    angular_damping = 0.1, collide = true }
        return sc
      end, function(sc)
        local ok, err = pcall(sc.w.joint, sc.w, sc.opts)
        if not ok then
          if tostring(err):find("body was destroyed", 1, true) then named = named + 1 end
          error(err, 0)
        end
      end)
      print("FIRED " .. n, "NAMED " .. named)
    ]])
    assert.are.equal(0, code, out)
    assert.is_true(tonumber(out:match("FIRED (%d+)")) > 0, out)
    -- the joint was made (the body died as its handle was pushed) or the body
    -- was named: either way no crash
    assert.is_true(tonumber(out:match("NAMED (%d+)")) >= 0, out)
  end)
end)

describe("event handlers", function()
  local function landing_world()
    local w, ground, gs = h.world_with_ground()
    local balls = {}
    for i = 1, 6 do
      local b = w:body{ type = "dynamic", x = i * 2 - 7, y = 1 }
      balls[i] = b:circle{ r = 0.5 }
    end
    return w, ground, gs, balls
  end

  local function step_until_gone(w, n)
    for _ = 1, n or 60 do
      if not w.valid then return end
      w:step(1 / 60)
    end
  end

  it("may destroy the world, bodies, shapes, or everything, in every kind of handler", function()
    for _, ev in ipairs{ "begin", "hit", "end" } do
      for _, what in ipairs{ "world", "body", "shape", "all", "ground" } do
        local w, ground, gs, balls = landing_world()
        local calls = 0
        local function handler(a, b)
          calls = calls + 1
          if what == "world" then w:destroy()
          elseif what == "body" then a.body:destroy()
          elseif what == "shape" then b:destroy(); a:destroy()
          elseif what == "ground" then ground:destroy()
          else w:destroy_all() end
        end
        w:on(ev, handler)
        for _, s in ipairs(balls) do s["on_" .. ev] = handler end
        gs["on_" .. ev] = handler
        if ev == "end" then
          h.step(w, 40)
          for _, s in ipairs(balls) do if s.valid then s.body.y = 5 end end
        end
        step_until_gone(w)
        assert.is_true(calls >= 1, ev .. "/" .. what)
      end
    end
  end)

  it("may call back into the binding: handlers replaced, stepping refused, errors raised", function()
    local w, _, gs, balls = landing_world()
    local log = {}
    w:on("begin", function(a)
      log[#log + 1] = "world"
      w:on("begin", nil) -- removed for the rest of the batch
      for _, s in ipairs(balls) do s.on_begin = nil end
      gs.on_begin = function() log[#log + 1] = "ground" end
      log[#log + 1] = error_of(function() w:step(1 / 60) end)
      a.user = w:body{ type = "dynamic", y = 10 }
    end)
    for _, s in ipairs(balls) do s.on_begin = function() log[#log + 1] = "ball" end end
    h.step(w, 60)
    assert.are.equal("world", log[1])
    assert.are.equal("cannot step the world from inside an event handler", log[2])
    for i = 3, #log do assert.are.equal("ground", log[i]) end
    assert.is_true(#log >= 3)
    w:on("hit", function() error({ "not a string" }) end)
    for _, s in ipairs(balls) do s.body.y = 3 end
    local err
    for _ = 1, 60 do
      local ok, e = pcall(w.step, w, 1 / 60)
      if not ok then err = e break end
    end
    assert.is_truthy(tostring(err):find("error in world:on('hit') handler: (error object is a table value)", 1, true))
    w:step(1 / 60) -- the world steps on
  end)

  it("run __close of their to-be-closed variables, which may destroy the world", function()
    local w, _, _, balls = landing_world()
    local closed = 0
    for _, s in ipairs(balls) do
      s.on_begin = function()
        local guard <close> = setmetatable({}, { __close = function() closed = closed + 1; w:destroy() end })
        return guard
      end
    end
    step_until_gone(w)
    assert.are.equal(1, closed) -- the first destroyed the world: no later handler ran
    assert.is_false(w.valid)
  end)

  it("survive finalizers that destroy the world or the shapes during the batch", function()
    local n = bombard(40, [[
      local w = tumble.world()
      local ground = w:body{ y = -0.5 }
      ground:box{ w = 40, h = 1 }
      local balls = {}
      for k = 1, 6 do
        local b = w:body{ type = "dynamic", x = k * 2 - 7, y = 1 }
        balls[k] = b:circle{ r = 0.5 }
      end
      local count = 0
      w:on("begin", function(a, b, c) count = count + 1; local _ = c and c.normal end)
      for _, s in ipairs(balls) do s.on_begin = function(self, other, c) count = count + 1 end end
      step(w, 12)
      local actions = { function() w:destroy() end, function() balls[1].body:destroy() end,
                        function() ground:destroy() end, function() w:destroy_all() end }
      return { w = w, action = actions[i % #actions + 1] }
    ]], [[
      for _ = 1, 40 do
        if not sc.w.valid then return end
        sc.w:step(1 / 60)
      end
    ]])
    assert.is_true(n > 0, "no finalizer ran inside world:step")
  end)
end)

describe("tumble.collide", function()
  it("refuses tables without running them", function()
    local sc = scene()
    local t, ran = hostile({}, sc.kill.world)
    assert.are.equal("bad argument #1 to 'tumble.collide' (Shape expected, got table)", error_of(tumble.collide, t, sc.s))
    assert.are.equal("bad argument #2 to 'tumble.collide' (Shape expected, got table)", error_of(tumble.collide, sc.s, t))
    assert.are.same({}, ran)
  end)

  it("names what is gone", function()
    local sc = scene()
    local other = scene()
    assert.are.equal("bad argument #2 to 'tumble.collide' (shape of another world)", error_of(tumble.collide, sc.s, other.s))
    local dead = sc.b:circle{ r = 1 }
    dead:destroy()
    assert.are.equal("shape was destroyed", error_of(tumble.collide, sc.s, dead))
    other.w:destroy()
    assert.are.equal("world was destroyed", error_of(tumble.collide, other.s, other.gs))
  end)

  it("survives a finalizer that destroys the world as the contact is made", function()
    local n = bombard(60, [[
      local sc = scene()
      sc.b.y = 0.4
      sc.action = sc.kill.world
      return sc
    ]], "return tumble.collide(sc.s, sc.gs)")
    assert.is_true(n > 0, "no finalizer ran inside tumble.collide")
  end)
end)

describe("every property setter", function()
  local info = tumble._introspect()

  -- every writable property of each object, by its type's spec
  local function writable(t)
    local ro, list = {}, {}
    for _, p in ipairs(info[t].readonly) do ro[p] = true end
    for _, p in ipairs(info[t].properties) do if not ro[p] then list[#list + 1] = p end end
    return list
  end

  local function objects(sc)
    local joints = {}
    for _, kind in ipairs(info.joint_kinds) do
      joints[#joints + 1] = sc.w:joint{ kind = kind, a = sc.ground, b = sc.b }
    end
    return { World = { sc.w }, Body = { sc.b }, Shape = { sc.s, sc.gs }, Joint = joints }
  end

  it("refuses a hostile table (or stores it, for user) without running it", function()
    local sc = scene()
    local checked = 0
    for t, list in pairs(objects(sc)) do
      for _, obj in ipairs(list) do
        for _, p in ipairs(writable(t)) do
          local v, ran = hostile({}, sc.kill.world)
          local ok = pcall(function() obj[p] = v end)
          assert.are.same({}, ran, t .. "." .. p)
          if p == "user" then assert.is_true(ok); assert.is_true(rawequal(v, obj.user)) end
          assert.is_true(sc.w.valid, t .. "." .. p)
          checked = checked + 1
        end
      end
    end
    assert.is_true(checked > 60)
  end)

  it("names a key whose __tostring destroys the world", function()
    local sc = scene()
    local key = setmetatable({}, { __tostring = function() sc.w:destroy(); return "k" end })
    assert.are.equal("Body has no property 'k'", error_of(function() sc.b[key] = 1 end))
    assert.are.equal("world was destroyed", error_of(function() return sc.b.x end))
  end)
end)

describe("finalizers inside binding calls", function()
  -- the calls that build results (lists, handles, tables, contacts)
  local calls = {
    body = "return sc.w:body(sc.body_opts)",
    circle = "return sc.b:circle(sc.circle_opts)",
    polygon = "return sc.b:polygon(sc.polygon_opts)",
    chain = "return sc.ground:chain(sc.chain_opts)",
    joint = "return sc.w:joint(sc.joint_opts)",
    shapes = "return sc.b:shapes()",
    joints = "return sc.ground:joints()",
    contacts = "return sc.b:contacts()",
    world_contacts = "return sc.w:contacts()",
    bodies = "local n = 0 for _ in sc.w:bodies() do n = n + 1 end return n",
    destroy = "sc.b:destroy()",
    geometry = "return sc.s:geometry()",
    field = "return sc.area.field",
    anchor = "return sc.j.anchor_a, sc.j.force",
    profile = "return sc.w:profile(), sc.w:counters()",
    tostring = "return tostring(sc.b) .. tostring(sc.s) .. tostring(sc.w)",
  }
  local setup = [[
    local sc = scene()
    for k = 1, 8 do sc.b:circle{ r = 0.1, x = k * 0.05, user = k } end
    sc.j = sc.w:joint{ kind = "revolute", a = sc.ground, b = sc.b, user = {} }
    sc.area = sc.ground:box{ w = 1, h = 1, sensor = true, field = { kind = "linear", fy = 1 } }
    sc.b.y = 0.4
    sc.w:step(1 / 60)
    sc.body_opts = { type = "dynamic", user = {} }
    sc.circle_opts = { r = 0.1, user = {}, on_begin = function() end }
    sc.polygon_opts = { 0, 0, 1, 0, 0, 1, user = 1 }
    sc.chain_opts = { 0, 0, 1, 0, 2, 1, 3, 0 }
    sc.joint_opts = { kind = "distance", a = sc.ground, b = sc.b, user = {} }
    local kills = { sc.kill.world, sc.kill.body, sc.kill.shape, sc.kill.all }
    sc.action = kills[i % #kills + 1]
    return sc
  ]]
  for name, call in pairs(calls) do
    it("in " .. name, function()
      local n = bombard(40, setup, call)
      assert.is_true(n > 0, "no finalizer ran inside " .. name)
    end)
  end
end)

describe("metatables", function()
  it("are protected: getmetatable gives the type's name", function()
    local sc = scene()
    local c
    sc.w:on("begin", function(_, _, contact) c = c or contact end)
    sc.b.y = 0.6
    h.step(sc.w, 30)
    local j = sc.w:joint{ kind = "weld", a = sc.ground, b = sc.b }
    for name, v in pairs{ World = sc.w, Body = sc.b, Shape = sc.s, Joint = j, Contact = c } do
      assert.are.equal(name, getmetatable(v), name)
    end
  end)

  it("cannot be replaced or reached to call __gc or __index by hand", function()
    local sc = scene()
    assert.is_truthy(error_of(function() getmetatable(sc.b).__index = function() return 0 end end))
    assert.is_truthy(error_of(function() return getmetatable(sc.w).__gc(sc.w) end))
    assert.is_truthy(error_of(function() setmetatable(sc.b, {}) end))
    assert.are.equal(2, sc.b.y)
    assert.is_true(sc.w.valid)
  end)

  it("with the debug library: __gc by hand destroys cleanly, handles have none", function()
    local sc = scene()
    assert.is_nil(debug.getmetatable(sc.b).__gc)
    assert.is_nil(debug.getmetatable(sc.s).__gc)
    local gc = debug.getmetatable(sc.w).__gc
    gc(sc.w)
    gc(sc.w) -- twice: harmless
    assert.is_false(sc.w.valid)
    assert.are.equal("world was destroyed", error_of(function() return sc.b.x end))
    assert.are.equal("world was destroyed", error_of(function() sc.s.friction = 1 end))
    -- the World's finalizer given a body: refused by type, nothing happens
    gc(sc.b)
    assert.is_false(sc.b.valid)
  end)

  it("compare only with their own kind (__eq)", function()
    local sc = scene()
    assert.is_false(sc.b == io.stdout)
    assert.is_false(sc.s == sc.b)
    assert.is_true(sc.s == sc.b:shapes()[1])
  end)
end)

describe("removing __gc", function()
  -- Finalizers stripped with the debug library: what they would have freed is
  -- freed when the state closes (the module's list of worlds). Checked by
  -- LeakSanitizer in a child process under the ASan build (make test); the
  -- control strips the list's own finalizer too and must be reported.
  local script = [[
local tumble = require "tumble"
local kill_list = ...
for round = 1, 3 do
  local w = tumble.world()
  local mt = debug.getmetatable(w)
  mt.__gc, mt.__close = nil, nil
  local rec = debug.getuservalue(w, 5)
  if type(rec) == "userdata" then debug.getmetatable(rec).__gc = nil end
  if kill_list == "all" then
    for _, v in pairs(debug.getregistry()) do
      local m = type(v) == "userdata" and debug.getmetatable(v)
      if m and m.__gc and m.__metatable == false and type(debug.getuservalue(v, 1)) == "table" then m.__gc = nil end
    end
  end
  local b = w:body{ type = "dynamic" }
  b:circle{ r = 1, user = {} }
  w:body{}:box{ w = 4, h = 1, y = -2 }
  w:on("begin", function() end)
  for _ = 1, 30 do w:step(1 / 60) end
  local _ = w:query_box(-5, -5, 5, 5)
end
collectgarbage(); collectgarbage()
]]

  local function run(arg)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(script)
    f:close()
    local asan = os.getenv("TUMBLE_SANITIZE") ~= nil and os.getenv("TUMBLE_SANITIZE") ~= ""
    local env = asan and "ASAN_OPTIONS=detect_leaks=1:exitcode=23 " or ""
    local cmd = ("%slua5.4 -e %q %q %s 2>&1"):format(env, "package.cpath = " .. ("%q"):format(package.cpath), path, arg)
    local p = io.popen(cmd)
    local out = p:read("a")
    local _, _, code = p:close()
    os.remove(path)
    return code, out, asan
  end

  it("of the World and its record leaks nothing", function()
    local code, out = run("")
    assert.are.equal(0, code, out)
  end)

  it("of the module's list too is a leak, and the check sees it (ASan build)", function()
    local code, out, asan = run("all")
    if asan then
      assert.are.equal(23, code, out)
      assert.is_truthy(out:find("LeakSanitizer", 1, true))
    else
      assert.are.equal(0, code, out) -- nothing checks leaks in the plain build
    end
  end)
end)

describe("messages", function()
  it("name the destroyed kind: body, shape or joint, never 'object'", function()
    local sc = scene()
    local j = sc.w:joint{ kind = "revolute", a = sc.ground, b = sc.b }
    local dead_shape = sc.b:box{ w = 1, h = 1 }
    dead_shape:destroy()
    assert.are.equal("shape was destroyed", error_of(function() dead_shape.r = 1 end))
    assert.are.equal("shape was destroyed", error_of(function() dead_shape.field = { kind = "drag" } end))
    assert.are.equal("shape was destroyed", error_of(function() dead_shape.on_begin = function() end end))
    j:destroy()
    assert.are.equal("joint was destroyed", error_of(function() j.motor_speed = 1 end))
    assert.are.equal("joint was destroyed", error_of(function() j.lower = 0 end))
    sc.b:destroy()
    assert.are.equal("body was destroyed", error_of(function() sc.b:circle{ r = 1 } end))
    assert.are.equal("body was destroyed", error_of(function() sc.b:chain{ 0, 0, 1, 0 } end))
    assert.are.equal("bad argument #1 to 'joint' (field 'b': body was destroyed)",
      error_of(function() sc.w:joint{ kind = "weld", a = sc.ground, b = sc.b } end))
  end)

  it("name the problem with joint.target", function()
    local sc = scene()
    local j = sc.w:joint{ kind = "mouse", a = sc.ground, b = sc.b }
    assert.are.equal("bad value for Joint.target (number in [-1e6, 1e6] expected, got 2000000.0)",
      error_of(function() j.target = { 2e6, 0 } end))
    assert.are.equal("bad value for Joint.target (finite number expected, got nan)",
      error_of(function() j.target = { 0, 0 / 0 } end))
    assert.are.equal("bad value for Joint.target ({x, y} table expected, got string)",
      error_of(function() j.target = "here" end))
    local r = sc.w:joint{ kind = "revolute", a = sc.ground, b = sc.b }
    assert.are.equal("Joint of kind 'revolute' has no property 'target'", error_of(function() r.target = { 0, 0 } end))
  end)
end)
