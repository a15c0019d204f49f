-- Fixture for kit_media.sh: a JPEG loads like a PNG (sheet.jpg is sheet.png
-- saved as JPEG by png_probe); frames 1-4 drawn at the sheet level's places.
local level = {}

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 0, 40
  level.sheet = tumble.gfx.image("sheet.jpg", { frame_w = 16, frame_h = 16 })
  print(string.format("jpeg %dx%d, %d frames", level.sheet.width, level.sheet.height, level.sheet.frame_count))
end

function level.draw(gfx)
  for i = 1, 4 do gfx.draw(level.sheet, -6 + 2 * i, 2, { frame = i, w = 1, h = 1 }) end
end

return level
