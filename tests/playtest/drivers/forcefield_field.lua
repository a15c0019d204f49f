-- forcefield_field: the field really pushes the hero back while it is on.
--  1. acceleration: the hero dropped from rest inside the field falls at
--     g + F/m (150 N on ~0.96 kg: about 176 m/s^2), and at plain g with the
--     field switched off;
--  2. gameplay: a full jump from the top platform on the right rises less
--     than 0.5 m with the field on and about 3 m with it off.
local drive = require "drive"

local ex = drive.example("forcefield")
local L = ex.layout
local keys = drive.keys(ex)

local function S() return ex.state end

local phase, y0, vy0, peak = 1, 0, 0, 0
local results = {}

local function place(x, y)
  local h = S().hero
  h:set_position(x, y)
  h.vx, h.vy = 0, 0
end

local function set_field(on)
  local s = S()
  s.field_on = on
  s.field_shape.enabled = on
  s.field_timer = on and 0 or 1e9 -- off for the whole test
end

-- drop from rest in the middle of the field for 10 steps
local function drop_test(on, label)
  return {
    start = function()
      set_field(on)
      place(0, (L.field_bottom + L.field_top) / 2)
    end,
    step = function(n)
      local h = S().hero
      if n == 1 then vy0 = h.vy end
      if n == 11 then
        local a = (h.vy - vy0) / (10 * tumble.dt)
        local g = L.gravity
        local expect = on and (g - L.field_force / h.mass) or g
        results[label] = a
        if math.abs(a - expect) > 0.05 * math.abs(expect) then
          drive.fail("%s: hero accelerates at %.2f m/s^2, expected %.2f", label, a, expect)
        end
        drive.log("%s: a = %.2f m/s^2 (expected %.2f)", label, a, expect)
        return true
      end
      return false
    end,
  }
end

-- stand on the top right platform and jump with the key held
local function jump_test(on, label)
  return {
    start = function()
      set_field(on)
      place(L.platform_x, L.tiers[3] + 0.25 + L.hero_h / 2 + 0.01)
    end,
    step = function(n)
      local h = S().hero
      if n == 30 then
        y0, peak = h.y, h.y
        keys.press("up")
      end
      if n > 30 then peak = math.max(peak, h.y) end
      if n == 75 then
        keys.release("up")
        results[label] = peak - y0
        drive.log("%s: jump rises %.2f m", label, peak - y0)
        return true
      end
      return false
    end,
  }
end

local phases = {
  drop_test(true, "field on"),
  drop_test(false, "field off"),
  jump_test(true, "jump, field on"),
  jump_test(false, "jump, field off"),
}

local n = 0
return drive.wrap(ex, {
  before = function()
    if n == 0 then phases[phase].start() end
  end,
  after = function()
    keys.end_step()
    n = n + 1
    if phases[phase].step(n) then
      phase, n = phase + 1, 0
      if phase > #phases then
        local on, off = results["jump, field on"], results["jump, field off"]
        if on > 0.5 then drive.fail("with the field on the hero still jumps %.2f m", on) end
        if off < 2.0 then drive.fail("with the field off the hero jumps only %.2f m", off) end
        drive.pass("field pushes: %.1f vs %.1f m/s^2; jump %.2f m on, %.2f m off", results["field on"],
          results["field off"], on, off)
      end
    end
  end,
})
