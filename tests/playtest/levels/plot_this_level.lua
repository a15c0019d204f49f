-- Fixture for host_plot.sh's "plot this" (the inspector's right-click): a
-- falling ball that prints its y at each update, and a platform destroyed at
-- frame 60. The camera is at (0, 5), 40 px/m, in a 1280x720 view: world
-- (x, y) is pixel (640 + 40 x, 560 - 40 y).
local level = {}
local ball, doomed

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40
  world:body{ type = "static", x = 0, y = -0.5 }:box{ w = 30, h = 1 }
  ball = world:body{ type = "dynamic", x = 0, y = 8 }
  ball:circle{ r = 0.5 }
  doomed = world:body{ type = "static", x = 5, y = 2 }
  doomed:box{ w = 2, h = 0.5 }
end

function level.update(dt, world)
  print(("y %d %.17g"):format(tumble.frame, ball.y))
  if tumble.frame == 60 then doomed:destroy() end
end

return level
