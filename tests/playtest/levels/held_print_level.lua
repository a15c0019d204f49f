-- Fixture for host_held_print.sh: a ball drops on the ground and a begin
-- handler prints and plays a sound when it lands, with no tumble.replaying guard. At
-- frame 100 the level edits what its load() builds (HELD_FILE names the copy
-- to edit), so the host rebuilds and replays the frames before the edit,
-- the landing among them.
local level = {}
local GROUND_W = 6
local file = os.getenv("HELD_FILE")

function level.load(world)
  world.gravity = {0, -10}
  local ground = world:body{ type = "static" }
  ground:box{ w = GROUND_W, h = 0.5, y = -0.25 }
  local ball = world:body{ type = "dynamic", x = 0, y = 2 }
  ball:circle{ r = 0.25 }
  world:on("begin", function()
    print(("landed at frame %d"):format(tumble.frame))
    tumble.beep{ freq = 220, length = 0.05 } -- a beep plays as it is made
  end)
end

function level.update(dt, world)
  if tumble.frame == 100 and not tumble.replaying and file ~= nil then
    local f = assert(io.open(file, "r"))
    local text = f:read("a")
    f:close()
    if text:find("local GROUND_W = 6", 1, true) then
      text = text:gsub("local GROUND_W = 6", "local GROUND_W = 8")
      f = assert(io.open(file, "w"))
      f:write(text)
      f:close()
    end
  end
end

return level
