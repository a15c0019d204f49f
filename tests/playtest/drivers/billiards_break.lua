-- billiards_break: a straight break with the mouse (press on the cue ball,
-- drag 3 m straight back, let go). Checks:
--  * the cue ball's first contact is a ball of the rack (the apex, ball 1);
--  * total momentum right after the first impact equals the cue ball's just
--    before it, within 1 % (the cloth's forces act over one step only);
--  * every ball is at rest (asleep, or potted) within 15 s of the shot.
local drive = require "drive"

local ex = drive.example("billiards")
local step, shot_step = 0, nil
local before_px, before_py, impact_step
local first_other = nil

local function momentum()
  local px, py = 0, 0
  for _, b in ipairs(ex.ball_list()) do
    px, py = px + b.mass * b.vx, py + b.mass * b.vy
  end
  return px, py
end

return drive.wrap(ex, {
  before = function()
    step = step + 1
    local s = ex.state
    local cue = s.balls[0]
    if step == 10 then ex.mousepressed(cue.x, cue.y, "left") end
    if step == 11 then ex.mousemoved(cue.x - 3, cue.y, -3, 0) end
    if step == 12 then
      ex.mousereleased(cue.x - 3, cue.y, "left")
      shot_step = step
    end
  end,
  after = function(dt, world)
    local s = ex.state
    if not shot_step then return end
    local moving = nil
    for n = 1, 15 do
      local b = s.balls[n]
      if b and b.valid and drive.speed(b) > 1e-3 then
        moving = n
        break
      end
    end
    if not impact_step then
      if moving then
        impact_step = step
        first_other = moving
        local px, py = momentum()
        local p0 = math.sqrt(before_px ^ 2 + before_py ^ 2)
        local err = math.sqrt((px - before_px) ^ 2 + (py - before_py) ^ 2) / p0
        drive.log("impact at step %d: momentum before (%.4f, %.4f) after (%.4f, %.4f), error %.3f %%",
          step, before_px, before_py, px, py, 100 * err)
        if err > 0.01 then drive.fail("momentum changed by %.2f %% in the impact", 100 * err) end
        if s.balls[0].vx >= before_px / s.balls[0].mass then drive.fail("the cue ball did not slow down") end
      else
        before_px, before_py = momentum()
        if s.balls[0].vx < 10 then drive.fail("the cue ball left at %.2f m/s", s.balls[0].vx) end
      end
      return
    end
    local rest = true
    for _, b in ipairs(ex.ball_list()) do
      if b.awake then rest = false end
    end
    if rest then
      if first_other ~= 1 then drive.fail("the first ball hit was %d, not the apex", first_other) end
      drive.pass("impact at step %d; all at rest %.2f s after the shot, %d potted", impact_step,
        (step - shot_step) * dt, s.pocketed)
    elseif step - shot_step > 15 * 60 then
      local awake = 0
      for _, b in ipairs(ex.ball_list()) do
        if b.awake then
          awake = awake + 1
          drive.log("awake: x=%.3f y=%.3f v=(%.4f, %.4f) w=%.4f", b.x, b.y, b.vx, b.vy, b.spin)
        end
      end
      drive.fail("%d balls still moving 15 s after the shot", awake)
    end
  end,
})
