-- forcefield_reach: every ledge of examples/forcefield.lua can be reached the
-- way the level says, and no other way. Each trial puts the hero somewhere,
-- runs and jumps with scripted keys, and reports where it came to rest:
--   * a running jump from the floor lands on a low ledge (both sides);
--   * a full jump rises more than a low ledge is high and less than the
--     step from a low to a middle ledge (that is what the platform is for);
--   * jumping off the moving platform level with a middle ledge lands on it;
--   * with the field off, jumping off the platform near the top of its travel
--     (rising, paused at the top, starting down) lands on a top ledge without
--     bumping into anything on the way;
--   * with the field on, the same jump does not reach the top ledge.
local drive = require "drive"

local ex = drive.example("forcefield")
local L = ex.layout
local keys = drive.keys(ex)

local function S() return ex.state end

local TOP = { L.tiers[1] + L.platform_h / 2, L.tiers[2] + L.platform_h / 2, L.tiers[3] + L.platform_h / 2 }
local edge = L.elevator_w / 2 - L.hero_w / 2 - 0.05 -- standing at the platform's edge

local function set_field(on)
  local s = S()
  s.field_on = on
  s.field_shape.enabled = on
  s.field_timer = on and 0 or 1e9
end

local function place_hero(x, feet)
  local h = S().hero
  h:set_position(x, feet + L.hero_h / 2 + 0.01)
  h.vx, h.vy = 0, 0
end

-- the platform at height y going dir (0: paused at the top)
local function place_elevator(y, dir)
  local s = S()
  s.elevator:set_position(0, y)
  if dir == 0 then
    s.elevator_dir, s.elevator_wait = -1, 0.8
  else
    s.elevator_dir, s.elevator_wait = dir, 0
  end
end

-- where the hero stands: "floor", "low", "middle", "top" (with the side), or "?"
local function resting_place()
  local s = S()
  local h = s.hero
  local feet = h.y - L.hero_h / 2
  if not s.grounded then return "airborne" end
  local side = h.x < 0 and "left" or "right"
  for i, name in ipairs({ "low", "middle", "top" }) do
    if math.abs(feet - TOP[i]) < 0.08 and math.abs(math.abs(h.x) - L.platform_x) < L.platform_w / 2 + 0.4 then
      return name .. " " .. side
    end
  end
  if math.abs(feet) < 0.08 then return "floor" end
  return string.format("? (feet %.2f)", feet)
end

-- trial{name, setup, dir, jump_when(step) -> bool, expect | check}
local trials = {}
local function trial(t) trials[#trials + 1] = t end

-- the moves against the layout: a full jump in the open clears a low ledge's
-- height with room to spare and falls well short of the step from a low
-- ledge to a middle one (an overhang is in the way there besides)
trial{
  name = "a full jump rises higher than a low ledge and less than the step to a middle ledge",
  setup = function()
    set_field(true)
    place_elevator(L.elevator_high, 0)
    place_hero(0, 0)
  end,
  dir = 0, jump_at = 1,
  check = function(rise)
    local low, step = TOP[1], TOP[2] - TOP[1]
    if rise < low + 0.3 then return string.format("rises %.2f m, a low ledge is %.2f m up", rise, low) end
    if rise > step - 0.3 then return string.format("rises %.2f m, the step to a middle ledge is only %.2f m", rise, step) end
    return nil, string.format("rises %.2f m: low ledge %.2f m, step to the middle %.2f m", rise, low, step)
  end,
}

for _, side in ipairs({ -1, 1 }) do
  local sname = side < 0 and "left" or "right"
  trial{
    name = "a running jump from the floor lands on the low " .. sname .. " ledge",
    setup = function()
      set_field(true)
      place_elevator(L.elevator_low, 1)
      place_hero(side * 3.6, 0)
    end,
    dir = side, jump_at = 2, expect = "low " .. sname,
  }
  trial{
    name = "jumping off the moving platform level with the middle " .. sname .. " ledge lands on it",
    setup = function()
      set_field(true)
      place_elevator(TOP[2] - L.elevator_h / 2 - 0.4, 1)
      place_hero(side * edge, TOP[2] - 0.4)
    end,
    dir = side, jump_at = 1, expect = "middle " .. sname,
  }
  for _, phase in ipairs({ { "1.5 m below the top, rising", -1.5, 1 }, { "0.5 m below the top, rising", -0.5, 1 },
                            { "paused at the top", 0, 0 }, { "0.4 m below the top, going down", -0.4, -1 } }) do
    trial{
      name = "field off: jumping " .. sname .. " off the platform " .. phase[1] .. " lands on the top ledge, no bump",
      setup = function()
        set_field(false)
        place_elevator(L.elevator_high + phase[2], phase[3])
        place_hero(side * edge, L.elevator_high + phase[2] + L.elevator_h / 2)
      end,
      dir = side, jump_at = 1, expect = "top " .. sname, no_bump = true,
    }
  end
  trial{
    name = "field on: the same jump from the top of the platform does not reach the top " .. sname .. " ledge",
    setup = function()
      set_field(true)
      place_elevator(L.elevator_high, 0)
      place_hero(side * edge, L.elevator_high + L.elevator_h / 2)
    end,
    dir = side, jump_at = 1, expect_not = "top " .. sname,
  }
end

local current, n = 1, 0
local peak, bumped, airborne, rest = 0, nil, 0, 0
local failures = {}

local function finish(t, problem, note)
  if problem then
    failures[#failures + 1] = t.name .. ": " .. problem
    print("not ok - " .. t.name .. ": " .. problem)
  else
    print("ok - " .. t.name .. (note and (" (" .. note .. ")") or ""))
  end
  current, n = current + 1, 0
end

return drive.wrap(ex, {
  before = function()
    local t = trials[current]
    if not t then return end
    if n == 0 then
      t.setup()
      peak, bumped, airborne, rest = -1e9, nil, 0, 0
    end
    keys.hold("left", t.dir < 0 and n >= 1)
    keys.hold("right", t.dir > 0 and n >= 1)
    keys.hold("up", n >= t.jump_at and n < t.jump_at + 40)
  end,
  after = function()
    keys.end_step()
    local t = trials[current]
    if not t then return end
    n = n + 1
    local s, h = S(), S().hero
    local feet = h.y - L.hero_h / 2
    if n > t.jump_at then
      peak = math.max(peak, feet)
      if not s.grounded then airborne = airborne + 1 end
      -- a bump: the rise stops short while still below the ledge it aims at
      if t.no_bump and airborne > 0 and not bumped and h.vy <= 0 and feet < TOP[3] - 0.05
          and math.abs(h.x) > L.elevator_w / 2 then
        local prev = t.prev_vy or 0
        if prev > 2 then bumped = string.format("the rise stopped at feet %.2f (x %.2f, vy %.1f -> %.1f)", feet, h.x, prev, h.vy) end
      end
      t.prev_vy = h.vy
    end
    if airborne > 0 and s.grounded and math.abs(h.vy) < 0.5 then rest = rest + 1 else rest = 0 end
    if rest >= 10 or n >= 240 then
      local where = resting_place()
      if t.check then
        finish(t, t.check(peak))
      elseif t.expect and where ~= t.expect then
        finish(t, "came to rest on " .. where .. ", expected " .. t.expect)
      elseif t.expect_not and where == t.expect_not then
        finish(t, "reached " .. where)
      elseif bumped then
        finish(t, bumped)
      else
        finish(t, nil, where)
      end
      if current > #trials then
        if #failures > 0 then drive.fail("%d of %d trials failed", #failures, #trials) end
        drive.pass("%d trials: every ledge is reached as designed", #trials)
      end
    end
  end,
})
