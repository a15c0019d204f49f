-- Fixture for host_input.sh: the keys a level claims or the host remaps
-- (level.conf), key events with their scancode and auto-repeat, touch, the
-- pointer's wishes and level.frame. Prints what it sees, one line each, and
-- ends itself at frame IN_FRAMES (default 60). IN_CONF picks the conf.
io.stdout:setvbuf("line")
local level = {}
local mode = os.getenv("IN_CONF") or "claim"

level.conf = { title = "input test", width = 1280, height = 720, camera = { x = 0, y = 0, scale = 40 } }
if os.getenv("IN_SMALL") then level.conf.width, level.conf.height = 640, 360 end
if mode == "claim" then
  level.conf.claim_keys = { "escape", "f5", "f2" }
elseif mode == "remap" then
  level.conf.host_keys = { pause = "p", overlay = false }
elseif mode == "nodev" then
  level.conf.dev_keys = false
end

local frames, frame_dt, shown = 0, 0, 0

function level.load(world)
  world:body{ type = "static" }:box{ w = 40, h = 1 }
  local b = world:body{ type = "dynamic", x = 0, y = 3 }
  b:box{ w = 1, h = 1 }
  if os.getenv("IN_REPEAT") then tumble.input.set_key_repeat(true) end
  print("key_repeat " .. tostring(tumble.input.key_repeat()))
end

function level.keypressed(key, scancode, isrepeat)
  print(string.format("keypressed %s %s %s at frame %d", key, scancode, tostring(isrepeat), tumble.frame))
  if key == "x" then tumble.exit(0, "x pressed") end
  if key == "v" then tumble.input.set_mouse_visible(not tumble.input.mouse_visible()) end
  if key == "g" then tumble.input.set_mouse_grabbed(not tumble.input.mouse_grabbed()) end
  if key == "v" or key == "g" then
    print(string.format("mouse visible %s grabbed %s", tostring(tumble.input.mouse_visible()),
      tostring(tumble.input.mouse_grabbed())))
  end
end

function level.keyreleased(key, scancode)
  print(string.format("keyreleased %s %s at frame %d", key, scancode, tumble.frame))
end

local function touch(what)
  return function(id, x, y, dx, dy, sx, sy)
    print(string.format("%s %d %.2f %.2f %.2f %.2f %d %d", what, id, x, y, dx, dy, sx, sy))
  end
end
level.touchpressed = touch("touchpressed")
level.touchmoved = touch("touchmoved")
level.touchreleased = touch("touchreleased")

if os.getenv("IN_FRAME") ~= "off" then
  function level.frame(dt)
    -- what is shown only: nothing of the simulation
    frames = frames + 1
    frame_dt = frame_dt + dt
    shown = (shown + dt * 90) % 360
    if os.getenv("IN_FRAME") == "spin" and frames == 5 then while true do end end
  end
end

function level.update()
  if os.getenv("IN_ERROR") and tumble.frame == 5 then error("the level fails at frame 5") end
  if tumble.frame == (tonumber(os.getenv("IN_FRAMES")) or 60) then
    tumble.exit(0, string.format("done frame() %d times, dt %.4f", frames, frame_dt))
  end
end

return level
