-- Fixture for kit_sound.sh: what a level reads of its sounds is the same when
-- the host replays its frames with sound held back. A looping sound starts,
-- pauses, resumes and seeks; every step adds what the level reads (playing,
-- paused, tell) to a running hash. At frame 100 the level edits what its
-- load() builds (SOUND_FILE names the copy to edit), so the host rebuilds and
-- replays frames 0 to 100 without telling the mixer; at frame 150 it prints
-- the hash, which must be the same as a run that was never rebuilt, and what
-- the mixer plays once the replay is over.
local level = {}
local WIDTH = 6
local file = os.getenv("SOUND_FILE")
local s
local hash = 0
local seen_held = false

function level.load(world)
  local ground = world:body{ type = "static" }
  ground:box{ w = WIDTH, h = 0.5 }
  s = tumble.beep{ freq = 440, length = 1, wave = "sine" }
  s:stop()
end

local function mix(v)
  hash = (hash * 31 + math.floor(v * 1e6)) % 2147483647
end

function level.update(dt, world)
  local f = tumble.frame
  if f == 10 then s:play{ loop = true } end
  if f == 40 then s:pause() end
  if f == 50 then s:resume() end
  if f == 70 then s:seek(0.25) end
  if f == 80 then s:set_looping(false) end
  mix(s:playing() and 1 or 0)
  mix(s:paused() and 1 or 0)
  mix(s:tell())
  if tumble.replaying and s:playing() and s:_mixer() == nil then seen_held = true end
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
  if f == 90 then s:play{ loop = true } end
  if f == 150 then
    print(("trace %d"):format(hash))
    print(("held while replaying: %s"):format(seen_held))
    print(("on the mixer after: %s"):format(s:_mixer() ~= nil))
    tumble.exit(0, "sound replay done")
  end
end

return level
