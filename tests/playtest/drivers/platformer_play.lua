-- platformer_play: plays examples/platformer.lua through with scripted keys.
--  * holding left, the hero stops at the 60 degree wall; holding right it
--    walks up the 30 degree slope and over the 0.2 m step;
--  * it jumps up through the one-way platform and lands on top of it;
--  * standing still on the conveyor, it is carried at the belt's speed, and
--    so are the crates;
--  * it drops to the road, jumps onto the cart, which drives off on its
--    wheel motors with the hero riding and its springs working, and stops
--    at the buffer;
--  * it jumps the buffer and crosses the bridge; the boulder let go behind
--    it breaks the bridge's joints ("joint_break" events) and the hero
--    reaches the flag.
local drive = require "drive"

local ex = drive.example("platformer")
local L = ex.layout
local keys = drive.keys(ex)
local step, phase, t0 = 0, "left", 0
local wall_x, max_wall_y = nil, -1e9
local belt_x0, belt_step0, crate_speed = nil, nil, nil
local travel_lo, travel_hi = 1e9, -1e9
local ride_x0, finish_step

local function go(next_phase)
  drive.log("%5d %-8s -> %s (hero %.2f, %.2f)", step, phase, next_phase, ex.state.hero.x, ex.state.hero.y)
  phase, t0 = next_phase, step
end

local function jump()
  keys.press("space")
  keys.release("space")
end

return drive.wrap(ex, {
  before = function()
    step = step + 1
    if step == 2 then keys.press("left") end
  end,
  after = function(dt)
    keys.end_step()
    local s = ex.state
    local h = s.hero
    local since = step - t0
    if step > 60 * 90 then drive.fail("stuck in phase %s at (%.2f, %.2f)", phase, h.x, h.y) end
    if phase == "left" then
      max_wall_y = math.max(max_wall_y, h.y)
      if since == 90 then
        if h.x > -4 or h.x < -5.5 or max_wall_y > 1.6 then
          drive.fail("against the 60 degree wall the hero is at (%.2f, %.2f), highest %.2f", h.x, h.y, max_wall_y)
        end
        drive.log("the 60 degree wall stops the hero at x %.2f, never above y %.2f", h.x, max_wall_y)
        keys.release("left"); keys.press("right")
        go("slope")
      end
    elseif phase == "slope" then
      if h.x > L.slope30[1] + 1 and h.x < L.slope30[2] - 1 and not h.grounded then
        drive.fail("in the air on the 30 degree slope at (%.2f, %.2f)", h.x, h.y)
      end
      if h.x > L.step_x + 0.8 then
        local foot = h.y - 0.8
        if math.abs(foot - (L.plateau_y + L.step_h)) > 0.05 then
          drive.fail("past the step, the hero's foot is at %.3f, the step's top at %.3f", foot, L.plateau_y + L.step_h)
        end
        go("jump")
      elseif since > 6 * 60 then
        drive.fail("did not get up the slope and the step: at (%.2f, %.2f)", h.x, h.y)
      end
    elseif phase == "jump" then
      if since == 1 then jump() end
      local p = L.one_way[1]
      if h.grounded and h.y > p.y + 0.5 then
        if math.abs(h.y - 0.8 - p.y) > 0.05 then drive.fail("landed at %.3f on a platform at %.3f", h.y - 0.8, p.y) end
        drive.log("up through the one-way platform and on it at (%.2f, %.2f)", h.x, h.y)
        go("belt")
      elseif since > 60 and h.grounded then
        drive.fail("the jump did not land on the one-way platform: at (%.2f, %.2f)", h.x, h.y)
      end
    elseif phase == "belt" then
      if h.x > L.shelf.x1 + 1.5 and h.grounded and not belt_x0 then
        keys.release("right")
        belt_x0, belt_step0 = h.x, step
      end
      if belt_x0 and step == belt_step0 + 60 then
        local v = (h.x - belt_x0) / (60 * dt)
        if math.abs(v - L.belt_speed) > 0.1 then drive.fail("on the belt, standing, the hero moves at %.2f m/s", v) end
        for _, c in ipairs(s.crates) do
          if c.x > L.shelf.x1 + 2 and c.y > L.shelf.y then crate_speed = c.vx break end
        end
        if not crate_speed or math.abs(crate_speed - L.belt_speed) > 0.1 then
          drive.fail("the crates on the belt move at %s m/s", tostring(crate_speed))
        end
        drive.log("the belt carries the hero at %.2f m/s and a crate at %.2f m/s", v, crate_speed)
      end
      if h.y < 2 and h.grounded then
        keys.press("right")
        go("cart")
      elseif since > 12 * 60 then
        drive.fail("the belt did not bring the hero down to the road: at (%.2f, %.2f)", h.x, h.y)
      end
    elseif phase == "cart" then
      local ch = s.cart.chassis
      if h.grounded and h.x > ch.x - 2.6 and h.y < 1 then jump() end
      if s.riding then
        keys.release("right")
        ride_x0 = ch.x
        go("ride")
      elseif since > 6 * 60 then
        drive.fail("never got onto the cart: hero (%.2f, %.2f), cart (%.2f, %.2f)", h.x, h.y, ch.x, ch.y)
      end
    elseif phase == "ride" then
      local ch = s.cart.chassis
      for _, j in ipairs(s.cart.joints) do
        travel_lo, travel_hi = math.min(travel_lo, j.value), math.max(travel_hi, j.value)
      end
      if since > 30 and not s.riding then drive.fail("fell off the cart at (%.2f, %.2f)", h.x, h.y) end
      if since > 60 and math.abs(ch.vx) < 0.05 and ch.x > L.buffer_x - 5 then
        if travel_hi - travel_lo < 0.05 then
          drive.fail("the suspension travelled only %.3f m over the bumps", travel_hi - travel_lo)
        end
        drive.log("the cart drove %.1f m carrying the hero, suspension travel %.3f m", ch.x - ride_x0, travel_hi - travel_lo)
        keys.press("right")
        go("bridge")
      elseif since > 12 * 60 then
        drive.fail("the cart did not reach the buffer: at (%.2f, %.2f) moving %.2f", ch.x, ch.y, ch.vx)
      end
    elseif phase == "bridge" then
      if since == 10 then jump() end
      if h.y < -3 then drive.fail("fell into the pit at x %.2f", h.x) end
      if s.finished and not finish_step then finish_step = step end
      if finish_step and step > finish_step + 8 * 60 then
        drive.fail("the hero reached the flag; %d bridge joints broke, the boulder at (%.2f, %.2f)", s.broken, s.boulder.x, s.boulder.y)
      end
      -- the boulder through the bridge, rolled to a stop on the pit's floor
      if finish_step and s.broken > 0 and s.boulder.y < -5 and not s.boulder.awake then
        if h.x < L.flag_x or not h.grounded then drive.fail("the hero left the flag: (%.2f, %.2f)", h.x, h.y) end
        drive.pass("the flag reached at %.1f s; %d bridge joints broke behind the hero (up to %.0f N); the boulder at rest in the pit at %.1f s",
                   finish_step * dt, s.broken, s.break_force, step * dt)
      elseif since > 20 * 60 then
        drive.fail("no finish with the boulder at rest in the pit: hero at (%.2f, %.2f)%s, %d joints broken, boulder at (%.2f, %.2f)%s",
                   h.x, h.y, s.finished and " at the flag" or "", s.broken, s.boulder.x, s.boulder.y,
                   s.boulder.awake and " still moving" or " asleep")
      end
    end
  end,
})
