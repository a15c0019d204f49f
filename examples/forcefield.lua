-- forcefield: the platformer puzzle from the end of chapter 9 of "Build Your
-- Own 2D Game Engine" (seed 000). A hero jumps between six static platforms
-- and a platform that moves up and down. A force field keeps the hero off the
-- upper platforms; a switch turns it off for a while. Touch the three lock
-- pieces in order (top right, bottom right, top left) before the field comes
-- back, then the barrier opens and the reward can be taken.
--
-- Everything the puzzle knows is in level.state (a driver or playtest reads
-- it): won, lit_count, field_on, field_timer, open, resets.
local levelkit = require "levelkit"

local level = {}

-- Tuning (edit while it runs: the host reloads the file and level.reload
-- applies what the bodies were built with).
local GRAVITY = -20
local RUN_SPEED = 6          -- m/s
local GROUND_ACCEL = 90      -- m/s^2 towards the wanted speed
local AIR_ACCEL = 45
local JUMP_SPEED = 11        -- m/s: about 3 m high, one tier is 3.5 m
local JUMP_BUFFER = 0.12     -- s a jump press is remembered before landing
local COYOTE_TIME = 0.08     -- s a jump is still allowed after running off an edge
local ELEVATOR_LOW, ELEVATOR_HIGH = 2.0, 7.5
local ELEVATOR_W = 6
local ELEVATOR_SPEED = 2.5   -- m/s
local ELEVATOR_PAUSE = 0.5   -- s at each end
local FIELD_FORCE = 150      -- N down on the hero inside the field (hero ~1 kg)
local FIELD_OFF_TIME = 30    -- s the switch keeps the field off
local MESSAGE_TIME = 2.5

local HERO_W, HERO_H = 0.8, 1.2
local SOLID, HERO, SENSOR = 1, 2, 4    -- collision categories

-- Layout, metres, y up. Tiers at 2, 5.5 and 9.5; the elevator runs in between.
local TIERS = {2.0, 5.5, 9.5}
local PLATFORM_W, PLATFORM_X = 7, 10
local FIELD_BOTTOM, FIELD_TOP = 10.2, 13.5
local BARRIER_X = 14.25
local REWARD_X, REWARD_Y = 15.1, 0.7

-- The lock pieces in the order they must be touched.
local PIECES = {
  {name = "top right", x = PLATFORM_X + 1.5, y = TIERS[3] + 0.75, shape = "triangle"},
  {name = "bottom right", x = PLATFORM_X + 1.5, y = TIERS[1] + 0.75, shape = "square"},
  {name = "top left", x = -PLATFORM_X - 1.5, y = TIERS[3] + 0.75, shape = "circle"},
}
local SWITCH_X, SWITCH_Y = -PLATFORM_X - 2.5, TIERS[2] + 0.65

-- The layout, for drivers and tools (read-only).
level.layout = {
  pieces = PIECES, switch_x = SWITCH_X, switch_y = SWITCH_Y, tiers = TIERS,
  platform_x = PLATFORM_X, platform_w = PLATFORM_W, elevator_low = ELEVATOR_LOW,
  elevator_high = ELEVATOR_HIGH, elevator_w = ELEVATOR_W, field_bottom = FIELD_BOTTOM, field_top = FIELD_TOP,
  field_force = FIELD_FORCE, field_off_time = FIELD_OFF_TIME, gravity = GRAVITY,
  reward_x = REWARD_X, reward_y = REWARD_Y, barrier_x = BARRIER_X, hero_h = HERO_H,
}

local function field_def()
  return {kind = "linear", fx = 0, fy = -FIELD_FORCE}
end

local function sensor_box(world, x, y, w, h, user)
  local b = world:body{type = "static", x = x, y = y}
  return b:box{w = w, h = h, sensor = true, category = SENSOR, user = user}
end

function level.load(world)
  world.gravity = {0, GRAVITY}
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 0, 7.9, 36

  local s = {
    world = world, time = 0,
    won = false, lit_count = 0, field_on = true, field_timer = 0, open = false,
    resets = 0, message = nil, message_time = 0, lit = {false, false, false},
    elevator_dir = 1, elevator_wait = 0, jump_buffer = 0, air_time = 0,
    grounded = false,
  }
  level.state = s

  -- the room: floor, walls, ceiling
  local room = world:body{type = "static"}
  room:box{w = 33, h = 1, x = 0, y = -0.5, friction = 0.8}
  room:box{w = 0.5, h = 15, x = -16.25, y = 6.5}
  room:box{w = 0.5, h = 15, x = 16.25, y = 6.5}
  room:box{w = 33, h = 0.5, x = 0, y = FIELD_TOP + 0.25}

  -- six static platforms, three a side
  s.platforms = {}
  for _, side in ipairs({-1, 1}) do
    for _, y in ipairs(TIERS) do
      local p = world:body{type = "static", x = side * PLATFORM_X, y = y}
      p:box{w = PLATFORM_W, h = 0.5, friction = 0.8}
      s.platforms[#s.platforms + 1] = p
    end
  end

  -- the moving platform: kinematic, driven by its velocity so it carries the hero
  s.elevator = world:body{type = "kinematic", x = 0, y = ELEVATOR_LOW}
  s.elevator:box{w = ELEVATOR_W, h = 0.4, friction = 0.8}

  -- the force field over the upper tier: a sensor carrying a linear field
  local field_body = world:body{type = "static", x = 0, y = (FIELD_BOTTOM + FIELD_TOP) / 2}
  s.field_shape = field_body:box{w = 32, h = FIELD_TOP - FIELD_BOTTOM, sensor = true, category = SENSOR,
                                 user = {kind = "field"}, field = field_def()}

  s.switch_shape = sensor_box(world, SWITCH_X, SWITCH_Y, 0.7, 0.8, {kind = "switch"})
  s.piece_shapes = {}
  for i, p in ipairs(PIECES) do
    s.piece_shapes[i] = sensor_box(world, p.x, p.y, 0.8, 0.8, {kind = "piece", index = i})
  end

  s.barrier = world:body{type = "static", x = BARRIER_X, y = FIELD_TOP / 2}
  s.barrier:box{w = 0.5, h = FIELD_TOP, friction = 0}
  s.reward_shape = sensor_box(world, REWARD_X, REWARD_Y, 0.8, 0.9, {kind = "reward"})

  s.hero = world:body{type = "dynamic", x = -4, y = HERO_H / 2 + 0.02, fixed_rotation = true}
  s.hero_shape = s.hero:box{w = HERO_W, h = HERO_H, density = 1, friction = 0, category = HERO,
                            user = {kind = "hero"}}

  world:on("sensor_enter", function(sensor, visitor)
    level.sensor_enter(sensor, visitor)
  end)
end

-- After a hot reload: push the new constants into what load built.
function level.reload(world)
  local s = level.state
  if s == nil then return end
  world.gravity = {0, GRAVITY}
  if s.field_on then s.field_shape.field = field_def() end
end

local function say(s, text)
  s.message, s.message_time = text, MESSAGE_TIME
end

local function reset_pieces(s, why)
  s.lit = {false, false, false}
  s.lit_count = 0
  s.resets = s.resets + 1
  say(s, why)
end

local function set_field(s, on)
  s.field_on = on
  s.field_shape.enabled = on
  if on then
    s.field_timer = 0
    if not s.open and s.lit_count > 0 then reset_pieces(s, "The field is back: the locks reset") end
  else
    s.field_timer = FIELD_OFF_TIME
  end
end

local function touch_piece(s, i)
  if s.open or s.lit[i] then return end
  if s.field_on then
    say(s, "The lock is dead while the field is on")
    return
  end
  if i ~= s.lit_count + 1 then
    reset_pieces(s, "Wrong order: the locks reset")
    return
  end
  s.lit[i] = true
  s.lit_count = i
  if i == #PIECES then
    s.open = true
    s.barrier.enabled = false
    say(s, "The barrier is open!")
  end
end

function level.sensor_enter(sensor, visitor)
  local s = level.state
  if s.won or visitor ~= s.hero_shape then return end
  local tag = sensor.user
  if type(tag) ~= "table" then return end
  if tag.kind == "switch" then
    if s.field_on then set_field(s, false) end
  elseif tag.kind == "piece" then
    touch_piece(s, tag.index)
  elseif tag.kind == "reward" and s.open then
    s.won = true
    say(s, nil)
  end
end

-- Standing on something solid: two short rays down from the hero's feet.
local function ground_below(s, world)
  local hero = s.hero
  local foot = hero.y - HERO_H / 2
  for _, dx in ipairs({-HERO_W / 2 + 0.05, HERO_W / 2 - 0.05}) do
    local shape = world:raycast(hero.x + dx, foot + 0.05, hero.x + dx, foot - 0.12, SOLID)
    if shape then return shape end
  end
  return nil
end

local function move_elevator(s, dt)
  local e = s.elevator
  if s.elevator_wait > 0 then
    s.elevator_wait = s.elevator_wait - dt
    e.vy = 0
    return
  end
  if s.elevator_dir > 0 and e.y >= ELEVATOR_HIGH then
    s.elevator_dir, s.elevator_wait = -1, ELEVATOR_PAUSE
    e.vy = 0
  elseif s.elevator_dir < 0 and e.y <= ELEVATOR_LOW then
    s.elevator_dir, s.elevator_wait = 1, ELEVATOR_PAUSE
    e.vy = 0
  else
    e.vy = s.elevator_dir * ELEVATOR_SPEED
  end
end

function level.update(dt, world)
  local s = level.state
  s.time = s.time + dt
  if s.message_time > 0 then s.message_time = s.message_time - dt end
  move_elevator(s, dt)

  if not s.field_on and not s.won then
    s.field_timer = s.field_timer - dt
    if s.field_timer <= 0 then set_field(s, true) end
  end

  local hero = s.hero
  if s.won then
    hero.vx = 0
    return
  end

  local input = tumble.input
  local ground = ground_below(s, world)
  local carrier_vy = ground and ground.body.vy or 0
  s.grounded = ground ~= nil and hero.vy <= carrier_vy + 0.5
  if s.grounded then s.air_time = 0 else s.air_time = s.air_time + dt end

  local move = levelkit.axis("left", "right", "a", "d")
  local accel = s.grounded and GROUND_ACCEL or AIR_ACCEL
  hero.vx = levelkit.approach(hero.vx, move * RUN_SPEED, accel * dt)

  if input.pressed("up") or input.pressed("w") or input.pressed("space") then
    s.jump_buffer = JUMP_BUFFER
  elseif s.jump_buffer > 0 then
    s.jump_buffer = s.jump_buffer - dt
  end
  if s.jump_buffer > 0 and s.air_time <= COYOTE_TIME then
    hero.vy = JUMP_SPEED
    s.jump_buffer, s.air_time = 0, COYOTE_TIME + dt
  end
  -- a short hop when the jump key is let go early
  if hero.vy > 0 and not (input.down("up") or input.down("w") or input.down("space")) then
    hero.vy = hero.vy * 0.85
  end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

local function draw_piece(gfx, p, lit, t)
  local glow = lit and 1 or 0.35
  if lit then
    gfx.color(1.0, 0.85, 0.35, 0.25 + 0.1 * math.sin(t * 6))
    gfx.circle("fill", p.x, p.y, 0.75)
    gfx.color(1.0, 0.85, 0.35, 1)
  else
    gfx.color(0.55, 0.6, 0.75, glow)
  end
  local mode = lit and "fill" or "line"
  if p.shape == "triangle" then
    gfx.poly(mode, p.x - 0.35, p.y - 0.3, p.x + 0.35, p.y - 0.3, p.x, p.y + 0.35)
  elseif p.shape == "square" then
    gfx.rect(mode, p.x, p.y, 0.6, 0.6)
  else
    gfx.circle(mode, p.x, p.y, 0.33)
  end
end

local function draw_field(gfx, s)
  local t = s.time
  local cx, cy = 0, (FIELD_BOTTOM + FIELD_TOP) / 2
  local w, h = 32, FIELD_TOP - FIELD_BOTTOM
  if s.field_on then
    gfx.color(0.35, 0.75, 1.0, 0.10 + 0.04 * math.sin(t * 3))
    gfx.rect("fill", cx, cy, w, h)
    -- shimmer: bright bands drifting down (the way the field pushes)
    for i = 0, 9 do
      local phase = (i / 10 + t * 0.35) % 1
      local y = FIELD_TOP - phase * h
      local a = 0.10 + 0.18 * math.abs(math.sin(t * 2.3 + i * 1.7))
      gfx.color(0.55, 0.88, 1.0, a)
      local pts = {}
      for k = 0, 32 do
        local x = -16 + k
        pts[#pts + 1] = x
        pts[#pts + 1] = y + 0.12 * math.sin(x * 0.9 + t * 4 + i)
      end
      gfx.line(pts)
    end
    -- arrows showing the push
    gfx.color(0.7, 0.92, 1.0, 0.35)
    for k = -14, 14, 4 do
      local y = cy + 0.8 * math.sin(t * 1.5 + k)
      gfx.line(k, y + 0.6, k, y - 0.6)
      gfx.line(k - 0.3, y - 0.25, k, y - 0.6, k + 0.3, y - 0.25)
    end
    gfx.color(0.55, 0.88, 1.0, 0.8)
    gfx.line(-16, FIELD_BOTTOM, 16, FIELD_BOTTOM)
  else
    gfx.color(0.55, 0.88, 1.0, 0.25)
    for x = -16, 15.5, 1 do gfx.line(x, FIELD_BOTTOM, x + 0.5, FIELD_BOTTOM) end
    if s.won then return end
    local frac = s.field_timer / FIELD_OFF_TIME
    gfx.color(1, 1, 1, 0.9)
    gfx.text(0, FIELD_TOP - 0.6, string.format("field off: %.1f s", math.max(0, s.field_timer)), 3, "center")
    levelkit.bar(gfx, 0, FIELD_TOP - 2.2, 8, 0.35, frac, frac > 0.25 and C.accent or C.bad)
  end
end

local function draw_switch(gfx, s)
  gfx.color(0.3, 0.32, 0.38, 1)
  gfx.rect("fill", SWITCH_X, SWITCH_Y - 0.3, 0.8, 0.2)
  local angle = s.field_on and 0.5 or -0.5
  local tx, ty = SWITCH_X + 0.6 * math.sin(angle), SWITCH_Y - 0.25 + 0.6 * math.cos(angle)
  gfx.color(0.85, 0.85, 0.9, 1)
  gfx.line(SWITCH_X, SWITCH_Y - 0.25, tx, ty)
  if s.field_on then gfx.color(1.0, 0.45, 0.35, 1) else gfx.color(0.45, 1.0, 0.55, 1) end
  gfx.circle("fill", tx, ty, 0.14)
  gfx.color(1, 1, 1, 0.7)
  gfx.text(SWITCH_X, SWITCH_Y + 0.9, "switch", 1, "center")
end

local function draw_barrier(gfx, s)
  local t = s.time
  if s.open then
    gfx.color(1.0, 0.4, 0.35, 0.15)
    gfx.rect("line", BARRIER_X, FIELD_TOP / 2, 0.5, FIELD_TOP)
    return
  end
  gfx.color(1.0, 0.35, 0.3, 0.35 + 0.1 * math.sin(t * 5))
  gfx.rect("fill", BARRIER_X, FIELD_TOP / 2, 0.5, FIELD_TOP)
  gfx.color(1.0, 0.6, 0.5, 0.6)
  for y = 0.5, FIELD_TOP, 1 do
    local yy = y + (t * 1.5) % 1
    if yy < FIELD_TOP then gfx.line(BARRIER_X - 0.25, yy, BARRIER_X + 0.25, yy - 0.3) end
  end
end

local function draw_reward(gfx, s)
  if s.won then return end
  local y = REWARD_Y + 0.1 * math.sin(s.time * 3)
  gfx.color(1.0, 0.82, 0.25, 0.25)
  gfx.circle("fill", REWARD_X, y, 0.6)
  gfx.color(1.0, 0.85, 0.3, 1)
  gfx.poly("fill", REWARD_X, y + 0.42, REWARD_X + 0.3, y, REWARD_X, y - 0.42, REWARD_X - 0.3, y)
  gfx.color(1, 1, 1, 0.8)
  gfx.line(REWARD_X - 0.1, y + 0.15, REWARD_X, y + 0.3)
end

local function draw_hero(gfx, s)
  local h = s.hero
  gfx.color(0.95, 0.55, 0.25, 1)
  gfx.rect("fill", h.x, h.y, HERO_W, HERO_H)
  gfx.color(1, 1, 1, 1)
  local look = h.vx >= 0 and 0.12 or -0.12
  gfx.circle("fill", h.x + look - 0.13, h.y + 0.3, 0.09)
  gfx.circle("fill", h.x + look + 0.13, h.y + 0.3, 0.09)
  gfx.color(0.1, 0.1, 0.15, 1)
  gfx.circle("fill", h.x + look * 1.3 - 0.13, h.y + 0.3, 0.045)
  gfx.circle("fill", h.x + look * 1.3 + 0.13, h.y + 0.3, 0.045)
end

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  draw_field(gfx, s)
  -- platforms with a lit edge
  gfx.color(0.55, 0.62, 0.72, 0.9)
  for _, side in ipairs({-1, 1}) do
    for _, y in ipairs(TIERS) do
      gfx.line(side * PLATFORM_X - PLATFORM_W / 2, y + 0.25, side * PLATFORM_X + PLATFORM_W / 2, y + 0.25)
    end
  end
  local e = s.elevator
  gfx.color(0.45, 0.65, 1.0, 0.9)
  gfx.rect("fill", e.x, e.y, ELEVATOR_W, 0.4)
  gfx.color(0.45, 0.65, 1.0, 0.3)
  gfx.line(0, ELEVATOR_LOW - 0.2, 0, ELEVATOR_HIGH + 0.2)

  draw_switch(gfx, s)
  for i, p in ipairs(PIECES) do
    draw_piece(gfx, p, s.lit[i], s.time)
    gfx.color(1, 1, 1, 0.55)
    gfx.text(p.x, p.y + 0.75, tostring(i), 1, "center")
  end
  draw_barrier(gfx, s)
  draw_reward(gfx, s)
  draw_hero(gfx, s)

  levelkit.controls(gfx, "FORCE FIELD", {
    "arrows / A D: move    up / W / space: jump",
    "switch: turns the field off for a while",
    "locks in order: top right, bottom right, top left",
  })
  local field_line = s.field_on and {"field: ON", C.cool} or
    {string.format("field: off %4.1f s", math.max(0, s.field_timer)), C.accent}
  levelkit.status(gfx, {
    field_line,
    {string.format("locks: %d / 3", s.lit_count), s.lit_count > 0 and C.good or C.text},
    {s.open and "barrier: open" or "barrier: closed", s.open and C.good or C.bad},
  })
  if s.won then
    levelkit.banner(gfx, "REWARD TAKEN!", "Level complete - F5 to play again", C.good)
  elseif s.message and s.message_time > 0 then
    levelkit.color(gfx, C.accent)
    gfx.screen_text(gfx.width() / 2, gfx.height() - 40, s.message, 2, "center")
  end
end

return level
