-- Fixture for host_sandbox.sh: update never returns.
local level = {}
function level.update(dt, world)
  if tumble.frame == 5 then
    local n = 0
    while true do n = n + 1 end
  end
end
return level
