-- stacking_wake: W (warm starting off) on a pyramid that has gone to sleep
-- wakes every box at once, and the pyramid then drifts as it does with
-- sleeping off (stacking_warm), without R.
--  1. defaults: wait until every box sleeps (within 10 s);
--  2. W: after the next step every box is awake;
--  3. 3 s later the pyramid's top box has moved over 3 cm (with warm starting
--     on it moves about 2 mm; left asleep it would not move at all).
local drive = require "drive"

local ex = drive.example("stacking")
local keys = drive.keys(ex)
local step, phase, t0 = 0, 1, 0

local function awake_count(s)
  local n = 0
  for _, b in ipairs(s.boxes) do
    if b.awake then n = n + 1 end
  end
  return n
end

return drive.wrap(ex, {
  after = function(dt, world)
    keys.end_step()
    step = step + 1
    local s = ex.state
    if phase == 1 then
      if awake_count(s) == 0 then
        drive.log("every box asleep after %.2f s", step * dt)
        keys.press("w")
        keys.release("w")
        if world.warm_starting then drive.fail("W did not turn warm starting off") end
        phase, t0 = 2, step
      elseif step > 10 * 60 then
        drive.fail("defaults: %d boxes still awake after 10 s", awake_count(s))
      end
    elseif phase == 2 then
      local n = awake_count(s)
      if n ~= #s.boxes then drive.fail("W woke %d of %d boxes", n, #s.boxes) end
      if world.awake_body_count ~= #s.boxes then
        drive.fail("the world counts %d awake bodies, not %d", world.awake_body_count, #s.boxes)
      end
      phase = 3
    elseif step - t0 == 180 then
      if s.drift < 0.03 then drive.fail("3 s after W the top box moved only %.4f m", s.drift) end
      drive.pass("W woke all %d boxes; the top box then moved %.4f m in 3 s", #s.boxes, s.drift)
    end
  end,
})
