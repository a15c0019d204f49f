-- Fixture for host_rebuild.sh: a hero walked right across a platform by
-- the recorded input, and a crate dropped at a place math.random picks. At
-- frame EDIT_AT the level edits its own file the way an author saving it
-- would (REBUILD_EDIT names the edit, REBUILD_FILE the copy to edit), but
-- never while tumble.replaying (a rebuild re-runs the frames before it).
--   width     -- load() builds a wider platform: the host rebuilds
--   functions -- only update's text changes: swapped in, the world kept
--   broken    -- the top of the file sets globals, requires a module that
--                sets one, then raises: the reload fails and leaves nothing
--   twice     -- the file is written in two goes, a frame apart
--   faulty    -- load() builds a wider platform, and update gains a bug at
--                frame 100: the rebuild stops there; once halted, draw
--                (which still runs in a window) saves the fix
local level = {}
local PLATFORM_W = 6
local GREETING = "hello"
local EDIT_AT = 150
-- EDIT-TOP

local edit = os.getenv("REBUILD_EDIT")
local file = os.getenv("REBUILD_FILE")

local function read()
  local f = assert(io.open(file, "r"))
  local text = f:read("a")
  f:close()
  return text
end

local function write(text)
  local f = assert(io.open(file, "w"))
  f:write(text)
  f:close()
end

local function replace(text, from, to)
  local i, j = text:find(from, 1, true)
  assert(i, "not in the level: " .. from)
  return text:sub(1, i - 1) .. to .. text:sub(j + 1)
end

function level.load(world)
  level.state = {replayed = 0, crate_x = math.random() * 2 - 1}
  local s = level.state
  world.gravity = {0, -10}
  local ground = world:body{ type = "static" }
  s.platform = ground:box{ w = PLATFORM_W, h = 0.5, y = -0.25, friction = 0.9 }
  s.hero = world:body{ type = "dynamic", x = -2, y = 0.5, fixed_rotation = true }
  s.hero:box{ w = 0.5, h = 1, friction = 0.9 }
  s.crate = world:body{ type = "dynamic", x = s.crate_x, y = 4 }
  s.crate:box{ w = 0.4, h = 0.4 }
end

local function report(s)
  print(("frame %d hero %.2f %.2f platform %g crate %.4f %s"):format(tumble.frame, s.hero.x, s.hero.y,
    s.platform.w, s.crate_x, GREETING))
end

function level.update(dt, world)
  -- EDIT-UPDATE
  local s = level.state
  local vx = 0
  if tumble.input.down("right") then vx = 3 end
  if tumble.input.down("left") then vx = -3 end
  s.hero.vx = vx
  if tumble.replaying then
    s.replayed = s.replayed + 1
    return
  end
  if s.replayed > 0 then
    print(("replayed %d steps, live again at frame %d"):format(s.replayed, tumble.frame))
    s.replayed = 0
  end
  if tumble.frame % 10 == 0 then report(s) end
  if tumble.frame == 60 then
    print(("globals LEAKED=%s LEAKED2=%s LEAKED3=%s GOOD=%s leak_mod=%s"):format(tostring(rawget(_G, "LEAKED")),
      tostring(rawget(_G, "LEAKED2")), tostring(rawget(_G, "LEAKED3")), tostring(rawget(_G, "GOOD")),
      tostring(package.loaded.leak_mod)))
  end
  if edit == "broken" and tumble.frame == 40 then
    write(replace(read(), "-- EDIT-TOP", 'LEAKED = "top"; _G.LEAKED2 = "via _G"; require "leak_mod"; '
      .. 'error({reason = "broken on purpose"})'))
  end
  if edit == "broken" and tumble.frame == 80 then
    -- the fix: a new global at the top, nothing load uses changed
    local text = read():gsub("\nLEAKED = [^\n]*", "\nGOOD = \"committed\"")
    write(text)
  end
  if edit == "broken" and tumble.frame == 100 then
    print(("globals LEAKED=%s GOOD=%s"):format(tostring(rawget(_G, "LEAKED")), tostring(rawget(_G, "GOOD"))))
  end
  if tumble.frame == EDIT_AT and edit ~= nil then
    local text = read()
    if edit == "width" and text:find("local PLATFORM_W = 6", 1, true) then
      write(replace(text, "local PLATFORM_W = 6", "local PLATFORM_W = 10"))
    elseif edit == "functions" and text:find('local GREETING = "hello"', 1, true) then
      write(replace(text, 'local GREETING = "hello"', 'local GREETING = "howdy"'))
    elseif edit == "faulty" and text:find("local PLATFORM_W = 6", 1, true) then
      text = replace(text, "local PLATFORM_W = 6", "local PLATFORM_W = 10")
      write(replace(text, "  -- EDIT-UPDATE", '  if tumble.frame == 100 then error("bug at frame 100") end'))
    elseif edit == "twice" and text:find("local PLATFORM_W = 6", 1, true) then
      -- a save in two writes: half the file now, all of it a frame later
      text = replace(text, "local PLATFORM_W = 6", "local PLATFORM_W = 10")
      level.state.rest = text
      write(text:sub(1, #text // 2))
    end
  end
  if tumble.frame == EDIT_AT + 1 and level.state.rest then
    write(level.state.rest)
    level.state.rest = nil
  end
end

-- a frame that lasts: the simulation is halted
local last_frame, same = -1, 0
function level.draw(gfx)
  if tumble.frame == last_frame then same = same + 1 else same = 0 end
  last_frame = tumble.frame
  if edit == "faulty" and same == 20 then
    print(("halted at frame %d: saving the fix"):format(tumble.frame))
    write(replace(read(), 'if tumble.frame == 100 then error("bug at frame 100") end', "-- fixed"))
  end
end

function level.reload(world, old)
  print(("reload called at frame %d"):format(tumble.frame))
end

return level
