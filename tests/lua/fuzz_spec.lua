-- Random calls with random (also absurd) arguments: the binding must answer
-- every one with a result or a Lua error (a string), never a crash. Runs under
-- AddressSanitizer too (make test; make test-long at ten times the calls), so
-- memory errors surface as failures.
local h = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "helpers.lua")
local tumble = h.tumble

local CALLS = tonumber(os.getenv("TUMBLE_FUZZ_CALLS")) or 40000

local KEYS = {
  -- world settings and counters
  "gravity", "substeps", "contact_hertz", "contact_damping_ratio", "joint_hertz", "joint_damping_ratio",
  "max_push_speed", "restitution_threshold", "hit_threshold", "max_linear_speed", "time_to_sleep", "warm_starting",
  "position_correction", "sleeping", "continuous", "motion", "contact_cache", "body_count", "contact_count",
  "dispatch_ms",
  -- body
  "x", "y", "angle", "vx", "vy", "spin", "type", "awake", "enabled", "bullet", "fixed_rotation", "gravity_scale",
  "linear_damping", "angular_damping", "can_sleep", "user", "mass", "inertia", "world", "valid", "id",
  -- shape
  "r", "w", "h", "radius", "density", "friction", "restitution", "sensor", "category", "mask", "group", "field",
  "kind", "body", "chain", "on_begin", "on_end", "on_hit", "on_sensor_enter", "on_sensor_exit", "contact_events",
  "hit_events", "sensor_events", "x1", "y1", "x2", "y2", "loop", "fx", "fy", "strength", "falloff", "drag",
  "acceleration",
  -- joint
  "a", "b", "motor_speed", "max_torque", "max_force", "motor", "lower", "upper", "limit", "length", "min_length",
  "max_length", "spring", "hertz", "damping", "angular_hertz", "angular_damping", "target", "collide", "axis",
  "value", "anchor_a", "anchor_b", "force", "torque",
  -- surfaces, breakable joints, wheel and motor joints, movers
  "rolling_resistance", "tangent_speed", "one_way", "friction_mix", "restitution_mix", "sleep_threshold",
  "break_force", "break_torque", "offset", "correction", "grounded", "ground_normal", "ground", "capsule",
  "max_slope", "step_height", "push_strength",
  -- contact
  "normal", "nx", "ny", "points", "count", "separations", "depth", "approach_speed", "point",
  -- junk and near misses
  "radus", "", "X", "__index", "__gc", "destroy", "step",
}

local METHODS = {
  "step", "body", "joint", "on", "bodies", "joints", "destroy_all", "destroy", "hash", "profile", "counters",
  "contacts", "raycast", "raycast_all", "query_box", "query_point", "overlap", "snapshot", "restore", "save",
  "apply_force", "apply_impulse", "apply_torque", "apply_angular_impulse", "shapes", "world_point", "local_point",
  "world_vector", "local_vector", "velocity_at", "world_center", "local_center", "set_position", "get_position",
  "set_velocity", "get_velocity", "aabb", "circle", "box", "polygon", "capsule", "segment", "chain",
  "test_point", "raycast", "geometry", "cast_shape", "explode", "mover", "move",
}

local STRINGS = { "static", "dynamic", "kinematic", "linear", "radial", "drag", "none", "revolute", "prismatic",
                  "distance", "weld", "mouse", "begin", "end", "hit", "sensor_enter", "sensor_exit", "inverse_square",
                  "", "x", ("long"):rep(50),
                  "wheel", "motor", "joint_break", "presolve", "geometric", "max", "min", "average", "multiply" }
local JOINT_KINDS = { "revolute", "prismatic", "distance", "weld", "mouse", "wheel", "motor", "hinge" }
local EVENTS = { "begin", "end", "hit", "sensor_enter", "sensor_exit", "joint_break", "presolve", "inverse_square", "" }

local ABSURD = { 0, 1, -1, 0.5, 2, -0.0, 1e-30, 1e30, -1e30, math.huge, -math.huge, 0 / 0, 1e6, -1e6, 1e7, 2 ^ 53,
                 math.mininteger, math.maxinteger, 1e4, 1e5, 64, 65, 0.001 }

describe("the binding under random calls", function()
  it("raises only Lua errors for " .. CALLS .. " random calls", function()
    math.randomseed(1234567)
    local R = math.random
    local worlds, bodies, shapes, joints, others, snaps, saved = {}, {}, {}, {}, {}, {}, {}
    local movers = {}
    local oks, errs, bad = 0, 0, {}
    local stepped, most, restored = 0, 0, 0

    local function pick(t) if #t > 0 then return t[R(#t)] end end
    local function num()
      if R() < 0.85 then return R() * 16 - 8 end
      return ABSURD[R(#ABSURD)]
    end
    local value
    local function tbl(depth)
      local t = {}
      for _ = 1, R(0, 7) do
        if R() < 0.4 then t[#t + 1] = num() else t[KEYS[R(#KEYS)]] = value(depth + 1) end
      end
      return t
    end
    function value(depth)
      depth = depth or 0
      local k = R(16)
      if k <= 6 then return num()
      elseif k == 7 then return nil
      elseif k == 8 then return R() < 0.5
      elseif k == 9 then return STRINGS[R(#STRINGS)]
      elseif k == 10 then return pick(bodies)
      elseif k == 11 then return pick(shapes)
      elseif k == 12 then return pick(joints)
      elseif k == 13 then return R() < 0.3 and pick(snaps) or pick(worlds) or pick(others)
      elseif k == 14 then return function() end
      elseif depth < 2 then return tbl(depth)
      else return {} end
    end
    local function any_object()
      local k = R(6)
      if k == 1 then return pick(worlds) elseif k == 2 then return pick(bodies)
      elseif k == 3 then return pick(shapes) elseif k == 4 then return pick(joints)
      elseif k == 5 then return pick(snaps) elseif #movers > 0 and R() < 0.5 then return pick(movers)
      else return pick(others) end
    end
    local function keep(list, x, max)
      if x == nil then return end
      if #list >= max then list[R(#list)] = x else list[#list + 1] = x end
    end
    local function record(ok, err)
      if ok then oks = oks + 1 return end
      errs = errs + 1
      if type(err) ~= "string" and #bad < 10 then bad[#bad + 1] = tostring(err) end
    end
    local function args()
      local n = R(0, 6)
      local a = {}
      for i = 1, n do a[i] = value() end
      return a, n
    end

    local action
    local depth = 0
    -- handlers do random things too: mutation inside handlers, sometimes an error
    local function handler(...)
      if depth >= 2 then return end
      depth = depth + 1
      for _ = 1, R(0, 3) do action() end
      depth = depth - 1
      if R() < 0.02 then error("handler failure") end
      local c = select(3, ...)
      if c ~= nil then local _ = c[KEYS[R(#KEYS)]] end
    end

    function action()
      local k = R(100)
      local w = pick(worlds)
      if k <= 3 then
        if #worlds < 3 then
          local ok, res = pcall(tumble.world, R() < 0.5 and nil or value())
          record(ok, res)
          if ok then worlds[#worlds + 1] = res end
        end
      elseif k == 4 then
        -- drop a world: the collector finalizes it while handles remain
        if #worlds > 0 and R() < 0.2 then others[#others + 1] = table.remove(worlds, R(#worlds)) end
        if #others > 4 then table.remove(others, 1) end
      elseif k <= 6 then
        -- rarely: a cleared world is a boring world
        local x = R() < 0.1 and (w or pick(others))
        if x then record(pcall(R() < 0.3 and x.destroy or x.destroy_all, x)) end
      elseif k <= 20 then
        if w then
          local opts = R() < 0.5 and { type = STRINGS[R(3)], x = num(), y = num() } or value()
          local ok, res = pcall(w.body, w, opts)
          record(ok, res)
          if ok then keep(bodies, res, 300) end
        end
      elseif k <= 34 then
        local b = pick(bodies)
        if b then
          local ctor = ({ "circle", "box", "polygon", "capsule", "segment", "chain" })[R(6)]
          local a, n = args()
          if R() < 0.5 then a, n = { ({ { r = num() }, { w = num(), h = num() }, { num(), num(), num(), num(), num(), num() },
                                           { num(), num(), num(), num(), num() }, { num(), num(), num(), num() },
                                           { num(), num(), num(), num(), num(), num(), loop = R() < 0.5 } })[R(6)] }, 1 end
          local ok, res = pcall(function() return b[ctor](b, table.unpack(a, 1, n)) end)
          record(ok, res)
          if ok and type(res) == "table" then
            for _, s in ipairs(res) do keep(shapes, s, 300) end
          elseif ok then
            keep(shapes, res, 300)
          end
        end
      elseif k <= 38 then
        if w then
          local opts = R() < 0.6 and { kind = JOINT_KINDS[R(#JOINT_KINDS)], a = pick(bodies), b = pick(bodies),
                                       x = num(), y = num(), lower = num(), upper = num(), length = num() } or value()
          if type(opts) == "table" and opts.kind == "wheel" then opts.length, opts.axis = nil, { num(), num() } end
          if type(opts) == "table" and opts.kind == "motor" then
            opts.x, opts.y, opts.lower, opts.upper, opts.length = nil, nil, nil, nil, nil
            opts.offset, opts.angle = { num(), num() }, num()
          end
          if type(opts) == "table" and R() < 0.3 then opts.break_force, opts.break_torque = num(), num() end
          if type(opts) == "table" and R() < 0.5 then opts[KEYS[R(#KEYS)]] = value() end
          local ok, res = pcall(w.joint, w, opts)
          record(ok, res)
          if ok then keep(joints, res, 200) end
        end
      elseif k <= 55 then
        local o = any_object()
        if o then record(pcall(function() return o[KEYS[R(#KEYS)]] end)) end
      elseif k <= 70 then
        local o = any_object()
        if o then
          local key, v = KEYS[R(#KEYS)], value()
          if key:sub(1, 3) == "on_" and R() < 0.7 then v = handler end
          record(pcall(function() o[key] = v end))
        end
      elseif k <= 85 then
        local o = any_object()
        if o then
          local m = METHODS[R(#METHODS)]
          local a, n = args()
          if m == "mover" and R() < 0.5 then
            a, n = { { x = num(), y = num(), max_slope = num(), step_height = num(), push_strength = num() } }, 1
          elseif m == "explode" and R() < 0.5 then
            a, n = { { x = num(), y = num(), radius = num(), impulse = num(), falloff = num() } }, 1
          elseif m == "cast_shape" and R() < 0.5 then
            local def = ({ { circle = { r = num() } }, { box = { w = num(), h = num() } },
                           { capsule = { num(), num(), num(), num(), num() } }, pick(shapes) or {} })[R(4)]
            a, n = { def, num(), num(), num(), num(), num() }, 6
          elseif m == "move" then
            a, n = { num(), num() }, 2
          end
          local ok, res = pcall(function() return o[m](o, table.unpack(a, 1, n)) end)
          record(ok, res)
          if ok and m == "body" then keep(bodies, res, 300) end
          if ok and m == "mover" then keep(movers, res, 8) end
        end
      elseif k <= 93 then
        if w and depth == 0 then
          if R() < 0.3 then record(pcall(w.on, w, EVENTS[R(#EVENTS)], R() < 0.8 and handler or value())) end
          local dt = R() < 0.9 and 1 / 60 or num()
          record(pcall(w.step, w, dt))
          if w.valid then
            stepped = stepped + 1
            most = math.max(most, w.body_count)
            if w.body_count > 150 then w:destroy_all() end
          end
        elseif w then
          record(pcall(w.step, w, 1 / 60)) -- refused inside a handler
        end
      elseif k <= 95 then
        local a, b = value(), value()
        if R() < 0.5 then a, b = pick(shapes), pick(shapes) end
        local q = R(6)
        if q <= 2 or not w then
          record(pcall(q == 1 and tumble.collide or tumble.distance, a, b))
        elseif q == 3 then
          -- mostly valid, so that movers live and move; sometimes anything
          local function some(v) return R() < 0.9 and v or num() end
          local ok, res = pcall(w.mover, w, R() < 0.8 and { x = num(), y = num(), max_slope = some(R() * 1.5),
                                                            step_height = some(R() * 0.5),
                                                            push_strength = some(R() * 100) } or value())
          record(ok, res)
          if ok then keep(movers, res, 8) end
        elseif q == 4 then
          local m = pick(movers)
          if m then record(pcall(m.move, m, num(), num())) end
          if m and R() < 0.05 then record(pcall(m.destroy, m)) end
        elseif q == 5 then
          record(pcall(w.explode, w, R() < 0.7 and { x = num(), y = num(), radius = R() < 0.8 and R() * 8 or num(),
                                                      impulse = num(), falloff = R() < 0.5 and R() * 4 or nil } or value()))
        else
          local def = ({ { circle = { r = num() } }, { box = { w = num(), h = num() } },
                         { capsule = { num(), num(), num(), num(), num() } }, { polygon = { num(), num(), num(), num(), num(), num() } },
                         pick(shapes) or {}, value() })[R(6)]
          record(pcall(w.cast_shape, w, def, num(), num(), num(), num(), num(), R() < 0.2 and num() or nil))
        end
      elseif k <= 97 then
        -- snapshots: taken, restored (into their world or another, inside a
        -- handler too), saved, read back from bytes whole or damaged, closed
        local q = R(6)
        if q == 1 and w then
          local ok, res = pcall(w.snapshot, w)
          record(ok, res)
          if ok then keep(snaps, res, 6) end
        elseif q == 2 and w then
          local ok, res = pcall(w.restore, w, R() < 0.9 and pick(snaps) or value())
          record(ok, res)
          if ok then restored = restored + 1 end
        elseif q == 3 then
          local snap = pick(snaps)
          if snap then
            local ok, res = pcall(snap.save, snap)
            record(ok, res)
            if ok then keep(saved, res, 4) end
          end
        elseif q == 4 then
          local str = pick(saved) or STRINGS[R(#STRINGS)]
          if R() < 0.5 and #str > 0 then
            local at = R(#str)
            str = str:sub(1, at - 1) .. string.char(R(0, 255)) .. str:sub(at + 1 + R(0, 3))
          end
          local ok, res = pcall(tumble.snapshot, str)
          record(ok, res)
          if ok then keep(snaps, res, 6) end
        elseif q == 5 and w and #saved > 0 then
          record(pcall(function() w:restore(tumble.snapshot(pick(saved))) end))
        elseif #snaps > 0 then
          local snap = table.remove(snaps, R(#snaps))
          if R() < 0.5 then record(pcall(function() local _ <close> = snap end)) end
        end
      else
        collectgarbage(R() < 0.2 and "collect" or "step")
      end
    end

    for _ = 1, CALLS do action() end
    -- the worlds still step, without the random handlers (which fail now and then)
    for _, w in ipairs(worlds) do
      if w.valid then
        for _, ev in ipairs(EVENTS) do pcall(w.on, w, ev, nil) end
        h.step(w, 10)
      end
    end
    worlds, bodies, shapes, joints, others, snaps, saved = nil, nil, nil, nil, nil, nil, nil
    h.collect()

    if os.getenv("TUMBLE_FUZZ_VERBOSE") then print("fuzz", oks, errs, stepped, most, "restores", restored) end
    assert.are.same({}, bad)
    -- the fuzzer must exercise both paths to be worth anything
    assert.is_true(oks > CALLS / 10, "successful calls: " .. oks)
    assert.is_true(errs > CALLS / 10, "failed calls: " .. errs)
    assert.is_true(restored > CALLS / 2000, "restores: " .. restored)
  end)
end)

-- The same, with hostile tables: option tables, vectors, field tables, point
-- lists and property values carry metatables whose __index, __len, __pairs,
-- __newindex, __call, __eq, __close and __gc run mischief -- destroy a world, a
-- body, a shape, everything; call back into the binding; raise an error -- and
-- answer junk. The binding reads its tables raw, so none of the first four may
-- ever run inside a binding call (that is asserted); finalizers (__gc of the
-- tables dropped along the way) run wherever the collector lets them, with the
-- collector made eager. Under AddressSanitizer (make test) a use after free is
-- a failure.
local HOSTILE_CALLS = tonumber(os.getenv("TUMBLE_HOSTILE_FUZZ_CALLS")) or 10000

describe("the binding under hostile tables", function()
  it("raises only Lua errors for " .. HOSTILE_CALLS .. " calls with metatables that destroy things", function()
    math.randomseed(7654321)
    local R = math.random
    local worlds, bodies, shapes, joints, snaps = {}, {}, {}, {}, {}
    local oks, errs, bad, depth = 0, 0, {}, 0
    local inside = 0          -- > 0 while a binding call runs
    local ran_inside = {}     -- metamethods that ran inside a binding call
    local fired = 0           -- finalizers that ran inside one

    local function pick(t) if #t > 0 then return t[R(#t)] end end
    local function keep(list, x, max)
      if x == nil then return end
      if #list >= max then list[R(#list)] = x else list[#list + 1] = x end
    end
    local function num()
      if R() < 0.8 then return R() * 8 - 4 end
      return ABSURD[R(#ABSURD)]
    end

    local action -- forward
    local function mischief()
      local k = R(10)
      if k == 1 then local w = R() < 0.2 and pick(worlds) if w then w:destroy() end
      elseif k == 2 then local b = pick(bodies) if b then b:destroy() end
      elseif k == 3 then local s = pick(shapes) if s then s:destroy() end
      elseif k == 4 then local w = pick(worlds) if w then w:destroy_all() end
      elseif k == 5 then local j = pick(joints) if j then j:destroy() end
      elseif k == 6 then
        if R() < 0.5 then error("mischief") end
        -- a snapshot restored, or closed, from the middle of a call
        local snap, w = pick(snaps), pick(worlds)
        if snap and w and R() < 0.7 then w:restore(snap) elseif snap then local _ <close> = snap end
      elseif k <= 8 and depth < 2 then depth = depth + 1; pcall(action); depth = depth - 1
      else collectgarbage("step") end
    end

    local JUNK = { 5, -1, 0 / 0, "x", true, {}, function() end }
    local function hostile_mt()
      local mt = {}
      for _, m in ipairs{ "__index", "__len", "__pairs", "__newindex", "__call", "__eq", "__close", "__gc" } do
        if R() < 0.6 then
          mt[m] = function()
            if inside > 0 and m ~= "__gc" then ran_inside[m] = (ran_inside[m] or 0) + 1 end
            if inside > 0 and m == "__gc" then fired = fired + 1 end
            pcall(mischief)
            if m == "__len" then return R(0, 1e9) end
            if m == "__pairs" then return next, {}, nil end
            return JUNK[R(#JUNK)]
          end
        end
      end
      return mt
    end
    local function maybe_hostile(t)
      if R() < 0.7 then setmetatable(t, hostile_mt()) end
      return t
    end
    local function vec()
      local t = R() < 0.5 and { num(), num() } or { x = num(), y = num() }
      if R() < 0.2 then t[R() < 0.5 and "x" or 1] = nil end -- a hole __index might fill
      return maybe_hostile(t)
    end
    local function value()
      local k = R(9)
      if k <= 3 then return num()
      elseif k == 4 then return vec()
      elseif k == 5 then return maybe_hostile({ kind = ({ "linear", "radial", "drag", "none" })[R(4)], fx = num(), fy = num(),
                                                 strength = num(), drag = math.abs(num()) })
      elseif k == 6 then return R() < 0.5
      elseif k == 7 then return function() pcall(mischief) end
      elseif k == 8 then return pick(bodies)
      else return maybe_hostile({}) end
    end
    local function record(ok, err)
      if ok then oks = oks + 1 return end
      errs = errs + 1
      if type(err) ~= "string" and err ~= nil and #bad < 10 then bad[#bad + 1] = tostring(err) end
    end
    local function call(f, ...)
      inside = inside + 1
      local r = table.pack(pcall(f, ...))
      inside = inside - 1
      record(r[1], r[2])
      return r[1], r[2]
    end

    local PROPS = { "x", "y", "angle", "vx", "vy", "spin", "type", "awake", "user", "gravity_scale", "friction", "density",
                    "r", "w", "h", "field", "on_begin", "on_end", "on_hit", "mask", "target", "lower", "upper", "motor_speed",
                    "length", "gravity", "substeps", "sleeping", "hertz" }
    local SHAPES = { "circle", "box", "polygon", "capsule", "segment", "chain" }

    function action()
      local k = R(22)
      for i = #worlds, 1, -1 do
        if not worlds[i].valid then table.remove(worlds, i) end
      end
      local w = pick(worlds)
      if (k == 1 or not w) and #worlds < 3 then
        local ok, res = call(tumble.world, maybe_hostile({ gravity = vec(), substeps = R(1, 8) }))
        if ok then worlds[#worlds + 1] = res end
      elseif k <= 4 and w then
        local ok, res = call(w.body, w, maybe_hostile({ type = ({ "static", "dynamic", "kinematic" })[R(3)], x = num(),
                                                        y = num(), user = value() }))
        if ok then keep(bodies, res, 80) end
      elseif k <= 8 then
        local b = pick(bodies)
        if b then
          local kind = SHAPES[R(#SHAPES)]
          local opts = ({ { r = num(), x = num(), y = num() }, { w = num(), h = num(), angle = num() },
                          { num(), num(), num(), num(), num(), num() }, { num(), num(), num(), num(), 0.3 },
                          { x1 = num(), y1 = num(), x2 = num(), y2 = num() },
                          { num(), num(), num(), num(), num(), num(), loop = R() < 0.5 } })[R(6)]
          if kind ~= "chain" and R() < 0.5 then
            opts.on_begin = value(); opts.field = value(); opts.user = value(); opts.sensor = R() < 0.3
          end
          local ok, res = call(b[kind], b, maybe_hostile(opts))
          if ok and type(res) == "table" and getmetatable(res) == nil then
            for _, s in ipairs(res) do keep(shapes, s, 120) end
          elseif ok then
            keep(shapes, res, 120)
          end
        end
      elseif k <= 10 and w then
        local opts = { kind = ({ "revolute", "prismatic", "distance", "weld", "mouse" })[R(5)], a = pick(bodies),
                       b = pick(bodies), x = num(), y = num(), user = value() }
        if R() < 0.5 then opts.axis = vec() end
        if R() < 0.5 then opts.target = vec() end
        if R() < 0.3 then opts.lower, opts.upper = -1, 1 end
        local ok, res = call(w.joint, w, maybe_hostile(opts))
        if ok then keep(joints, res, 60) end
      elseif k <= 14 then
        local pool = ({ worlds, bodies, shapes, joints })[R(4)]
        local o = pick(pool)
        if o then call(function() o[PROPS[R(#PROPS)]] = value() end) end
      elseif k == 15 and w and depth == 0 then
        if R() < 0.5 then
          call(w.on, w, ({ "begin", "end", "hit", "sensor_enter", "sensor_exit" })[R(5)], function(a, b, c)
            if depth < 2 then depth = depth + 1; pcall(action); pcall(mischief); depth = depth - 1 end
            local _ = c and c.normal
          end)
        end
        call(w.step, w, 1 / 60)
      elseif k == 16 and w then
        local q = R(3)
        if q == 1 then call(w.query_box, w, num(), num(), num(), num(), R() < 0.5 and value() or nil)
        elseif q == 2 then call(w.raycast_all, w, num(), num(), num(), num())
        else call(w.overlap, w, pick(shapes), R() < 0.5 and value() or nil) end
      elseif k == 17 then
        call(tumble.collide, pick(shapes) or value(), pick(shapes) or value())
      elseif k == 18 then
        local b = pick(bodies)
        if b then call(function() local t = b:shapes(); local c = b:contacts(); return #t + #c end) end
      elseif k == 21 and w then
        local ok, res = call(w.snapshot, w)
        if ok then keep(snaps, res, 5) end
      elseif k == 22 then
        local snap, target = pick(snaps), pick(worlds)
        if snap and target then
          if R() < 0.5 then call(target.restore, target, snap)
          else call(function() target:restore(tumble.snapshot(snap:save())) end) end
        end
      elseif k == 19 then
        -- garbage with a finalizer, for the collector to run somewhere
        setmetatable({}, { __gc = function() if inside > 0 then fired = fired + 1 end pcall(mischief) end })
      else
        collectgarbage("step")
      end
    end

    local prev = collectgarbage("incremental", 50, 400, 10)
    for _ = 1, HOSTILE_CALLS do action() end
    collectgarbage("incremental", 200, 100, 13)
    if prev == "generational" then collectgarbage("generational") end
    worlds, bodies, shapes, joints, snaps = nil, nil, nil, nil, nil
    h.collect()

    if os.getenv("TUMBLE_FUZZ_VERBOSE") then print("hostile fuzz", oks, errs, fired) end
    assert.are.same({}, bad)
    assert.are.same({}, ran_inside) -- no __index, __len, __pairs, __newindex, ... ran inside the binding
    assert.is_true(oks > HOSTILE_CALLS / 20, "successful calls: " .. oks)
    assert.is_true(errs > HOSTILE_CALLS / 20, "failed calls: " .. errs)
  end)
end)
