-- Fixture for kit_media.sh: an image reloads when its file changes. swap.png
-- starts as a copy of red.png; at frame 5 the level writes garbage over it
-- (kept: the old picture stays), at frame 10 the bytes of blue.png.
local level = {}
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"

local function copy(from, to)
  local f = assert(io.open(here .. from, "rb"))
  local bytes = f:read("a")
  f:close()
  local g = assert(io.open(here .. to, "wb"))
  g:write(bytes)
  g:close()
end

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 0, 40
  level.img = tumble.gfx.image("swap.png")
end

function level.update()
  if tumble.frame == 5 then
    local g = assert(io.open(here .. "swap.png", "wb"))
    g:write("this is not a picture")
    g:close()
  elseif tumble.frame == 10 then
    copy("blue.png", "swap.png")
  elseif tumble.frame == 19 then
    print("reloads " .. level.img.reloads)
  end
end

function level.draw(gfx)
  gfx.draw(level.img, 0, 0, { w = 4, h = 4 })
end

return level
