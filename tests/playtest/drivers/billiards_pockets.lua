-- billiards_pockets: pockets are sensors that take balls.
--  1. the cue ball sent into the bottom left corner pocket is taken (a foul)
--     and comes back on its spot once the table is at rest;
--  2. ball 1 placed before the top side pocket and hit straight in is potted.
local drive = require "drive"

local ex = drive.example("billiards")
local step, phase, t0 = 0, 1, 0

local function S() return ex.state end

-- a mouse shot: press on the cue ball, pull back along -dir by pull metres
local function shoot(dir_x, dir_y, pull)
  local cue = S().balls[0]
  local len = math.sqrt(dir_x * dir_x + dir_y * dir_y)
  local bx, by = cue.x - dir_x / len * pull, cue.y - dir_y / len * pull
  ex.mousepressed(cue.x, cue.y, "left")
  ex.mousemoved(bx, by, 0, 0)
  ex.mousereleased(bx, by, "left")
end

return drive.wrap(ex, {
  before = function()
    step = step + 1
    local s = S()
    if step == 2 then
      s.balls[0]:set_position(-7, -3)
    elseif step == 5 then
      shoot(-10.15 + 7, -5.15 + 3, 2)
      t0 = step
    end
  end,
  after = function()
    local s = S()
    if phase == 1 then
      if s.scratches == 1 and s.balls[0] and s.balls[0].valid and not s.cue_down then
        local cue = s.balls[0]
        if math.abs(cue.x + 5) > 1e-3 or math.abs(cue.y) > 1e-3 then
          drive.fail("the cue ball came back at (%.3f, %.3f), not on its spot (-5, 0)", cue.x, cue.y)
        end
        if s.pocketed ~= 0 then drive.fail("a scratch potted %d object balls", s.pocketed) end
        phase, t0 = 2, step
      elseif step - t0 > 600 then
        drive.fail("the cue ball was not taken and re-spotted (scratches %d)", s.scratches)
      end
    elseif phase == 2 then
      if step == t0 + 1 then
        s.balls[1]:set_position(0, 3.8)
        s.balls[0]:set_position(0, 0.5)
      elseif step == t0 + 5 then
        shoot(0, 1, 1.5)
      elseif step > t0 + 5 then
        if s.pocketed == 1 then
          if s.potted[1] ~= 1 or s.balls[1] ~= nil then drive.fail("the wrong ball went down: %s", s.potted[1]) end
          drive.pass("cue ball taken and re-spotted; ball 1 potted %d steps after the shot", step - t0 - 5)
        elseif step - t0 > 300 then
          drive.fail("ball 1 was not potted (at %.2f, %.2f)", s.balls[1].x, s.balls[1].y)
        end
      end
    end
  end,
})
