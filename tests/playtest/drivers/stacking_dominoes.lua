-- stacking_dominoes: D pushes the first domino and the whole row goes down,
-- each one tipped over by the one before it (the last ends leaning at more
-- than 0.5 rad); the stack, the pyramid and the box on the platform stay put.
local drive = require "drive"

local ex = drive.example("stacking")
local step = 0

return drive.wrap(ex, {
  before = function()
    step = step + 1
    if step == 30 then ex.keypressed("d") end
  end,
  after = function(dt)
    local s = ex.state
    if step < 30 then return end
    local down = 0
    for _, d in ipairs(s.dominoes) do
      if math.abs(d.angle) > 0.5 then down = down + 1 end
    end
    if down == #s.dominoes then
      local top = s.stack[#s.stack]
      if math.abs(top.x - s.stack[1].x) > 0.1 then drive.fail("the stack leans by %.3f m", top.x - s.stack[1].x) end
      if s.drift > 0.05 then drive.fail("the pyramid's top moved %.3f m", s.drift) end
      if math.abs(s.platform_box.y - 3.8) > 0.05 then drive.fail("the box left its platform") end
      drive.pass("all %d dominoes down %.2f s after the push", down, (step - 30) * dt)
    elseif step > 30 + 8 * 60 then
      drive.fail("only %d of %d dominoes fell in 8 s", down, #s.dominoes)
    end
  end,
})
