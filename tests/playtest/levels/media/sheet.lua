-- Fixture for kit_media.sh: sprite-sheet frames. sheet.png holds four 16x16
-- frames: red, green, blue, yellow. Camera (0, 0) at 40 px/m, 640x480 view.
local level = {}

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 0, 40
  local gfx = tumble.gfx
  local sheet = gfx.image("sheet.png", { frame_w = 16, frame_h = 16 })
  assert(sheet.frame_count == 4 and sheet.frame_w == 16 and sheet.width == 64)
  level.sheet = sheet
  local b = world:body{ x = 0, y = -3 }
  level.anim = gfx.sprite(b, { image = sheet, w = 1, frame = 1 })
  local ok, err = pcall(gfx.draw, sheet, 0, 0, { frame = 5 })
  assert(not ok and err:find("field 'frame': integer in [1, 4] expected", 1, true), err)
  ok, err = pcall(gfx.draw, sheet, 0, 0, { fram = 1 })
  assert(not ok and err:find("unknown option 'fram'", 1, true), err)
  ok, err = pcall(gfx.image, "sheet.png", { frame_w = 0 })
  assert(not ok and err:find("field 'frame_w'", 1, true), err)
end

function level.update()
  -- the sprite's table is read every frame: frame 1, 2, 3, 4 every ten steps
  level.anim.frame = tumble.frame // 10 % 4 + 1
end

function level.draw(gfx)
  for i = 1, 4 do gfx.draw(level.sheet, -6 + 2 * i, 2, { frame = i, w = 1, h = 1 }) end
  gfx.draw(level.sheet, -4, -1, { rect = { 48, 0, 16, 16 }, w = 1 })   -- yellow by rectangle
  gfx.draw(level.sheet, 4, -1, { frame = 4, w = 1, tint = { 1, 0, 1 } }) -- yellow tinted: red
end

return level
