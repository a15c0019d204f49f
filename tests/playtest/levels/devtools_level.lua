-- Fixture for host_devtools.sh: a box the dev overlay can drag, and a log of
-- what the level sees (box position, gravity, mouse presses that reach it).
local level = {}
local box

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40
  local ground = world:body{ type = "static" }
  ground:box{ w = 40, h = 1, y = -0.5 }
  box = world:body{ type = "dynamic", x = 0, y = 0.5 }
  box:box{ w = 1, h = 1 }
end

function level.update(dt, world)
  if tumble.frame % 10 == 0 then
    print(("frame %d box %.2f %.2f gravity %g"):format(tumble.frame, box.x, box.y, world.gravity.y))
  end
end

function level.mousepressed(x, y, button)
  print(("level mousepressed %s %.2f %.2f at frame %d"):format(button, x, y, tumble.frame))
end

return level
