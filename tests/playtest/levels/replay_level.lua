-- Fixture for host_replay.sh: recorded input drives a box and spawns a ball;
-- every callback and every polled edge is logged with the frame it saw.
local level = {}
local world, box

function level.load(w)
  world = w
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40
  local ground = world:body{ type = "static" }
  ground:box{ w = 40, h = 1, y = -0.5 }
  box = world:body{ type = "dynamic", x = 0, y = 0.5 }
  box:box{ w = 1, h = 1 }
end

function level.update(dt, w)
  local input = tumble.input
  if input.down("right") then box:apply_force(40, 0) end
  if input.pressed("space") then
    box:apply_impulse(0, 6)
    print(("pressed space %d"):format(tumble.frame))
  end
  if input.released("space") then print(("released space %d"):format(tumble.frame)) end
  if input.mouse_pressed("left") then
    local x, y = input.mouse()
    print(("mouse_pressed %d %.3f %.3f"):format(tumble.frame, x, y))
  end
end

function level.keypressed(key) print(("keypressed %s %d"):format(key, tumble.frame)) end
function level.keyreleased(key) print(("keyreleased %s %d"):format(key, tumble.frame)) end

function level.mousepressed(x, y, button)
  print(("mousepressed %s %.3f %.3f %d"):format(button, x, y, tumble.frame))
  local ball = world:body{ type = "dynamic", x = x, y = y }
  ball:circle{ r = 0.3 }
end

return level
