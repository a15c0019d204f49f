-- ff_moves: the moves the forcefield drivers script, closed loop (each task
-- reads the hero and the platform every step and says when it is done).
-- moves.new(example, keys) gives the tasks and `ctl`, which the driver turns
-- into keys each step (ctl.dir: -1, 0, 1; ctl.jump: steps to hold "up").
local moves = {}

function moves.new(ex, keys)
  local m = { ctl = { dir = 0, jump = 0 } }
  local ctl = m.ctl
  local L = ex.layout
  local function S() return ex.state end
  local function hero() return ex.state.hero end
  local function elevator() return ex.state.elevator end

  -- walk to x and stop there
  function m.go(x, tol)
    tol = tol or 0.25
    return function()
      local h = hero()
      local dx = x - h.x
      if math.abs(dx) < tol then
        ctl.dir = 0
        return S().grounded and math.abs(h.vx) < 0.5
      end
      -- let go early enough to stop on the spot (ground deceleration 90 m/s^2)
      local stop = h.vx * h.vx / (2 * 90)
      if math.abs(dx) <= stop and dx * h.vx > 0 then ctl.dir = 0 else ctl.dir = dx > 0 and 1 or -1 end
      return false
    end
  end

  function m.wait_until(pred)
    return function()
      ctl.dir = 0
      return pred()
    end
  end

  -- jump, steering towards x, until landed
  function m.jump_to(x, hold)
    local phase = 0
    local airborne = 0
    return function()
      local h = hero()
      if phase == 0 then
        if keys.down["up"] then return false end -- a fresh press needs a release first
        ctl.jump = hold or 30
        phase = 1
      end
      local dx = x - h.x
      ctl.dir = math.abs(dx) < 0.15 and 0 or (dx > 0 and 1 or -1)
      if not S().grounded then airborne = airborne + 1 end
      if airborne > 5 and S().grounded then
        ctl.dir = 0
        return true
      end
      return false
    end
  end

  function m.wait_frames(n)
    local left = n
    return function()
      ctl.dir = 0
      left = left - 1
      return left <= 0
    end
  end

  function m.lit(i)
    return m.wait_until(function() return S().lit[i] end)
  end

  -- at the bottom, with time left in its pause to jump on
  function m.elevator_low()
    return elevator().y <= L.elevator_low + 0.05 and S().elevator_dir > 0 and S().elevator_wait > 0.4
  end

  function m.elevator_top()
    return elevator().y >= L.elevator_high - 0.05
  end

  -- rising past the middle ledges
  function m.elevator_mid()
    return elevator().y >= L.tiers[2] - 0.5 and S().elevator_dir > 0
  end

  -- the scripted keys for this step, from ctl
  function m.apply()
    keys.hold("left", ctl.dir < 0)
    keys.hold("right", ctl.dir > 0)
    keys.hold("up", ctl.jump > 0)
    if ctl.jump > 0 then ctl.jump = ctl.jump - 1 end
  end

  -- where the platform's edge is for a hero standing on it
  m.edge = L.elevator_w / 2 - 0.6
  return m
end

return moves
