-- Fixture for kit_save.sh: a save is held back while the host replays
-- frames. The level saves at frame 50 what it knows (tumble.replaying); at
-- frame 100 it edits what its load() builds (SAVE_FILE names the copy), so the
-- host rebuilds and replays frames 0 to 100; at frame 150 it prints the save.
local level = {}
local WIDTH = 6
local file = os.getenv("SAVE_FILE")

function level.load(world)
  local ground = world:body{ type = "static" }
  ground:box{ w = WIDTH, h = 0.5 }
end

function level.update(dt, world)
  local f = tumble.frame
  if f == 50 then tumble.save("replayed", { frame = f, replaying = tumble.replaying }) end
  if f == 100 and not tumble.replaying and file ~= nil then
    local h = assert(io.open(file, "r"))
    local text = h:read("a")
    h:close()
    if text:find("local WIDTH = 6", 1, true) then
      h = assert(io.open(file, "w"))
      h:write((text:gsub("local WIDTH = 6", "local WIDTH = 8")))
      h:close()
    end
  end
  if f == 150 then
    local s = tumble.load_save("replayed")
    print(("saved at frame %d, replaying %s"):format(s.frame, s.replaying))
    tumble.exit(0, "save replay done")
  end
end

return level
