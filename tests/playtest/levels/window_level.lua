-- Fixture for kit_window.sh: level.conf, level.resize, level.textinput.
-- Prints what it sees, one line each, and ends itself at frame KW_FRAMES.
io.stdout:setvbuf("line")
local level = {}

level.conf = {
  title = "kit window test",
  width = 800, height = 500,
  camera = { x = 1, y = 2, scale = 25 },
  layers = { shapes = false, aabbs = true },
}
if os.getenv("KW_CONF") == "bad_width" then level.conf.width = 10 end
if os.getenv("KW_CONF") == "typo" then level.conf.titel = "oops" end
if os.getenv("KW_CONF") == "fullscreen" then level.conf.fullscreen = true end

function level.load(world)
  print(string.format("load camera %g %g %g", tumble.camera.x, tumble.camera.y, tumble.camera.scale))
  -- a 4 x 2 m box at the camera's centre: its AABB is drawn, its shape is not
  local b = world:body{ x = 1, y = 2 }
  b:box{ w = 4, h = 2 }
end

function level.resize(w, h)
  print(string.format("resize %d %d (gfx %d %d)", w, h, tumble.gfx.width(), tumble.gfx.height()))
end

function level.textinput(text)
  print("text " .. text)
end

function level.update()
  if tumble.frame == (tonumber(os.getenv("KW_FRAMES")) or 60) then tumble.exit(0, "done") end
end

return level
