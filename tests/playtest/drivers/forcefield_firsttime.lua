-- forcefield_firsttime: a first-time player who does what the on-screen help
-- says. The driver reads the "NEXT: ..." line examples/forcefield.lua draws
-- (through the gfx table the host passes to draw, as a player reads the
-- screen), waits for it to name the step it is about to take, and only then
-- takes it; a help line that names the wrong step, or none, fails the run.
-- Stages: ride the moving platform, jump off onto the middle left ledge,
-- touch the switch, locks 1 (top right), 2 (bottom right), 3 (top left) in
-- that order, take the reward.
local drive = require "drive"

local ex = drive.example("forcefield")
local L = ex.layout
local keys = drive.keys(ex)
local M = require("ff_moves").new(ex, keys)
local go, wait_until, jump_to, lit = M.go, M.wait_until, M.jump_to, M.lit

local function S() return ex.state end
local function hero() return ex.state.hero end
local function elevator() return ex.state.elevator end

-- What the screen says: the texts drawn in the last frame.
local screen = {}
local seen = {}       -- every distinct help line, in order
local function help()
  for _, t in ipairs(screen) do
    local h = t:match("^NEXT: (.*)$")
    if h then return h end
  end
  return nil
end

local function reading_gfx(gfx)
  return setmetatable({
    screen_text = function(x, y, text, ...)
      screen[#screen + 1] = tostring(text)
      return gfx.screen_text(x, y, text, ...)
    end,
  }, { __index = gfx })
end

-- read(words...): wait until the help line holds every word (case-insensitive)
local function read(...)
  local words = { ... }
  local waited = 0
  return function()
    M.ctl.dir = 0
    waited = waited + 1
    local h = help()
    if h then
      local low = h:lower()
      local all = true
      for _, w in ipairs(words) do
        if not low:find(w:lower(), 1, true) then all = false end
      end
      if all then
        drive.log("help read: %s", h)
        return true
      end
    end
    if waited > 120 then
      drive.fail("after 2 s the help says '%s', expected it to name: %s", tostring(h), table.concat(words, ", "))
    end
    return false
  end
end

local px, edge = L.platform_x, M.edge
local on_platform = function()
  local h, e = hero(), elevator()
  return S().grounded and math.abs(h.x) < L.elevator_w / 2 and math.abs((h.y - L.hero_h / 2) - (e.y + L.elevator_h / 2)) < 0.1
end

local tasks = {
  -- 1. the ledges are too high: the moving platform is the way up
  read("too high", "moving platform"),
  go(-edge - 1.6), wait_until(M.elevator_low), jump_to(0), go(-edge), wait_until(on_platform),
  -- 2. on the platform: where to get off
  read("jump off", "left", "middle ledge"),
  wait_until(M.elevator_mid), jump_to(-px + 1.5),
  -- 3. on the middle left ledge: the switch
  read("switch"),
  go(L.switch_x, 0.3), wait_until(function() return not S().field_on end),
  -- 4. the field is off: lock 1 is top right, by the platform
  read("lock 1", "top right", "platform"),
  go(-px + 3.1), wait_until(function() return elevator().y >= 4.0 and S().elevator_dir > 0 end),
  jump_to(0), go(edge), wait_until(on_platform),
  read("lock 1", "at the top", "right"),
  wait_until(M.elevator_top), jump_to(px - 1.5),
  read("touch lock 1"),
  go(L.pieces[1].x), lit(1),
  -- 5. lock 2, bottom right
  read("lock 2", "bottom right"),
  go(px - 5.0), jump_to(px - 1.0),
  read("touch lock 2"),
  go(L.pieces[2].x), lit(2),
  -- 6. lock 3, top left
  read("lock 3", "top left"),
  go(edge + 1.6), wait_until(M.elevator_low), jump_to(0), go(-edge), wait_until(on_platform),
  wait_until(M.elevator_top), jump_to(-px + 1.5),
  read("touch lock 3"),
  go(L.pieces[3].x), lit(3),
  -- 7. the reward
  read("barrier is open", "gem"),
  go(-px + 4.5),
  function() return S().won or go(L.reward_x, 0.3)() end,
  read("level complete"),
}

local current, frame = 1, 0
local d = drive.wrap(ex, {
  before = function()
    frame = frame + 1
    while current <= #tasks and tasks[current]() do current = current + 1 end
    M.apply()
  end,
  after = function()
    keys.end_step()
    local h = help()
    if h and h ~= seen[#seen] then seen[#seen + 1] = h end
    if current > #tasks then
      local s = S()
      if not s.won then drive.fail("the help said the level is complete, but it is not won") end
      drive.pass("won in %d frames by following %d help lines (%d resets)", frame, #seen, s.resets)
    elseif frame >= 60 * 120 then
      drive.fail("stuck in task %d at frame %d (help: %s; hero %.2f %.2f, platform %.2f, grounded %s)", current, frame,
        tostring(help()), hero().x, hero().y, elevator().y, tostring(S().grounded))
    end
  end,
})

-- the help is read from what draw puts on the screen
function d.draw(gfx)
  screen = {}
  ex.draw(reading_gfx(gfx))
end

return d
