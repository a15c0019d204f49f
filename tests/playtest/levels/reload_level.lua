-- Fixture for host_reload.sh. The level rewrites the module it requires at
-- frames 50 (new constant), 100 (syntax error) and 150 (fixed), so the test
-- is deterministic: the host polls every frame (--watch-poll-ms 0).
local mod = require "reload_mod"
local level = {}
local dir = assert(os.getenv("RELOAD_DIR"), "RELOAD_DIR not set")

local function write(text)
  local f = assert(io.open(dir .. "/reload_mod.lua", "w"))
  f:write(text)
  f:close()
end

function level.load(world)
  local ground = world:body{ type = "static" }
  ground:box{ w = 20, h = 1, y = -0.5 }
  for i = 1, 5 do
    world:body{ type = "dynamic", x = i - 3, y = 0.5 }:box{ w = 0.5, h = 0.5 }
  end
  level.ticks = 0 -- run-time state in the level table survives reloads
end

function level.update(dt, world)
  level.ticks = level.ticks + 1
  local f = tumble.frame
  -- the sizes differ, so a change is seen even within one mtime tick
  if f == 50 then write("return { gain = 2 }\n") end
  if f == 100 then write("return { gain = \n") end
  if f == 150 then write("return { gain = 3 } -- fixed\n") end
  if f % 10 == 0 then
    local bodies = 0
    for _ in world:bodies() do bodies = bodies + 1 end
    print(("frame %d gain %d bodies %d ticks %d"):format(f, mod.gain, bodies, level.ticks))
  end
end

function level.reload(world, old)
  print(("reload called at frame %d, old ticks %d"):format(tumble.frame, old.ticks))
end

return level
