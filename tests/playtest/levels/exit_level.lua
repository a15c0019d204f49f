-- Fixture for host_errors.sh: the level ends the run itself with a status
-- once its body has fallen (a playtest asserting on level state).
local level = {}
local ball
function level.load(world)
  assert(tumble.headless == true, "tumble.headless should be true")
  local ground = world:body{ type = "static" }
  ground:box{ w = 10, h = 1, y = -0.5 }
  ball = world:body{ type = "dynamic", y = 5 }
  ball:circle{ r = 0.5 }
end
function level.update(dt, world)
  if ball.y < 0.6 and ball.vy > -0.01 then
    tumble.exit(7, ("landed at frame %d"):format(tumble.frame))
  end
end
return level
