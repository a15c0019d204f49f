-- Fixture for host_gfx.sh: known shapes drawn with gfx at known world places.
-- Camera (0, 5) at 40 px/m in a 1280x720 view: world (x, y) is pixel
-- (640 + 40 x, 360 - 40 (y - 5)).
local level = {}

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40
end

function level.draw(gfx)
  gfx.color(1, 0, 0)
  gfx.rect("fill", -4, 5, 2, 2)               -- pixels 440..520 x 320..400
  gfx.color(0, 0, 1, 0.5)
  gfx.rect("fill", -4, 5, 0.5, 0.5)           -- half-transparent blue over its centre
  gfx.color(0, 1, 0)
  gfx.circle("fill", 4, 7, 1)                 -- centre pixel (800, 280)
  gfx.color(0, 0, 1)
  gfx.poly("fill", -1, 7.5, 1, 7.5, 0, 9)     -- y up: the apex is above, centroid (640, 240)
  gfx.color({1, 1, 0})
  gfx.line(-8, 2, -6, 2)                      -- pixel row 480, x 320..400
  gfx.color(1, 0, 1)
  gfx.circle("line", 8, 2, 1)                 -- an outline only: the centre stays background
  gfx.color(1, 1, 1)
  gfx.screen_text(16, 640, "Hello, tumble!", 4)
  gfx.text(-8, 9, "world text", 2)
end

return level
