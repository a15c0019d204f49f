-- Fixture for kit_save.sh: tumble.save and tumble.load_save round trips,
-- names, what cannot be saved, and damaged files (the script puts them in
-- the save folder first). Prints "check NAME" for each group.
local level = {}

local function expect_error(pattern, fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "no error, expected " .. pattern)
  assert(tostring(err):find(pattern, 1, true), "expected '" .. pattern .. "', got: " .. tostring(err))
end

local function same(a, b, path)
  path = path or "value"
  assert(type(a) == type(b), path .. ": " .. type(a) .. " vs " .. type(b))
  if type(a) ~= "table" then
    assert(a == b and math.type(a) == math.type(b), path .. ": " .. tostring(a) .. " vs " .. tostring(b))
    return
  end
  for k, v in pairs(a) do same(v, b[k], path .. "." .. tostring(k)) end
  for k in pairs(b) do assert(a[k] ~= nil, path .. ": extra key " .. tostring(k)) end
end

function level.load(world)
  assert(tumble.load_save("nothing") == nil, "no save yet: nil")
  local data = {
    level = 3, best = { 12.5, 14, 0.1, -1e300, 2 ^ 53 }, name = "Ada \"the\" \\ Lovelace\n\0\1\127 é",
    done = true, lost = false, [7] = "seven", [2.5] = "two and a half", [true] = "yes",
    nested = { a = { b = { c = { "deep" } } } }, empty = {}, int = math.mininteger, float = 3.0,
  }
  assert(tumble.save("progress", data) == true)
  same(data, tumble.load_save("progress"))
  assert(math.type(tumble.load_save("progress").float) == "float", "3.0 stays a float")
  tumble.save("progress", { level = 4 })
  same({ level = 4 }, tumble.load_save("progress"))
  tumble.save("a-b_c.1", "a plain string")
  assert(tumble.load_save("a-b_c.1") == "a plain string")
  print("check round_trip")

  for _, bad in ipairs({ "", "../x", "a/b", "..", ".hidden", "a..b", ("n"):rep(65), "nul\0x", "sp ace" }) do
    expect_error("bad save name", tumble.save, bad, {})
    expect_error("bad save name", tumble.load_save, bad)
  end
  expect_error("tumble.save: a save's name (string) expected, got number", tumble.save, 1, {})
  expect_error("tumble.save: a value to save expected", tumble.save, "x")
  print("check names")

  local cyc = { a = {} }
  cyc.a.back = cyc
  expect_error("tumble.save: save.a.back: a cycle", tumble.save, "cyc", cyc)
  expect_error("tumble.save: save.f: cannot save a function", tumble.save, "fn", { f = print })
  expect_error("tumble.save: save.list[2]: cannot save a userdata", tumble.save, "ud", { list = { 1, world } })
  expect_error("tumble.save: save.x: cannot save NaN", tumble.save, "nan", { x = 0 / 0 })
  expect_error("tumble.save: save.x: cannot save an infinite number", tumble.save, "inf", { x = math.huge })
  expect_error("cannot save a table as a key", tumble.save, "tk", { [{}] = 1 })
  expect_error("tumble.save: more than 1048576 bytes", tumble.save, "big", { ("x"):rep(2 * 1024 * 1024) })
  local deep = {}
  for _ = 1, 100 do deep = { deep } end
  expect_error("tables nested more than 64 deep", tumble.save, "deep", deep)
  -- a shared subtable is not a cycle: written twice
  local shared = { 1 }
  tumble.save("shared", { shared, shared })
  same({ { 1 }, { 1 } }, tumble.load_save("shared"))
  -- metamethods are not run: the raw contents are saved
  local proxy = setmetatable({ raw = 1 }, { __index = function() error("ran __index") end,
    __pairs = function() error("ran __pairs") end })
  tumble.save("proxy", proxy)
  same({ raw = 1 }, tumble.load_save("proxy"))
  assert(tumble.load_save("cyc") == nil and tumble.load_save("big") == nil, "a refused save writes nothing")
  print("check refused")

  expect_error("save 'code' is damaged (line 2: a value expected", tumble.load_save, "code")
  expect_error("save 'open' is damaged (line 1: a table without its closing '}')", tumble.load_save, "open")
  expect_error("save 'trail' is damaged (line 1: more after the value)", tumble.load_save, "trail")
  expect_error("save 'esc' is damaged (line 1: an unknown escape", tumble.load_save, "esc")
  expect_error("is not a regular file", tumble.load_save, "dir")
  expect_error("is damaged (line 1: tables nested too deep)", tumble.load_save, "nest")
  assert(not CODE_RAN, "a save is never run as code")
  print("check damaged")
  tumble.exit(0, "saves ok")
end

return level
