-- breakout: LearnOpenGL's Breakout (seed 003) with real bodies. The paddle is
-- kinematic, so the ball never sticks in it (the seed's sticky-paddle bug);
-- the ball is a bullet with restitution 1 and its speed kept constant, so
-- even a very fast ball does not tunnel through a brick or a wall (the
-- seed's other complaint). Bricks disappear through their on_begin handler.
--
-- level.state: score, lives, bricks_left, launched, won, lost, ball, paddle.
-- level.config: speeds a driver (or a hot reload) may change.
local levelkit = require "levelkit"

local level = {}

level.config = {
  ball_speed = 14,      -- m/s, kept constant
  paddle_speed = 22,    -- m/s, the most the paddle moves
  min_climb = 0.3,      -- the ball's vertical speed is at least this part of its speed
  bounce_angle = 1.05,  -- rad from vertical at the paddle's ends
}

local HALF_W, TOP = 10, 18       -- the inside of the walls: x in [-HALF_W, HALF_W], y below TOP
local PADDLE_W, PADDLE_H, PADDLE_Y = 3, 0.4, 1.2
local BALL_R = 0.25
local BRICK_W, BRICK_H, BRICK_COLS, BRICK_ROWS = 1.8, 0.6, 10, 6
local LIVES = 3

local ROW_COLORS = {
  {0.95, 0.35, 0.35}, {0.98, 0.60, 0.25}, {0.98, 0.85, 0.30},
  {0.45, 0.85, 0.45}, {0.35, 0.70, 0.98}, {0.70, 0.50, 0.98},
}

-- sparks where a brick breaks: one emitter per row, in the row's colour,
-- fading out; drawn with additive blending. They are only pictures: the
-- world never sees them.
local sparks = {}
for row, c in ipairs(ROW_COLORS) do
  sparks[row] = tumble.gfx.particles({
    max = 300, seed = row, life = {0.4, 0.9}, speed = {1.5, 6}, size = {0.4, 0.05},
    gravity = {0, -14}, spin = {-8, 8}, area = {0.8, 0.2},
    colors = {{1, 1, 1, 1}, {c[1], c[2], c[3], 0.9}, {c[1], c[2], c[3], 0}},
  })
end

local function hit_brick(brick, ball)
  local s = level.state
  if ball.body ~= s.ball then return end
  local tag = brick.user
  s.score = s.score + tag.points
  s.bricks_left = s.bricks_left - 1
  s.last_hit = tag.row
  local sp = sparks[tag.row]
  sp:move_to(brick.body.x, brick.body.y)
  sp:emit(40)
  brick.body:destroy()
  if s.bricks_left == 0 then s.won = true end
end

-- off the paddle, the angle depends on where the ball hit, not on how it came
local function hit_paddle(paddle, ball)
  local s = level.state
  if ball.body ~= s.ball then return end
  local b = s.ball
  local offset = levelkit.clamp((b.x - s.paddle.x) / (PADDLE_W / 2), -1, 1)
  local a = offset * level.config.bounce_angle
  local speed = level.config.ball_speed
  b.vx, b.vy = speed * math.sin(a), speed * math.cos(a)
  s.paddle_hits = s.paddle_hits + 1
end

local function build_bricks(s, world)
  s.bricks_left = 0
  s.bricks = {}
  for row = 1, BRICK_ROWS do
    for col = 1, BRICK_COLS do
      local x = -HALF_W + 0.1 + BRICK_W / 2 + (col - 1) * (BRICK_W + 0.2)
      local y = TOP - 2.5 - (row - 1) * (BRICK_H + 0.2)
      local body = world:body{type = "static", x = x, y = y}
      local shape = body:box{w = BRICK_W, h = BRICK_H, friction = 0, restitution = 1,
                             user = {kind = "brick", row = row, points = (BRICK_ROWS - row + 1) * 10}}
      shape.on_begin = hit_brick
      s.bricks[#s.bricks + 1] = body
      s.bricks_left = s.bricks_left + 1
    end
  end
end

local function park_ball(s)
  s.launched = false
  local b = s.ball
  b:set_position(s.paddle.x, PADDLE_Y + PADDLE_H / 2 + BALL_R + 0.02)
  b.vx, b.vy = 0, 0
end

local function new_game(s, world)
  for _, b in ipairs(s.bricks or {}) do b:destroy() end
  build_bricks(s, world)
  s.score, s.lives, s.won, s.lost = 0, LIVES, false, false
  park_ball(s)
end

level.layout = {half_w = HALF_W, top = TOP, ball_r = BALL_R, brick_h = BRICK_H, wall = 0.5, paddle_y = PADDLE_Y,
                paddle_h = PADDLE_H, bricks = BRICK_ROWS * BRICK_COLS}

function level.load(world)
  world.gravity = {0, 0}
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 0, 8.8, 35

  local s = {world = world, time = 0, paddle_hits = 0, mouse_x = nil}
  level.state = s

  local walls = world:body{type = "static"}
  walls:box{w = 0.5, h = TOP + 1.5, x = -HALF_W - 0.25, y = TOP / 2 - 0.25, friction = 0, restitution = 1}
  walls:box{w = 0.5, h = TOP + 1.5, x = HALF_W + 0.25, y = TOP / 2 - 0.25, friction = 0, restitution = 1}
  walls:box{w = 2 * HALF_W + 1, h = 0.5, x = 0, y = TOP + 0.25, friction = 0, restitution = 1}

  s.paddle = world:body{type = "kinematic", x = 0, y = PADDLE_Y}
  local ps = s.paddle:box{w = PADDLE_W, h = PADDLE_H, friction = 0, restitution = 1, radius = 0.05}
  ps.on_begin = hit_paddle

  s.ball = world:body{type = "dynamic", x = 0, y = PADDLE_Y + 1, bullet = true, fixed_rotation = true,
                      can_sleep = false}
  s.ball:circle{r = BALL_R, density = 1, friction = 0, restitution = 1, user = {kind = "ball"}}

  new_game(s, world)
end

function level.launch()
  local s = level.state
  if s.launched or s.won or s.lost then return end
  s.launched = true
  local a = 0.35 * ((s.paddle_hits % 2 == 0) and 1 or -1)
  local speed = level.config.ball_speed
  s.ball.vx, s.ball.vy = speed * math.sin(a), speed * math.cos(a)
end

function level.keypressed(key)
  local s = level.state
  if key == "space" then
    level.launch()
  elseif key == "r" then
    new_game(s, s.world)
  end
end

function level.mousemoved(x, y)
  level.state.mouse_x = x
end

function level.mousepressed(x, y, button)
  level.state.mouse_x = x
  if button == "left" then level.launch() end
end

-- constant speed, never too flat (a ball bouncing wall to wall forever)
local function keep_speed(b)
  local cfg = level.config
  local speed = cfg.ball_speed
  local vx, vy = b.vx, b.vy
  local len = math.sqrt(vx * vx + vy * vy)
  if len < 1e-6 then return end
  vx, vy = vx / len, vy / len
  if math.abs(vy) < cfg.min_climb then
    vy = (vy < 0 and -1 or 1) * cfg.min_climb
    vx = (vx < 0 and -1 or 1) * math.sqrt(1 - vy * vy)
  end
  b.vx, b.vy = vx * speed, vy * speed
end

function level.update(dt, world)
  local s = level.state
  local cfg = level.config
  s.time = s.time + dt
  for _, sp in ipairs(sparks) do sp:update(dt) end

  -- the paddle: keys move it at full speed, the mouse pulls it to the pointer
  local p = s.paddle
  local dir = levelkit.axis("left", "right", "a", "d")
  local vx
  if dir ~= 0 then
    vx = dir * cfg.paddle_speed
    s.mouse_x = nil
  elseif s.mouse_x then
    vx = levelkit.clamp((s.mouse_x - p.x) / dt, -cfg.paddle_speed, cfg.paddle_speed)
  else
    vx = 0
  end
  local limit = HALF_W - PADDLE_W / 2
  if (p.x >= limit and vx > 0) or (p.x <= -limit and vx < 0) then vx = 0 end
  vx = levelkit.clamp(vx, (-limit - p.x) / dt, (limit - p.x) / dt)
  p.vx = vx

  if s.won or s.lost then
    s.ball.vx, s.ball.vy = 0, 0
    return
  end
  if not s.launched then
    s.ball:set_position(p.x + vx * dt, PADDLE_Y + PADDLE_H / 2 + BALL_R + 0.02)
    s.ball.vx, s.ball.vy = 0, 0
    return
  end
  keep_speed(s.ball)
  if s.ball.y < -1 then
    s.lives = s.lives - 1
    if s.lives <= 0 then s.lost = true end
    park_ball(s)
  end
end

function level.reload(world)
  local s = level.state
  if s and s.launched then keep_speed(s.ball) end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  gfx.color(0.08, 0.09, 0.13, 1)
  gfx.rect("fill", 0, TOP / 2 - 0.5, 2 * HALF_W, TOP + 1)
  gfx.color(0.45, 0.5, 0.6, 1)
  gfx.rect("fill", -HALF_W - 0.25, TOP / 2 - 0.25, 0.5, TOP + 1.5)
  gfx.rect("fill", HALF_W + 0.25, TOP / 2 - 0.25, 0.5, TOP + 1.5)
  gfx.rect("fill", 0, TOP + 0.25, 2 * HALF_W + 1, 0.5)

  for _, b in ipairs(s.bricks) do
    if b.valid then
      local tag = b:shapes()[1].user
      local c = ROW_COLORS[tag.row]
      gfx.color(c[1], c[2], c[3], 1)
      gfx.rect("fill", b.x, b.y, BRICK_W, BRICK_H)
      gfx.color(1, 1, 1, 0.35)
      gfx.line(b.x - BRICK_W / 2 + 0.05, b.y + BRICK_H / 2 - 0.06, b.x + BRICK_W / 2 - 0.05, b.y + BRICK_H / 2 - 0.06)
    end
  end

  gfx.blend_mode("add")
  for _, sp in ipairs(sparks) do gfx.draw(sp) end
  gfx.blend_mode("alpha")

  local p = s.paddle
  gfx.color(0.85, 0.88, 0.95, 1)
  gfx.rect("fill", p.x, p.y, PADDLE_W, PADDLE_H)
  gfx.color(0.4, 0.8, 1.0, 1)
  gfx.rect("fill", p.x, p.y + PADDLE_H / 2 - 0.05, PADDLE_W - 0.2, 0.1)

  local b = s.ball
  gfx.color(1, 1, 1, 0.15)
  gfx.line(b.x, b.y, b.x - b.vx * 0.03, b.y - b.vy * 0.03)
  gfx.color(1, 0.95, 0.8, 1)
  gfx.circle("fill", b.x, b.y, BALL_R)

  levelkit.controls(gfx, "BREAKOUT", {
    "left/right, A/D",
    "  or the mouse:",
    "  move the paddle",
    "space / click:",
    "  launch",
    "R: new game",
  })
  local lives = string.rep("o ", math.max(s.lives, 0))
  levelkit.status(gfx, {
    {string.format("score  %d", s.score), C.accent},
    {string.format("lives  %s", lives)},
    {string.format("bricks %d", s.bricks_left)},
    {string.format("speed  %.0f m/s", level.config.ball_speed), C.dim},
  })
  if s.won then
    levelkit.banner(gfx, "ALL BRICKS DOWN!", "R: play again", C.good)
  elseif s.lost then
    levelkit.banner(gfx, "GAME OVER", "R: play again", C.bad)
  elseif not s.launched then
    gfx.color(1, 1, 1, 0.6 + 0.3 * math.sin(s.time * 4))
    gfx.text(0, PADDLE_Y + 3, "space to launch", 2, "center")
  end
end

return level
