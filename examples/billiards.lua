-- billiards: the "rough balls" demo of seed 002 on a real table. Seen from
-- above, so no gravity: the cloth slows the balls (rolling resistance, a
-- constant deceleration, plus a little drag) until they stop and sleep.
-- Drag back from the cue ball with the mouse and let go to strike; the
-- further the drag, the harder the shot. Pockets are sensors that take the
-- balls; a pocketed cue ball comes back on its spot once everything stops.
--
-- level.state: balls (index 0 is the cue ball), pocketed, scratches,
-- shots, aiming, all_at_rest, sounds.
--
-- Sound is positional: the strike is heard from the cue ball and a drop from
-- the pocket's side of the table, panned left or right of the camera.
local levelkit = require "levelkit"

local level = {}

local TABLE_W, TABLE_H = 20, 10      -- playing surface, metres
local BALL_R = 0.4
local BALL_DENSITY = 1
local BALL_RESTITUTION = 0.95
local BALL_FRICTION = 0.05           -- ball on ball: the seed's rough balls, kept smooth-ish
local CUSHION_RESTITUTION = 0.8
local ROLLING_DECEL = 1.6            -- m/s^2 the cloth takes off a moving ball
local SPIN_DAMPING = 1.5             -- 1/s: the cloth's grip on a ball's spin (seen from above the cloth
                                     -- is not a contact, so rolling_resistance, a contact's torque, has no
                                     -- normal force to act through; the script's ROLLING_DECEL is the cloth)
local LINEAR_DRAG = 0.05             -- 1/s, linear damping
local STOP_SPEED = 0.03              -- m/s under which the cloth lets sleep take over
local POWER = 4.5                    -- m/s of cue speed per metre of drag
local MAX_SHOT = 18                  -- m/s
local POCKET_R = 0.62
local CORNER_MOUTH, SIDE_MOUTH = 1.0, 0.75
local FRAME_W, FRAME_GAP = 0.6, 1.1   -- the wooden frame, and its distance from the cloth's edge
local RACK_GAP = 0.08                 -- between racked balls: a tight rack breaks like one heavy ball
local CUE_SPOT = {-TABLE_W / 4, 0}
local RACK_SPOT = {TABLE_W / 4, 0}

local HW, HH = TABLE_W / 2, TABLE_H / 2

local COLORS = {
  [0] = {0.96, 0.95, 0.90},
  {0.98, 0.80, 0.15}, {0.15, 0.35, 0.85}, {0.90, 0.20, 0.18}, {0.45, 0.20, 0.60},
  {0.98, 0.50, 0.10}, {0.10, 0.55, 0.30}, {0.55, 0.15, 0.15}, {0.08, 0.08, 0.08},
  {0.98, 0.80, 0.15}, {0.15, 0.35, 0.85}, {0.90, 0.20, 0.18}, {0.45, 0.20, 0.60},
  {0.98, 0.50, 0.10}, {0.10, 0.55, 0.30}, {0.55, 0.15, 0.15},
}

-- pocket centres: four corners and the middle of the long sides
local POCKETS = {
  {-HW - 0.15, -HH - 0.15}, {0, -HH - 0.35}, {HW + 0.15, -HH - 0.15},
  {-HW - 0.15, HH + 0.15}, {0, HH + 0.35}, {HW + 0.15, HH + 0.15},
}

local function make_ball(s, world, number, x, y)
  local b = world:body{type = "dynamic", x = x, y = y, linear_damping = LINEAR_DRAG,
                       angular_damping = SPIN_DAMPING}
  b:circle{r = BALL_R, density = BALL_DENSITY, friction = BALL_FRICTION, restitution = BALL_RESTITUTION,
           user = {kind = "ball", number = number}}
  s.balls[number] = b
  return b
end

-- the standard triangle, apex towards the cue ball, rows touching
local function rack(s, world)
  local n = 1
  local d = 2 * BALL_R + RACK_GAP
  local dx = d * math.sqrt(3) / 2
  for row = 0, 4 do
    for i = 0, row do
      local y = (i - row / 2) * d
      make_ball(s, world, n, RACK_SPOT[1] + row * dx, RACK_SPOT[2] + y)
      n = n + 1
    end
  end
end

-- a cushion along one side between two pockets: a trapezoid whose nose (the
-- playing edge) is shorter than its back, so the pocket jaws open outward
local function cushion(body, x1, y1, x2, y2, nx, ny)
  local depth, jaw = 0.5, 0.45
  local tx, ty = x2 - x1, y2 - y1
  local len = math.sqrt(tx * tx + ty * ty)
  tx, ty = tx / len, ty / len
  local pts = {
    x1, y1,
    x2, y2,
    x2 + tx * jaw + nx * depth, y2 + ty * jaw + ny * depth,
    x1 - tx * jaw + nx * depth, y1 - ty * jaw + ny * depth,
  }
  pts.restitution = CUSHION_RESTITUTION
  pts.friction = 0.2
  body:polygon(pts)
end

-- generated tones (tumble.beep plays one as it makes it: stopped at once),
-- kept in level.state so a hot reload's new functions find them
local function make_sounds()
  local sounds = {
    strike = tumble.beep{freq = 900, to = 500, length = 0.06, wave = "sine", volume = 0.6},
    drop = tumble.beep{freq = 220, to = 80, length = 0.3, wave = "triangle", volume = 0.7},
  }
  sounds.strike:stop()
  sounds.drop:stop()
  return sounds
end

function level.load(world)
  world.gravity = {0, 0}
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 0, 1.5, 43

  local s = {world = world, balls = {}, pocketed = 0, scratches = 0, shots = 0, time = 0,
             aiming = false, all_at_rest = true, near_pocket = {}, potted = {}, sounds = make_sounds()}
  level.state = s

  local rails = world:body{type = "static"}
  local cm, sm = CORNER_MOUTH, SIDE_MOUTH
  -- long sides: two cushions each, split by the side pocket
  cushion(rails, -HW + cm, HH, -sm, HH, 0, 1)
  cushion(rails, sm, HH, HW - cm, HH, 0, 1)
  cushion(rails, sm, -HH, -HW + cm, -HH, 0, -1)
  cushion(rails, HW - cm, -HH, sm, -HH, 0, -1)
  -- short sides
  cushion(rails, -HW, -HH + cm, -HW, HH - cm, -1, 0)
  cushion(rails, HW, HH - cm, HW, -HH + cm, 1, 0)
  -- the wooden frame behind the pockets keeps a ball on the table
  local fw, gap = FRAME_W, FRAME_GAP
  rails:box{w = TABLE_W + 2 * gap, h = fw, x = 0, y = HH + gap + fw / 2, restitution = 0.5}
  rails:box{w = TABLE_W + 2 * gap, h = fw, x = 0, y = -HH - gap - fw / 2, restitution = 0.5}
  rails:box{w = fw, h = TABLE_H + 2 * (gap + fw), x = -HW - gap - fw / 2, y = 0, restitution = 0.5}
  rails:box{w = fw, h = TABLE_H + 2 * (gap + fw), x = HW + gap + fw / 2, y = 0, restitution = 0.5}

  s.pockets = {}
  for i, p in ipairs(POCKETS) do
    local pb = world:body{type = "static", x = p[1], y = p[2]}
    s.pockets[i] = pb:circle{r = POCKET_R, sensor = true, user = {kind = "pocket", index = i}}
  end

  make_ball(s, world, 0, CUE_SPOT[1], CUE_SPOT[2])
  rack(s, world)

  -- a ball is taken when its centre is well inside the pocket: the sensor
  -- events say which balls to watch
  world:on("sensor_enter", function(sensor, visitor)
    local tag = visitor.user
    if type(tag) == "table" and tag.kind == "ball" then level.state.near_pocket[visitor.body] = sensor end
  end)
  world:on("sensor_exit", function(sensor, visitor)
    if not visitor.valid then return end
    level.state.near_pocket[visitor.body] = nil
  end)
end

function level.reload(world)
  local s = level.state
  if s == nil then return end
  for _, b in pairs(s.balls) do
    if b.valid then
      b.linear_damping, b.angular_damping = LINEAR_DRAG, SPIN_DAMPING
      local shape = b:shapes()[1]
      shape.restitution, shape.friction = BALL_RESTITUTION, BALL_FRICTION
    end
  end
end

local function ball_list(s)
  local list = {}
  for n = 0, 15 do
    local b = s.balls[n]
    if b and b.valid then list[#list + 1] = b end
  end
  return list
end
level.ball_list = function() return ball_list(level.state) end

local function at_rest(s)
  for _, b in ipairs(ball_list(s)) do
    if b.awake and (math.abs(b.vx) > STOP_SPEED or math.abs(b.vy) > STOP_SPEED) then return false end
  end
  return true
end

-- the cloth: a constant deceleration against the motion, so a ball stops in
-- a finite time (linear damping alone would only ever slow it). Slow balls
-- are left alone: touching a body's velocity restarts its sleep timer, and
-- the engine puts a ball under its sleep speed to rest by itself.
local function roll(b, dt)
  if not b.awake then return end
  local vx, vy = b.vx, b.vy
  local speed = math.sqrt(vx * vx + vy * vy)
  if speed < STOP_SPEED then return end
  local dv = math.min(ROLLING_DECEL * dt, speed)
  local f = b.mass * dv / dt / speed
  b:apply_force(-vx * f, -vy * f)
end

local function take(s, b)
  local tag = b:shapes()[1].user
  s.near_pocket[b] = nil
  if tag.number == 0 then
    s.scratches = s.scratches + 1
    s.cue_down = true
  else
    s.pocketed = s.pocketed + 1
    s.potted[#s.potted + 1] = tag.number
  end
  s.balls[tag.number] = nil
  s.sounds.drop:set_position(b.x, b.y)
  s.sounds.drop:play()
  b:destroy()
end

local function spot_free(s, x, y)
  for _, b in ipairs(ball_list(s)) do
    local dx, dy = b.x - x, b.y - y
    if dx * dx + dy * dy < (2 * BALL_R + 0.05) ^ 2 then return false end
  end
  return true
end

function level.update(dt, world)
  local s = level.state
  s.time = s.time + dt
  for _, b in ipairs(ball_list(s)) do roll(b, dt) end
  -- pockets: a watched ball whose centre is inside the pocket's lip drops
  local drop = {}
  for b, pocket in pairs(s.near_pocket) do
    if b.valid then
      local px, py = pocket.body.x, pocket.body.y
      local dx, dy = b.x - px, b.y - py
      if dx * dx + dy * dy < (POCKET_R - 0.1) ^ 2 then drop[#drop + 1] = b end
    end
  end
  -- destroy in a fixed order (pairs over bodies is not)
  table.sort(drop, function(a, c) return a:shapes()[1].user.number < c:shapes()[1].user.number end)
  for _, b in ipairs(drop) do take(s, b) end

  s.all_at_rest = at_rest(s)
  if s.cue_down and s.all_at_rest then
    local x = CUE_SPOT[1]
    while not spot_free(s, x, CUE_SPOT[2]) do x = x - 2 * BALL_R end
    make_ball(s, world, 0, x, CUE_SPOT[2])
    s.cue_down = false
  end
end

-- ---------------------------------------------------------------- the cue

local function cue(s)
  local b = s.balls[0]
  if b and b.valid then return b end
  return nil
end

function level.mousepressed(x, y, button)
  local s = level.state
  local b = cue(s)
  if button ~= "left" or not b or not s.all_at_rest then return end
  s.aiming = true
  s.aim_x, s.aim_y = x, y
end

function level.mousemoved(x, y)
  local s = level.state
  if s.aiming then s.aim_x, s.aim_y = x, y end
end

-- the shot goes from the mouse through the cue ball: pull back to push forward
local function shot(s)
  local b = cue(s)
  local dx, dy = b.x - s.aim_x, b.y - s.aim_y
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-6 then return 0, 0, 0 end
  local speed = math.min(len * POWER, MAX_SHOT)
  return dx / len, dy / len, speed
end

function level.mousereleased(x, y, button)
  local s = level.state
  if button ~= "left" or not s.aiming then return end
  s.aiming = false
  s.aim_x, s.aim_y = x, y
  local b = cue(s)
  if not b then return end
  local ux, uy, speed = shot(s)
  if speed < 0.2 then return end
  b:apply_impulse(ux * speed * b.mass, uy * speed * b.mass)
  s.shots = s.shots + 1
  s.sounds.strike:set_position(b)
  s.sounds.strike:play{volume = math.min(1, 0.3 + speed / MAX_SHOT)}
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  -- wood, cloth
  gfx.color(0.36, 0.22, 0.12, 1)
  gfx.rect("fill", 0, 0, TABLE_W + 2 * (FRAME_GAP + FRAME_W), TABLE_H + 2 * (FRAME_GAP + FRAME_W))
  gfx.color(0.05, 0.38, 0.22, 1)
  gfx.rect("fill", 0, 0, TABLE_W + 0.9, TABLE_H + 0.9)
  gfx.color(1, 1, 1, 0.12)
  gfx.line(CUE_SPOT[1], -HH, CUE_SPOT[1], HH)
  gfx.circle("fill", RACK_SPOT[1], RACK_SPOT[2], 0.08)
  gfx.circle("fill", CUE_SPOT[1], CUE_SPOT[2], 0.08)
  for _, p in ipairs(POCKETS) do
    gfx.color(0.02, 0.02, 0.02, 1)
    gfx.circle("fill", p[1], p[2], POCKET_R)
  end
  -- cushions over the cloth
  gfx.color(0.04, 0.30, 0.17, 1)
  local cm, sm = CORNER_MOUTH, SIDE_MOUTH
  gfx.rect("fill", (-HW + cm - sm) / 2, HH + 0.25, HW - cm - sm, 0.5)
  gfx.rect("fill", (HW - cm + sm) / 2, HH + 0.25, HW - cm - sm, 0.5)
  gfx.rect("fill", (-HW + cm - sm) / 2, -HH - 0.25, HW - cm - sm, 0.5)
  gfx.rect("fill", (HW - cm + sm) / 2, -HH - 0.25, HW - cm - sm, 0.5)
  gfx.rect("fill", -HW - 0.25, 0, 0.5, TABLE_H - 2 * cm)
  gfx.rect("fill", HW + 0.25, 0, 0.5, TABLE_H - 2 * cm)

  for n = 0, 15 do
    local b = s.balls[n]
    if b and b.valid then
      local c = COLORS[n]
      gfx.color(0, 0, 0, 0.3)
      gfx.circle("fill", b.x + 0.06, b.y - 0.08, BALL_R)
      gfx.color(c[1], c[2], c[3], 1)
      gfx.circle("fill", b.x, b.y, BALL_R)
      if n >= 9 then
        gfx.color(0.96, 0.95, 0.90, 1)
        gfx.rect("fill", b.x, b.y, 2 * BALL_R * 0.95, BALL_R * 0.7, b.angle)
        gfx.color(c[1], c[2], c[3], 1)
        gfx.circle("fill", b.x, b.y, BALL_R * 0.45)
      end
      if n > 0 then
        gfx.color(1, 1, 1, 0.9)
        gfx.circle("fill", b.x, b.y, BALL_R * 0.32)
        gfx.color(0.1, 0.1, 0.1, 1)
        gfx.text(b.x, b.y + 0.1, tostring(n), 1, "center")
      end
      gfx.color(1, 1, 1, 0.35)
      gfx.circle("fill", b.x - 0.12, b.y + 0.13, 0.08)
    end
  end

  local b = cue(s)
  if b and s.aiming then
    local ux, uy, speed = shot(s)
    local reach = 1.5 + speed * 0.6
    -- aiming line (dashed) ahead of the ball, the cue stick behind it
    gfx.color(1, 1, 1, 0.7)
    for k = 0, reach - 0.3, 0.6 do
      gfx.line(b.x + ux * (BALL_R + k), b.y + uy * (BALL_R + k), b.x + ux * (BALL_R + k + 0.3),
        b.y + uy * (BALL_R + k + 0.3))
    end
    local back = BALL_R + 0.2 + speed * 0.08
    gfx.color(0.85, 0.70, 0.45, 1)
    gfx.line(b.x - ux * back, b.y - uy * back, b.x - ux * (back + 7), b.y - uy * (back + 7))
    gfx.color(0.2, 0.5, 0.9, 1)
    gfx.line(b.x - ux * back, b.y - uy * back, b.x - ux * (back + 0.2), b.y - uy * (back + 0.2))
    levelkit.bar(gfx, b.x, b.y - 1.0, 2.4, 0.2, speed / MAX_SHOT, speed > 0.8 * MAX_SHOT and C.bad or C.accent)
  elseif b and s.all_at_rest then
    gfx.color(1, 1, 1, 0.25 + 0.15 * math.sin(s.time * 4))
    gfx.circle("line", b.x, b.y, BALL_R + 0.15)
  end

  levelkit.controls(gfx, "BILLIARDS", {
    "drag back from the cue ball and let go to strike",
    "the longer the drag, the harder the shot",
  })
  levelkit.status(gfx, {
    {string.format("potted: %d / 15", s.pocketed), s.pocketed > 0 and C.good or C.text},
    {string.format("shots: %d   fouls: %d", s.shots, s.scratches)},
    {s.all_at_rest and "ready" or "rolling...", s.all_at_rest and C.good or C.dim},
  })
  if s.pocketed == 15 then levelkit.banner(gfx, "TABLE CLEARED", string.format("in %d shots", s.shots), C.good) end
end

return level
