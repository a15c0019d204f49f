-- hotreload: runs a copy of an example (HR_LEVEL, a path outside the source
-- tree) and, while it runs, rewrites one of its constants in the file. The
-- host (started with --watch --watch-poll-ms 0) sees the change, runs the
-- files again and calls reload; the new value must then show in the running
-- game, whose bodies stay where they were.
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
    -- edit is to gravity, which level.reload pushes into the world
    from = "local GRAVITY = -20", to = "local GRAVITY = -30",
    before = function(ex, w) return w.gravity.y == -20 end,
    after = function(ex, w) return w.gravity.y == -30 end,
  },
  playground = {
    from = "local GRAVITY = -10", to = "local GRAVITY = -4",
    before = function(ex, w) return w.gravity.y == -10 end,
    after = function(ex, w) return w.gravity.y == -4 end,
  },
  billiards = {
    from = "local LINEAR_DRAG = 0.05", to = "local LINEAR_DRAG = 0.75",
    before = function(ex) return math.abs(ex.state.balls[5].linear_damping - 0.05) < 1e-6 end,
    after = function(ex) return math.abs(ex.state.balls[5].linear_damping - 0.75) < 1e-6 end,
  },
  breakout = {
    from = "ball_speed = 14,", to = "ball_speed = 21,",
    setup = function(ex, step) if step == 5 then ex.keypressed("space") end end,
    before = function(ex) return math.abs(drive.speed(ex.state.ball) - 14) < 0.1 end,
    after = function(ex) return math.abs(drive.speed(ex.state.ball) - 21) < 0.1 end,
  },
  stacking = {
    from = "local SUBSTEPS = 8", to = "local SUBSTEPS = 4",
    before = function(ex, w) return w.substeps == 8 end,
    after = function(ex, w) return w.substeps == 4 end,
  },
  joints = {
    from = "local MOTOR_SPEED = 12 ", to = "local MOTOR_SPEED = 5 ",
    setup = function(ex, step, keys) if step == 2 then keys.press("right") end end,
    before = function(ex) return ex.state.car.motors[1].motor_speed == -12 end,
    after = function(ex) return ex.state.car.motors[1].motor_speed == -5 end,
  },
  slingshot = {
    from = "local GRAVITY = -10", to = "local GRAVITY = -3",
    before = function(ex, w) return w.gravity.y == -10 end,
    after = function(ex, w) return w.gravity.y == -3 end,
  },
}
local case = assert(CASES[name], "no hot reload case for " .. name)

local ex = dofile(path)
local keys = drive.keys(ex)

local d = drive.wrap(ex, {
  load = function(world)
    -- the driver's own counters live in a field of the example set at run
    -- time, so they survive the merge like the example's state does
    ex.__driver = {step = 0, reloads = 0, seen_before = false, bodies = world.body_count}
  end,
  before = function(dt, world)
    local d = ex.__driver
    d.step = d.step + 1
    if case.setup then case.setup(ex, d.step, keys) end
  end,
  after = function(dt, world)
    keys.end_step()
    local d = ex.__driver
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
