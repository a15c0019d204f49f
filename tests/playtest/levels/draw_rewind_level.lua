-- Fixture for host_draw.sh: drawing objects kept in level.state survive a
-- rewind (Page Up, then F2 to play on) as they are.
local level = {}
local gfx = tumble.gfx
local frames = 0
function level.load(world)
  local c = gfx.canvas(8, 8)
  level.state = { canvas = c, font = gfx.font(12), batch = gfx.batch(c, 4), sparks = gfx.particles({max = 10}), n = 0 }
end
function level.update()
  frames = frames + 1
  level.state.n = level.state.n + 1
  if frames == 200 then
    local s = level.state
    tumble.exit(0, string.format("after the rewind: n=%d %s %s %s %s", s.n, tostring(s.canvas), tostring(s.font),
      tostring(s.batch), tostring(s.sparks)))
  end
end
return level
