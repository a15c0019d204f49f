-- Writes the pictures and sounds the kit_media playtests load into the folder
-- given as arg[1]: colours chosen so a screenshot pixel says which one it is.
local root = os.getenv("TUMBLE_ROOT") or "."
local encode = dofile(root .. "/examples/assets/encode.lua")
local dir = assert(arg[1], "usage: media_assets.lua DIR")

local function solid(r, g, b)
  return function() return r, g, b, 1 end
end
-- 32x16: left half red, right half green (which way is "local +x" on screen)
encode.write(dir .. "/halves.png", encode.png(32, 16, function(x)
  if x < 16 then return 1, 0, 0, 1 end
  return 0, 1, 0, 1
end))
-- 64x16 sheet of four 16x16 frames: red, green, blue, yellow
local frames = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}}
encode.write(dir .. "/sheet.png", encode.png(64, 16, function(x)
  local c = frames[x // 16 + 1]
  return c[1], c[2], c[3], 1
end))
encode.write(dir .. "/red.png", encode.png(16, 16, solid(1, 0, 0)))
encode.write(dir .. "/blue.png", encode.png(16, 16, solid(0, 0, 1)))
-- 0.2 s of a 440 Hz tone
local samples = {}
for i = 1, 4410 do samples[i] = 0.3 * math.sin(2 * math.pi * 440 * i / 22050) end
encode.write(dir .. "/tone.wav", encode.wav(samples, 22050))
