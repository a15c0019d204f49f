-- playground_keys: the book's keys do what they say, with hand-computed
-- expectations. Body #2 is the circle r = 0.6, density 1 (m = 0.36 pi).
local drive = require "drive"

local ex = drive.example("playground")
local keys = drive.keys(ex)
local world

local function S() return ex.state end
local function sel() return S().bodies[S().selected] end
local function near(a, b, tol, what)
  if math.abs(a - b) > tol then drive.fail("%s: got %.5f, expected %.5f", what, a, b) end
end

local saved = {}
-- each entry: keys to act with, then a check; `hold` frames with keys down
local script = {
  {press = {"right"}, check = function()
    if S().selected ~= 2 then drive.fail("right arrow: selected %d, expected 2", S().selected) end
    near(sel().mass, 0.36 * math.pi, 1e-4, "circle mass")
  end},
  {press = {"left", "left"}, check = function()
    -- two presses from #2 wrap around to the last body
    if S().selected ~= #S().bodies then drive.fail("left arrow wraps: selected %d", S().selected) end
  end},
  {press = {"right", "right"}, check = function()
    if S().selected ~= 2 then drive.fail("right arrow: selected %d", S().selected) end
    saved.mass = sel().mass
  end},
  {hold = {"m"}, press = {"up"}, check = function()
    near(sel().mass, saved.mass * 1.25, 1e-4, "M + up scales the mass by 1.25")
    -- I = m r^2 / 2 for the solid disc, with the new mass
    near(sel().inertia, 0.5 * sel().mass * 0.36, 1e-4, "inertia follows the mass")
  end},
  {hold = {"m"}, press = {"down"}, check = function()
    near(sel().mass, saved.mass, 1e-4, "M + down undoes it")
  end},
  {hold = {"n"}, press = {"up"}, check = function()
    near(S().shapes[sel()].restitution, 0.3, 1e-6, "N + up: restitution 0.2 -> 0.3")
  end},
  {hold = {"f"}, press = {"down"}, check = function()
    near(S().shapes[sel()].friction, 0.5, 1e-6, "F + down: friction 0.6 -> 0.5")
  end},
  {before = function() saved.r = S().shapes[sel()].r end, hold = {"y"}, frames = 30, check = function()
    local expect = saved.r * (1 + 0.6 / 60) ^ 30
    near(S().shapes[sel()].r, expect, 1e-3, "Y held 0.5 s grows the radius")
    near(sel().mass, math.pi * expect * expect, 1e-2, "the mass follows the radius")
  end},
  {press = {"g"}, check = function()
    if S().spawned ~= 1 or #S().bodies ~= 7 then drive.fail("G spawned %d, bodies %d", S().spawned, #S().bodies) end
  end},
  {press = {"h"}, check = function()
    local moving = 0
    for _, b in ipairs(S().bodies) do
      if drive.speed(b) > 0.5 then moving = moving + 1 end
    end
    if moving < #S().bodies - 1 then drive.fail("H kicked only %d of %d bodies", moving, #S().bodies) end
  end},
  {press = {"v"}, check = function()
    if world.motion then drive.fail("V did not stop the motion") end
    saved.x, saved.y = sel().x, sel().y
  end},
  {frames = 30, check = function()
    if sel().x ~= saved.x or sel().y ~= saved.y then drive.fail("bodies moved with motion off") end
  end},
  {before = function() saved.angle = sel().angle end, hold = {"z"}, frames = 30, check = function()
    -- Z turns at 2 rad/s (motion is off: nothing else moves it)
    near(sel().angle - saved.angle, 1.0, 1e-3, "Z held 0.5 s turns 1 rad")
  end},
  {before = function() saved.x, saved.y = sel().x, sel().y end, hold = {"d", "w"}, frames = 30, check = function()
    near(sel().x - saved.x, 2.0, 1e-3, "D held 0.5 s moves 2 m right")
    near(sel().y - saved.y, 2.0, 1e-3, "W held 0.5 s moves 2 m up")
  end},
  {press = {"v"}, check = function()
    if not world.motion then drive.fail("V did not restart the motion") end
  end},
  {press = {"p"}, check = function()
    if world.position_correction then drive.fail("P did not turn position correction off") end
  end},
  {press = {"p"}, check = function()
    if not world.position_correction then drive.fail("P did not turn position correction on") end
  end},
  {press = {"t", "r", "b", "c"}, check = function()
    local l = S().layers
    if l.texture or l.outline or not l.bounds or not l.contacts then drive.fail("T/R/B/C did not toggle the layers") end
  end},
}

local item, phase, wait = 1, "start", 0

return drive.wrap(ex, {
  load = function(w) world = w end,
  before = function()
    local it = script[item]
    if not it then return end
    if phase == "start" then
      if it.before then it.before() end
      for _, k in ipairs(it.hold or {}) do keys.press(k) end
      for _, k in ipairs(it.press or {}) do
        keys.press(k)
        keys.release(k)
      end
      wait = it.frames or 1
      phase = "wait"
    end
  end,
  after = function()
    keys.end_step()
    local it = script[item]
    if not it then return end
    wait = wait - 1
    if wait <= 0 then
      for _, k in ipairs(it.hold or {}) do keys.release(k) end
      it.check()
      item, phase = item + 1, "start"
      if item > #script then drive.pass("%d key checks", #script) end
    end
  end,
})
