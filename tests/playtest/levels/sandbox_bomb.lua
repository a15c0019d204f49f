-- Fixture for host_sandbox.sh: allocates without bound.
local level = {}
local hoard = {}
function level.update(dt, world)
  for i = 1, 1e9 do
    hoard[#hoard + 1] = ("x"):rep(4096) .. i
  end
end
return level
