-- make_assets: draws the force-field level's sprites and synthesises its
-- sounds, from nothing but arithmetic (no third-party art), into this folder:
--
--   lua5.4 examples/assets/make_assets.lua
--
-- PNG and WAV come from encode.lua; win.ogg is the jingle's WAV put through
-- oggenc (Debian's vorbis-tools) when it is installed. The files are small
-- and committed; run this again after changing a picture or a sound here.
local here = arg and arg[0] and arg[0]:match("^(.*)/[^/]*$") or "."
local encode = dofile(here .. "/encode.lua")

---------------------------------------------------------------- a canvas

local function canvas(w, h)
  local px = {}
  local c = { w = w, h = h }
  function c.set(x, y, r, g, b, a)
    if x < 0 or y < 0 or x >= w or y >= h then return end
    a = a or 1
    local i = y * w + x
    local o = px[i]
    if not o or a >= 1 then
      px[i] = { r, g, b, a }
      return
    end
    -- "over": paint on what is there
    local oa = o[4]
    local na = a + oa * (1 - a)
    local function mix(s, d) return (s * a + d * oa * (1 - a)) / na end
    px[i] = { mix(r, o[1]), mix(g, o[2]), mix(b, o[3]), na }
  end
  -- a shape given as inside(x, y) on the pixel's continuous square,
  -- antialiased by 4x4 supersampling
  function c.fill(inside, col, x0, y0, x1, y1)
    x0, y0 = math.max(0, math.floor(x0 or 0)), math.max(0, math.floor(y0 or 0))
    x1, y1 = math.min(w - 1, math.ceil(x1 or w - 1)), math.min(h - 1, math.ceil(y1 or h - 1))
    for y = y0, y1 do
      for x = x0, x1 do
        local n = 0
        for sy = 0, 3 do
          for sx = 0, 3 do
            if inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4) then n = n + 1 end
          end
        end
        if n > 0 then c.set(x, y, col[1], col[2], col[3], (col[4] or 1) * n / 16) end
      end
    end
  end
  function c.rect(x0, y0, x1, y1, col)
    c.fill(function(x, y) return x >= x0 and x < x1 and y >= y0 and y < y1 end, col, x0, y0, x1, y1)
  end
  function c.round_rect(x0, y0, x1, y1, r, col)
    c.fill(function(x, y)
      local cx = math.max(x0 + r, math.min(x1 - r, x))
      local cy = math.max(y0 + r, math.min(y1 - r, y))
      return (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r and x >= x0 and x <= x1 and y >= y0 and y <= y1
    end, col, x0, y0, x1, y1)
  end
  function c.circle(cx, cy, r, col)
    c.fill(function(x, y) return (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r end, col, cx - r, cy - r, cx + r, cy + r)
  end
  function c.ring(cx, cy, r, width, col)
    c.fill(function(x, y)
      local d = math.sqrt((x - cx) ^ 2 + (y - cy) ^ 2)
      return d <= r and d >= r - width
    end, col, cx - r, cy - r, cx + r, cy + r)
  end
  -- convex polygon, points {x1, y1, x2, y2, ...} clockwise on screen
  function c.poly(pts, col)
    local n = #pts // 2
    local function inside(x, y)
      local sign = 0
      for i = 1, n do
        local ax, ay = pts[2 * i - 1], pts[2 * i]
        local j = i % n + 1
        local bx, by = pts[2 * j - 1], pts[2 * j]
        local cr = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        local s = cr > 0 and 1 or -1
        if sign == 0 then sign = s elseif s ~= sign then return false end
      end
      return true
    end
    local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
    for i = 1, n do
      x0, x1 = math.min(x0, pts[2 * i - 1]), math.max(x1, pts[2 * i - 1])
      y0, y1 = math.min(y0, pts[2 * i]), math.max(y1, pts[2 * i])
    end
    c.fill(inside, col, x0, y0, x1, y1)
  end
  function c.line(ax, ay, bx, by, width, col)
    local dx, dy = bx - ax, by - ay
    local len2 = dx * dx + dy * dy
    c.fill(function(x, y)
      local t = math.max(0, math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2))
      local qx, qy = ax + t * dx, ay + t * dy
      return (x - qx) ^ 2 + (y - qy) ^ 2 <= (width / 2) ^ 2
    end, col, math.min(ax, bx) - width, math.min(ay, by) - width, math.max(ax, bx) + width, math.max(ay, by) + width)
  end
  function c.png()
    return encode.png(w, h, function(x, y)
      local p = px[y * w + x]
      if not p then return 0, 0, 0, 0 end
      return p[1], p[2], p[3], p[4]
    end)
  end
  -- draws fn(c, ox, oy, i) into frame i (0-based) of a horizontal strip
  function c.frames(count, fw, fn)
    for i = 0, count - 1 do fn(i * fw, i) end
  end
  return c
end

local function save(name, bytes)
  encode.write(here .. "/" .. name, bytes)
  print(string.format("%-14s %6d bytes", name, #bytes))
end

local function shade(col, k)
  return { col[1] * k, col[2] * k, col[3] * k, col[4] or 1 }
end

---------------------------------------------------------------- pictures

-- hero.png: 32x48 frames (0.8 x 1.2 m): idle, blink, run 1-3, jump
do
  local c = canvas(32 * 6, 48)
  local body = { 0.96, 0.56, 0.24 }
  local dark = { 0.45, 0.22, 0.10 }
  local legs = { 0.22, 0.20, 0.26 }
  local leg_x = { { 9, 18 }, { 9, 18 }, { 5, 20 }, { 10, 15 }, { 14, 11 }, { 7, 19 } }
  local leg_lift = { { 0, 0 }, { 0, 0 }, { 3, 0 }, { 0, 0 }, { 0, 3 }, { 4, 4 } }
  c.frames(6, 32, function(ox, i)
    local f = i + 1
    local bob = (f == 4) and 1 or 0
    for k = 1, 2 do
      local lx, lift = ox + leg_x[f][k], leg_lift[f][k]
      c.round_rect(lx, 36 - lift, lx + 6, 47 - lift, 2, legs)
    end
    c.round_rect(ox + 4, 4 + bob, ox + 28, 39 + bob, 6, dark)
    c.round_rect(ox + 5.5, 5.5 + bob, ox + 26.5, 37.5 + bob, 5, body)
    c.round_rect(ox + 7, 7 + bob, ox + 11, 33 + bob, 2, { 1, 0.75, 0.45, 0.7 })       -- highlight
    c.round_rect(ox + 10, 11 + bob, ox + 27, 23 + bob, 4, { 0.16, 0.18, 0.26 })       -- visor
    if f == 2 then
      c.rect(ox + 13, 17 + bob, ox + 18, 18 + bob, { 0.9, 0.95, 1 })
      c.rect(ox + 20, 17 + bob, ox + 25, 18 + bob, { 0.9, 0.95, 1 })
    else
      c.circle(ox + 16, 17 + bob, 3, { 0.92, 0.97, 1 })
      c.circle(ox + 23, 17 + bob, 3, { 0.92, 0.97, 1 })
      c.circle(ox + 17.2, 17 + bob, 1.4, { 0.1, 0.1, 0.15 })
      c.circle(ox + 24.2, 17 + bob, 1.4, { 0.1, 0.1, 0.15 })
    end
    c.rect(ox + 12, 28 + bob, ox + 24, 30 + bob, shade(body, 0.7))                    -- belt
    if f == 6 then -- arms up
      c.line(ox + 6, 20, ox + 1, 8, 3, dark)
      c.line(ox + 26, 20, ox + 31, 8, 3, dark)
    end
  end)
  save("hero.png", c.png())
end

-- platform.png: 7 x 0.5 m at 32 px/m
do
  local c = canvas(224, 16)
  c.rect(0, 0, 224, 16, { 0.23, 0.27, 0.34 })
  c.rect(0, 0, 224, 3, { 0.62, 0.72, 0.84 })
  c.rect(0, 3, 224, 4, { 0.40, 0.47, 0.58 })
  c.rect(0, 14, 224, 16, { 0.12, 0.14, 0.18 })
  for x = 0, 223, 32 do
    c.rect(x, 4, x + 1, 14, { 0.15, 0.17, 0.22 })
    c.circle(x + 6, 9, 1.6, { 0.55, 0.62, 0.72 })
    c.circle(x + 26, 9, 1.6, { 0.55, 0.62, 0.72 })
  end
  c.rect(0, 0, 1, 16, { 0.12, 0.14, 0.18 })
  c.rect(223, 0, 224, 16, { 0.12, 0.14, 0.18 })
  save("platform.png", c.png())
end

-- elevator.png: 6 x 0.4 m at 32 px/m (192 x 13), with hazard ends and arrows
do
  local c = canvas(192, 13)
  c.rect(0, 0, 192, 13, { 0.25, 0.42, 0.85 })
  c.rect(0, 0, 192, 2, { 0.62, 0.78, 1.0 })
  c.rect(0, 11, 192, 13, { 0.12, 0.2, 0.45 })
  for _, x0 in ipairs({ 0, 168 }) do
    c.rect(x0, 2, x0 + 24, 11, { 0.95, 0.78, 0.2 })
    c.fill(function(x, y) return (x + (11 - y)) % 8 < 4 end, { 0.12, 0.12, 0.14 }, x0, 2, x0 + 23, 10)
  end
  for _, x in ipairs({ 70, 96, 122 }) do
    c.poly({ x - 6, 8, x, 3, x + 6, 8 }, { 0.85, 0.92, 1.0 })
  end
  save("elevator.png", c.png())
end

-- pieces.png: 32x32 frames: triangle, square, circle dim; then the same lit
do
  local c = canvas(32 * 6, 32)
  local function shape(ox, kind, col, inset)
    if kind == 1 then
      c.poly({ ox + 16, 4 + inset, ox + 28 - inset, 26 - inset * 0.5, ox + 4 + inset, 26 - inset * 0.5 }, col)
    elseif kind == 2 then
      c.round_rect(ox + 6 + inset, 6 + inset, ox + 26 - inset, 26 - inset, 3, col)
    else
      c.circle(ox + 16, 16, 11 - inset, col)
    end
  end
  for kind = 1, 3 do
    local ox = (kind - 1) * 32
    shape(ox, kind, { 0.42, 0.48, 0.62 }, 0)
    shape(ox, kind, { 0.14, 0.16, 0.22 }, 2.5)
    c.circle(ox + 16, 17, 2, { 0.42, 0.48, 0.62 })
    ox = ox + 96
    c.circle(ox + 16, 16, 15.5, { 1, 0.85, 0.35, 0.25 })
    shape(ox, kind, { 0.85, 0.55, 0.1 }, 0)
    shape(ox, kind, { 1, 0.86, 0.32 }, 2)
    c.circle(ox + 13, 13, 3, { 1, 1, 0.9, 0.8 })
  end
  save("pieces.png", c.png())
end

-- switch.png: 32x32 frames: the lever left (field on, red), right (off, green)
do
  local c = canvas(64, 32)
  for i = 0, 1 do
    local ox = i * 32
    local tip = i == 0 and { ox + 8, 6 } or { ox + 24, 6 }
    local knob = i == 0 and { 1, 0.35, 0.3 } or { 0.4, 1, 0.5 }
    c.line(ox + 16, 24, tip[1], tip[2], 3, { 0.8, 0.82, 0.88 })
    c.circle(tip[1], tip[2], 4, shade(knob, 0.6))
    c.circle(tip[1], tip[2], 3, knob)
    c.round_rect(ox + 4, 22, ox + 28, 31, 2, { 0.2, 0.22, 0.27 })
    c.round_rect(ox + 5, 23, ox + 27, 30, 2, { 0.36, 0.39, 0.46 })
    c.circle(ox + 16, 26, 2.5, { 0.16, 0.17, 0.2 })
  end
  save("switch.png", c.png())
end

-- reward.png: 32x32 frames of a gem whose glint travels across it
do
  local c = canvas(32 * 4, 32)
  for i = 0, 3 do
    local ox = i * 32
    c.circle(ox + 16, 16, 15, { 1, 0.85, 0.3, 0.18 })
    c.poly({ ox + 16, 2, ox + 27, 14, ox + 16, 30, ox + 5, 14 }, { 0.85, 0.55, 0.05 })
    c.poly({ ox + 16, 4, ox + 25, 14, ox + 16, 27, ox + 7, 14 }, { 1, 0.8, 0.2 })
    c.poly({ ox + 16, 4, ox + 25, 14, ox + 16, 14 }, { 1, 0.93, 0.55 })
    c.poly({ ox + 7, 14, ox + 16, 14, ox + 16, 27 }, { 0.93, 0.62, 0.1 })
    local gx = ox + 8 + i * 5
    c.line(gx, 8, gx + 3, 11, 1.5, { 1, 1, 1, 0.9 })
  end
  save("reward.png", c.png())
end

-- bricks.png: one 32x32 tile (1 x 1 m) of the room's walls and floor
do
  local c = canvas(32, 32)
  c.rect(0, 0, 32, 32, { 0.16, 0.19, 0.2 })
  local rows = { { 0, 16 }, { 8, 24 } }
  for r = 0, 3 do
    local y0 = r * 8
    for _, x0 in ipairs(rows[r % 2 + 1]) do
      for _, x in ipairs({ x0 - 16, x0, x0 + 16 }) do
        c.rect(x + 1, y0 + 1, x + 16, y0 + 8, { 0.27, 0.33, 0.33 })
        c.rect(x + 1, y0 + 1, x + 16, y0 + 2, { 0.35, 0.42, 0.41 })
      end
    end
  end
  save("bricks.png", c.png())
end

---------------------------------------------------------------- sounds

local RATE = 22050

-- samples of fn(t) for length seconds
local function render(length, fn)
  local s = {}
  for i = 1, math.floor(length * RATE) do s[i] = fn((i - 1) / RATE) end
  return s
end

local function sweep(f0, f1, length, wave, decay)
  local phase = 0
  return render(length, function(t)
    local f = f0 + (f1 - f0) * t / length
    phase = phase + f / RATE
    local p = phase % 1
    local v
    if wave == "square" then v = p < 0.5 and 0.5 or -0.5
    elseif wave == "saw" then v = 2 * p - 1
    elseif wave == "triangle" then v = p < 0.5 and 4 * p - 1 or 3 - 4 * p
    else v = math.sin(2 * math.pi * p) end
    local env = math.min(1, t / 0.004) * math.exp(-t * (decay or 0))
    return 0.5 * v * env * math.min(1, (length - t) / 0.02)
  end)
end

local function bell(f, length)
  return render(length, function(t)
    local v = math.sin(2 * math.pi * f * t) + 0.5 * math.sin(2 * math.pi * 2.01 * f * t)
      + 0.25 * math.sin(2 * math.pi * 3.02 * f * t)
    return 0.35 * v * math.min(1, t / 0.003) * math.exp(-t * 6)
  end)
end

local function mix(...)
  local out = {}
  for _, part in ipairs({ ... }) do
    local s, at = part[1], math.floor((part[2] or 0) * RATE)
    for i = 1, #s do out[at + i] = (out[at + i] or 0) + s[i] end
  end
  for i = 1, #out do out[i] = out[i] or 0 end
  return out
end

local noise_state = 12345
local function noise(length, decay)
  return render(length, function(t)
    noise_state = (noise_state * 1103515245 + 12345) % 2147483648
    return (noise_state / 2147483648 - 0.5) * math.exp(-t * decay)
  end)
end

save("jump.wav", encode.wav(sweep(260, 720, 0.14, "square", 12), RATE))
save("switch.wav", encode.wav(mix({ noise(0.05, 60) }, { sweep(420, 420, 0.08, "square", 20), 0.04 },
  { sweep(840, 840, 0.14, "square", 14), 0.11 }), RATE))
save("lock.wav", encode.wav(bell(880, 0.6), RATE))
save("wrong.wav", encode.wav(sweep(190, 110, 0.35, "saw", 4), RATE))
save("reset.wav", encode.wav(sweep(900, 160, 0.6, "triangle", 2), RATE))
save("open.wav", encode.wav(mix({ bell(523, 0.5) }, { bell(659, 0.5), 0.09 }, { bell(784, 0.7), 0.18 }), RATE))

-- the jingle goes out as OGG (Vorbis) when oggenc is there
local notes = { 523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5 }
local parts = {}
for i, f in ipairs(notes) do parts[#parts + 1] = { bell(f, i == #notes and 1.2 or 0.5), (i - 1) * 0.14 } end
parts[#parts + 1] = { bell(523.25 / 2, 1.6), 0.7 }
local jingle = encode.wav(mix(table.unpack(parts)), RATE)
local tmp = os.tmpname() .. ".wav"
encode.write(tmp, jingle)
local ok = os.execute(string.format("oggenc -Q -q 1 -o '%s/win.ogg' '%s' 2>/dev/null", here, tmp))
os.remove(tmp)
if ok then
  local f = assert(io.open(here .. "/win.ogg", "rb"))
  print(string.format("%-14s %6d bytes", "win.ogg", #f:read("a")))
  f:close()
else
  print("oggenc not found (apt install vorbis-tools): win.ogg left as it was")
end
