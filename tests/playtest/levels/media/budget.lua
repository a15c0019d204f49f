-- Fixture for kit_media.sh (with --sandbox): big.png is 4096 x 4096, 64 MB
-- once decoded. Kept images count against the sandbox's 256 MB for images;
-- dropped ones are collected before a load is refused.
local level = {}

function level.load(world)
  for _ = 1, 12 do tumble.gfx.image("big.png") end -- dropped at once: collected
  local kept = {}
  local ok, err
  for i = 1, 6 do
    ok, err = pcall(tumble.gfx.image, "big.png")
    if not ok then break end
    kept[i] = err
  end
  assert(not ok, "six 64 MB images fit in the sandbox's 256 MB")
  assert(#kept == 4, "kept " .. #kept .. " before the limit")
  assert(err:find("the images' memory limit (256 MB) is reached", 1, true), err)
  tumble.exit(0, "image budget ok: 12 dropped and 4 kept, the 5th refused")
end

return level
