-- Fixture for host_errors.sh: a runtime error in update at frame 30, deep
-- enough to show a traceback.
local level = {}
local function explode(n)
  if n == 0 then error("boom at frame " .. tumble.frame) end
  return explode(n - 1) + 1
end
function level.update(dt, world)
  if tumble.frame == 30 then explode(3) end
end
return level
