-- platformer: a character made with world:mover, walking left to right
-- through what platform games are built from. A 30 degree slope it walks up
-- and a 60 degree one it cannot; a 0.2 m step it walks over; one-way
-- platforms it jumps up through and lands on; a conveyor belt (tangent_speed)
-- that carries it and a stream of crates; a cart on wheel joints (sprung
-- suspension, wheel motors) that drives off when it stands on it; a bridge
-- whose joints break (break_force) when the boulder lands on it; a flag.
-- The boulder and the crates roll to a stop by rolling_resistance.
--
-- level.state: hero (the Mover), vy, hero_vx (its last move's speed), cart {chassis, wheels, joints},
-- crates, bridge (planks), bridge_joints, boulder, gate, broken (joints
-- torn), stage (what the help line says next), finished.
local levelkit = require "levelkit"

local level = {}

local GRAVITY = 25          -- m/s^2, the hero's own (a mover has no body)
local WALK = 5              -- m/s
local JUMP = 12             -- m/s: about 2.9 m high
local HERO_CAPSULE = {0, -0.5, 0, 0.5, 0.3}
local MAX_SLOPE = math.rad(45)
local STEP_HEIGHT = 0.3
local PUSH = 40             -- N: pushes crates, not the braked cart

-- the course (x in metres, ground at y = 0)
local SLOPE30 = {2, 8}                          -- foot and top of the walkable slope
local PLATEAU_Y = 6 * math.tan(math.rad(30))    -- 3.46
local STEP_X, STEP_H = 11, 0.2
local LEDGE_X = 14                              -- the plateau ends
local ONE_WAY = {{x = 15.5, y = 5.6, w = 4}, {x = 20, y = 2.0, w = 3}, {x = 23.5, y = 3.8, w = 3}}
local SHELF = {x1 = 17.5, x2 = 27, y = 5.6}     -- the conveyor's top
local BELT_SPEED = 2.5
local CRATE_EVERY = 1.5                         -- s
local CART_X, CART_SPEED = 31, 9                -- rad/s at the wheels (0.45 m radius)
local ROAD_END, BUFFER_X = 51, 52.5
local BRIDGE_X1, BRIDGE_X2, PLANKS = 54, 66, 12
local BRIDGE_BREAK = 900                        -- N: holds itself, not the boulder
local BOULDER_X, BOULDER_Y, BOULDER_R = 57.5, 7.6, 0.8
local GATE_OPEN_X = 61                          -- the hero past it lets the boulder go
local FLAG_X = 73

level.layout = {slope30 = SLOPE30, plateau_y = PLATEAU_Y, step_x = STEP_X, step_h = STEP_H,
                ledge_x = LEDGE_X, one_way = ONE_WAY, shelf = SHELF, belt_speed = BELT_SPEED,
                cart_x = CART_X, buffer_x = BUFFER_X, bridge_x1 = BRIDGE_X1,
                bridge_x2 = BRIDGE_X2, gate_open_x = GATE_OPEN_X, flag_x = FLAG_X}

level.conf = {camera = {x = 0, y = 3, scale = 40}}

-- a chain collides on the right of its point order: ground is given right
-- to left, so its front faces up
local function ground_chain(body, pts, friction)
  local rev = {friction = friction}
  for i = #pts - 1, 1, -2 do rev[#rev + 1], rev[#rev + 2] = pts[i], pts[i + 1] end
  return body:chain(rev)
end

local function build_ground(s, world)
  local g = world:body{type = "static"}
  s.ground = g
  -- left to right: a 60 degree wall, flat, the 30 degree slope, the
  -- plateau with its 0.2 m step
  local wall_top = 3.5 * math.tan(math.rad(60))
  ground_chain(g, {-8, wall_top, -4.5, 0, SLOPE30[1], 0, SLOPE30[2], PLATEAU_Y, STEP_X, PLATEAU_Y,
                   STEP_X, PLATEAU_Y + STEP_H, LEDGE_X, PLATEAU_Y + STEP_H, LEDGE_X, 0}, 0.8)
  -- the lower route: 1 m tiles, the seams a mover must not snag on
  for x = LEDGE_X, 27 do g:box{w = 1, h = 1, x = x + 0.5, y = -0.5, friction = 0.8} end
  -- one-way platforms: up through them, down onto them
  for _, p in ipairs(ONE_WAY) do
    g:box{w = p.w, h = 0.2, x = p.x, y = p.y - 0.1, one_way = {0, 1}, friction = 0.8}
  end
  -- the conveyor: its top surface moves right at BELT_SPEED
  s.belt = g:box{w = SHELF.x2 - SHELF.x1, h = 0.4, x = (SHELF.x1 + SHELF.x2) / 2, y = SHELF.y - 0.2,
                 friction = 0.9, tangent_speed = BELT_SPEED}
  -- the cart's road, bumps for its springs, and the buffer at its end
  local road = {28, 0}
  for x = 33, ROAD_END - 2, 3 do
    road[#road + 1], road[#road + 2] = x, 0
    road[#road + 1], road[#road + 2] = x + 1, 0.22
    road[#road + 1], road[#road + 2] = x + 2, 0
  end
  road[#road + 1], road[#road + 2] = BRIDGE_X1, 0
  road[#road + 1], road[#road + 2] = BRIDGE_X1, -8
  ground_chain(g, road, 0.9)
  g:box{w = 0.6, h = 0.6, x = BUFFER_X, y = 0.3}
  -- beyond the pit: the boulder's shelf above the bridge's start, the goal
  ground_chain(g, {BRIDGE_X2, -8, BRIDGE_X2, 0, FLAG_X + 6, 0, FLAG_X + 6, 6}, 0.8)
  g:box{w = BRIDGE_X2 - BRIDGE_X1, h = 1, x = (BRIDGE_X1 + BRIDGE_X2) / 2, y = -8.5}   -- the pit's floor
  g:box{w = 4, h = 0.3, x = BOULDER_X - 1.2, y = BOULDER_Y - BOULDER_R - 0.2, angle = -0.3}
  -- the gate holding the boulder: a body of its own, so it can be removed
  s.gate = world:body{type = "static", x = BOULDER_X + BOULDER_R + 0.1, y = BOULDER_Y}
  s.gate:box{w = 0.2, h = 1.6}
end

local function build_cart(s, world)
  local y = 0.45 + 0.7
  local chassis = world:body{type = "dynamic", x = CART_X, y = y}
  chassis:box{w = 3, h = 0.3, density = 2, friction = 0.9}
  chassis:box{w = 0.2, h = 0.5, x = -1.4, y = 0.4, density = 1}
  s.cart = {chassis = chassis, wheels = {}, joints = {}}
  for i, dx in ipairs({-1.1, 1.1}) do
    local w = world:body{type = "dynamic", x = CART_X + dx, y = 0.45}
    w:circle{r = 0.45, density = 1, friction = 1.2}
    s.cart.wheels[i] = w
    s.cart.joints[i] = world:joint{kind = "wheel", a = chassis, b = w, axis = {0, 1},
                                   hertz = 4, damping = 0.7, lower = -0.25, upper = 0.25,
                                   motor_speed = 0, max_torque = 60}
  end
end

local function build_bridge(s, world)
  local w = (BRIDGE_X2 - BRIDGE_X1) / PLANKS
  s.bridge, s.bridge_joints = {}, {}
  local prev = s.ground
  for i = 1, PLANKS do
    local p = world:body{type = "dynamic", x = BRIDGE_X1 + (i - 0.5) * w, y = -0.15}
    p:box{w = w, h = 0.3, density = 0.5, friction = 0.9}
    s.bridge[i] = p
    s.bridge_joints[i] = world:joint{kind = "revolute", a = prev, b = p, x = BRIDGE_X1 + (i - 1) * w,
                                     y = -0.15, break_force = BRIDGE_BREAK}
    prev = p
  end
  s.bridge_joints[PLANKS + 1] = world:joint{kind = "revolute", a = prev, b = s.ground, x = BRIDGE_X2,
                                            y = -0.15, break_force = BRIDGE_BREAK}
end

local function spawn_crate(s, world)
  local c = world:body{type = "dynamic", x = SHELF.x1 + 0.6, y = SHELF.y + 0.35}
  c:box{w = 0.6, h = 0.6, density = 0.5, friction = 0.7}
  s.crates[#s.crates + 1] = c
end

local function build(s, world)
  build_ground(s, world)
  build_cart(s, world)
  build_bridge(s, world)
  s.boulder = world:body{type = "dynamic", x = BOULDER_X, y = BOULDER_Y}
  s.boulder:circle{r = BOULDER_R, density = 8, friction = 0.8, rolling_resistance = 0.05}
  s.crates, s.crate_clock = {}, 0
  s.hero = world:mover{capsule = HERO_CAPSULE, x = 0, y = 0.81, max_slope = MAX_SLOPE,
                       step_height = STEP_HEIGHT, push_strength = PUSH}
  s.vy, s.time, s.broken, s.finished, s.gate_open = 0, 0, 0, false, false
  s.facing = 1
end

local function on_break(joint, info)
  local s = level.state
  s.broken = s.broken + 1
  s.break_force = math.max(s.break_force or 0, info.force)
end

function level.load(world)
  local s = {world = world}
  level.state = s
  build(s, world)
  world:on("joint_break", on_break)
end

function level.reload(world)
  world:on("joint_break", on_break)
end

function level.keypressed(key)
  local s = level.state
  if (key == "space" or key == "up" or key == "w") and s.hero.grounded then s.vy = JUMP end
  if key == "r" then
    s.world:destroy_all()
    build(s, s.world)
  end
end

local function stage(s)
  local x, y = s.hero.x, s.hero.y
  if s.finished then return "you made it: R to run again" end
  if x < SLOPE30[2] then return "walk right (arrows or A/D) up the slope; the steep one on the left is a wall" end
  if x < LEDGE_X then return "jump (space) up through the one-way platform, or drop to the tiles" end
  if x < SHELF.x1 and y > SHELF.y then return "on the platform: walk right onto the conveyor" end
  if x < 28 and y > SHELF.y then return "the belt carries you and its crates towards the cart" end
  if x < 28 then return "the lower route: up through the one-way platforms, or on to the cart" end
  if x < BUFFER_X - 1 then return "jump onto the cart: it drives off when you stand on it" end
  if x < BRIDGE_X2 then return "cross the bridge before the boulder does" end
  return "the flag!"
end

function level.update(dt, world)
  local s = level.state
  local hero = s.hero
  s.time = s.time + dt
  -- the hero: walk, fall, ride the belt
  local walk = levelkit.axis("left", "right", "a", "d")
  if walk ~= 0 then s.facing = walk end
  local dx = walk * WALK * dt
  local ground = hero.ground
  if ground and ground.valid and ground.tangent_speed ~= 0 then
    local n = hero.ground_normal
    dx = dx + ground.tangent_speed * n[2] * dt   -- the belt's tangent is right of its normal
  end
  if hero.grounded and s.vy <= 0 then s.vy = 0 else s.vy = s.vy - GRAVITY * dt end
  local want_dy = s.vy * dt
  local x0 = hero.x
  local _, got_dy = hero:move(dx, want_dy)
  s.hero_vx = (hero.x - x0) / dt
  if s.vy > 0 and got_dy < want_dy * 0.5 then s.vy = 0 end   -- bumped a ceiling
  if hero.y < -20 then                                       -- fell in the pit: back to the start
    hero.x, hero.y, s.vy = 0, 0.81, 0
  end
  -- the cart drives while the hero stands on it, until the buffer
  local ch = s.cart.chassis
  local riding = ground and ground.valid and ground.body == ch
  local drive = (riding and ch.x < ROAD_END - 1.5) and -CART_SPEED or 0
  for _, j in ipairs(s.cart.joints) do
    if j.valid then j.motor_speed = drive end
  end
  if drive ~= 0 then ch.awake = true end
  s.riding = riding
  -- crates onto the belt; those that fall off its end are gone
  s.crate_clock = s.crate_clock + dt
  if s.crate_clock >= CRATE_EVERY then
    s.crate_clock = s.crate_clock - CRATE_EVERY
    -- not onto the hero's head
    if math.abs(hero.x - SHELF.x1 - 0.6) > 1.2 or math.abs(hero.y - SHELF.y - 1) > 1.5 then spawn_crate(s, world) end
  end
  for i = #s.crates, 1, -1 do
    local c = s.crates[i]
    if c.x > SHELF.x2 + 0.5 or c.y < SHELF.y - 1 then
      c:destroy()
      table.remove(s.crates, i)
    end
  end
  -- past the gate, the boulder goes
  if not s.gate_open and hero.x > GATE_OPEN_X then
    s.gate:destroy()
    s.gate_open = true
    s.boulder.awake = true
  end
  if hero.x > FLAG_X and hero.grounded then s.finished = true end
  -- the camera follows
  local cam = tumble.camera
  cam.x = cam.x + (hero.x - cam.x) * math.min(1, 6 * dt)
  local lift = s.finished and 4 or 1.5   -- at the end, the hero below the banner
  cam.y = cam.y + (hero.y + lift - cam.y) * math.min(1, 6 * dt)
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  -- the belt's moving stripes
  gfx.color(0.35, 0.35, 0.4, 1)
  gfx.rect("fill", (SHELF.x1 + SHELF.x2) / 2, SHELF.y - 0.2, SHELF.x2 - SHELF.x1, 0.4)
  gfx.color(0.95, 0.8, 0.3, 0.9)
  local phase = (s.time * BELT_SPEED) % 1
  for x = SHELF.x1 + phase, SHELF.x2 - 0.2, 1 do gfx.line(x, SHELF.y - 0.05, x + 0.4, SHELF.y - 0.05) end
  for _, p in ipairs(ONE_WAY) do
    gfx.color(0.45, 0.8, 0.55, 1)
    gfx.rect("fill", p.x, p.y - 0.1, p.w, 0.2)
    gfx.color(0.45, 0.8, 0.55, 0.5)
    for x = p.x - p.w / 2 + 0.3, p.x + p.w / 2 - 0.3, 0.8 do
      gfx.line(x, p.y - 0.5, x, p.y - 0.2)
      gfx.line(x - 0.1, p.y - 0.3, x, p.y - 0.2)
      gfx.line(x + 0.1, p.y - 0.3, x, p.y - 0.2)
    end
  end
  for _, c in ipairs(s.crates) do levelkit.draw_body(gfx, c, {0.75, 0.55, 0.3}) end
  for _, p in ipairs(s.bridge) do levelkit.draw_body(gfx, p, {0.6, 0.42, 0.25}) end
  if s.gate.valid then levelkit.draw_body(gfx, s.gate, {0.6, 0.6, 0.65}) end
  levelkit.draw_body(gfx, s.boulder, {0.55, 0.5, 0.45})
  local ch = s.cart.chassis
  levelkit.draw_body(gfx, ch, {0.85, 0.3, 0.25})
  for _, w in ipairs(s.cart.wheels) do
    levelkit.draw_body(gfx, w, {0.28, 0.28, 0.32})
    gfx.color(0.7, 0.7, 0.75, 1)
    gfx.line(w.x, w.y, w.x + 0.4 * math.cos(w.angle), w.y + 0.4 * math.sin(w.angle))
    local lx = ch:local_point(w.x, w.y)
    gfx.line(w.x, w.y, ch:world_point(lx, 0))
  end
  -- the flag
  gfx.color(0.8, 0.8, 0.85, 1)
  gfx.line(FLAG_X + 2, 0, FLAG_X + 2, 3)
  gfx.color(s.finished and 0.4 or 0.95, s.finished and 0.9 or 0.3, 0.3, 1)
  gfx.poly("fill", FLAG_X + 2, 3, FLAG_X + 3.2, 2.6, FLAG_X + 2, 2.2)
  -- the hero
  local h = s.hero
  gfx.color(0.3, 0.6, 0.95, 1)
  gfx.rect("fill", h.x, h.y, 0.6, 1.0)
  gfx.circle("fill", h.x, h.y + 0.5, 0.3)
  gfx.circle("fill", h.x, h.y - 0.5, 0.3)
  gfx.color(1, 1, 1, 1)
  gfx.circle("fill", h.x + 0.12 * s.facing, h.y + 0.55, 0.08)

  levelkit.controls(gfx, "PLATFORMER (world:mover)", {
    "left/right, A/D: walk   space/up/W: jump",
    "R: start again",
    stage(s),
  })
  local gn = h.ground_normal
  levelkit.status(gfx, {
    {string.format("hero (%.1f, %.1f)  %s", h.x, h.y, h.grounded and "grounded" or "in the air"),
     h.grounded and C.text or C.dim},
    {gn and string.format("ground normal (%.2f, %.2f)", gn[1], gn[2]) or "no ground", C.dim},
    {string.format("cart %.1f m/s%s", ch.vx, s.riding and "  (riding)" or "")},
    {string.format("bridge joints broken: %d", s.broken), s.broken > 0 and C.bad or C.text},
  })
  if s.finished then levelkit.banner(gfx, "LEVEL COMPLETE", "R to run again", C.good) end
end

return level
