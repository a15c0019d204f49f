-- encode: PNG and WAV writers in plain Lua 5.4, so a level's art and sound
-- can be made by a script (see make_assets.lua) and tests can make the files
-- they load. PNGs are RGBA, deflated with fixed Huffman codes and a small
-- LZ77 (pixel art is mostly runs and repeated rows, which that catches).
local encode = {}

---------------------------------------------------------------- checksums

local crc_table = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do
    if c & 1 ~= 0 then c = 0xEDB88320 ~ (c >> 1) else c = c >> 1 end
  end
  crc_table[i] = c
end

local function crc32(s)
  local c = 0xFFFFFFFF
  for i = 1, #s do c = crc_table[(c ~ s:byte(i)) & 0xFF] ~ (c >> 8) end
  return c ~ 0xFFFFFFFF
end

local function adler32(s)
  local a, b = 1, 0
  for i = 1, #s do
    a = (a + s:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end

---------------------------------------------------------------- deflate

-- A bit writer, least significant bit first (deflate's order).
local function bits()
  local out, acc, n = {}, 0, 0
  local w = {}
  function w.put(value, count)
    acc = acc | (value << n)
    n = n + count
    while n >= 8 do
      out[#out + 1] = string.char(acc & 0xFF)
      acc, n = acc >> 8, n - 8
    end
  end
  -- Huffman codes go most significant bit first
  function w.code(code, len)
    local r = 0
    for _ = 1, len do
      r = (r << 1) | (code & 1)
      code = code >> 1
    end
    w.put(r, len)
  end
  function w.finish()
    if n > 0 then out[#out + 1] = string.char(acc & 0xFF) end
    return table.concat(out)
  end
  return w
end

local function literal(w, v)
  if v < 144 then w.code(0x30 + v, 8)
  elseif v < 256 then w.code(0x190 + v - 144, 9)
  elseif v < 280 then w.code(v - 256, 7)
  else w.code(0xC0 + v - 280, 8) end
end

local LEN_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                  131, 163, 195, 227, 258}
local LEN_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
local DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                   2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
local DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

local function match(w, len, dist)
  local i = #LEN_BASE
  while LEN_BASE[i] > len do i = i - 1 end
  literal(w, 256 + i)
  if LEN_EXTRA[i] > 0 then w.put(len - LEN_BASE[i], LEN_EXTRA[i]) end
  local j = #DIST_BASE
  while DIST_BASE[j] > dist do j = j - 1 end
  w.code(j - 1, 5)
  if DIST_EXTRA[j] > 0 then w.put(dist - DIST_BASE[j], DIST_EXTRA[j]) end
end

-- One fixed-Huffman block; matches are looked for at a few distances (the
-- previous pixel, the previous row) and at the last place the same three
-- bytes were seen.
local function deflate(data, stride)
  local w = bits()
  w.put(1, 1) -- final block
  w.put(1, 2) -- fixed Huffman
  local n = #data
  local last = {}
  local i = 1
  while i <= n do
    local best_len, best_dist = 0, 0
    if i + 2 <= n then
      local key = data:sub(i, i + 2)
      local candidates = {4, 1, stride, last[key] and (i - last[key]) or nil}
      for _, d in ipairs(candidates) do
        if d and d >= 1 and d <= 32768 and i - d >= 1 then
          local len = 0
          while len < 258 and i + len <= n and data:byte(i + len) == data:byte(i + len - d) do len = len + 1 end
          if len > best_len then best_len, best_dist = len, d end
        end
      end
      last[key] = i
    end
    if best_len >= 3 then
      match(w, best_len, best_dist)
      for k = i + 1, math.min(i + best_len - 1, n - 2) do last[data:sub(k, k + 2)] = k end
      i = i + best_len
    else
      literal(w, data:byte(i))
      i = i + 1
    end
  end
  literal(w, 256)
  return w.finish()
end

---------------------------------------------------------------- PNG

local function chunk(kind, body)
  return string.pack(">I4", #body) .. kind .. body .. string.pack(">I4", crc32(kind .. body))
end

-- encode.png(w, h, pixel) -> the bytes of an RGBA PNG; pixel(x, y) returns
-- r, g, b, a in 0..1 for x in 0..w-1, y in 0..h-1 from the top-left.
function encode.png(w, h, pixel)
  local rows = {}
  for y = 0, h - 1 do
    local row = {"\0"} -- filter: none
    for x = 0, w - 1 do
      local r, g, b, a = pixel(x, y)
      local function byte(v) return math.floor(math.max(0, math.min(1, v or 1)) * 255 + 0.5) end
      row[#row + 1] = string.char(byte(r), byte(g), byte(b), byte(a))
    end
    rows[#rows + 1] = table.concat(row)
  end
  local raw = table.concat(rows)
  local z = "\x78\x01" .. deflate(raw, w * 4 + 1) .. string.pack(">I4", adler32(raw))
  return "\x89PNG\r\n\x1a\n" .. chunk("IHDR", string.pack(">I4I4BBBBB", w, h, 8, 6, 0, 0, 0)) ..
    chunk("IDAT", z) .. chunk("IEND", "")
end

---------------------------------------------------------------- WAV

-- encode.wav(samples, rate) -> the bytes of a 16-bit mono WAV; samples are
-- numbers in -1..1.
function encode.wav(samples, rate)
  rate = rate or 22050
  local parts = {}
  for i = 1, #samples do
    local v = math.max(-1, math.min(1, samples[i]))
    parts[i] = string.pack("<i2", math.floor(v * 32767 + 0.5))
  end
  local data = table.concat(parts)
  return "RIFF" .. string.pack("<I4", 36 + #data) .. "WAVE" ..
    "fmt " .. string.pack("<I4I2I2I4I4I2I2", 16, 1, 1, rate, rate * 2, 2, 16) ..
    "data" .. string.pack("<I4", #data) .. data
end

function encode.write(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end

return encode
