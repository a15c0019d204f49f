-- breakout_lives: with the paddle kept away the ball is lost three times:
-- each loss costs a life and parks the ball on the paddle, the third ends the
-- game; R starts a new one with every brick back. Meanwhile the ball's speed
-- stays within 1 % of the configured 14 m/s through every step.
local drive = require "drive"

local ex = drive.example("breakout")
local L = ex.layout
local step, losses, parked_at = 0, 0, nil
local lives_seen = {}

return drive.wrap(ex, {
  before = function()
    step = step + 1
    local s = ex.state
    -- after a step: the bounces (restitution 1, no friction) kept the speed
    if s.launched then
      local v = drive.speed(s.ball)
      if math.abs(v - ex.config.ball_speed) > 0.01 * ex.config.ball_speed then
        drive.fail("ball speed %.4f after a step, expected %.1f", v, ex.config.ball_speed)
      end
    end
    -- keep the paddle in the far corner from where the ball will come down
    local b = s.ball
    ex.mousemoved(b.x > 0 and -L.half_w or L.half_w, L.paddle_y, 0, 0)
    if not s.launched and not s.lost and (not parked_at or step - parked_at > 30) then
      ex.keypressed("space")
    end
  end,
  after = function()
    local s = ex.state
    local b = s.ball
    if #lives_seen == 0 or lives_seen[#lives_seen] ~= s.lives then
      lives_seen[#lives_seen + 1] = s.lives
      if #lives_seen > 1 then
        parked_at = step
        if s.launched then drive.fail("the ball was not parked after a loss") end
        if math.abs(b.x - s.paddle.x) > 0.3 then drive.fail("the parked ball is not on the paddle") end
      end
    end
    if s.lost then
      if table.concat(lives_seen, ",") ~= "3,2,1,0" then drive.fail("lives went %s", table.concat(lives_seen, ",")) end
      ex.keypressed("r")
      if s.lives ~= 3 or s.bricks_left ~= L.bricks or s.lost or s.score ~= 0 then
        drive.fail("R did not start a new game (lives %d, bricks %d)", s.lives, s.bricks_left)
      end
      drive.pass("three balls lost (lives %s), game over, R restarts with %d bricks", table.concat(lives_seen, " "),
        s.bricks_left)
    elseif step > 60 * 120 then
      drive.fail("the game did not end in 120 s (lives %d)", s.lives)
    end
  end,
})
