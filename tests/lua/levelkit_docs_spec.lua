-- levelkit's documentation against levelkit: every function and table of
-- require "levelkit", every method of its generator and every palette entry
-- is typed in lua/tumble.d.lua (the levelkit part) and named in
-- lua/LEVELKIT.md, and neither documents one that does not exist.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "../../lua/?.lua;" .. package.path
local levelkit = require "levelkit"

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  return text
end

local dlua = read(here .. "../../lua/tumble.d.lua")
local page = read(here .. "../../lua/LEVELKIT.md")

local function sorted(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- the ---@field names of one ---@class block
local function class_fields(name)
  local fields = {}
  local inside = false
  for line in (dlua .. "\n"):gmatch("([^\n]*)\n") do
    local cls = line:match("^%-%-%-@class%s+([%w_.]+)")
    if cls then
      inside = cls == name
    elseif inside then
      local f = line:match("^%-%-%-@field%s+([%a_][%w_]*)")
      if f then fields[f] = true elseif not line:match("^%-%-%-") then inside = false end
    end
  end
  return fields
end

local function functions_of(prefix, sep)
  local out = {}
  for name in dlua:gmatch("\nfunction " .. prefix .. "%" .. sep .. "([%a_][%w_]*)%s*%(") do out[name] = true end
  return out
end

describe("levelkit's documentation", function()
  local typed = functions_of("levelkit", ".")
  local fields = class_fields("levelkit")

  it("types and describes every function and table of the module", function()
    local problems = {}
    for _, name in ipairs(sorted(levelkit)) do
      local v = levelkit[name]
      if type(v) == "function" and not typed[name] then
        problems[#problems + 1] = "levelkit." .. name .. ": no function levelkit." .. name .. "() in tumble.d.lua"
      elseif type(v) ~= "function" and not fields[name] then
        problems[#problems + 1] = "levelkit." .. name .. ": no ---@field " .. name .. " in ---@class levelkit"
      end
      if not page:find("levelkit." .. name, 1, true) then
        problems[#problems + 1] = "levelkit." .. name .. ": not in LEVELKIT.md"
      end
    end
    assert.are.same({}, problems)
  end)

  it("documents nothing levelkit does not have", function()
    local problems = {}
    for _, name in ipairs(sorted(typed)) do
      if type(levelkit[name]) ~= "function" then problems[#problems + 1] = "function levelkit." .. name end
    end
    for _, name in ipairs(sorted(fields)) do
      if levelkit[name] == nil then problems[#problems + 1] = "---@field " .. name end
    end
    for name in page:gmatch("`levelkit%.([%a_][%w_]*)") do
      if levelkit[name] == nil then problems[#problems + 1] = "LEVELKIT.md: levelkit." .. name end
    end
    assert.are.same({}, problems)
  end)

  it("covers the generator's methods and the palette", function()
    local problems = {}
    local rng = levelkit.rng(3)
    local methods = functions_of("Rng", ":")
    for _, name in ipairs(sorted(getmetatable(rng).__index)) do
      if name:sub(1, 2) ~= "__" then
        if not methods[name] then problems[#problems + 1] = "no function Rng:" .. name .. "() in tumble.d.lua" end
        if not page:find("r:" .. name .. "(", 1, true) then problems[#problems + 1] = "r:" .. name .. "() not in LEVELKIT.md" end
      end
    end
    for _, name in ipairs(sorted(methods)) do
      if rng[name] == nil then problems[#problems + 1] = "Rng:" .. name .. "(): no such method" end
    end
    local palette = class_fields("levelkit.Palette")
    for _, name in ipairs(sorted(levelkit.colors)) do
      if not palette[name] then problems[#problems + 1] = "colors." .. name .. ": not in ---@class levelkit.Palette" end
      if not page:find("`" .. name .. "`", 1, true) then problems[#problems + 1] = "colors." .. name .. ": not in LEVELKIT.md" end
    end
    for _, name in ipairs(sorted(palette)) do
      if levelkit.colors[name] == nil then problems[#problems + 1] = "---@field " .. name .. " of levelkit.Palette: no such colour" end
    end
    assert.are.same({}, problems)
  end)
end)
