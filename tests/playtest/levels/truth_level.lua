-- Fixture for host_truth.sh: a level whose update spawns nothing until an
-- edit of its own file (at frame TRUTH_EDIT_AT, as an author saving would)
-- adds a spawner to update: a box every 5 steps. Only a function changes
-- (load is untouched), so the reload swaps the functions in and keeps the
-- world. draw prints the frame shown, the world's body count and hash
-- whenever the frame changes (live, or on the timeline); update prints the
-- frames it lives every 10 steps (never while the host replays).
-- TRUTH_BUG: update raises an error at that frame (the run halts).
-- TRUTH_EVERY: from frame 1 on, every that many frames, the level saves its
--   file with the number in update's `local step = N` one more (an edit of
--   a function's literal: a functions-only reload each time).
local level = {}
local file = os.getenv("TRUTH_FILE")
local edit_at = tonumber(os.getenv("TRUTH_EDIT_AT") or "")
local bug_at = tonumber(os.getenv("TRUTH_BUG") or "")
local every = tonumber(os.getenv("TRUTH_EVERY") or "")
function level.load(world)
  level.world = world -- a data field: a reload carries it to the new table
  world.gravity = {0, -10}
  local ground = world:body{ type = "static" }
  ground:box{ w = 40, h = 1, y = -0.5 }
  level.state = { spawned = 0 }
end

local function spawn(world)
  if tumble.frame % 5 == 0 then
    local b = world:body{ type = "dynamic", x = (tumble.frame % 40) * 0.25 - 5, y = 6 }
    b:box{ w = 0.5, h = 0.5 }
    level.state.spawned = level.state.spawned + 1
  end
end

local function bump_step()
  local f = assert(io.open(file, "r"))
  local text = f:read("a")
  f:close()
  local edited = text:gsub("local step = (%d+)", function(n) return "local step = " .. (tonumber(n) + 1) end, 1)
  f = assert(io.open(file, "w"))
  f:write(edited)
  f:close()
end

local function edit_file()
  local f = assert(io.open(file, "r"))
  local text = f:read("a")
  f:close()
  local edited = text:gsub("%-%-%[%[SPAWNER%]%]", "spawn(world)")
  if edited ~= text then
    print(("frame %d: saving the spawner"):format(tumble.frame))
    f = assert(io.open(file, "w"))
    f:write(edited)
    f:close()
  end
end

function level.update(dt, world)
  local step = 0
  level.state.step = step
  --[[SPAWNER]]
  if file and every and tumble.frame % every == 0 and tumble.frame > 0 and not tumble.replaying then bump_step() end
  if tumble.frame == bug_at then error(("a bug at frame %d"):format(bug_at)) end
  if file and tumble.frame == edit_at and not tumble.replaying then edit_file() end
  if tumble.frame % 10 == 0 and not tumble.replaying then
    print(("frame %d bodies %d spawned %d hash %s"):format(tumble.frame, world.body_count, level.state.spawned, world:hash()))
  end
end

local last = -1
function level.draw(gfx)
  if tumble.frame ~= last then
    print(("shown %d bodies %d spawned %d hash %s"):format(tumble.frame, level.world.body_count, level.state.spawned, level.world:hash()))
  end
  last = tumble.frame
end

return level
