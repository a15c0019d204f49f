-- breakout_fast: the ball at 75 m/s moves 1.25 m a step, more than a brick
-- (0.6 m) or a wall (0.5 m) plus the ball's diameter (0.5 m): a naive step
-- would jump right through them. A scripted paddle (the mouse kept on the
-- ball) must clear at least 20 bricks while the ball never leaves the walls
-- nor gets past the paddle.
local drive = require "drive"

local ex = drive.example("breakout")
local L = ex.layout
local SPEED, GOAL = 75, 20
ex.config.ball_speed = SPEED
ex.config.paddle_speed = 400

local step = 0
local worst = 0

return drive.wrap(ex, {
  load = function()
    local per_step = SPEED * tumble.dt
    if per_step <= L.brick_h + 2 * L.ball_r or per_step <= L.wall + 2 * L.ball_r then
      drive.fail("%.2f m a step is not enough to tunnel", per_step)
    end
  end,
  before = function()
    step = step + 1
    local s = ex.state
    if step == 20 then ex.keypressed("space") end
    -- aim a little off centre so the ball does not go straight up and down
    local b = s.ball
    ex.mousemoved(b.x + 0.4 * math.sin(step * 0.05), L.paddle_y, 0, 0)
  end,
  after = function()
    local s = ex.state
    local b = s.ball
    local r, tol = L.ball_r, 0.05
    local out_x = math.abs(b.x) - (L.half_w - r)
    local out_y = b.y - (L.top - r)
    worst = math.max(worst, out_x, out_y)
    if out_x > tol or out_y > tol then
      drive.fail("the ball left the walls at step %d: (%.3f, %.3f)", step, b.x, b.y)
    end
    if s.launched and b.y < L.paddle_y then
      drive.fail("the ball got past the paddle at step %d: (%.3f, %.3f)", step, b.x, b.y)
    end
    if s.lives < 3 then drive.fail("a life was lost at step %d", step) end
    local v = drive.speed(b)
    if s.launched and math.abs(v - SPEED) > 0.5 and step % 2 == 0 then
      -- the level keeps the speed each update; between, a bounce may not
      drive.log("speed %.2f at step %d", v, step)
    end
    local cleared = L.bricks - s.bricks_left
    if cleared >= GOAL then
      drive.pass("%d bricks in %d steps at %d m/s, deepest overshoot %.3f m, score %d", cleared, step, SPEED, worst,
        s.score)
    elseif step > 60 * 60 then
      drive.fail("only %d bricks in 60 s", cleared)
    end
  end,
})
