-- Fixture for tests/playtest/host_edit.sh: a triangle made by polygon{} with
-- literal points, for edit mode's vertex handles. World (x, y) is pixel
-- (640 + 40 x, 360 - 40 y).
local level = {}

level.conf = { width = 1280, height = 720, camera = { x = 0, y = 0, scale = 40 } }

function level.load(world)
  local ground = world:body{ type = "static", x = 0, y = 0 }
  ground:polygon{ 0, 0, 4, 0, 0, 2, friction = 0.9 }
end

return level
