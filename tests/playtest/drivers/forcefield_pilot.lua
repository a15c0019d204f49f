-- forcefield_pilot: plays examples/forcefield.lua with scripted keys, closed
-- loop (it reads the hero and the elevator each step), and checks a scenario:
--   FF_SCENARIO=win          the full solution: switch, locks 1-2-3, reward
--   FF_SCENARIO=wrong_order  switch, lock 1, then lock 3: the locks reset
--   FF_SCENARIO=timeout      switch, lock 1, then wait: the field comes back
--                            and the lock resets
-- With FF_REPLAY_OUT=FILE it also writes the keys it pressed, step by step,
-- in the host's input recording format, so `tumble --replay FILE` plays the
-- same game through the host's own input path.
local drive = require "drive"

local ex = drive.example("forcefield")
local L = ex.layout
local keys = drive.keys(ex)
local scenario = os.getenv("FF_SCENARIO") or "win"
local out_path = os.getenv("FF_REPLAY_OUT")
local verbose = os.getenv("FF_VERBOSE") ~= nil
local out = nil
if out_path then
  out = assert(io.open(out_path, "w"))
  out:write("tumble-input 1\nview 1280 720\n")
end

-- every scripted key also goes to the recording, in the host's syntax: the
-- events of a frame, then "F steps [repeat]" closing it (runs of frames with
-- no events share one line)
local idle = 0
local function flush_idle()
  if idle > 0 then out:write(idle == 1 and "F 1\n" or string.format("F 1 %d\n", idle)) end
  idle = 0
end
local raw_press, raw_release = keys.press, keys.release
keys.press = function(name)
  if not keys.down[name] and out then
    flush_idle()
    out:write("kd ", name, "\n")
  end
  raw_press(name)
end
keys.release = function(name)
  if keys.down[name] and out then
    flush_idle()
    out:write("ku ", name, "\n")
  end
  raw_release(name)
end

local M = require("ff_moves").new(ex, keys)
local ctl = M.ctl
local go, wait_until, jump_to, wait_frames, lit = M.go, M.wait_until, M.jump_to, M.wait_frames, M.lit
local elevator_low, elevator_top = M.elevator_low, M.elevator_top

local function S() return ex.state end
local function hero() return ex.state.hero end
local function elevator() return ex.state.elevator end

local px = L.platform_x
-- with the field on, a jump from the top of the elevator ends in the field:
-- jump on the way up, about level with the middle platforms
local edge = M.edge
local elevator_mid = M.elevator_mid
local route_to_switch = {
  go(-edge - 1.6), wait_until(elevator_low), jump_to(0), go(-edge),
  wait_until(elevator_mid), jump_to(-px + 1.5),
  go(L.switch_x, 0.3), wait_until(function() return not S().field_on end),
}
local route_lock1 = {
  go(-px + 3.1), wait_until(function() return elevator().y >= 4.0 and S().elevator_dir > 0 end),
  jump_to(0), go(edge), wait_until(elevator_top), jump_to(px - 1.5),
  go(L.pieces[1].x), lit(1),
}
local route_lock2 = {
  go(px - 5.0), jump_to(px - 1.0), go(L.pieces[2].x), lit(2),
}
local route_lock3_from_floor_right = {
  go(edge + 1.6), wait_until(elevator_low), jump_to(0), go(-edge),
  wait_until(elevator_top), jump_to(-px + 1.5),
  go(L.pieces[3].x),
}
local function until_won(task)
  return function()
    if S().won then
      ctl.dir = 0
      return true
    end
    return task()
  end
end
local route_reward = {
  go(-px + 4.5), until_won(go(L.reward_x, 0.3)),
}

local tasks = {}
local function add(list)
  for _, t in ipairs(list) do tasks[#tasks + 1] = t end
end

local check_end
if scenario == "win" then
  add(route_to_switch); add(route_lock1); add(route_lock2)
  add(route_lock3_from_floor_right); add({lit(3)}); add(route_reward)
  add({wait_until(function() return S().won end), wait_frames(30)})
  check_end = function(s)
    if not s.won then return "the reward was not taken" end
    if s.lit_count ~= 3 or not s.open then return "won without all three locks lit" end
    return nil
  end
elseif scenario == "wrong_order" then
  add(route_to_switch); add(route_lock1)
  -- lock 3 (top left) instead of lock 2: go down to the floor, ride up
  -- again and touch it: every lock must go dark
  add({go(px - 5.0)}); add(route_lock3_from_floor_right)
  add({wait_until(function() return S().resets > 0 end), wait_frames(10)})
  check_end = function(s)
    if s.resets < 1 then return "no reset after the wrong lock" end
    if s.lit_count ~= 0 or s.lit[1] or s.lit[3] then return "locks still lit after a wrong order" end
    if s.field_on then return "the field came back: the reset was not from the order" end
    if s.open or s.won then return "the barrier opened on a wrong order" end
    return nil
  end
elseif scenario == "timeout" then
  add(route_to_switch); add(route_lock1)
  add({wait_until(function() return S().field_on end), wait_frames(10)})
  check_end = function(s)
    if not s.field_on then return "the field never came back" end
    if s.lit_count ~= 0 or s.lit[1] then return "lock 1 still lit after the field came back" end
    if s.resets < 1 then return "no reset counted" end
    if s.open then return "the barrier is open" end
    return nil
  end
else
  error("unknown FF_SCENARIO " .. scenario)
end

local current = 1
local switched_at, frame = nil, 0

local d = drive.wrap(ex, {
  before = function()
    frame = frame + 1
    if current <= #tasks then
      if tasks[current]() then
        current = current + 1
        if verbose then drive.log("[%s] step %d done at frame %d (x=%.2f y=%.2f lit=%d field=%s)", scenario, current - 1, frame,
          hero().x, hero().y, S().lit_count, tostring(S().field_on)) end
      end
    else
      ctl.dir = 0
    end
    M.apply()
  end,
  after = function()
    keys.end_step()
    if out then idle = idle + 1 end
    local s = S()
    if not s.field_on and not switched_at then switched_at = frame end
    if current > #tasks then
      if out then
        flush_idle()
        out:close()
        out = nil
      end
      local why = check_end(s)
      if why then drive.fail("%s: %s", scenario, why) end
      drive.pass("%s after %d frames (switch at frame %s, resets %d)", scenario, frame, tostring(switched_at),
        s.resets)
    elseif frame >= 60 * 90 then
      drive.fail("%s: stuck in step %d at frame %d (x=%.2f y=%.2f)", scenario, current, frame, hero().x, hero().y)
    end
  end,
})

return d
