-- Fixture for host_draw.sh: the transform stack, line width, blend modes,
-- the background, screen-space shapes, canvases, sprite batches, particles
-- and text measuring, each at a known place. Camera (0, 0) at 40 px/m in a
-- 1280x720 view: world (x, y) is pixel (640 + 40 x, 360 - 40 y).
local level = {}
local gfx = tumble.gfx
local c, c2, tile, batch, parts, tiled

local function say(...)
  print(table.concat({...}, " "))
end

function level.load(world)
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 0, 40
  gfx.background(0.2, 0.1, 0.3)

  -- a canvas drawn into outside draw: blue, with its top-right quarter white
  c = gfx.canvas(64, 64, {ppm = 32})
  gfx.set_canvas(c)
  gfx.clear(0, 0, 1, 1)
  gfx.color(1, 1, 1)
  gfx.rect("fill", 48, 16, 32, 32)
  gfx.set_canvas()
  say("canvas", c.width, c.height, string.format("%g %g %g %g", c:pixel(50, 10)), string.format("%g %g %g %g", c:pixel(10, 50)))
  c2 = gfx.canvas(32, 32)

  -- a batch of ten sprites of an 8x8 orange picture (16 px a metre: 0.5 m)
  tile = gfx.canvas(8, 8, {ppm = 16, filter = "nearest"})
  gfx.set_canvas(tile)
  gfx.clear(1, 0.5, 0, 1)
  gfx.set_canvas()
  batch = gfx.batch(tile, 100)
  for i = 0, 9 do batch:add(-14 + i, -7) end
  say("batch", batch.count, batch.max)

  -- particles: a seeded emitter that keeps still
  parts = gfx.particles({max = 50, seed = 7, life = 10, speed = 0, size = 0.5, colors = {{0, 1, 1}}, x = 12, y = -7})
  say("emitted", parts:emit(1000), parts.count)
  parts:update(0.1)
  say("after update", parts.count)
  -- and one of the orange picture, 1 m wide, at (12, -4)
  tiled = gfx.particles(tile, {max = 1, life = 10, speed = 0, size = 1, x = 12, y = -4})
  tiled:emit(1)
  local short = gfx.particles({max = 10, life = 0.5})
  short:emit(10)
  short:update(1)
  say("short-lived", short.count)
  local flow = gfx.particles({max = 80, rate = 100, life = 10})
  flow:update(0.5)
  local half = flow.count
  flow:update(0.5)
  say("rate", half, flow.count)

  -- text measuring in the bundled font
  say("size default", gfx.text_size("Hello"))
  say("size scale 1", gfx.text_size("Newton's cradle", 1))
  say("size two lines", gfx.text_size("a\nb", 1))
  local big = gfx.font(24)
  say("font 24", big.size, big:text_size("Hello"))
  gfx.set_font(big)
  say("size with font 24", gfx.text_size("Hello"))
  gfx.set_font()
  local e1 = gfx.text_size("e", 1)
  local e2 = gfx.text_size("\u{e9}", 1)
  local e3 = gfx.text_size("\u{e9}\u{e9}\u{e9}", 1)
  say("utf8", e1, e2, e3)
end

function level.draw(gfx)
  -- a canvas drawn into inside draw, then drawn: green
  gfx.set_canvas(c2)
  gfx.clear(0, 1, 0, 1)
  gfx.set_canvas()
  gfx.draw(c2, 8, -4)                       -- 1 m: pixels 940..980 x 500..540
  gfx.draw(c, 4, -4)                        -- 2 m: pixels 760..840 x 480..560

  -- translate and rotate: a 2 x 1 rectangle at (-10, 5), turned 45 degrees
  gfx.push()
  gfx.translate(-10, 5)
  gfx.rotate(math.pi / 4)
  gfx.color(1, 0, 0)
  gfx.rect("fill", 0, 0, 2, 1)
  gfx.pop()
  -- after pop: the camera's own space again
  gfx.color(0, 1, 0)
  gfx.rect("fill", -6, 5, 1, 1)             -- pixels 380..420 x 140..180

  -- scale by two factors: the unit circle becomes an ellipse 4 m x 2 m
  gfx.push()
  gfx.translate(-2, 5)
  gfx.scale(2, 1)
  gfx.color(0, 0, 1)
  gfx.circle("fill", 0, 0, 1)               -- centre pixel (560, 160)
  gfx.pop()

  -- screen space: a 40 x 20 rectangle centred on pixel (1000, 100)
  gfx.push()
  gfx.origin()
  gfx.color(1, 1, 0)
  gfx.rect("fill", 1000, 100, 40, 20)
  gfx.pop()
  say("transform_point", gfx.transform_point(1, 1))

  -- a 9 pixel wide line on pixel row 160
  say("line width before", gfx.line_width(9))
  gfx.color(1, 0, 1)
  gfx.line(2, 5, 6, 5)
  gfx.line_width(1)

  -- additive blending: red + green = yellow
  gfx.color(1, 0, 0)
  gfx.rect("fill", -10, -3, 2, 2)           -- pixels 200..280 x 440..520
  say("blend before", gfx.blend_mode("add"))
  gfx.color(0, 1, 0)
  gfx.rect("fill", -10, -3, 2, 2)
  gfx.blend_mode("alpha")

  gfx.draw(batch)                           -- 20 px squares centred on (80 + 40 i, 640)
  gfx.draw(parts)                           -- a 20 px square centred on (1120, 640)
  gfx.draw(tiled)                           -- a 40 px orange square centred on (1120, 520)

  -- text in a font of 40 px: an "H" whose left stem starts 4 px right of x
  gfx.set_font(gfx.font(40))
  gfx.color(1, 1, 1)
  gfx.screen_text(1100, 20, "H")
  gfx.set_font()
end

return level
