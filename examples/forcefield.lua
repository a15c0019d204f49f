-- forcefield: the platformer puzzle from the end of chapter 9 of "Build Your
-- Own 2D Game Engine" (seed 000). A hero jumps between six static platforms
-- and a platform that moves up and down. A force field keeps the hero off the
-- upper platforms; a switch turns it off for a while. Touch the three lock
-- pieces in order (top right, bottom right, top left) before the field comes
-- back, then the barrier opens and the reward can be taken.
--
-- The way up: the low ledges are one jump above the floor; the middle and top
-- ledges are too high to jump to, so the moving platform carries the hero up.
-- At the top of its travel it is level with the top ledges, a short jump away
-- (with the field on, that jump is pushed back down). The on-screen help names
-- the next step at every stage.
--
-- Sprites and sounds come from examples/assets (made by make_assets.lua);
-- without them the level draws itself with shapes and stays silent.
--
-- Everything the puzzle knows is in level.state (a driver or playtest reads
-- it): won, lit_count, field_on, field_timer, open, resets, help.
local levelkit = require "levelkit"

local level = {}

-- Read by the host before load: the window, and the camera framing the room.
-- The debug draw of shapes starts off (the sprites show the bodies); F6
-- toggles it.
level.conf = {
  title = "tumble - force field",
  width = 1280,
  height = 720,
  camera = { x = 0, y = 8.45, scale = 37 },
  layers = { shapes = false },
}

-- Tuning (edit while it runs: the host reloads the file and level.reload
-- applies what the bodies were built with).
local GRAVITY = -20
local RUN_SPEED = 6          -- m/s
local GROUND_ACCEL = 90      -- m/s^2 towards the wanted speed
local AIR_ACCEL = 45
local JUMP_SPEED = 11        -- m/s: 3 m high; the low ledges are 2.25 m up
local JUMP_BUFFER = 0.12     -- s a jump press is remembered before landing
local COYOTE_TIME = 0.08     -- s a jump is still allowed after running off an edge
local ELEVATOR_W = 6
local ELEVATOR_SPEED = 3     -- m/s
local ELEVATOR_PAUSE = 0.8   -- s at each end
local FIELD_FORCE = 150      -- N down on the hero inside the field (hero ~1 kg)
local FIELD_OFF_TIME = 40    -- s the switch keeps the field off
local MESSAGE_TIME = 3

local HERO_W, HERO_H = 0.8, 1.2
local SOLID, HERO, SENSOR = 1, 2, 4    -- collision categories

-- Layout, metres, y up. Ledges (tops at 2.25, 5.75 and 9.75) on both sides;
-- the moving platform runs between them from just above the hero's head
-- (1.7, one jump from the floor) to level with the top ledges.
local TIERS = { 2.0, 5.5, 9.5 }
local PLATFORM_W, PLATFORM_X = 7, 10
local PLATFORM_H = 0.5
local ELEVATOR_H = 0.4
local ELEVATOR_LOW = 1.5
local ELEVATOR_HIGH = TIERS[3] + PLATFORM_H / 2 - ELEVATOR_H / 2
local FIELD_BOTTOM, FIELD_TOP = 10.2, 13.5
local BARRIER_X = 14.25
local REWARD_X, REWARD_Y = 15.1, 0.7

-- The lock pieces in the order they must be touched.
local PIECES = {
  { name = "top right", x = PLATFORM_X + 1.5, y = TIERS[3] + 0.75, shape = "triangle" },
  { name = "bottom right", x = PLATFORM_X + 1.5, y = TIERS[1] + 0.75, shape = "square" },
  { name = "top left", x = -PLATFORM_X - 1.5, y = TIERS[3] + 0.75, shape = "circle" },
}
local SWITCH_X, SWITCH_Y = -PLATFORM_X - 2.5, TIERS[2] + 0.65

-- The layout, for drivers and tools (read-only).
level.layout = {
  pieces = PIECES, switch_x = SWITCH_X, switch_y = SWITCH_Y, tiers = TIERS,
  platform_x = PLATFORM_X, platform_w = PLATFORM_W, platform_h = PLATFORM_H, elevator_low = ELEVATOR_LOW,
  elevator_high = ELEVATOR_HIGH, elevator_w = ELEVATOR_W, elevator_h = ELEVATOR_H,
  field_bottom = FIELD_BOTTOM, field_top = FIELD_TOP,
  field_force = FIELD_FORCE, field_off_time = FIELD_OFF_TIME, gravity = GRAVITY, jump_speed = JUMP_SPEED,
  reward_x = REWARD_X, reward_y = REWARD_Y, barrier_x = BARRIER_X, hero_w = HERO_W, hero_h = HERO_H,
}

-- ---------------------------------------------------------------- media

-- The assets sit next to this file; under --sandbox (no debug library) a
-- name relative to the level's folder finds them as well.
local ASSETS = "assets/"
if debug and debug.getinfo then
  local dir = debug.getinfo(1, "S").source:match("^@(.*/)")
  if dir then ASSETS = dir .. "assets/" end
end

local function load_media()
  local gfx = tumble.gfx
  local ok, media = pcall(function()
    return {
      hero = gfx.image(ASSETS .. "hero.png", { frame_w = 32, frame_h = 48 }),
      platform = gfx.image(ASSETS .. "platform.png"),
      elevator = gfx.image(ASSETS .. "elevator.png"),
      pieces = gfx.image(ASSETS .. "pieces.png", { frame_w = 32, frame_h = 32 }),
      switch = gfx.image(ASSETS .. "switch.png", { frame_w = 32, frame_h = 32 }),
      reward = gfx.image(ASSETS .. "reward.png", { frame_w = 32, frame_h = 32 }),
      bricks = gfx.image(ASSETS .. "bricks.png", { filter = "nearest" }),
      jump = tumble.sound(ASSETS .. "jump.wav"),
      switch_on = tumble.sound(ASSETS .. "switch.wav"),
      lock = tumble.sound(ASSETS .. "lock.wav"),
      wrong = tumble.sound(ASSETS .. "wrong.wav"),
      reset = tumble.sound(ASSETS .. "reset.wav"),
      open = tumble.sound(ASSETS .. "open.wav"),
      win = tumble.sound(ASSETS .. "win.ogg"),
    }
  end)
  if ok then return media end
  print("forcefield: drawing without sprites and sounds (" .. tostring(media) .. ")")
  return nil
end

local function play(name, opts)
  local m = level.media
  if m and m[name] then m[name]:play(opts) end
end

-- ---------------------------------------------------------------- building

local function sensor_box(world, x, y, w, h, user)
  local b = world:body{ type = "static", x = x, y = y }
  return b:box{ w = w, h = h, sensor = true, category = SENSOR, user = user }
end

local function attach_sprites(s)
  local m = level.media
  if not m then return end
  local gfx = tumble.gfx
  for _, p in ipairs(s.platforms) do
    local box = p:shapes()[1]
    gfx.sprite(p, { image = m.platform, w = box.w, h = box.h })
  end
  gfx.sprite(s.elevator, { image = m.elevator, w = ELEVATOR_W, h = ELEVATOR_H })
  s.sprites = {
    hero = gfx.sprite(s.hero, { image = m.hero, w = HERO_W, h = HERO_H, frame = 1 }),
    switch = gfx.sprite(s.switch_shape.body, { image = m.switch, w = 0.9, y = -0.1, frame = 1 }),
    reward = gfx.sprite(s.reward_shape.body, { image = m.reward, w = 0.9, frame = 1 }),
    pieces = {},
  }
  for i, shape in ipairs(s.piece_shapes) do
    s.sprites.pieces[i] = gfx.sprite(shape.body, { image = m.pieces, w = 0.9, frame = i })
  end
end

function level.load(world)
  world.gravity = { 0, GRAVITY }
  level.media = load_media()

  local s = {
    world = world, time = 0,
    won = false, lit_count = 0, field_on = true, field_timer = 0, open = false,
    resets = 0, message = nil, message_time = 0, lit = { false, false, false },
    elevator_dir = 1, elevator_wait = ELEVATOR_PAUSE, jump_buffer = 0, air_time = 0,
    grounded = false, facing = 1, help = "", tick = 0,
  }
  level.state = s

  -- the room: floor, walls, ceiling
  local room = world:body{ type = "static" }
  room:box{ w = 33, h = 1, x = 0, y = -0.5, friction = 0.8 }
  room:box{ w = 0.5, h = 15, x = -16.25, y = 6.5 }
  room:box{ w = 0.5, h = 15, x = 16.25, y = 6.5 }
  room:box{ w = 33, h = 0.5, x = 0, y = FIELD_TOP + 0.25 }

  -- six static platforms, three a side (low, middle, top), one statement
  -- each so that edit mode (F12) can move and resize each one in this file;
  -- level.layout describes the layout they were drawn from
  local left_low = world:body{ type = "static", x = -10, y = 2 }
  left_low:box{ w = 7, h = 0.5, friction = 0.8 }
  local left_middle = world:body{ type = "static", x = -10, y = 5.5 }
  left_middle:box{ w = 7, h = 0.5, friction = 0.8 }
  local left_top = world:body{ type = "static", x = -10, y = 9.5 }
  left_top:box{ w = 7, h = 0.5, friction = 0.8 }
  local right_low = world:body{ type = "static", x = 10, y = 2 }
  right_low:box{ w = 7, h = 0.5, friction = 0.8 }
  local right_middle = world:body{ type = "static", x = 10, y = 5.5 }
  right_middle:box{ w = 7, h = 0.5, friction = 0.8 }
  local right_top = world:body{ type = "static", x = 10, y = 9.5 }
  right_top:box{ w = 7, h = 0.5, friction = 0.8 }
  s.platforms = { left_low, left_middle, left_top, right_low, right_middle, right_top }

  -- the moving platform: kinematic, driven by its velocity so it carries the hero
  s.elevator = world:body{ type = "kinematic", x = 0, y = ELEVATOR_LOW }
  s.elevator:box{ w = ELEVATOR_W, h = ELEVATOR_H, friction = 0.8 }

  -- the force field over the upper tier: a sensor carrying a linear field
  local field_body = world:body{ type = "static", x = 0, y = (FIELD_BOTTOM + FIELD_TOP) / 2 }
  -- (fy: the push down on the hero, N; FIELD_FORCE says the same for drivers)
  s.field_shape = field_body:box{ w = 32, h = FIELD_TOP - FIELD_BOTTOM, sensor = true, category = SENSOR,
                                  user = { kind = "field" }, field = { kind = "linear", fx = 0, fy = -150 } }

  s.switch_shape = sensor_box(world, SWITCH_X, SWITCH_Y, 0.7, 0.8, { kind = "switch" })
  s.piece_shapes = {}
  for i, p in ipairs(PIECES) do
    s.piece_shapes[i] = sensor_box(world, p.x, p.y, 0.8, 0.8, { kind = "piece", index = i })
  end

  s.barrier = world:body{ type = "static", x = BARRIER_X, y = FIELD_TOP / 2 }
  s.barrier:box{ w = 0.5, h = FIELD_TOP, friction = 0 }
  s.reward_shape = sensor_box(world, REWARD_X, REWARD_Y, 0.8, 0.9, { kind = "reward" })

  s.hero = world:body{ type = "dynamic", x = -4, y = HERO_H / 2 + 0.02, fixed_rotation = true }
  s.hero_shape = s.hero:box{ w = HERO_W, h = HERO_H, density = 1, friction = 0, category = HERO,
                             user = { kind = "hero" } }

  attach_sprites(s)

  world:on("sensor_enter", function(sensor, visitor)
    level.sensor_enter(sensor, visitor)
  end)
end

-- After a hot reload: push the new constants into what load built.
function level.reload(world)
  local s = level.state
  if s == nil then return end
  world.gravity = { 0, GRAVITY }
end

-- ---------------------------------------------------------------- the puzzle

local function say(s, text)
  s.message, s.message_time = text, MESSAGE_TIME
end

local function reset_pieces(s, why)
  s.lit = { false, false, false }
  s.lit_count = 0
  s.resets = s.resets + 1
  say(s, why)
end

local function set_field(s, on)
  s.field_on = on
  s.field_shape.enabled = on
  if on then
    s.field_timer = 0
    if not s.open and s.lit_count > 0 then
      reset_pieces(s, "The field came back and the locks reset: pull the switch again")
      play("reset")
    else
      play("reset", { volume = 0.5 })
    end
  else
    s.field_timer = FIELD_OFF_TIME
    play("switch_on")
  end
end

local function touch_piece(s, i)
  if s.open or s.lit[i] then return end
  if s.field_on then
    say(s, "The locks are dead while the field is on: pull the switch first")
    play("wrong")
    return
  end
  if i ~= s.lit_count + 1 then
    reset_pieces(s, "Wrong order: the locks reset. Start again at lock 1, top right")
    play("wrong")
    return
  end
  s.lit[i] = true
  s.lit_count = i
  play("lock", { pitch = 1 + 0.25 * (i - 1) })
  if i == #PIECES then
    s.open = true
    s.barrier.enabled = false
    say(s, "The barrier is open!")
    play("open")
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
    play("win")
  end
end

-- Standing on something solid: two short rays down from the hero's feet.
local function ground_below(s, world)
  local hero = s.hero
  local foot = hero.y - HERO_H / 2
  for _, dx in ipairs({ -HERO_W / 2 + 0.05, HERO_W / 2 - 0.05 }) do
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
    e.y = ELEVATOR_HIGH -- exactly level with the top ledges
  elseif s.elevator_dir < 0 and e.y <= ELEVATOR_LOW then
    s.elevator_dir, s.elevator_wait = 1, ELEVATOR_PAUSE
    e.vy = 0
    e.y = ELEVATOR_LOW
  else
    -- slow down for the last step so it stops at the end instead of past it
    local target = s.elevator_dir > 0 and ELEVATOR_HIGH or ELEVATOR_LOW
    local speed = math.min(ELEVATOR_SPEED, math.abs(target - e.y) / dt)
    e.vy = s.elevator_dir * math.max(speed, 0.05)
  end
end

-- Where the hero is, for the help: "floor", "low", "middle", "top" with a
-- side (-1 left, 1 right), or "platform" on the moving platform.
local function whereabouts(s, ground)
  local h = s.hero
  if ground and ground.body == s.elevator then return "platform", 0 end
  local feet = h.y - HERO_H / 2
  local side = h.x < 0 and -1 or 1
  if math.abs(h.x) < PLATFORM_X - PLATFORM_W / 2 - 0.3 or feet < TIERS[1] then return "floor", side end
  if feet < TIERS[2] then return "low", side end
  if feet < TIERS[3] then return "middle", side end
  return "top", side
end

-- The next step, in words, from where the puzzle and the hero are.
local function next_step(s, where, side)
  if s.won then return "Level complete! F5 plays it again" end
  if s.open then return "The barrier is open: take the gem in the bottom right corner" end
  if s.field_on then
    if where == "middle" and side < 0 then return "Walk left to the switch and touch it: the field goes off for " .. FIELD_OFF_TIME .. " s" end
    if where == "platform" then return "Jump off to the LEFT when the platform is level with the middle ledge" end
    if where == "middle" then return "The switch is on the middle ledge on the LEFT: ride the platform across" end
    return "The ledges are too high to jump to: ride the blue moving platform up (jump on at the bottom)"
  end
  local piece = PIECES[s.lit_count + 1]
  local n = s.lit_count + 1
  if n == 2 then
    if where == "low" and side > 0 then return "Touch lock 2, the square on the low ledge" end
    if where == "top" or where == "middle" then return "Lock 2 is bottom right: walk off the inner edge, then jump onto the low right ledge" end
    return "Lock 2 is bottom right: jump onto the low right ledge"
  end
  local dir = piece.x > 0 and "RIGHT" or "LEFT"
  if where == "top" and (side > 0) == (piece.x > 0) then
    return string.format("Touch lock %d, the %s", n, piece.shape)
  end
  if where == "platform" then
    return string.format("Lock %d is %s: at the top, jump %s onto the top ledge", n, piece.name, dir)
  end
  return string.format("Lock %d is %s: ride the moving platform to the top, then jump %s", n, piece.name, dir)
end

function level.update(dt, world)
  local s = level.state
  s.time = s.time + dt
  if s.message_time > 0 then s.message_time = s.message_time - dt end
  move_elevator(s, dt)

  if not s.field_on and not s.won then
    local before = s.field_timer
    s.field_timer = s.field_timer - dt
    -- a tick for each of the last five seconds
    if before > 0 and before <= 5 and math.ceil(s.field_timer) < math.ceil(before) then
      tumble.beep{ freq = 1320, length = 0.04, wave = "sine", volume = 0.35 }
    end
    if s.field_timer <= 0 then set_field(s, true) end
  end

  local hero = s.hero
  local ground = ground_below(s, world)
  s.help = next_step(s, whereabouts(s, ground))
  if s.won then
    hero.vx = 0
    return
  end

  local input = tumble.input
  local carrier_vy = ground and ground.body.vy or 0
  s.grounded = ground ~= nil and hero.vy <= carrier_vy + 0.5
  if s.grounded then s.air_time = 0 else s.air_time = s.air_time + dt end

  local move = levelkit.axis("left", "right", "a", "d")
  if move ~= 0 then s.facing = move end
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
    play("jump", { volume = 0.6 })
  end
  -- a short hop when the jump key is let go early
  if hero.vy > 0 and not (input.down("up") or input.down("w") or input.down("space")) then
    hero.vy = hero.vy * 0.85
  end
end

-- ---------------------------------------------------------------- drawing

local C = levelkit.colors

-- The sprites follow their bodies by themselves; what changes is their frame.
local function animate(s)
  local sp = s.sprites
  if not sp then return end
  local h = s.hero
  local frame = 1
  if not s.grounded then
    frame = 6
  elseif math.abs(h.vx) > 0.5 then
    frame = 3 + math.floor(s.time * 10) % 3
  elseif s.time % 3 < 0.12 then
    frame = 2
  end
  sp.hero.frame, sp.hero.sx = frame, s.facing
  sp.switch.frame = s.field_on and 1 or 2
  sp.reward.frame = math.floor(s.time * 6) % 4 + 1
  sp.reward.visible = not s.won
  sp.reward.y = 0.08 * math.sin(s.time * 3)
  for i, p in ipairs(sp.pieces) do p.frame = s.lit[i] and i + 3 or i end
end

-- the room's walls and floor, tiled with bricks
local function draw_room(gfx)
  local bricks = level.media and level.media.bricks
  if not bricks then
    gfx.color(0.3, 0.36, 0.36, 1)
    gfx.rect("fill", 0, -0.5, 33, 1)
    gfx.rect("fill", -16.25, 6.5, 0.5, 15)
    gfx.rect("fill", 16.25, 6.5, 0.5, 15)
    gfx.rect("fill", 0, FIELD_TOP + 0.25, 33, 0.5)
    return
  end
  for x = -16, 16 do
    gfx.draw(bricks, x, -0.5, { w = 1, h = 1 })
    gfx.draw(bricks, x, FIELD_TOP + 0.25, { w = 1, h = 0.5 })
  end
  for y = 0.25, FIELD_TOP, 0.5 do
    gfx.draw(bricks, -16.25, y, { w = 0.5, h = 0.5 })
    gfx.draw(bricks, 16.25, y, { w = 0.5, h = 0.5 })
  end
end

-- the shapes the sprites stand for, when there are no sprites
local function draw_plain(gfx, s)
  levelkit.color(gfx, { 0.55, 0.62, 0.72, 0.9 })
  for _, p in ipairs(s.platforms) do
    local box = p:shapes()[1]
    gfx.rect("fill", p.x, p.y, box.w, box.h)
  end
  local e = s.elevator
  gfx.color(0.45, 0.65, 1.0, 0.9)
  gfx.rect("fill", e.x, e.y, ELEVATOR_W, ELEVATOR_H)
  for i, p in ipairs(PIECES) do
    if s.lit[i] then gfx.color(1.0, 0.85, 0.35, 1) else gfx.color(0.55, 0.6, 0.75, 0.5) end
    local mode = s.lit[i] and "fill" or "line"
    if p.shape == "triangle" then
      gfx.poly(mode, p.x - 0.35, p.y - 0.3, p.x + 0.35, p.y - 0.3, p.x, p.y + 0.35)
    elseif p.shape == "square" then
      gfx.rect(mode, p.x, p.y, 0.6, 0.6)
    else
      gfx.circle(mode, p.x, p.y, 0.33)
    end
  end
  if s.field_on then gfx.color(1.0, 0.45, 0.35, 1) else gfx.color(0.45, 1.0, 0.55, 1) end
  gfx.circle("fill", SWITCH_X, SWITCH_Y, 0.25)
  if not s.won then
    gfx.color(1.0, 0.85, 0.3, 1)
    gfx.poly("fill", REWARD_X, REWARD_Y + 0.42, REWARD_X + 0.3, REWARD_Y, REWARD_X, REWARD_Y - 0.42,
      REWARD_X - 0.3, REWARD_Y)
  end
  local h = s.hero
  gfx.color(0.95, 0.55, 0.25, 1)
  gfx.rect("fill", h.x, h.y, HERO_W, HERO_H)
end

local function draw_field(gfx, s)
  local t = s.time
  local cx, cy = 0, (FIELD_BOTTOM + FIELD_TOP) / 2
  local w, h = 32, FIELD_TOP - FIELD_BOTTOM
  if s.field_on then
    gfx.color(0.35, 0.75, 1.0, 0.13 + 0.04 * math.sin(t * 3))
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
    gfx.color(0.75, 0.93, 1.0, 0.85)
    gfx.text(0, FIELD_TOP - 0.35, "FORCE FIELD: pushes you down while it is on", 2, "center")
  else
    gfx.color(0.55, 0.88, 1.0, 0.25)
    for x = -16, 15.5, 1 do gfx.line(x, FIELD_BOTTOM, x + 0.5, FIELD_BOTTOM) end
    if s.won then return end
    local frac = s.field_timer / FIELD_OFF_TIME
    gfx.color(1, 1, 1, 0.9)
    gfx.text(0, FIELD_TOP - 0.35, string.format("field off: %.1f s", math.max(0, s.field_timer)), 3, "center")
    levelkit.bar(gfx, 0, FIELD_TOP - 1.9, 8, 0.3, frac, frac > 0.25 and C.accent or C.bad)
  end
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

local function draw_labels(gfx, s)
  gfx.color(1, 1, 1, 0.75)
  gfx.text(SWITCH_X, SWITCH_Y + 1.15, "switch", 2, "center")
  for i, p in ipairs(PIECES) do
    if s.lit[i] then gfx.color(1.0, 0.85, 0.35, 1) else gfx.color(1, 1, 1, 0.6) end
    gfx.text(p.x, p.y + 1.0, "lock " .. i, 2, "center")
  end
  -- where the moving platform goes
  gfx.color(0.45, 0.65, 1.0, 0.25)
  gfx.line(0, ELEVATOR_LOW - 0.2, 0, ELEVATOR_HIGH + 0.2)
end

function level.draw(gfx)
  local s = level.state
  if s == nil then return end
  animate(s)
  draw_room(gfx)
  if not s.sprites then draw_plain(gfx, s) end
  draw_field(gfx, s)
  draw_barrier(gfx, s)
  draw_labels(gfx, s)

  levelkit.controls(gfx, "FORCE FIELD", {
    "arrows / A D: move    up / W / space: jump",
    "switch: turns the field off for " .. FIELD_OFF_TIME .. " s",
    "locks in order: top right, bottom right, top left",
  }, { y = 8 })
  local field_line = s.field_on and { "field: ON", C.cool } or
    { string.format("field: off %4.1f s", math.max(0, s.field_timer)), C.accent }
  levelkit.status(gfx, {
    field_line,
    { string.format("locks: %d / 3", s.lit_count), s.lit_count > 0 and C.good or C.text },
    { s.open and "barrier: open" or "barrier: closed", s.open and C.good or C.bad },
  }, { y = 8 })
  -- the next step, under the panels, above the room
  levelkit.color(gfx, C.accent)
  gfx.screen_text(gfx.width() / 2, 132, "NEXT: " .. s.help, 2, "center")
  if s.won then
    levelkit.banner(gfx, "REWARD TAKEN!", "Level complete - F5 to play again", C.good)
  elseif s.message and s.message_time > 0 then
    local _, y = tumble.camera.to_screen(0, 7.6)
    levelkit.screen_panel(gfx, gfx.width() / 2 - 6 * #s.message - 14, y - 10, 12 * #s.message + 28, 40,
      { 0.03, 0.04, 0.06, 0.8 })
    levelkit.color(gfx, C.accent)
    gfx.screen_text(gfx.width() / 2, y, s.message, 2, "center")
  end
end

return level
