-- hotreload: runs a copy of an example (HR_LEVEL, a path outside the source
-- tree) and, while it runs, rewrites one of its constants in the file. The
-- host (started with --watch --watch-poll-ms 0) sees the change and runs the
-- files again. A constant that only functions use is swapped in (reload is
-- called, the bodies stay where they were); one that load() uses (directly
-- or through the functions and tables it reaches) makes the host rebuild: the
-- edited level runs from its start and the recorded input is replayed up to
-- the moment of the edit (tumble.replaying is true meanwhile). Either way the
-- new value must then show in the running game, and each case says which
-- kind of reload it must be.
--
-- A driver that wraps an example must pass the reload on: the host merges
-- the new driver table over the old one, and this file does the same for the
-- example's table (data kept, functions new) before calling its reload.
local drive = require "drive"

local path = assert(os.getenv("HR_LEVEL"), "HR_LEVEL: the copied level")
local name = assert(os.getenv("HR_NAME"), "HR_NAME: which example it is")
local EDIT_STEP, LIMIT = 30, 240

-- per example: the text to change, what it becomes, and the effect to see
-- (before: true if the old value is in force, after: true for the new one)
local CASES = {
  forcefield = {
    -- the moving platform waits at the bottom for the first 0.8 s, so the
    -- edit is to gravity, which load sets
    kind = "rebuild",
    from = "local GRAVITY = -20", to = "local GRAVITY = -30",
    before = function(ex, w) return w.gravity.y == -20 end,
    after = function(ex, w) return w.gravity.y == -30 end,
  },
  playground = {
    kind = "rebuild", -- load sets world.gravity
    from = "local GRAVITY = -10", to = "local GRAVITY = -4",
    before = function(ex, w) return w.gravity.y == -10 end,
    after = function(ex, w) return w.gravity.y == -4 end,
  },
  billiards = {
    kind = "rebuild", -- load racks the balls with it
    from = "local LINEAR_DRAG = 0.05", to = "local LINEAR_DRAG = 0.75",
    before = function(ex) return math.abs(ex.state.balls[5].linear_damping - 0.05) < 1e-6 end,
    after = function(ex) return math.abs(ex.state.balls[5].linear_damping - 0.75) < 1e-6 end,
  },
  breakout = {
    kind = "rebuild", -- load reaches level.config
    from = "ball_speed = 14,", to = "ball_speed = 21,",
    setup = function(ex, step) if step == 5 then ex.keypressed("space") end end,
    before = function(ex) return math.abs(drive.speed(ex.state.ball) - 14) < 0.1 end,
    after = function(ex) return math.abs(drive.speed(ex.state.ball) - 21) < 0.1 end,
  },
  stacking = {
    kind = "rebuild", -- load builds the world with it
    from = "local SUBSTEPS = 8", to = "local SUBSTEPS = 4",
    before = function(ex, w) return w.substeps == 8 end,
    after = function(ex, w) return w.substeps == 4 end,
  },
  joints = {
    kind = "rebuild", -- load reaches the config table
    from = "local MOTOR_SPEED = 12 ", to = "local MOTOR_SPEED = 5 ",
    setup = function(ex, step, keys) if step == 2 then keys.press("right") end end,
    before = function(ex) return ex.state.car.motors[1].motor_speed == -12 end,
    after = function(ex) return ex.state.car.motors[1].motor_speed == -5 end,
  },
  slingshot = {
    kind = "rebuild", -- load sets world.gravity
    from = "local GRAVITY = -10", to = "local GRAVITY = -3",
    before = function(ex, w) return w.gravity.y == -10 end,
    after = function(ex, w) return w.gravity.y == -3 end,
  },
  platformer = {
    kind = "functions", -- only update walks with it
    from = "local WALK = 5 ", to = "local WALK = 9 ",
    setup = function(ex, step, keys) if step == 2 then keys.press("right") end end,
    before = function(ex) return ex.state.hero_vx ~= nil and math.abs(ex.state.hero_vx - 5) < 1e-3 end,
    after = function(ex) return ex.state.hero_vx ~= nil and math.abs(ex.state.hero_vx - 9) < 1e-3 end,
  },
}
local case = assert(CASES[name], "no hot reload case for " .. name)

local ex = dofile(path)
local keys = drive.keys(ex)

local d = drive.wrap(ex, {
  load = function(world)
    -- the driver's own counters live in a field of the example set at run
    -- time, so they survive the merge like the example's state does
    ex.__driver = {step = 0, reloads = 0, seen_before = false, bodies = world.body_count,
                   rebuilt = tumble.replaying}
  end,
  before = function(dt, world)
    local d = ex.__driver
    d.step = d.step + 1
    if case.setup then case.setup(ex, d.step, keys) end
  end,
  after = function(dt, world)
    keys.end_step()
    local d = ex.__driver
    if d.rebuilt then
      -- rebuilt: the replay re-runs steps the first run already checked
      if tumble.replaying then return end
      if case.kind ~= "rebuild" then drive.fail("%s: rebuilt, but only functions changed", name) end
      if d.step <= EDIT_STEP then
        drive.fail("%s: the rebuild replayed %d steps, the edit came after %d", name, d.step, EDIT_STEP)
      end
      if not case.after(ex, world) then drive.fail("%s: rebuilt, but '%s' is not in force", name, case.to) end
      drive.pass("%s: '%s' took effect: rebuilt, %d steps replayed", name, case.to, d.step - 1)
      return
    end
    if d.reloads == 0 then
      if d.step > 5 and case.before(ex, world) then d.seen_before = true end
      if d.step == EDIT_STEP then
        if not d.seen_before then drive.fail("%s: the original value is not in force", name) end
        local f = assert(io.open(path, "r"))
        local text = f:read("a")
        f:close()
        local i, j = text:find(case.from, 1, true)
        if not i then drive.fail("%s: '%s' is not in the level any more", name, case.from) end
        text = text:sub(1, i - 1) .. case.to .. text:sub(j + 1)
        f = assert(io.open(path, "w"))
        f:write(text)
        f:close()
      end
    elseif case.after(ex, world) then
      if case.kind ~= "functions" then drive.fail("%s: functions swapped in, but load() uses the edit", name) end
      if world.body_count ~= d.bodies then
        drive.fail("%s: the reload changed the world (%d bodies, was %d)", name, world.body_count, d.bodies)
      end
      drive.pass("%s: '%s' took effect %d steps after the edit", name, case.to, d.step - EDIT_STEP)
    end
    if d.step > LIMIT then
      drive.fail("%s: no effect of '%s' after %d steps (reloads: %d)", name, case.to, d.step, d.reloads)
    end
  end,
})

d.example = ex

function d.reload(world, old)
  local old_ex = old and old.example
  if old_ex then
    for k, v in pairs(old_ex) do
      if rawget(ex, k) == nil and type(v) ~= "function" then ex[k] = v end
    end
  end
  ex.__driver.reloads = (ex.__driver.reloads or 0) + 1
  if ex.reload then ex.reload(world, old_ex) end
end

return d
