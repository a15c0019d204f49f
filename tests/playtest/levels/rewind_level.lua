-- Fixture for host_rewind.sh: a hero walked by the arrow keys (space jumps)
-- over a floor with a few crates, and a level.state that holds what rewind
-- must carry: nested tables, a subtable shared by two keys, a cycle, handles
-- as values and as keys, a trail that grows, a table with a metatable, and
-- math.random drawn in update. Every 30 steps (never while replaying) it
-- prints the frame, the world's hash and a digest of level.state, so runs can
-- be compared line by line.
-- REWIND_BAD: puts something rewind refuses into level.state at frame 40
--   (function, coroutine, contact; "deep" nests the function).
-- REWIND_MEM: every 60 steps, the Lua memory after a full collection.
-- REWIND_BIG: level.state.big holds that many numbers (and a hostile __pairs).
-- REWIND_BUG: "key": pressing x raises an error in keypressed; "frame":
--   update raises at frame 100. REWIND_FILE: the copy to edit, REWIND_FIX_AT:
--   when halted for this many frames, draw saves the file without the bug.
local level = {}

local bad = os.getenv("REWIND_BAD")
local bug = os.getenv("REWIND_BUG")
local file = os.getenv("REWIND_FILE")
local fix_at = tonumber(os.getenv("REWIND_FIX_AT") or "")
local mem = os.getenv("REWIND_MEM")
local big = tonumber(os.getenv("REWIND_BIG") or "")

local vec = {tag = "vec"} -- a reload makes a new one: the digest checks the tag
vec.__index = vec

function level.load(world)
  world.gravity = {0, -10}
  local ground = world:body{ type = "static" }
  ground:box{ w = 40, h = 1, y = -0.5, friction = 0.8 }
  local s = {trail = {}, jumps = 0, draws = {}, crates = {}, kind = {}, where = setmetatable({x = 0, y = 0}, vec)}
  s.hero = world:body{ type = "dynamic", x = 0, y = 0.5, fixed_rotation = true }
  s.hero:box{ w = 0.5, h = 1, friction = 0.8 }
  for i = 1, 3 do
    local c = world:body{ type = "dynamic", x = 2 * i, y = 0.3 }
    c:box{ w = 0.5, h = 0.5 }
    s.crates[i] = c
    s.kind[c] = "crate"
  end
  s.kind[s.hero] = "hero"
  s.shared = {hits = 0}
  s.alias = s.shared
  s.self = s
  -- REWIND_BIG: a table of that many entries, and a __pairs that must never run
  if big then
    s.big = setmetatable({}, {__pairs = function() error("__pairs ran") end})
    for i = 1, big do s.big[i] = i end
  end
  level.state = s
end

function level.keypressed(key)
  local s = level.state
  if key == "space" then
    s.hero:apply_impulse(0, 4 * s.hero.mass)
    s.jumps = s.jumps + 1
    s.shared.hits = s.shared.hits + 1
  end
  if key == "x" and bug == "key" then error("x pressed: a bug in keypressed") end
end

-- a digest of level.state: its values in a fixed order
local function digest(s)
  local parts = {s.jumps, s.shared.hits, s.alias == s.shared and "shared" or "split", s.self == s and "cycle" or "broken",
    #s.trail, #s.draws, (getmetatable(s.where) or {}).tag == "vec" and "vec" or "novec",
    ("%.4f %.4f"):format(s.where.x, s.where.y)}
  for i = 1, #s.trail do parts[#parts + 1] = ("%.3f"):format(s.trail[i].x) end
  for i = 1, #s.draws do parts[#parts + 1] = ("%.6f"):format(s.draws[i]) end
  for _, c in ipairs(s.crates) do parts[#parts + 1] = s.kind[c] end
  local text = table.concat(parts, ",")
  local h = 0
  for i = 1, #text do h = (h * 31 + text:byte(i)) % 4294967296 end
  return ("%08x"):format(h), #s.trail, #s.draws
end

function level.update(dt, world)
  local s = level.state
  if bug == "frame" and tumble.frame == 100 then error("bug at frame 100") end
  local vx = 0
  if tumble.input.down("right") then vx = 3 end
  if tumble.input.down("left") then vx = -3 end
  s.hero.vx = vx
  s.where.x, s.where.y = s.hero.x, s.hero.y
  if tumble.frame % 10 == 0 then s.trail[#s.trail + 1] = {x = s.hero.x, y = s.hero.y} end
  if tumble.frame % 20 == 0 then s.draws[#s.draws + 1] = math.random() end
  if bad ~= nil and tumble.frame == 40 then
    if bad == "function" then s.think = function() end end
    if bad == "deep" then s.trail[2].think = print end
    if bad == "coroutine" then s.co = coroutine.create(function() end) end
    if bad == "fixed" then s.think = nil end
  end
  if bad ~= nil and tumble.frame == 100 then s.think, s.co = nil, nil end
  if mem and tumble.frame % 60 == 0 and not tumble.replaying then
    collectgarbage("collect")
    print(("mem %d %.0f"):format(tumble.frame, collectgarbage("count")))
  end
  if tumble.frame % 30 == 0 and not tumble.replaying then
    local d, trail, draws = digest(s)
    print(("frame %d hash %s state %s trail %d draws %d hero %.4f %.4f"):format(tumble.frame, world:hash(), d, trail,
      draws, s.hero.x, s.hero.y))
  end
end

function level.mousepressed(x, y, button) print(("mouse %s at frame %d"):format(button, tumble.frame)) end

-- While halted, draw saves the fix (the file without the bug) as an author would.
-- REWIND_SHOW: draw prints the frame shown whenever it changes (the timeline).
local show = os.getenv("REWIND_SHOW")
local last, same = -1, 0
function level.draw(gfx)
  if tumble.frame == last then same = same + 1 else same = 0 end
  if show and tumble.frame ~= last then print(("shown %d"):format(tumble.frame)) end
  last = tumble.frame
  if fix_at ~= nil and same == fix_at and file ~= nil then
    local f = assert(io.open(file, "r"))
    local text = f:read("a")
    f:close()
    local fixed = text:gsub('local bug = os.getenv%("REWIND_BUG"%)', "local bug = nil")
    if fixed ~= text then
      print(("halted at frame %d: saving the fix"):format(tumble.frame))
      f = assert(io.open(file, "w"))
      f:write(fixed)
      f:close()
    end
  end
end

return level
