-- levelkit: small helpers the example levels share (an on-screen controls
-- panel, status lines, banners, a seeded random generator, colours). Pure Lua
-- on top of the public tumble API.
--
-- Hot reload: the host runs a changed level file again and merges the new
-- table over the old one, keeping data fields the new file does not set. So a
-- level keeps its run-time state in fields set by load (level.state), never in
-- chunk-level locals, and its functions reach that state through the table.
-- (typed in lua/tumble.d.lua, documented in lua/LEVELKIT.md)
---@class levelkit
local levelkit = {}

-- A deterministic generator (xorshift32), independent of math.random, so a
-- level's randomness replays bit for bit whatever else calls math.random. Its
-- state is a plain field (r.x) and its methods come from a shared metatable,
-- so a generator kept in level.state is rewound with it (a closure's upvalue
-- would not be): call them with a colon, r:next(), r:range(lo, hi).
local rng_methods = {}
rng_methods.__index = rng_methods

function rng_methods:next()
  local x = self.x
  x = x ~ ((x << 13) & 0xffffffff)
  x = x ~ (x >> 17)
  x = x ~ ((x << 5) & 0xffffffff)
  self.x = x
  return x
end

-- uniform in [lo, hi)
function rng_methods:range(lo, hi)
  return lo + (hi - lo) * (self:next() / 4294967296.0)
end

-- integer in [lo, hi]
function rng_methods:int(lo, hi)
  return lo + self:next() % (hi - lo + 1)
end

function levelkit.rng(seed)
  local x = (seed or 1) & 0xffffffff
  if x == 0 then x = 0x9e3779b9 end
  return setmetatable({x = x}, rng_methods)
end

-- Colours as {r, g, b, a} in 0..1, in one palette so the levels look alike.
levelkit.colors = {
  text = {0.92, 0.93, 0.95, 1},
  dim = {0.62, 0.66, 0.72, 1},
  panel = {0.05, 0.06, 0.08, 0.72},
  accent = {1.00, 0.78, 0.30, 1},
  good = {0.45, 0.90, 0.55, 1},
  bad = {1.00, 0.42, 0.38, 1},
  cool = {0.40, 0.80, 1.00, 1},
  violet = {0.72, 0.55, 1.00, 1},
}

function levelkit.color(gfx, c, alpha)
  gfx.color(c[1], c[2], c[3], alpha or c[4] or 1)
end

local FONT_W, FONT_H = 6, 10 -- a line's height at scale 1 (and a character's width, without gfx.text_size)

-- The pixels a line of text takes at scale in the current font.
local function text_w(gfx, s, scale)
  if gfx.text_size then return (gfx.text_size(s, scale)) end
  return #s * FONT_W * scale
end

-- A panel in the top-left corner: a title, then one line per control.
function levelkit.controls(gfx, title, lines, opts)
  opts = opts or {}
  local scale = opts.scale or 2
  local x0, y0 = opts.x or 10, opts.y or 28 -- below the host's F1 hint
  local line_h = FONT_H * scale + 4
  local widest = text_w(gfx, title, scale)
  for _, l in ipairs(lines) do widest = math.max(widest, text_w(gfx, l, scale)) end
  local w = widest + 20
  local h = (#lines + 1) * line_h + 14
  local width = gfx.width and gfx.width() or 1280
  if opts.align == "right" then x0 = width - w - 10 end
  levelkit.screen_panel(gfx, x0, y0, w, h)
  levelkit.color(gfx, levelkit.colors.accent)
  gfx.screen_text(x0 + 10, y0 + 8, title, scale)
  levelkit.color(gfx, levelkit.colors.text)
  for i, l in ipairs(lines) do
    gfx.screen_text(x0 + 10, y0 + 8 + i * line_h, l, scale)
  end
  return x0, y0, w, h
end

-- A translucent rectangle given in pixels (the gfx calls take world units, so
-- the corners go through the camera).
function levelkit.screen_panel(gfx, px, py, pw, ph, color)
  local cam = tumble.camera
  local x1, y1 = cam.to_world(px, py)
  local x2, y2 = cam.to_world(px + pw, py + ph)
  levelkit.color(gfx, color or levelkit.colors.panel)
  gfx.rect("fill", (x1 + x2) / 2, (y1 + y2) / 2, math.abs(x2 - x1), math.abs(y2 - y1))
end

-- Lines of text at the top right (status: score, timers...).
function levelkit.status(gfx, lines, opts)
  opts = opts or {}
  local scale = opts.scale or 2
  local line_h = FONT_H * scale + 4
  local widest = 0
  for _, l in ipairs(lines) do widest = math.max(widest, text_w(gfx, l[1], scale)) end
  local w = widest + 20
  local h = #lines * line_h + 12
  local width = gfx.width and gfx.width() or 1280
  local x0, y0 = width - w - 10, opts.y or 10
  levelkit.screen_panel(gfx, x0, y0, w, h)
  for i, l in ipairs(lines) do
    levelkit.color(gfx, l[2] or levelkit.colors.text)
    gfx.screen_text(x0 + 10, y0 + 6 + (i - 1) * line_h, l[1], scale)
  end
end

-- A large centred message with an optional smaller second line.
function levelkit.banner(gfx, text, sub, color)
  local width = gfx.width and gfx.width() or 1280
  local height = gfx.height and gfx.height() or 720
  local scale = 4
  local w = math.max(text_w(gfx, text, scale), sub and text_w(gfx, sub, 2) or 0) + 60
  local h = sub and 110 or 80
  local x0, y0 = (width - w) / 2, height * 0.4
  levelkit.screen_panel(gfx, x0, y0, w, h, {0.03, 0.04, 0.06, 0.85})
  levelkit.color(gfx, color or levelkit.colors.accent)
  gfx.screen_text(width / 2, y0 + 22, text, scale, "center")
  if sub then
    levelkit.color(gfx, levelkit.colors.text)
    gfx.screen_text(width / 2, y0 + 22 + FONT_H * scale + 16, sub, 2, "center")
  end
end

-- A horizontal progress bar in world units, filled by fraction t in 0..1.
function levelkit.bar(gfx, x, y, w, h, t, color)
  t = math.max(0, math.min(1, t))
  gfx.color(0, 0, 0, 0.55)
  gfx.rect("fill", x, y, w, h)
  levelkit.color(gfx, color or levelkit.colors.accent)
  if t > 0 then gfx.rect("fill", x - w / 2 + w * t / 2, y, w * t, h) end
  gfx.color(1, 1, 1, 0.5)
  gfx.rect("line", x, y, w, h)
end

-- Fills every shape of a body in one colour, from the shapes' geometry (at
-- the body's current pose).
function levelkit.draw_body(gfx, body, color, alpha)
  levelkit.color(gfx, color, alpha)
  local c, sn = math.cos(body.angle), math.sin(body.angle)
  local bx, by = body.x, body.y
  local function pt(x, y) return bx + c * x - sn * y, by + sn * x + c * y end
  for _, shape in ipairs(body:shapes()) do
    local g = shape:geometry()
    if g.kind == "circle" then
      local x, y = pt(g.x, g.y)
      gfx.circle("fill", x, y, g.r)
    elseif g.kind == "capsule" then
      local x1, y1 = pt(g.x1, g.y1)
      local x2, y2 = pt(g.x2, g.y2)
      local dx, dy = x2 - x1, y2 - y1
      local len = math.sqrt(dx * dx + dy * dy)
      if len > 0 then
        local nx, ny = -dy / len * g.r, dx / len * g.r
        gfx.poly("fill", x1 + nx, y1 + ny, x1 - nx, y1 - ny, x2 - nx, y2 - ny, x2 + nx, y2 + ny)
      end
      gfx.circle("fill", x1, y1, g.r)
      gfx.circle("fill", x2, y2, g.r)
    elseif g.kind == "polygon" then
      local pts = {}
      for i = 1, #g.points, 2 do
        local x, y = pt(g.points[i], g.points[i + 1])
        pts[#pts + 1], pts[#pts + 2] = x, y
      end
      gfx.poly("fill", pts)
    elseif g.kind == "segment" or g.kind == "chain_segment" then
      local x1, y1 = pt(g.x1, g.y1)
      local x2, y2 = pt(g.x2, g.y2)
      gfx.line(x1, y1, x2, y2)
    end
  end
end

-- -1, 0 or 1 from two opposite keys (or two pairs), read through
-- tumble.input at each call, so a driver can script it by replacing
-- tumble.input.down.
function levelkit.axis(neg, pos, neg2, pos2)
  local input = tumble.input
  local v = 0
  if input.down(neg) or (neg2 and input.down(neg2)) then v = v - 1 end
  if input.down(pos) or (pos2 and input.down(pos2)) then v = v + 1 end
  return v
end

function levelkit.clamp(v, lo, hi)
  if v < lo then return lo end
  if v > hi then return hi end
  return v
end

function levelkit.approach(v, target, step)
  if v < target then return math.min(v + step, target) end
  return math.max(v - step, target)
end

return levelkit
