-- stacking_warm: warm starting on and off in the stacking example, through
-- the level's own keys.
--  1. defaults: the pyramid stands (its top box moves under 5 cm) and every
--     box of it is asleep within 5 s;
--  2. R, S (sleeping off so nothing can hide by sleeping), 3 s: drift A;
--  3. R, W (warm starting off), 3 s: drift B. B must be measurably more:
--     over 3 cm and over ten times A (measured 4.5 cm against 2 mm at the
--     default 8 substeps; 9 cm at 4).
local drive = require "drive"

local ex = drive.example("stacking")
local keys = drive.keys(ex)
local step, phase, t0 = 0, 1, 0
local drift = {}

local function pyramid_asleep(s)
  for _, row in ipairs(s.pyramid) do
    for _, b in ipairs(row) do
      if b.awake then return false end
    end
  end
  return true
end

local function tap(k)
  keys.press(k)
  keys.release(k)
end

return drive.wrap(ex, {
  after = function(dt, world)
    keys.end_step()
    step = step + 1
    local s = ex.state
    if phase == 1 then
      if s.drift > 0.05 then drive.fail("defaults: the pyramid's top box moved %.3f m", s.drift) end
      if pyramid_asleep(s) then
        drive.log("defaults: pyramid asleep after %.2f s, top box moved %.4f m", step * dt, s.drift)
        tap("r")
        tap("s")
        if world.sleeping then drive.fail("S did not turn sleeping off") end
        phase, t0 = 2, step
      elseif step > 5 * 60 then
        drive.fail("defaults: the pyramid is still awake after 5 s")
      end
    elseif phase == 2 or phase == 3 then
      if step - t0 == 180 then
        drift[phase] = s.drift
        drive.log("warm starting %s: top box moved %.4f m in 3 s", world.warm_starting and "on" or "off", s.drift)
        if phase == 2 then
          tap("r")
          tap("w")
          if world.warm_starting then drive.fail("W did not turn warm starting off") end
          phase, t0 = 3, step
        else
          local a, b = drift[2], drift[3]
          if a > 0.05 then drive.fail("with warm starting the top box moved %.3f m", a) end
          if b < 0.03 or b < 10 * a then drive.fail("warm starting off moved %.4f m, on %.4f m: no clear difference", b, a) end
          drive.pass("top box drift in 3 s: %.4f m warm, %.4f m cold", a, b)
        end
      end
    end
  end,
})
