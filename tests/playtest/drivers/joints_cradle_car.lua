-- joints_cradle_car: two of the joints level's machines.
--  * Newton's cradle: the first ball, raised 0.8 rad on a 3 m string, hits
--    the row; the last ball swings out to at least 70 % of that lift while
--    the three in the middle stay within 0.2 m of where they hang;
--  * the car: holding the right arrow turns the wheel motors at full speed
--    and the car drives up the ramp onto the plateau;
--  * the ragdoll falls onto the chain bridge and comes to rest on it: the
--    bridge sags but holds it.
local drive = require "drive"

local ex = drive.example("joints")
local L = ex.layout
local keys = drive.keys(ex)
local step = 0
local lift = L.cradle_len * math.sin(L.cradle_lift)
local hit_step, out_max, middle_max = nil, 0, 0
local cradle_ok, car_ok = false, false

return drive.wrap(ex, {
  before = function()
    step = step + 1
    if step == 10 then keys.press("right") end
  end,
  after = function(dt)
    keys.end_step()
    local s = ex.state
    local c = s.cradle
    if not cradle_ok then
      if not hit_step and c[2].vx > 0.5 then hit_step = step end
      if hit_step then
        out_max = math.max(out_max, c[5].x - s.anchors[5])
        for i = 2, 4 do middle_max = math.max(middle_max, math.abs(c[i].x - s.anchors[i])) end
        if c[5].vx < 0 then -- the last ball turned back: its swing is over
          if out_max < 0.7 * lift then
            drive.fail("the last ball swung out %.2f m, the first was raised %.2f m", out_max, lift)
          end
          if middle_max > 0.2 then drive.fail("the middle balls moved %.2f m", middle_max) end
          drive.log("cradle: last ball out %.2f m of %.2f, middle within %.3f m", out_max, lift, middle_max)
          cradle_ok = true
        end
      elseif step > 120 then
        drive.fail("the first ball never hit the row")
      end
    end
    if not car_ok then
      local ch = s.car.chassis
      if step > 40 and math.abs(s.car.wheels[1].spin + L.motor_speed) > 0.2 * L.motor_speed and ch.x < L.ramp_x then
        drive.fail("the wheels turn at %.2f rad/s, the motors at %.2f", s.car.wheels[1].spin, -L.motor_speed)
      end
      if ch.x > L.ramp_x + L.ramp_w + 1 and ch.y > L.ramp_h + 0.5 then
        drive.log("car: on the plateau at (%.2f, %.2f) after %.2f s", ch.x, ch.y, (step - 10) * dt)
        car_ok = true
      elseif step > 10 + 10 * 60 then
        drive.fail("the car did not get up the ramp: at (%.2f, %.2f)", ch.x, ch.y)
      end
    end
    if step == 5 * 60 then
      local t = s.ragdoll.torso
      local lo, hi = L.bridge_x1, L.bridge_x2
      if t.x < lo or t.x > hi or t.y < L.bridge_y - 1.5 or t.y > L.bridge_y + 2 then
        drive.fail("the ragdoll is not on the bridge: torso at (%.2f, %.2f)", t.x, t.y)
      end
      local mid = s.bridge[#s.bridge // 2]
      if mid.y > L.bridge_y - 0.05 or mid.y < L.bridge_y - 2 then
        drive.fail("the bridge's middle is at %.2f (ends at %.2f)", mid.y, L.bridge_y)
      end
      drive.log("ragdoll: torso at (%.2f, %.2f) on the bridge, middle plank at %.2f", t.x, t.y, mid.y)
      if not (cradle_ok and car_ok) then drive.fail("cradle %s, car %s", tostring(cradle_ok), tostring(car_ok)) end
      drive.pass("cradle passes the swing through; the car climbs the ramp; the bridge holds the ragdoll")
    end
  end,
})
