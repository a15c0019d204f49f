-- slingshot_shot: one scripted shot with the mouse (grab the stone, pull it
-- 2.6 m back and 0.9 m down, let go) knocks the tower over: most blocks
-- toppled, the top box brought down, the score counted from them; and the
-- next stone is loaded on the sling.
local drive = require "drive"

local ex = drive.example("slingshot")
local L = ex.layout
local step = 0
local top_y0

return drive.wrap(ex, {
  load = function()
    local blocks = ex.state.blocks
    top_y0 = blocks[#blocks - 1].body.y
  end,
  before = function()
    step = step + 1
    local x, y = L.sling_x - 2.6, L.sling_y - 0.9
    if step == 20 then ex.mousepressed(L.sling_x, L.sling_y, "left") end
    if step == 21 then ex.mousemoved(x, y, 0, 0) end
    if step == 40 then ex.mousereleased(x, y, "left") end
  end,
  after = function(dt)
    local s = ex.state
    if step == 41 then
      if s.shots_left ~= 2 then drive.fail("the release did not shoot (stones left %d)", s.shots_left) end
      local st = s.stones[1]
      local vx, vy = 2.6 * L.gain, 0.9 * L.gain
      if math.abs(st.vx - vx) > 0.5 or math.abs(st.vy - vy) > 0.5 then
        drive.fail("the stone left at (%.2f, %.2f), expected (%.2f, %.2f)", st.vx, st.vy, vx, vy)
      end
    end
    if step == 40 + 8 * 60 then
      local n = #s.blocks
      local top = s.blocks[n - 1].body
      if s.toppled < n // 2 then drive.fail("only %d of %d blocks toppled", s.toppled, n) end
      if top.y > top_y0 - 3 then drive.fail("the top box is still up at %.2f (was %.2f)", top.y, top_y0) end
      if s.score ~= s.toppled * 100 then drive.fail("score %d for %d blocks", s.score, s.toppled) end
      if #s.stones ~= 2 or s.stones[2].type ~= "kinematic" then drive.fail("the next stone is not on the sling") end
      drive.pass("%d of %d blocks toppled, score %d", s.toppled, n, s.score)
    end
  end,
})
