-- The host's documentation against the host: the part of lua/REFERENCE.md
-- after "# The host" and the part of lua/tumble.d.lua after "-- ==== The host"
-- must name every callback, field and function of the host's tables, every
-- Image and Sound member, every option key and every command-line option the
-- host really has, and nothing it does not have. What the host has comes from
-- the host itself: tests/lua/host_api_dump.lua runs as a level and prints its
-- tables and tumble._host_introspect() (the arrays the host dispatches on);
-- the options come from `tumble --help`. A host function added in C without
-- documentation fails here, and so does documentation of one that is gone.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local h = dofile(here .. "helpers.lua")
local module = h.tumble

local ROOT = here .. "../../"
local BIN = os.getenv("TUMBLE_BIN") or (ROOT .. "tumble")

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  return text
end

local function run(cmd)
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

local function set_of(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

local function hidden(name) return name:sub(1, 1) == "_" end

---------------------------------------------------------------------------
-- what the host has

local function host_api()
  local out, ok = run(string.format("'%s' --headless --frames 1 --quiet '%shost_api_dump.lua'", BIN, here))
  assert(ok, "the host did not run host_api_dump.lua:\n" .. out)
  local chunk = assert(load(out, "=host_api_dump", "t", {}))
  local api = chunk()
  -- the host's own members of tumble: the ones tumble.so does not have
  api.host = {}
  for name, kind in pairs(api.tumble) do
    if module[name] == nil then api.host[name] = kind end
  end
  local help = run(string.format("'%s' --help", BIN))
  api.options = {}
  for opt in help:gmatch("%f[%w-]%-%-([%a][%w-]*)") do api.options[opt] = true end
  return api
end

---------------------------------------------------------------------------
-- what lua/tumble.d.lua says (its host part)

local function host_part_dlua(text)
  local i = assert(text:find("\n%-%- ==== The host"), "lua/tumble.d.lua has no '-- ==== The host' part")
  return text:sub(i)
end

-- classes[name] = {fields = set, methods = set, parent = name}; functions[table] = set
-- ("tumble", "tumble.input", ...); aliases[name] = list
local function parse_dlua(text)
  local classes, functions, aliases, locals = {}, {}, {}, {}
  local current
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local cls, parent = line:match("^%-%-%-@class%s+([%w_.]+)%s*:?%s*([%w_.]*)")
    local field = line:match("^%-%-%-@field%s+([%a_][%w_]*)%??%s")
    local alias, values = line:match("^%-%-%-@alias%s+([%w_.]+)%s+(.*)$")
    if cls then
      current = cls
      classes[cls] = classes[cls] or { fields = {}, methods = {} }
      if parent ~= "" then classes[cls].parent = parent end
    elseif field and current then
      classes[current].fields[field] = true
    elseif alias then
      aliases[alias] = {}
      for v in values:gmatch('"([^"]*)"') do table.insert(aliases[alias], v) end
    elseif not line:match("^%-%-%-") then
      local lname = line:match("^local%s+([%a_][%w_]*)%s*=%s*{%s*}")
      if lname and current then locals[lname] = current end
      current = nil
    end
    local owner, name = line:match("^function%s+([%a_][%w_.]*)%.([%a_][%w_]*)%s*%(")
    if owner then
      functions[owner] = functions[owner] or {}
      functions[owner][name] = true
    end
    local obj, method = line:match("^function%s+([%a_][%w_]*):([%a_][%w_]*)%s*%(")
    if obj then
      local c = locals[obj] or obj
      classes[c] = classes[c] or { fields = {}, methods = {} }
      classes[c].methods[method] = true
    end
  end
  return { classes = classes, functions = functions, aliases = aliases }
end

---------------------------------------------------------------------------
-- what lua/REFERENCE.md says (its host part)

local function host_part_ref(text)
  local i = assert(text:find("\n# The host\n", 1, true), "lua/REFERENCE.md has no '# The host' part")
  return text:sub(i):gsub("```.-```", "")
end

-- sections["Images"] = its text (up to the next "## "), "###" subsections too
local function parse_ref(text)
  local sections, sec, sub = {}, nil, nil
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local h2 = line:match("^##%s+(.-)%s*$")
    local h3 = line:match("^###%s+(.-)%s*$")
    if h3 then
      sub = h3
      sections[sub] = ""
    elseif h2 then
      sec, sub = h2, nil
      sections[sec] = ""
    end
    if sec then sections[sec] = sections[sec] .. line .. "\n" end
    if sub then sections[sub] = sections[sub] .. line .. "\n" end
  end
  return { sections = sections, all = text }
end

local function spans(text)
  local list = {}
  for s in text:gmatch("`([^`\n]+)`") do list[#list + 1] = s end
  return list
end

-- is `name` in some span of text right after prefix (a plain string)?
local function mentions(text, prefix, name)
  for _, s in ipairs(spans(text)) do
    local i = 1
    while true do
      local a, b = s:find(prefix .. name, i, true)
      if not a then break end
      local before, after = s:sub(a - 1, a - 1), s:sub(b + 1, b + 1)
      local word_start = prefix ~= "" or not before:match("[%w_]")
      if word_start and not after:match("[%w_]") then return true end
      i = b + 1
    end
  end
  -- enumeration values may be bold: **sine**
  if prefix == "" then
    for b in text:gmatch("%*%*([^*\n]+)%*%*") do
      if b == name then return true end
    end
  end
  return false
end

---------------------------------------------------------------------------
-- the checks, as one function of (api, dlua, ref) so the spec can show that
-- each kind of undocumented name is caught

local function union(...)
  local s = {}
  for _, t in ipairs({ ... }) do
    for k in pairs(t or {}) do s[k] = true end
  end
  return s
end

local function keys_of(t, kind)
  local s = {}
  for k, v in pairs(t) do
    if (kind == nil or v == kind) and not hidden(k) then s[k] = true end
  end
  return s
end

local function class_fields(dl, name, with_parent)
  local c = dl.classes[name]
  if not c then return nil end
  local s = union(c.fields)
  if with_parent and c.parent then s = union(s, class_fields(dl, c.parent, true)) end
  return s
end

local function problems_of(api, dl, ref)
  local problems = {}
  local function add(fmt, ...) problems[#problems + 1] = string.format(fmt, ...) end

  -- one category: the names the host has, the names tumble.d.lua has (nil:
  -- not annotated there), the section of REFERENCE.md and how it is written
  local function category(c)
    local have = c.names
    local text = ref.sections[c.section]
    if not text then
      add("REFERENCE.md: no section '%s'", c.section)
      text = ""
    end
    for _, name in ipairs(sorted(have)) do
      if not mentions(text, c.prefix, name) then
        add("%s '%s': not in section '%s' of REFERENCE.md (as `%s%s`)", c.what, name, c.section, c.prefix, name)
      end
      if c.dlua and not c.dlua[name] then add("%s '%s': not in tumble.d.lua (%s)", c.what, name, c.where) end
    end
    if c.dlua then
      for _, name in ipairs(sorted(c.dlua)) do
        if not have[name] and not (c.dlua_extra or {})[name] then
          add("%s '%s': in tumble.d.lua (%s) but the host has no such thing", c.what, name, c.where)
        end
      end
    end
  end

  local host_functions = keys_of(api.host, "function")
  local host_fields = union(keys_of(api.host, "table"), keys_of(api.host, "number"), keys_of(api.host, "boolean"))
  category{ what = "tumble function", names = host_functions, section = "Host fields", prefix = "tumble.",
            dlua = (function() local s = union(dl.functions.tumble) for k in pairs(s) do if module[k] ~= nil or hidden(k) then s[k] = nil end end return s end)(),
            where = "function tumble.NAME()" }
  category{ what = "tumble field", names = host_fields, section = "Host fields", prefix = "tumble.",
            dlua = class_fields(dl, "tumble"), where = "---@field of ---@class tumble" }
  category{ what = "input function", names = keys_of(api.input, "function"), section = "Input", prefix = "tumble.input.",
            dlua = dl.functions["tumble.input"] or {}, where = "function tumble.input.NAME()" }
  category{ what = "gfx function", names = keys_of(api.gfx, "function"), section = "Drawing", prefix = "gfx.",
            dlua = dl.functions["tumble.gfx"] or {}, where = "function tumble.gfx.NAME()" }
  category{ what = "camera function", names = keys_of(api.camera, "function"), section = "Camera", prefix = "tumble.camera.",
            dlua = dl.functions["tumble.camera"] or {}, where = "function tumble.camera.NAME()" }
  category{ what = "camera field", names = keys_of(api.camera, "number"), section = "Camera", prefix = "tumble.camera.",
            dlua = class_fields(dl, "tumble.Camera") or {}, where = "---@field of tumble.Camera" }
  category{ what = "callback", names = set_of(api.callbacks), section = "Levels", prefix = "",
            dlua = class_fields(dl, "tumble.Level") or {}, dlua_extra = { conf = true, state = true },
            where = "---@field of tumble.Level" }
  category{ what = "Image property", names = set_of(api.image.properties), section = "Images", prefix = "img.",
            dlua = class_fields(dl, "tumble.Image") or {}, where = "---@field of tumble.Image" }
  category{ what = "Image method", names = set_of(api.image.methods), section = "Images", prefix = "img:",
            dlua = dl.classes["tumble.Image"] and dl.classes["tumble.Image"].methods or {}, where = "function Image:NAME()" }
  category{ what = "Sound property", names = set_of(api.sound.properties), section = "Sound", prefix = "snd.",
            dlua = class_fields(dl, "tumble.Sound") or {}, where = "---@field of tumble.Sound" }
  category{ what = "Sound method", names = set_of(api.sound.methods), section = "Sound", prefix = "snd:",
            dlua = dl.classes["tumble.Sound"] and dl.classes["tumble.Sound"].methods or {}, where = "function Sound:NAME()" }
  category{ what = "image option", names = set_of(api.image_options), section = "Images", prefix = "",
            dlua = class_fields(dl, "tumble.ImageOptions") or {}, where = "tumble.ImageOptions" }
  category{ what = "draw option", names = set_of(api.draw_options), section = "Images", prefix = "",
            dlua = class_fields(dl, "tumble.DrawOptions") or {}, where = "tumble.DrawOptions" }
  category{ what = "sprite key", names = set_of(api.sprite_options), section = "Images", prefix = "",
            dlua = class_fields(dl, "tumble.SpriteOptions", true) or {}, where = "tumble.SpriteOptions" }
  category{ what = "play option", names = set_of(api.play_options), section = "Sound", prefix = "",
            dlua = class_fields(dl, "tumble.PlayOptions") or {}, where = "tumble.PlayOptions" }
  category{ what = "beep option", names = set_of(api.beep_options), section = "Sound", prefix = "",
            dlua = class_fields(dl, "tumble.BeepOptions") or {}, where = "tumble.BeepOptions" }
  category{ what = "wave", names = set_of(api.waves), section = "Sound", prefix = "",
            dlua = set_of(dl.aliases["tumble.Wave"] or {}), where = "---@alias tumble.Wave" }
  category{ what = "conf key", names = set_of(api.conf), section = "level.conf", prefix = "",
            dlua = class_fields(dl, "tumble.Conf") or {}, where = "tumble.Conf" }
  category{ what = "conf camera key", names = set_of(api.conf_camera), section = "level.conf", prefix = "",
            dlua = class_fields(dl, "tumble.ConfCamera") or {}, where = "tumble.ConfCamera" }
  category{ what = "conf layer", names = set_of(api.conf_layers), section = "level.conf", prefix = "",
            dlua = class_fields(dl, "tumble.ConfLayers") or {}, where = "tumble.ConfLayers" }
  category{ what = "command-line option", names = api.options, section = "Command line", prefix = "--" }
  -- drawing's own types: each in its subsection of Drawing
  for _, t in ipairs({
    { what = "Font", key = "font", section = "Text and fonts", var = "font", class = "tumble.Font" },
    { what = "Canvas", key = "canvas", section = "Canvases", var = "canvas", class = "tumble.Canvas" },
    { what = "SpriteBatch", key = "batch", section = "Sprite batches", var = "batch", class = "tumble.SpriteBatch" },
    { what = "Particles", key = "particles", section = "Particles", var = "ps", class = "tumble.Particles" },
  }) do
    local have = api[t.key] or { properties = {}, methods = {} }
    category{ what = t.what .. " property", names = set_of(have.properties), section = t.section,
              prefix = t.var .. ".", dlua = class_fields(dl, t.class) or {}, where = "---@field of " .. t.class }
    category{ what = t.what .. " method", names = set_of(have.methods), section = t.section, prefix = t.var .. ":",
              dlua = dl.classes[t.class] and dl.classes[t.class].methods or {}, where = "function " .. t.what .. ":NAME()" }
  end
  category{ what = "canvas option", names = set_of(api.canvas_options or {}), section = "Canvases", prefix = "",
            dlua = class_fields(dl, "tumble.CanvasOptions") or {}, where = "tumble.CanvasOptions" }
  category{ what = "particle setting", names = set_of(api.particle_settings or {}), section = "Particles", prefix = "",
            dlua = class_fields(dl, "tumble.ParticleSettings") or {}, where = "tumble.ParticleSettings" }

  -- the other way: names in the host part of REFERENCE.md that do not exist
  local seen = {}
  local function stale(fmt, ...)
    local msg = string.format(fmt, ...)
    if not seen[msg] then
      seen[msg] = true
      problems[#problems + 1] = msg
    end
  end
  local known = {
    ["tumble.input."] = keys_of(api.input),
    ["tumble.camera."] = keys_of(api.camera),
    ["gfx."] = keys_of(api.gfx),
    ["img."] = set_of(api.image.properties), ["img:"] = set_of(api.image.methods),
    ["snd."] = set_of(api.sound.properties), ["snd:"] = set_of(api.sound.methods),
  }
  for key, var in pairs({ font = "font", canvas = "canvas", batch = "batch", particles = "ps" }) do
    if api[key] then
      known[var .. "."] = set_of(api[key].properties)
      known[var .. ":"] = set_of(api[key].methods)
    end
  end
  for _, s in ipairs(spans(ref.all)) do
    if s:match("%.so$") or s:match("%.lua$") or s:match("%.md$") then s = "" end -- file names
    for prefix, names in pairs(known) do
      local pattern = "%f[%w_]" .. prefix:gsub("%.", "%%."):gsub(":", "%%:") .. "([%a_][%w_]*)"
      for name in s:gmatch(pattern) do
        if not names[name] then stale("REFERENCE.md names `%s`: the host has no %s%s", s, prefix, name) end
      end
    end
    for name in s:gmatch("%f[%w_]tumble%.([%a_][%w_]*)") do
      if module[name] == nil and api.host[name] == nil then
        stale("REFERENCE.md names `%s`: neither tumble.so nor the host has tumble.%s", s, name)
      end
    end
    for opt in s:gmatch("%f[%w-]%-%-([%a][%w-]*)") do
      if not api.options[opt] then stale("REFERENCE.md names `%s`: tumble --help has no --%s", s, opt) end
    end
  end
  return problems
end

local function assert_none(problems, what)
  if #problems > 0 then error(what .. ":\n  " .. table.concat(problems, "\n  "), 2) end
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local c = {}
  for k, x in pairs(v) do c[k] = copy(x) end
  return c
end

local function mentions_in(problems, text)
  for _, p in ipairs(problems) do
    if p:find(text, 1, true) then return true end
  end
  return false
end

---------------------------------------------------------------------------

describe("the host's documentation", function()
  local api = host_api()
  local dlua_text = host_part_dlua(read(ROOT .. "lua/tumble.d.lua"))
  local ref_text = host_part_ref(read(ROOT .. "lua/REFERENCE.md"))
  local dl, ref = parse_dlua(dlua_text), parse_ref(ref_text)

  it("reads what the host really has", function()
    -- the dump is only worth what it agrees with
    for _, name in ipairs({ "exit", "sound", "beep", "input", "gfx", "camera", "frame", "headless" }) do
      assert.is_not_nil(api.host[name], "the host's tumble." .. name .. " is missing from the dump")
    end
    assert.are.equal("function", api.gfx.image)
    assert.are.equal("function", api.input.down)
    assert.truthy(set_of(api.callbacks).textinput and set_of(api.callbacks).resize)
    assert.truthy(api.options.screenshot and api.options.sandbox)
    assert.is_nil(api.host.world, "tumble.world is the module's, not the host's")
  end)

  it("documents everything the host has, and nothing it does not", function()
    assert_none(problems_of(api, dl, ref), "the host part of lua/REFERENCE.md and lua/tumble.d.lua")
  end)

  -- each kind of name added to the host without documentation is caught
  local added = {
    { "a gfx function", function(a) a.gfx.sparkle = "function" end, "gfx function 'sparkle'" },
    { "an input function", function(a) a.input.shake = "function" end, "input function 'shake'" },
    { "a tumble function", function(a) a.host.vibrate = "function" end, "tumble function 'vibrate'" },
    { "a camera function", function(a) a.camera.zoom_to = "function" end, "camera function 'zoom_to'" },
    { "a callback", function(a) table.insert(a.callbacks, "focus") end, "callback 'focus'" },
    { "an Image method", function(a) table.insert(a.image.methods, "crop") end, "Image method 'crop'" },
    { "a Sound property", function(a) table.insert(a.sound.properties, "reverb") end, "Sound property 'reverb'" },
    { "a draw option", function(a) table.insert(a.draw_options, "skew") end, "draw option 'skew'" },
    { "a conf key", function(a) table.insert(a.conf, "vsync") end, "conf key 'vsync'" },
    { "a wave", function(a) table.insert(a.waves, "pulse") end, "wave 'pulse'" },
    { "a command-line option", function(a) a.options["no-sound"] = true end, "command-line option 'no-sound'" },
  }
  for _, case in ipairs(added) do
    it("fails when " .. case[1] .. " is added without documentation", function()
      local a = copy(api)
      case[2](a)
      local problems = problems_of(a, dl, ref)
      assert.truthy(mentions_in(problems, case[3] .. ": not in section"), "REFERENCE.md check missed it:\n" ..
        table.concat(problems, "\n"))
      if case[3]:find("command") == nil then
        assert.truthy(mentions_in(problems, case[3] .. ": not in tumble.d.lua"), "tumble.d.lua check missed it")
      end
    end)
  end

  it("fails when the docs name a host function that does not exist", function()
    local bad_ref = parse_ref(ref_text .. "\n## Drawing\n`gfx.sparkle(x, y)` and `tumble.input.shake()` and `--no-sound`\n")
    local problems = problems_of(api, dl, bad_ref)
    assert.truthy(mentions_in(problems, "the host has no gfx.sparkle"), table.concat(problems, "\n"))
    assert.truthy(mentions_in(problems, "the host has no tumble.input.shake"))
    assert.truthy(mentions_in(problems, "tumble --help has no --no-sound"))
    local bad_dl = parse_dlua(dlua_text .. "\nfunction tumble.gfx.sparkle(x, y) end\n")
    problems = problems_of(api, bad_dl, ref)
    assert.truthy(mentions_in(problems, "gfx function 'sparkle': in tumble.d.lua"), table.concat(problems, "\n"))
  end)
end)
