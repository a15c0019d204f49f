-- playground_settle: G pressed 50 times (one spawn every 4 steps), then the
-- pile must settle: no body ever below the floor (none resting in it), and
-- every dynamic body asleep within 10 s of the last spawn.
local drive = require "drive"

local ex = drive.example("playground")
local keys = drive.keys(ex)
local SPAWNS, EVERY, LIMIT = 50, 4, 600
local step, last_spawn = 0, nil
local deepest = 0

return drive.wrap(ex, {
  before = function()
    step = step + 1
    keys.release("g")
    if ex.state.spawned < SPAWNS and step % EVERY == 0 then keys.press("g") end
  end,
  after = function(dt, world)
    keys.end_step()
    local s = ex.state
    if s.spawned == SPAWNS and not last_spawn then last_spawn = step end
    local awake = 0
    for i, b in ipairs(s.bodies) do
      -- nothing may fall through the floor (top at y = 0, 1 m thick); a hard
      -- landing may dip into it for a step (soft contact), a resting body not
      local lo_x, lo_y = s.shapes[b]:aabb()
      deepest = math.min(deepest, lo_y)
      if b.y < 0 then
        drive.fail("body %d fell through the floor: centre %.3f at step %d", i, b.y, step)
      end
      if not b.awake and lo_y < -0.03 then
        drive.fail("body %d sleeps %.3f m deep in the floor at step %d", i, -lo_y, step)
      end
      if b.awake then awake = awake + 1 end
    end
    if last_spawn then
      if awake == 0 then
        if #s.bodies ~= SPAWNS + 6 then drive.fail("expected %d bodies, have %d", SPAWNS + 6, #s.bodies) end
        drive.pass("%d bodies asleep %.2f s after the last spawn (deepest point %.3f m)", #s.bodies,
          (step - last_spawn) * dt, deepest)
      elseif step - last_spawn > LIMIT then
        drive.fail("%d of %d bodies still awake 10 s after the last spawn", awake, #s.bodies)
      end
    end
  end,
})
