-- host_api_dump: a level (run by host_docs_spec.lua as
-- `tumble --headless --frames 1 --quiet host_api_dump.lua`) that prints what
-- the host really has, as a Lua chunk: the names in its tables (tumble, input,
-- gfx, camera) before any level code could touch them, and what
-- tumble._host_introspect() reads from the arrays the host dispatches on.
local api = tumble._host_introspect()

local function members(t)
  local out = {}
  for k, v in pairs(t) do
    if type(k) == "string" then out[k] = type(v) end
  end
  return out
end
api.tumble = members(tumble)
api.input = members(tumble.input)
api.gfx = members(tumble.gfx)
api.camera = members(tumble.camera)

local function dump(v, indent)
  if type(v) ~= "table" then return string.format("%q", v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  local parts = {}
  for _, k in ipairs(keys) do
    local key = type(k) == "number" and "" or string.format("[%q] = ", k)
    parts[#parts + 1] = indent .. "  " .. key .. dump(v[k], indent .. "  ")
  end
  return "{\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "}"
end

io.write("return ", dump(api, ""), "\n")
tumble.exit(0)
return {}
