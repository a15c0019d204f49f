-- slingshot: the Angry Birds remark of seed 000 ("objects that interact
-- through physics"). Pull the stone back from the sling with the mouse and
-- let go; the further you pull, the faster it flies. Knock the tower down:
-- every block that falls over or drops scores.
--
-- level.state: shots_left, stone, blocks, toppled, score, aiming.
local levelkit = require "levelkit"

local level = {}

local SLING_X, SLING_Y = 0, 2.6          -- where the loaded stone rests
local MAX_PULL = 3.0                     -- m
local LAUNCH_GAIN = 7.0                  -- m/s of launch speed per metre of pull
local STONE_R, STONE_DENSITY = 0.35, 6
local SHOTS = 3
local TOWER_X = 20
local GRAVITY = -10
local TOPPLE_ANGLE = 0.5                 -- rad: a block turned this far has fallen
local TOPPLE_DROP = 0.6                  -- m: or it came down this far
local POINTS = 100

-- the tower: {x, y, w, h} of each block, bottom up
local TOWER = {
  {-1.6, 1.25, 0.5, 2.5}, {1.6, 1.25, 0.5, 2.5}, {0, 2.7, 4.2, 0.4},
  {-1.1, 4.1, 0.5, 2.4}, {1.1, 4.1, 0.5, 2.4}, {0, 5.5, 3.2, 0.4},
  {-0.6, 6.45, 0.5, 1.5}, {0.6, 6.45, 0.5, 1.5}, {0, 7.4, 2.0, 0.4},
  {0, 8.1, 1.0, 1.0}, {0, 0.6, 1.2, 1.2},
}

local function block_tint(i)
  local t = {{0.80, 0.60, 0.38}, {0.72, 0.52, 0.32}, {0.86, 0.68, 0.44}}
  return t[(i - 1) % 3 + 1]
end

local function build_tower(s, world)
  s.blocks = {}
  for i, b in ipairs(TOWER) do
    local body = world:body{type = "dynamic", x = TOWER_X + b[1], y = b[2]}
    body:box{w = b[3], h = b[4], density = 0.6, friction = 0.7}
    s.blocks[i] = {body = body, w = b[3], h = b[4], y0 = b[2], down = false}
  end
  -- a smaller block between the first pillars: the "pig"
  s.blocks[#s.blocks].target = true
end

local function load_stone(s, world)
  local stone = world:body{type = "kinematic", x = SLING_X, y = SLING_Y, bullet = true}
  stone:circle{r = STONE_R, density = STONE_DENSITY, friction = 0.5, restitution = 0.2}
  s.stone, s.flying, s.fly_time = stone, false, 0
  s.stones[#s.stones + 1] = stone
end

level.layout = {sling_x = SLING_X, sling_y = SLING_Y, max_pull = MAX_PULL, gain = LAUNCH_GAIN}

function level.load(world)
  world.gravity = {0, GRAVITY}
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 11.5, 6.8, 34

  local s = {world = world, shots_left = SHOTS, score = 0, toppled = 0, aiming = false, stones = {}, time = 0}
  level.state = s
  local ground = world:body{type = "static"}
  ground:box{w = 60, h = 1, x = 14, y = -0.5, friction = 0.8}
  build_tower(s, world)
  load_stone(s, world)
end

function level.reload(world)
  world.gravity = {0, GRAVITY}
end

function level.reset()
  local s = level.state
  local world = s.world
  for _, b in ipairs(s.blocks) do if b.body.valid then b.body:destroy() end end
  for _, st in ipairs(s.stones) do if st.valid then st:destroy() end end
  s.stones, s.stone = {}, nil
  s.shots_left, s.score, s.toppled, s.aiming = SHOTS, 0, 0, false
  build_tower(s, world)
  load_stone(s, world)
end

-- where the stone is pulled to, clamped to the band's reach
local function pull_point(x, y)
  local dx, dy = x - SLING_X, y - SLING_Y
  local len = math.sqrt(dx * dx + dy * dy)
  if len > MAX_PULL then
    dx, dy = dx / len * MAX_PULL, dy / len * MAX_PULL
  end
  return SLING_X + dx, SLING_Y + dy
end

local function launch_velocity(px, py)
  return (SLING_X - px) * LAUNCH_GAIN, (SLING_Y - py) * LAUNCH_GAIN
end

function level.mousepressed(x, y, button)
  local s = level.state
  if button ~= "left" or s.flying or s.shots_left <= 0 or not s.stone then return end
  local dx, dy = x - s.stone.x, y - s.stone.y
  if dx * dx + dy * dy > 1.5 * 1.5 then return end -- grab the stone, not the sky
  s.aiming = true
  s.stone:set_position(pull_point(x, y))
end

function level.mousemoved(x, y)
  local s = level.state
  if s.aiming then s.stone:set_position(pull_point(x, y)) end
end

function level.mousereleased(x, y, button)
  local s = level.state
  if button ~= "left" or not s.aiming then return end
  s.aiming = false
  local px, py = pull_point(x, y)
  local vx, vy = launch_velocity(px, py)
  if vx * vx + vy * vy < 4 then
    s.stone:set_position(SLING_X, SLING_Y)
    return
  end
  s.stone:set_position(px, py)
  s.stone.type = "dynamic"
  s.stone.vx, s.stone.vy = vx, vy
  s.flying = true
  s.shots_left = s.shots_left - 1
end

function level.keypressed(key)
  if key == "r" then level.reset() end
end

local function count_toppled(s)
  local n = 0
  for _, b in ipairs(s.blocks) do
    local body = b.body
    if body.valid and not b.down then
      local a = math.abs(math.atan(math.sin(body.angle), math.cos(body.angle)))
      if a > TOPPLE_ANGLE or body.y < b.y0 - TOPPLE_DROP then b.down = true end
    end
    if b.down then n = n + 1 end
  end
  return n
end

function level.update(dt, world)
  local s = level.state
  s.time = s.time + dt
  s.toppled = count_toppled(s)
  s.score = s.toppled * POINTS
  if s.flying then
    s.fly_time = s.fly_time + dt
    local st = s.stone
    -- next stone when this one has stopped, left the screen or had its time
    local done = st.y < -5 or st.x > 45 or s.fly_time > 6 or (s.fly_time > 1 and not st.awake)
    if done and s.shots_left > 0 then load_stone(s, world) end
    if done and s.shots_left == 0 then s.flying = false end
  end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

-- a line a few pixels thick: a quad of the given width
local function thick(gfx, x1, y1, x2, y2, w)
  local dx, dy = x2 - x1, y2 - y1
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return end
  local nx, ny = -dy / len * w / 2, dx / len * w / 2
  gfx.poly("fill", x1 + nx, y1 + ny, x1 - nx, y1 - ny, x2 - nx, y2 - ny, x2 + nx, y2 + ny)
end

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  gfx.color(0.30, 0.45, 0.25, 1)
  gfx.rect("fill", 14, -0.5, 60, 1)
  for i, b in ipairs(s.blocks) do
    if b.body.valid then
      local t = b.target and {0.55, 0.85, 0.35} or block_tint(i)
      levelkit.draw_body(gfx, b.body, t, b.down and 0.55 or 1)
      if b.target then
        gfx.color(0.1, 0.1, 0.1, 1)
        gfx.circle("fill", b.body.x - 0.2, b.body.y + 0.15, 0.08)
        gfx.circle("fill", b.body.x + 0.2, b.body.y + 0.15, 0.08)
      end
    end
  end
  -- the sling: back fork, band, stone, front fork
  local band_l, band_r = {SLING_X - 0.35, SLING_Y + 0.3}, {SLING_X + 0.35, SLING_Y + 0.3}
  gfx.color(0.45, 0.28, 0.15, 1)
  gfx.rect("fill", SLING_X, SLING_Y / 2 - 0.2, 0.3, SLING_Y - 0.4)
  thick(gfx, SLING_X, SLING_Y - 0.65, band_r[1], band_r[2], 0.18)
  local st = s.stone
  if st and st.valid and not s.flying then
    gfx.color(0.35, 0.2, 0.1, 1)
    thick(gfx, band_r[1], band_r[2], st.x, st.y, 0.09)
  end
  for _, stone in ipairs(s.stones) do
    if stone.valid then levelkit.draw_body(gfx, stone, {0.55, 0.55, 0.6}) end
  end
  if st and st.valid and not s.flying then
    gfx.color(0.35, 0.2, 0.1, 1)
    thick(gfx, band_l[1], band_l[2], st.x, st.y, 0.09)
  end
  gfx.color(0.5, 0.32, 0.18, 1)
  thick(gfx, SLING_X, SLING_Y - 0.65, band_l[1], band_l[2], 0.18)

  if s.aiming then
    -- where it would go: the ballistic path from the launch velocity
    local vx, vy = launch_velocity(st.x, st.y)
    local x, y = st.x, st.y
    gfx.color(1, 1, 1, 0.7)
    for i = 1, 30 do
      local t = i * 0.06
      local px, py = x + vx * t, y + vy * t + 0.5 * GRAVITY * t * t
      if py < 0 then break end
      gfx.circle("fill", px, py, 0.06)
    end
  end

  levelkit.controls(gfx, "SLINGSHOT", {
    "drag the stone back with the mouse, let go to shoot",
    "topple the tower's blocks        R: start again",
  })
  levelkit.status(gfx, {
    {string.format("score %d", s.score), C.accent},
    {string.format("toppled %d / %d", s.toppled, #s.blocks)},
    {string.format("stones left %d", s.shots_left), s.shots_left > 0 and C.text or C.bad},
  })
  if s.toppled == #s.blocks then
    levelkit.banner(gfx, "TOWER DOWN!", string.format("score %d - R to play again", s.score), C.good)
  elseif s.shots_left == 0 and not s.flying then
    levelkit.banner(gfx, "OUT OF STONES", string.format("score %d - R to play again", s.score), C.accent)
  end
end

return level
