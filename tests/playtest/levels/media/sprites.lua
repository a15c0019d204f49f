-- Fixture for kit_media.sh: images attached to bodies follow them, rotated.
-- Camera (0, 0) at 40 px/m in a 640x480 view: world (x, y) is pixel
-- (320 + 40 x, 240 - 40 y). halves.png is red on its left half, green on its
-- right, so the green end of a sprite shows where the body's local +x points.
local level = {}

function level.load(world)
  world.gravity = {0, 0}
  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 0, 40
  local gfx = tumble.gfx
  local halves = gfx.image("halves.png")
  local function body(kind, x, y, angle)
    local b = world:body{ type = kind, x = x, y = y, angle = angle }
    b:box{ w = 2, h = 1 }
    gfx.sprite(b, { image = halves, w = 2, h = 1 })
    return b
  end
  body("static", -4, 2, 0)
  body("static", 0, 2, math.pi / 2)
  body("static", 4, 2, math.pi / 4)
  -- moves 2 m right and turns a quarter in the first second
  local mover = body("kinematic", -4, -3, 0)
  mover.vx, mover.spin = 2, math.pi / 2
  level.state = { mover = mover }
end

function level.update()
  -- stop after exactly one second of motion
  if tumble.frame == 59 then
    local m = level.state.mover
    m.vx, m.spin = 0, 0
  end
end

return level
