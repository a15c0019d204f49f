-- stacking: seed 004's question, "how do you stop a box on a platform?",
-- and what it takes: persistent contacts, warm starting and position
-- correction. A box on a platform, a tall stack, a pyramid and a row of
-- dominoes. Switch warm starting (W) or position correction (P) off and
-- watch the stack and the pyramid jitter, sag and drift (W and P wake every
-- box, so a sleeping pyramid shows it at once); R rebuilds.
--
-- level.state: boxes, pyramid (rows of bodies), stack, dominoes, top (the
-- pyramid's top box), top_start, drift (how far the top box has moved).
local levelkit = require "levelkit"

local level = {}

local BOX = 1.0
local STACK_HEIGHT = 12
local PYRAMID_ROWS = 10
local PYRAMID_GAP = 0.05
local DOMINOES = 12
local DOMINO_W, DOMINO_H, DOMINO_STEP = 0.25, 2.0, 1.2
local FRICTION = 0.6
local PUSH = 2.5         -- N*s on the first domino
local SUBSTEPS = 8

local PYRAMID_X, STACK_X, PLATFORM_X, DOMINO_X = -1, -10, -16.5, 7

local function box(world, x, y, w, h, s, group)
  local b = world:body{type = "dynamic", x = x, y = y}
  b:box{w = w, h = h, density = 1, friction = FRICTION}
  s.boxes[#s.boxes + 1] = b
  s.group[b] = group
  return b
end

local function build(s, world)
  s.boxes, s.group, s.pyramid, s.stack, s.dominoes = {}, {}, {}, {}, {}
  local ground = world:body{type = "static"}
  ground:box{w = 48, h = 1, x = 2, y = -0.5, friction = FRICTION}
  -- the platform of seed 004, with its box
  ground:box{w = 4, h = 0.4, x = PLATFORM_X, y = 3, friction = FRICTION}
  ground:box{w = 0.4, h = 2.8, x = PLATFORM_X, y = 1.4}
  s.platform_box = box(world, PLATFORM_X, 3.2 + 0.6, 1.2, 1.2, s, "platform")
  s.ground = ground

  for i = 1, STACK_HEIGHT do
    s.stack[i] = box(world, STACK_X, (i - 0.5) * BOX, BOX, BOX, s, "stack")
  end

  for row = 1, PYRAMID_ROWS do
    local n = PYRAMID_ROWS - row + 1
    s.pyramid[row] = {}
    for i = 1, n do
      local x = PYRAMID_X + (i - (n + 1) / 2) * (BOX + PYRAMID_GAP)
      s.pyramid[row][i] = box(world, x, (row - 0.5) * BOX, BOX, BOX, s, "pyramid")
    end
  end
  s.top = s.pyramid[PYRAMID_ROWS][1]
  s.top_start = {s.top.x, s.top.y}
  s.drift = 0

  for i = 1, DOMINOES do
    s.dominoes[i] = box(world, DOMINO_X + (i - 1) * DOMINO_STEP, DOMINO_H / 2, DOMINO_W, DOMINO_H, s, "domino")
  end
  s.time = 0
end

local function apply_settings(world)
  world.substeps = SUBSTEPS
end

function level.load(world)
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 1.5, 8.6, 30
  apply_settings(world)
  local s = {world = world, pushed = false}
  level.state = s
  build(s, world)
end

function level.reload(world)
  apply_settings(world)
end

function level.rebuild()
  local s = level.state
  local world = s.world
  for _, b in ipairs(s.boxes) do
    if b.valid then b:destroy() end
  end
  if s.ground.valid then s.ground:destroy() end
  build(s, world)
  s.pushed = false
end

function level.push()
  local s = level.state
  local d = s.dominoes[1]
  if d and d.valid then
    d:apply_impulse(PUSH, 0, d.x, d.y + DOMINO_H * 0.4)
    s.pushed = true
  end
end

-- A setting changes nothing for a sleeping body: wake every box, so the
-- stack and the pyramid show the difference at once.
local function wake_all(s)
  for _, b in ipairs(s.boxes) do
    if b.valid then b.awake = true end
  end
end

function level.keypressed(key)
  local s = level.state
  local world = s.world
  if key == "w" then world.warm_starting = not world.warm_starting; wake_all(s)
  elseif key == "p" then world.position_correction = not world.position_correction; wake_all(s)
  elseif key == "s" then world.sleeping = not world.sleeping
  elseif key == "d" or key == "space" then level.push()
  elseif key == "r" then level.rebuild()
  end
end

function level.update(dt, world)
  local s = level.state
  s.time = s.time + dt
  local dx, dy = s.top.x - s.top_start[1], s.top.y - s.top_start[2]
  s.drift = math.sqrt(dx * dx + dy * dy)
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors
local TINTS = {
  platform = {0.95, 0.75, 0.35}, stack = {0.45, 0.75, 0.95}, pyramid = {0.95, 0.55, 0.35},
  domino = {0.85, 0.85, 0.90},
}

local function corners(b, w, h)
  local c, sn = math.cos(b.angle), math.sin(b.angle)
  local hw, hh = w / 2, h / 2
  local pts = {}
  for _, p in ipairs({{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}}) do
    pts[#pts + 1] = b.x + c * p[1] - sn * p[2]
    pts[#pts + 1] = b.y + sn * p[1] + c * p[2]
  end
  return pts
end

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  local world = s.world
  for _, b in ipairs(s.boxes) do
    if b.valid then
      local g = s.group[b]
      local t = TINTS[g]
      local w, h = BOX, BOX
      if g == "domino" then w, h = DOMINO_W, DOMINO_H elseif g == "platform" then w, h = 1.2, 1.2 end
      local a = b.awake and 0.85 or 0.45
      gfx.color(t[1], t[2], t[3], a)
      gfx.poly("fill", corners(b, w * 0.9, h * (g == "domino" and 0.96 or 0.9)))
    end
  end
  gfx.color(1, 1, 1, 0.6)
  gfx.text(PLATFORM_X, -1.2, "box on a platform", 1, "center")
  gfx.text(STACK_X, -1.2, "stack of " .. STACK_HEIGHT, 1, "center")
  gfx.text(PYRAMID_X, -1.2, "pyramid of " .. PYRAMID_ROWS * (PYRAMID_ROWS + 1) // 2, 1, "center")
  gfx.text(DOMINO_X + (DOMINOES - 1) * DOMINO_STEP / 2, -1.2, "dominoes (D to push)", 1, "center")
  -- where the pyramid's top box started, and where it is
  gfx.color(1, 0.3, 0.3, 0.8)
  gfx.circle("line", s.top_start[1], s.top_start[2], 0.12)
  gfx.line(s.top_start[1], s.top_start[2], s.top.x, s.top.y)

  levelkit.controls(gfx, "STACKING (seed 004)", {
    "W: warm starting   P: position correction",
    "S: sleeping   D / space: push the dominoes",
    "R: rebuild",
  })
  local function onoff(v) return v and "on" or "OFF" end
  levelkit.status(gfx, {
    {"warm starting: " .. onoff(world.warm_starting), world.warm_starting and C.text or C.bad},
    {"position correction: " .. onoff(world.position_correction), world.position_correction and C.text or C.bad},
    {"sleeping: " .. onoff(world.sleeping), world.sleeping and C.text or C.bad},
    {string.format("awake: %d / %d", world.awake_body_count, #s.boxes)},
    {string.format("top box moved %.3f m", s.drift), s.drift > 0.05 and C.bad or C.good},
  })
end

return level
