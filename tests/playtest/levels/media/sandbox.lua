-- Fixture for kit_media.sh: under --sandbox, images and sounds come only from
-- the level's own folder (its subfolders too); the rest is refused clearly.
local level = {}

local function refused(fn, name, why)
  local ok, err = pcall(fn, name)
  assert(not ok, name .. " was loaded")
  assert(tostring(err):find(why, 1, true), name .. ": " .. tostring(err))
end

function level.load(world)
  tumble.gfx.image("red.png")
  tumble.gfx.image("sub/red.png")
  tumble.sound("tone.wav")
  local gfx = tumble.gfx
  refused(gfx.image, "../outside.png", "outside the level's folder (--sandbox)")
  refused(gfx.image, "link.png", "outside the level's folder (--sandbox)")
  refused(gfx.image, "/etc/passwd", "outside the level's folder (--sandbox)")
  refused(tumble.sound, "../outside.wav", "outside the level's folder (--sandbox)")
  refused(tumble.sound, "sub/../../outside.wav", "outside the level's folder (--sandbox)")
  refused(gfx.image, "fifo.png", "not a regular file")
  refused(tumble.sound, "fifo.png", "not a regular file")
  tumble.exit(0, "sandboxed media ok")
end

return level
