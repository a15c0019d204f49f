-- forcefield_check: runs examples/forcefield.lua untouched (input comes from
-- the host, e.g. --replay) and passes once the reward is taken with all three
-- locks lit; fails if the run reaches FF_LIMIT steps (default 3000) first.
local drive = require "drive"

local ex = drive.example("forcefield")
local limit = tonumber(os.getenv("FF_LIMIT") or "3000")
local steps = 0

return drive.wrap(ex, {
  after = function()
    steps = steps + 1
    local s = ex.state
    if s.won then
      if s.lit_count ~= 3 or not s.open then drive.fail("won without the three locks (lit %d)", s.lit_count) end
      drive.pass("reward taken at step %d (hero at %.2f, %.2f)", steps, s.hero.x, s.hero.y)
    elseif steps >= limit then
      drive.fail("no win after %d steps (lit %d, field %s, hero at %.2f, %.2f)", steps, s.lit_count,
        tostring(s.field_on), s.hero.x, s.hero.y)
    end
  end,
})
