-- Fixture for host_edit.sh: edit mode drives this level with recorded input.
-- The camera is at (0, 5), 40 px/m, in a 1280x720 view: world (x, y) is
-- pixel (640 + 40 x, 560 - 40 y).
local level = {}
local platform

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40
  local ground = world:body{ type = "static", x = 0, y = -0.5 }
  ground:box{ w = 30, h = 1 }
  platform = world:body{ type = "static", x = 2, y = 3 }
  platform:box{ w = 3, h = 0.5, friction = 0.5 }
  for i = 1, 3 do
    local ball = world:body{ type = "static", x = -8 + i * 1.5, y = 4 }
    ball:circle{ r = 0.4 }
  end
  local crate = world:body{ type = "static", x = -3, y = 1 }
  crate:box{ w = 1, h = 1 }
  local wire = world:body{ type = "static", x = -12, y = 1 }
  wire:segment{ x1 = -1, y1 = 0, x2 = 1, y2 = 0 }
  local bob = world:body{ type = "dynamic", x = 6, y = 1 }
  bob:circle{ r = 0.25 }
  world:joint{ kind = "revolute", a = platform, b = bob, x = 6, y = 1 }
end

function level.update(dt, world)
  if tumble.frame % 20 == 0 and not tumble.replaying then
    local s = platform:shapes()[1]
    print(("frame %d platform %.3f %.3f angle %.3f w %.3f h %.3f"):format(tumble.frame, platform.x, platform.y,
      platform.angle, s.w, s.h))
  end
end

-- "x" stands for a text editor saving the file while the level runs (once:
-- not again when a rebuild replays the key); "y" for one saving a new line
-- at the top of load, which moves every call below it one line down.
function level.keypressed(key)
  if (key ~= "x" and key ~= "y") or tumble.replaying then return end
  local path = debug.getinfo(1, "S").source:sub(2)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  if key == "x" then
    text = text:gsub("x = 2, y = 3", "x = 2.5, y = 3", 1)
  elseif not text:find("\n  local spacer = 0\n", 1, true) then
    text = text:gsub("function level.load%(world%)\n", "%0  local spacer = 0\n", 1)
  end
  f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  print("saved from outside")
end

return level
