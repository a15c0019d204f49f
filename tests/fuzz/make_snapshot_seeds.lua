-- Writes the snapshot target's seeds (tests/fuzz/corpus/snapshot): small
-- worlds saved at a few moments, between them every shape kind, joints, a
-- sensor with a field, contacts, sleeping bodies, free slots and events.
--   LUA_CPATH="$PWD/?.so;;" lua5.4 tests/fuzz/make_snapshot_seeds.lua tests/fuzz/corpus/snapshot
-- The strings change with the format (its fingerprint): run it again then.
local tumble = require("tumble")
local out = assert(arg[1], "folder expected")

local function write(name, w)
  local f = assert(io.open(out .. "/" .. name, "wb"))
  f:write(w:snapshot():save())
  f:close()
end

write("empty", tumble.world())

local w = tumble.world()
local ground = w:body{}
ground:chain{ 6, 3, 5, 0, -5, 0, -6, 3 }
ground:segment{ x1 = 6, y1 = 0, x2 = 9, y2 = 0 }
local a = w:body{ type = "dynamic", x = -1, y = 0.5 }
a:box{ w = 1, h = 1 }
local b = w:body{ type = "dynamic", x = 0.2, y = 0.5, angle = 0.3 }
b:circle{ r = 0.5 }
local c = w:body{ type = "dynamic", x = 1.5, y = 2 }
c:capsule{ -0.3, 0, 0.3, 0, 0.2 }
local d = w:body{ type = "dynamic", x = 3, y = 1 }
d:polygon{ -0.4, -0.3, 0.4, -0.3, 0.5, 0.3, -0.4, 0.3, radius = 0.05 }
write("shapes", w)
w:joint{ kind = "revolute", a = c, b = d, x = 2.2, y = 1.5 }
local zone = w:body{ x = -3, y = 1 }
zone:circle{ r = 1.5, sensor = true, field = { kind = "radial", strength = -4 } }
for _ = 1, 30 do w:step(1 / 60) end
write("stepped", w)
local gone = w:body{ type = "dynamic", x = 4, y = 4 }
gone:box{ w = 0.5, h = 0.5 }
w:step(1 / 60)
gone:destroy()
for _ = 1, 200 do w:step(1 / 60) end
write("settled", w)
