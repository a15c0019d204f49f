-- drive: what the playtest drivers share. A driver is itself a level: it
-- loads an example with dofile, forwards the host's callbacks to it, scripts
-- input through tumble.input (the examples look the functions up at each
-- call), checks conditions every step and ends the run with tumble.exit.
local drive = {}

local source = debug.getinfo(1, "S").source
drive.root = os.getenv("TUMBLE_ROOT") or source:match("^@(.*)/tests/playtest/drivers/[^/]*$") or "."

function drive.example(name)
  return dofile(drive.root .. "/examples/" .. name .. ".lua")
end

function drive.fail(fmt, ...)
  local msg = string.format(fmt, ...)
  tumble.exit(1, "FAIL: " .. msg)
  error(msg, 2) -- stop this callback now; the exit request is already recorded
end

function drive.pass(fmt, ...)
  tumble.exit(0, "PASS: " .. string.format(fmt, ...))
end

function drive.log(fmt, ...)
  io.stderr:write(string.format(fmt, ...), "\n")
end

-- Scripted keys layered over the real ones. press/release also call the
-- level's keypressed/keyreleased, as the host does for a real key.
function drive.keys(level)
  local input = tumble.input
  local real_down, real_pressed, real_released = input.down, input.pressed, input.released
  local k = {down = {}, pressed = {}, released = {}}
  input.down = function(name) return k.down[name] or real_down(name) end
  input.pressed = function(name) return k.pressed[name] or real_pressed(name) end
  input.released = function(name) return k.released[name] or real_released(name) end
  function k.press(name)
    if k.down[name] then return end
    k.down[name], k.pressed[name] = true, true
    if level.keypressed then level.keypressed(name) end
  end
  function k.release(name)
    if not k.down[name] then return end
    k.down[name], k.released[name] = nil, true
    if level.keyreleased then level.keyreleased(name) end
  end
  function k.hold(name, on)
    if on then k.press(name) else k.release(name) end
  end
  -- after each step, as the host clears its edges
  function k.end_step()
    k.pressed, k.released = {}, {}
  end
  return k
end

-- A driver level around an example: callbacks forwarded, then the driver's
-- own per-step hook (after the example's update).
function drive.wrap(example, hooks)
  -- the example's conf (camera, layers) is the driver's: the same picture
  local d = { conf = example.conf }
  function d.load(world)
    if example.load then example.load(world) end
    if hooks.load then hooks.load(world) end
  end
  function d.update(dt, world)
    if hooks.before then hooks.before(dt, world) end
    if example.update then example.update(dt, world) end
    if hooks.after then hooks.after(dt, world) end
  end
  function d.draw(gfx)
    if example.draw then example.draw(gfx) end
  end
  for _, name in ipairs({"keypressed", "keyreleased", "mousepressed", "mousereleased", "mousemoved",
                         "wheelmoved"}) do
    d[name] = function(...)
      if example[name] then return example[name](...) end
    end
  end
  return d
end

function drive.speed(b)
  return math.sqrt(b.vx * b.vx + b.vy * b.vy)
end

return drive
