-- playground: the chapter 9 test scene of "Build Your Own 2D Game Engine"
-- (seed 000) with the book's keys: select a body, move, rotate and resize it,
-- change its mass, restitution and friction, spawn shapes, inject velocities,
-- and switch the world's motion and position correction on and off.
--
-- level.state: bodies (dynamic, creation order), selected, spawned, and the
-- draw layers (texture, outline, bounds, contacts).
local levelkit = require "levelkit"

local level = {}

local GRAVITY = -10
local MOVE_SPEED = 4         -- m/s while W/A/S/D is held
local TURN_SPEED = 2         -- rad/s while Z/X is held
local GROW_RATE = 0.6        -- relative size change per second (Y/U)
local MASS_STEP = 1.25       -- factor per up/down press with M held
local BOUNCE_STEP = 0.1      -- restitution per press with N held
local FRICTION_STEP = 0.1    -- friction per press with F held
local KICK_SPEED = 8         -- H: random velocities up to this
local ROLLING_RESISTANCE = 0.2  -- circles: a ball on the floor slows by 2/3 c g = 1.33 m/s^2
local SPAWN_SEED = 20240917
local FLOOR_TOP = 0
local HALF_WIDTH = 14

local PALETTE = {
  {0.95, 0.55, 0.30}, {0.40, 0.75, 0.95}, {0.60, 0.85, 0.45}, {0.90, 0.45, 0.70},
  {0.95, 0.80, 0.35}, {0.55, 0.55, 0.95}, {0.35, 0.85, 0.75},
}

local function add_dynamic(s, world, kind, x, y, a, b, angle)
  -- circles get rolling resistance, without which a ball on flat ground
  -- rolls (and stays awake) forever
  local body = world:body{type = "dynamic", x = x, y = y, angle = angle or 0}
  local shape
  if kind == "circle" then
    shape = body:circle{r = a, density = 1, friction = 0.6, restitution = 0.2,
                        rolling_resistance = ROLLING_RESISTANCE}
  else
    shape = body:box{w = a, h = b, density = 1, friction = 0.6, restitution = 0.2}
  end
  s.bodies[#s.bodies + 1] = body
  s.colors[body] = PALETTE[(#s.bodies - 1) % #PALETTE + 1]
  s.shapes[body] = shape
  return body
end

-- G: a random circle or box from the level's own seeded generator, so a
-- replayed session spawns the same things.
function level.spawn(world)
  local s = level.state
  world = world or s.world
  local rng = s.rng
  local x = rng:range(-HALF_WIDTH + 2, HALF_WIDTH - 2)
  local y = rng:range(11, 15)
  local body
  if rng:next() % 2 == 0 then
    body = add_dynamic(s, world, "circle", x, y, rng:range(0.25, 0.6))
  else
    body = add_dynamic(s, world, "box", x, y, rng:range(0.5, 1.3), rng:range(0.5, 1.3), rng:range(0, math.pi))
  end
  s.spawned = s.spawned + 1
  return body
end

function level.load(world)
  world.gravity = {0, GRAVITY}
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 0, 8.2, 40

  local s = {
    world = world, bodies = {}, colors = {}, shapes = {}, selected = 1, spawned = 0,
    rng = levelkit.rng(SPAWN_SEED),
    layers = {texture = true, outline = true, bounds = false, contacts = false},
  }
  level.state = s

  local ground = world:body{type = "static"}
  ground:box{w = 2 * HALF_WIDTH, h = 1, x = 0, y = FLOOR_TOP - 0.5, friction = 0.7}
  ground:box{w = 0.6, h = 13, x = -HALF_WIDTH - 0.3, y = 6.5}
  ground:box{w = 0.6, h = 13, x = HALF_WIDTH + 0.3, y = 6.5}
  ground:box{w = 7, h = 0.4, x = -6.5, y = 6, angle = -0.25, friction = 0.7}
  ground:box{w = 5, h = 0.4, x = 7, y = 3.5, angle = 0.15, friction = 0.7}
  s.ground = ground

  -- the book's starting set: a big box to push around, then a few of each
  add_dynamic(s, world, "box", 0, 3, 2, 1.2)
  add_dynamic(s, world, "circle", -3, 9, 0.6)
  add_dynamic(s, world, "box", 3, 9, 1, 1, 0.3)
  add_dynamic(s, world, "circle", 6, 8, 0.45)
  add_dynamic(s, world, "box", -8, 10, 1.4, 0.6, 0.6)
  add_dynamic(s, world, "circle", 10, 10, 0.8)
end

function level.reload(world)
  world.gravity = {0, GRAVITY}
end

local function selected_body(s)
  local b = s.bodies[s.selected]
  if b and b.valid then return b end
  return nil
end

local function select_step(s, dir)
  local n = #s.bodies
  if n == 0 then return end
  s.selected = (s.selected - 1 + dir) % n + 1
end

local function resize(s, body, factor)
  local shape = s.shapes[body]
  if shape.kind == "circle" then
    shape.r = levelkit.clamp(shape.r * factor, 0.1, 4)
  else
    shape.w = levelkit.clamp(shape.w * factor, 0.2, 8)
    shape.h = levelkit.clamp(shape.h * factor, 0.2, 8)
  end
end

local function kick_all(s)
  local rng = s.rng
  for _, b in ipairs(s.bodies) do
    if b.valid then
      b.vx = rng:range(-KICK_SPEED, KICK_SPEED)
      b.vy = rng:range(0, KICK_SPEED)
      b.spin = rng:range(-4, 4)
    end
  end
end

function level.keypressed(key)
  local s = level.state
  local world = s.world
  local input = tumble.input
  local body = selected_body(s)
  if key == "left" then select_step(s, -1)
  elseif key == "right" then select_step(s, 1)
  elseif key == "g" then level.spawn(world)
  elseif key == "h" then kick_all(s)
  elseif key == "v" then world.motion = not world.motion
  elseif key == "p" then world.position_correction = not world.position_correction
  elseif key == "t" then s.layers.texture = not s.layers.texture
  elseif key == "r" then s.layers.outline = not s.layers.outline
  elseif key == "b" then s.layers.bounds = not s.layers.bounds
  elseif key == "c" then s.layers.contacts = not s.layers.contacts
  elseif (key == "up" or key == "down") and body then
    local dir = key == "up" and 1 or -1
    local shape = s.shapes[body]
    if input.down("m") then
      shape.density = levelkit.clamp(shape.density * MASS_STEP ^ dir, 0.05, 100)
    elseif input.down("n") then
      shape.restitution = levelkit.clamp(shape.restitution + dir * BOUNCE_STEP, 0, 1)
    elseif input.down("f") then
      shape.friction = levelkit.clamp(shape.friction + dir * FRICTION_STEP, 0, 2)
    end
  end
end

function level.update(dt, world)
  local s = level.state
  local body = selected_body(s)
  if not body then return end
  local dx = levelkit.axis("a", "d")
  local dy = levelkit.axis("s", "w")
  if dx ~= 0 or dy ~= 0 then
    body:set_position(body.x + dx * MOVE_SPEED * dt, body.y + dy * MOVE_SPEED * dt)
  end
  local turn = levelkit.axis("x", "z")
  if turn ~= 0 then body.angle = body.angle + turn * TURN_SPEED * dt end
  local grow = levelkit.axis("u", "y")
  if grow ~= 0 then resize(s, body, 1 + grow * GROW_RATE * dt) end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

local function shape_points(body, g)
  local pts = {}
  local c, sn = math.cos(body.angle), math.sin(body.angle)
  for i = 1, #g.points, 2 do
    local x, y = g.points[i], g.points[i + 1]
    pts[#pts + 1] = body.x + c * x - sn * y
    pts[#pts + 1] = body.y + sn * x + c * y
  end
  return pts
end

-- the outline pushed out by d metres (for the selection highlight)
local function grown(pts, cx, cy, d)
  local out = {}
  for i = 1, #pts, 2 do
    local dx, dy = pts[i] - cx, pts[i + 1] - cy
    local len = math.sqrt(dx * dx + dy * dy)
    local f = len > 0 and (len + d * 1.4) / len or 1
    out[i], out[i + 1] = cx + dx * f, cy + dy * f
  end
  return out
end

local function draw_body(gfx, s, body, selected)
  local shape = s.shapes[body]
  local g = shape:geometry()
  local col = s.colors[body]
  local asleep = not body.awake
  if g.kind == "circle" then
    local cx, cy = body:world_point(g.x, g.y)
    if s.layers.texture then
      gfx.color(col[1], col[2], col[3], asleep and 0.45 or 0.8)
      gfx.circle("fill", cx, cy, g.r)
    end
    if s.layers.outline then
      gfx.color(1, 1, 1, 0.8)
      gfx.circle("line", cx, cy, g.r)
      gfx.line(cx, cy, cx + g.r * math.cos(body.angle), cy + g.r * math.sin(body.angle))
    end
    if selected then
      levelkit.color(gfx, C.cool)
      for k = 1, 3 do gfx.circle("line", cx, cy, g.r + 0.03 * k) end
    end
  else
    local pts = shape_points(body, g)
    if s.layers.texture then
      gfx.color(col[1], col[2], col[3], asleep and 0.45 or 0.8)
      gfx.poly("fill", pts)
    end
    if s.layers.outline then
      gfx.color(1, 1, 1, 0.8)
      gfx.poly("line", pts)
    end
    if selected then
      levelkit.color(gfx, C.cool)
      for k = 1, 3 do gfx.poly("line", grown(pts, body.x, body.y, 0.03 * k)) end
    end
  end
  if s.layers.bounds then
    local x1, y1, x2, y2 = shape:aabb()
    gfx.color(0.85, 0.4, 0.85, 0.8)
    gfx.rect("line", (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1)
  end
end

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  local world = s.world
  local sel = selected_body(s)
  for _, body in ipairs(s.bodies) do
    if body.valid then draw_body(gfx, s, body, body == sel) end
  end
  if s.layers.contacts then
    for _, c in ipairs(world:contacts()) do
      local contact = c.contact
      for _, p in ipairs(contact.points) do
        levelkit.color(gfx, C.bad)
        gfx.circle("fill", p.x, p.y, 0.07)
        levelkit.color(gfx, C.good)
        gfx.line(p.x, p.y, p.x + contact.nx * 0.5, p.y + contact.ny * 0.5)
      end
    end
  end

  levelkit.controls(gfx, "PLAYGROUND (book ch. 9)", {
    "left/right: select    WASD: move    Z/X: rotate",
    "Y/U: size    M/N/F + up/down: mass/bounce/friction",
    "G: spawn    H: kick all    V: motion    P: correction",
    "T/R/B/C: texture/outline/bounds/contacts",
  }, {scale = 2})

  local lines = {
    {string.format("bodies: %d   awake: %d", #s.bodies, world.awake_body_count)},
    {string.format("motion: %s", world.motion and "on" or "OFF"), world.motion and C.text or C.bad},
    {string.format("correction: %s", world.position_correction and "on" or "OFF"),
     world.position_correction and C.text or C.bad},
  }
  if sel then
    local shape = s.shapes[sel]
    lines[#lines + 1] = {string.format("#%d M=%.2f I=%.2f F=%.2f R=%.2f", s.selected, sel.mass, sel.inertia,
      shape.friction, shape.restitution), C.accent}
    lines[#lines + 1] = {string.format("p=(%.2f, %.2f) v=(%.2f, %.2f) w=%.2f", sel.x, sel.y, sel.vx, sel.vy,
      sel.spin), C.dim}
  end
  levelkit.status(gfx, lines)
end

return level
