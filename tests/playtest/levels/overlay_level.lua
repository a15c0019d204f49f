-- Fixture for kit_window.sh: the level's own text in the places levels put
-- it (help top left, score top right, a message at the bottom), in a colour
-- nothing else uses, so a screenshot can count how much of it is visible.
local level = {}

function level.load(world)
  local ground = world:body{ y = -0.5 }
  ground:box{ w = 40, h = 1 }
end

function level.draw(gfx)
  gfx.color(1, 0, 1)
  local w, h = gfx.width(), gfx.height()
  gfx.screen_text(10, 10, "HELP: arrows move, space jumps", 2)
  gfx.screen_text(10, 34, "collect the gems, avoid the spikes", 2)
  gfx.screen_text(w - 10, 10, "score 1234", 3, "right")
  gfx.screen_text(w / 2, h - 30, "a message at the bottom", 2, "center")
end

return level
