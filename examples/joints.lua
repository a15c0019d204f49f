-- joints: four machines made of joints. A Newton's cradle (distance joints,
-- restitution 1: the energy passes through the row), a chain bridge
-- (revolute joints between planks), a ragdoll (revolute joints with limits)
-- and a car whose wheels are driven by revolute motors up a ramp.
--
-- level.state: cradle (balls, left to right), bridge (planks), ragdoll
-- (parts by name), car {chassis, wheels, motors}, drive (-1, 0, 1).
local levelkit = require "levelkit"

local level = {}

local CRADLE_X, CRADLE_TOP, CRADLE_LEN = -17, 11, 3
local CRADLE_N, CRADLE_R, CRADLE_GAP = 5, 0.5, 0.05   -- a gap: each collision is its own event
local CRADLE_LIFT = 0.8          -- rad: how far C raises the first ball
local BRIDGE_X1, BRIDGE_X2, BRIDGE_Y, PLANKS = -8.5, 3.5, 5, 12
local CAR_X, RAMP_X, RAMP_W, RAMP_H = 7, 11.5, 6, 3
local MOTOR_SPEED = 12           -- rad/s at the wheels
local MOTOR_TORQUE = 60          -- N*m each
local GROUP = -1                 -- the ragdoll's parts never collide with each other

level.layout = {cradle_len = CRADLE_LEN, cradle_lift = CRADLE_LIFT, ramp_x = RAMP_X, ramp_w = RAMP_W,
                ramp_h = RAMP_H, motor_speed = MOTOR_SPEED, bridge_x1 = BRIDGE_X1, bridge_x2 = BRIDGE_X2,
                bridge_y = BRIDGE_Y}

local function pendulum_ball(s, world, i)
  local ax = CRADLE_X + (i - (CRADLE_N + 1) / 2) * (2 * CRADLE_R + CRADLE_GAP)
  local b = world:body{type = "dynamic", x = ax, y = CRADLE_TOP - CRADLE_LEN}
  b:circle{r = CRADLE_R, density = 2, friction = 0, restitution = 1}
  world:joint{kind = "distance", a = s.frame, b = b, x1 = ax, y1 = CRADLE_TOP, x2 = ax, y2 = CRADLE_TOP - CRADLE_LEN}
  s.cradle[i] = b
  s.anchors[i] = ax
end

-- swings the first ball out by the lift angle, at rest
function level.raise_ball()
  local s = level.state
  local b = s.cradle[1]
  local ax = s.anchors[1]
  b:set_position(ax - CRADLE_LEN * math.sin(CRADLE_LIFT), CRADLE_TOP - CRADLE_LEN * math.cos(CRADLE_LIFT))
  b.vx, b.vy, b.spin = 0, 0, 0
  for i = 2, CRADLE_N do
    local o = s.cradle[i]
    o:set_position(s.anchors[i], CRADLE_TOP - CRADLE_LEN)
    o.vx, o.vy, o.spin = 0, 0, 0
  end
end

-- a static post whose origin is the bridge's end, so the joint drawn from
-- it is short
local function post(world, x)
  local p = world:body{type = "static", x = x, y = BRIDGE_Y}
  p:box{w = 0.6, h = BRIDGE_Y, x = x < 0 and -0.3 or 0.3, y = -BRIDGE_Y / 2}
  return p
end

local function build_bridge(s, world)
  local span = BRIDGE_X2 - BRIDGE_X1
  local w = span / PLANKS
  local prev = post(world, BRIDGE_X1)
  for i = 1, PLANKS do
    local x = BRIDGE_X1 + (i - 0.5) * w
    local p = world:body{type = "dynamic", x = x, y = BRIDGE_Y}
    p:box{w = w - 0.05, h = 0.25, density = 2, friction = 0.8}
    world:joint{kind = "revolute", a = prev, b = p, x = x - w / 2, y = BRIDGE_Y}
    s.bridge[i] = p
    prev = p
  end
  world:joint{kind = "revolute", a = prev, b = post(world, BRIDGE_X2), x = BRIDGE_X2, y = BRIDGE_Y}
end

local function limb(world, x1, y1, x2, y2, r)
  local b = world:body{type = "dynamic", x = (x1 + x2) / 2, y = (y1 + y2) / 2}
  b:capsule{x1 = x1 - b.x, y1 = y1 - b.y, x2 = x2 - b.x, y2 = y2 - b.y, r = r, density = 1, friction = 0.6,
            group = GROUP}
  return b
end

local function build_ragdoll(s, world, x, y)
  local r = {}
  r.torso = world:body{type = "dynamic", x = x, y = y}
  r.torso:box{w = 0.6, h = 1.2, density = 1, friction = 0.6, group = GROUP}
  r.head = world:body{type = "dynamic", x = x, y = y + 0.95}
  r.head:circle{r = 0.3, density = 1, friction = 0.6, group = GROUP}
  world:joint{kind = "revolute", a = r.torso, b = r.head, x = x, y = y + 0.65, lower = -0.6, upper = 0.6}
  for _, side in ipairs({-1, 1}) do
    local name = side < 0 and "left" or "right"
    local sx = x + side * 0.45
    local upper = limb(world, sx, y + 0.45, sx, y - 0.1, 0.12)
    local lower = limb(world, sx, y - 0.1, sx, y - 0.6, 0.11)
    world:joint{kind = "revolute", a = r.torso, b = upper, x = sx, y = y + 0.45, lower = -2.5, upper = 2.5}
    world:joint{kind = "revolute", a = upper, b = lower, x = sx, y = y - 0.1,
                lower = side < 0 and -2.4 or 0, upper = side < 0 and 0 or 2.4}
    local hx = x + side * 0.17
    local thigh = limb(world, hx, y - 0.6, hx, y - 1.3, 0.13)
    local shin = limb(world, hx, y - 1.3, hx, y - 2.0, 0.12)
    world:joint{kind = "revolute", a = r.torso, b = thigh, x = hx, y = y - 0.6, lower = -1.6, upper = 0.5}
    world:joint{kind = "revolute", a = thigh, b = shin, x = hx, y = y - 1.3, lower = 0, upper = 2.2}
    r[name .. "_arm"], r[name .. "_hand"], r[name .. "_thigh"], r[name .. "_shin"] = upper, lower, thigh, shin
  end
  s.ragdoll = r
end

local function build_car(s, world, x)
  local car = {}
  local y = 1.1
  car.chassis = world:body{type = "dynamic", x = x, y = y}
  car.chassis:box{w = 3.2, h = 0.5, density = 2, friction = 0.4}
  car.chassis:box{w = 1.6, h = 0.5, x = -0.2, y = 0.45, density = 0.5, friction = 0.4}
  car.wheels, car.motors = {}, {}
  for i, dx in ipairs({-1.1, 1.1}) do
    local w = world:body{type = "dynamic", x = x + dx, y = y - 0.45}
    w:circle{r = 0.5, density = 1, friction = 1.2}
    car.wheels[i] = w
    car.motors[i] = world:joint{kind = "revolute", a = car.chassis, b = w, x = x + dx, y = y - 0.45,
                                motor_speed = 0, max_torque = MOTOR_TORQUE}
  end
  s.car = car
end

function level.load(world)
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 1.5, 10.2, 25
  local s = {world = world, cradle = {}, anchors = {}, bridge = {}, drive = 0, boxes = {}}
  level.state = s

  local ground = world:body{type = "static"}
  ground:box{w = 50, h = 1, x = 1.5, y = -0.5, friction = 0.8}
  -- the cradle's bar (its legs are only drawn: the swing must stay free)
  s.frame = world:body{type = "static", x = CRADLE_X, y = CRADLE_TOP}
  s.frame:box{w = CRADLE_N * 1.1 + 1, h = 0.3, y = 0.15}
  -- the ramp and the plateau beyond it
  ground:polygon{RAMP_X, 0, RAMP_X + RAMP_W, 0, RAMP_X + RAMP_W, RAMP_H, friction = 0.9}
  ground:box{w = 6, h = RAMP_H, x = RAMP_X + RAMP_W + 3, y = RAMP_H / 2, friction = 0.9}
  ground:box{w = 0.5, h = 2, x = RAMP_X + RAMP_W + 6.25, y = RAMP_H + 1}

  for i = 1, CRADLE_N do pendulum_ball(s, world, i) end
  level.raise_ball()
  build_bridge(s, world)
  build_ragdoll(s, world, (BRIDGE_X1 + BRIDGE_X2) / 2 + 1, BRIDGE_Y + 6)
  build_car(s, world, CAR_X)
end

function level.reload(world)
  local s = level.state
  if s == nil then return end
  for _, m in ipairs(s.car.motors) do m.max_torque = MOTOR_TORQUE end
end

function level.keypressed(key)
  local s = level.state
  if key == "c" then
    level.raise_ball()
  elseif key == "b" then
    local b = s.world:body{type = "dynamic", x = (BRIDGE_X1 + BRIDGE_X2) / 2 - 2 + #s.boxes % 5, y = BRIDGE_Y + 8}
    b:box{w = 0.8, h = 0.8, density = 1, friction = 0.6}
    s.boxes[#s.boxes + 1] = b
  end
end

function level.update(dt, world)
  local s = level.state
  s.drive = levelkit.axis("left", "right", "a", "d")
  -- a negative spin rolls a wheel to the right
  for _, m in ipairs(s.car.motors) do m.motor_speed = -s.drive * MOTOR_SPEED end
  if s.drive ~= 0 then s.car.chassis.awake = true end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors
local SKIN, SHIRT, TROUSERS = {0.96, 0.80, 0.62}, {0.30, 0.55, 0.85}, {0.25, 0.30, 0.45}
-- back to front
local RAGDOLL_LOOK = {
  {"left_thigh", TROUSERS}, {"left_shin", TROUSERS}, {"left_arm", SHIRT}, {"left_hand", SKIN},
  {"right_thigh", TROUSERS}, {"right_shin", TROUSERS}, {"torso", SHIRT}, {"head", SKIN},
  {"right_arm", SHIRT}, {"right_hand", SKIN},
}

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  -- the cradle's legs, wide enough for the swing
  local leg = (CRADLE_N + 1) / 2 * (2 * CRADLE_R) + CRADLE_LEN * math.sin(CRADLE_LIFT) + 0.4
  gfx.color(0.5, 0.55, 0.62, 1)
  gfx.line(CRADLE_X - leg, CRADLE_TOP, CRADLE_X - leg - 0.8, 0)
  gfx.line(CRADLE_X + leg, CRADLE_TOP, CRADLE_X + leg + 0.8, 0)
  gfx.line(CRADLE_X - leg, CRADLE_TOP + 0.3, CRADLE_X + leg, CRADLE_TOP + 0.3)
  -- cradle strings and balls
  for i, b in ipairs(s.cradle) do
    gfx.color(0.8, 0.8, 0.85, 0.8)
    gfx.line(s.anchors[i], CRADLE_TOP, b.x, b.y)
    gfx.color(0.78, 0.80, 0.86, 1)
    gfx.circle("fill", b.x, b.y, CRADLE_R)
    gfx.color(1, 1, 1, 0.6)
    gfx.circle("fill", b.x - 0.15, b.y + 0.17, 0.12)
  end
  -- the ramp, coloured over the debug outline
  gfx.color(0.42, 0.36, 0.28, 1)
  gfx.poly("fill", RAMP_X, 0, RAMP_X + RAMP_W, 0, RAMP_X + RAMP_W, RAMP_H)
  gfx.rect("fill", RAMP_X + RAMP_W + 3, RAMP_H / 2, 6, RAMP_H)
  -- planks
  gfx.color(0.62, 0.45, 0.28, 1)
  local w = (BRIDGE_X2 - BRIDGE_X1) / PLANKS
  for _, p in ipairs(s.bridge) do gfx.rect("fill", p.x, p.y, w - 0.05, 0.25, p.angle) end
  -- ragdoll
  for _, part in ipairs(RAGDOLL_LOOK) do
    levelkit.draw_body(gfx, s.ragdoll[part[1]], part[2])
  end
  for _, b in ipairs(s.boxes) do levelkit.draw_body(gfx, b, {0.75, 0.6, 0.4}) end
  -- car
  local ch = s.car.chassis
  gfx.color(0.85, 0.25, 0.25, 1)
  gfx.rect("fill", ch.x, ch.y, 3.2, 0.5, ch.angle)
  local cx, cy = ch:world_point(-0.2, 0.45)
  gfx.color(0.95, 0.45, 0.4, 1)
  gfx.rect("fill", cx, cy, 1.6, 0.5, ch.angle)
  for _, wh in ipairs(s.car.wheels) do
    gfx.color(0.12, 0.12, 0.14, 1)
    gfx.circle("fill", wh.x, wh.y, 0.5)
    gfx.color(0.7, 0.7, 0.75, 1)
    gfx.circle("fill", wh.x, wh.y, 0.22)
    gfx.line(wh.x, wh.y, wh.x + 0.45 * math.cos(wh.angle), wh.y + 0.45 * math.sin(wh.angle))
  end

  gfx.color(1, 1, 1, 0.55)
  gfx.text(CRADLE_X, -1.1, "Newton's cradle", 1, "center")
  gfx.text((BRIDGE_X1 + BRIDGE_X2) / 2, -1.1, "chain bridge + ragdoll", 1, "center")
  gfx.text(RAMP_X + RAMP_W / 2, -1.1, "motorised car", 1, "center")

  levelkit.controls(gfx, "JOINTS", {
    "left/right, A/D: drive the car",
    "C: raise the cradle's first ball",
    "B: drop a box on the bridge",
  })
  local wheel = s.car.wheels[1]
  levelkit.status(gfx, {
    {string.format("car x %.1f m  speed %.1f m/s", ch.x, ch.vx)},
    {string.format("wheel %.1f rad/s  motor %.0f", wheel.spin, s.car.motors[1].motor_speed), C.dim},
  })
end

return level
