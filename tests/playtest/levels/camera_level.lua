-- Fixture for host_gfx.sh: the camera follows a falling ball with an offset;
-- at frame 60 the level reports the camera, the ball and the conversions.
local level = {}
local ball

function level.load(world)
  ball = world:body{ type = "dynamic", x = 3, y = 20 }
  ball:circle{ r = 0.5 }
  tumble.camera.scale = 20
  tumble.camera.follow(ball, 0, 1)
end

function level.update(dt, world)
  if tumble.frame == 60 then
    local c = tumble.camera
    local sx, sy = c.to_screen(ball.x, ball.y + 1)
    local wx, wy = c.to_world(640, 360)
    print(("camera %.4f %.4f target %.4f %.4f"):format(c.x, c.y, ball.x, ball.y + 1))
    print(("to_screen %.2f %.2f to_world %.4f %.4f"):format(sx, sy, wx, wy))
    print(("fell %.2f"):format(20 - ball.y))
    tumble.exit(0)
  end
end

return level
