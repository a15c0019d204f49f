-- The documentation against the module: lua/tumble.d.lua (LuaLS annotations) and
-- lua/REFERENCE.md must name every type member, setting, event and enumeration
-- value the binding really has, and nothing it does not have. What the module
-- has comes from tumble._introspect(), which reads the C arrays the binding
-- dispatches on, so a property added in C without documentation fails here.
-- Names starting with "_" are hidden (test hooks) and need not be documented.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local h = dofile(here .. "helpers.lua")
local tumble = h.tumble

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  return text
end

local DLUA_PATH = here .. "../../lua/tumble.d.lua"
local REF_PATH = here .. "../../lua/REFERENCE.md"

local HANDLE_TYPES = { "World", "Body", "Shape", "Joint", "Mover" }
local ALL_TYPES = { "World", "Body", "Shape", "Joint", "Contact", "Snapshot", "Mover" }

local function hidden(name) return name:sub(1, 1) == "_" end

-- Both files end with a part about the host (`tumble level.lua`), which
-- tumble.so does not have: tests/lua/host_docs_spec.lua checks that part.
local DLUA_HOST_MARK = "\n%-%- ==== The host"
local REF_HOST_MARK = "\n# The host\n"
local function engine_part(text, mark)
  local i = text:find(mark)
  return i and text:sub(1, i) or text
end

local function set_of(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Fails with every problem listed, one per line.
local function assert_none(problems, what)
  if #problems > 0 then
    error(what .. ":\n  " .. table.concat(problems, "\n  "), 2)
  end
end

---------------------------------------------------------------------------
-- lua/tumble.d.lua
---------------------------------------------------------------------------

-- classes[name] = { fields = { [field] = { rest = text, readonly = bool } },
--                   methods = { [name] = true } }; aliases[name] = { values };
-- module = { [name] = "function" | "field" }
local function parse_dlua(text)
  local classes, aliases, module = {}, {}, {}
  local locals = {} -- `local World = {}` after the class block -> "tumble.World"
  local current
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local cls = line:match("^%-%-%-@class%s+([%w_.]+)")
    local fname, frest = line:match("^%-%-%-@field%s+([%a_][%w_]*)%??%s+(.*)$")
    local alias, avalues = line:match("^%-%-%-@alias%s+([%w_.]+)%s+(.*)$")
    if cls then
      current = cls
      classes[cls] = classes[cls] or { fields = {}, methods = {} }
    elseif fname then
      if current then
        classes[current].fields[fname] = { rest = frest, readonly = frest:find("(read-only)", 1, true) ~= nil }
      end
    elseif alias then
      local values = {}
      for v in avalues:gmatch('"([^"]*)"') do values[#values + 1] = v end
      aliases[alias] = values
    elseif not line:match("^%-%-%-") then
      local lname = line:match("^local%s+([%a_][%w_]*)%s*=%s*{%s*}")
      if lname and current then locals[lname] = current end
      current = nil
    end
    local obj, sep, name = line:match("^function%s+([%a_][%w_.]*)([.:])([%a_][%w_]*)%s*%(")
    if obj == "tumble" and sep == "." then
      module[name] = "function"
    elseif obj and sep == ":" then
      local c = locals[obj] or obj
      classes[c] = classes[c] or { fields = {}, methods = {} }
      classes[c].methods[name] = true
    end
  end
  for name in pairs(classes.tumble and classes.tumble.fields or {}) do module[name] = module[name] or "field" end
  return { classes = classes, aliases = aliases, module = module }
end

---------------------------------------------------------------------------
-- lua/REFERENCE.md
---------------------------------------------------------------------------

-- sections["World"] = text of "## World" up to the next "## " heading (its
-- "### " subsections included); subsections["Settings"] likewise for "###".
-- Fenced code blocks are dropped: only the prose and tables document.
local function parse_reference(text)
  local sections, subsections = {}, {}
  local sec, sub
  local in_code = false
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^```") then
      in_code = not in_code
    elseif not in_code then
      local h2 = line:match("^##%s+(.-)%s*$")
      local h3 = line:match("^###%s+(.-)%s*$")
      if h3 then
        sub = h3
        subsections[sub] = ""
      elseif h2 then
        sec, sub = h2, nil
        sections[sec] = ""
      end
      if sec then sections[sec] = sections[sec] .. line .. "\n" end
      if sub then subsections[sub] = subsections[sub] .. line .. "\n" end
    end
  end
  return { sections = sections, subsections = subsections, all = text:gsub("```.-```", "") }
end

local function spans(text)
  local list = {}
  for s in text:gmatch("`([^`\n]+)`") do list[#list + 1] = s end
  return list
end

-- Is name, whole, right after a match of prefix_pattern somewhere in s?
local function ident_at(s, prefix_pattern, name)
  for found in s:gmatch(prefix_pattern .. "([%a_][%w_]*)") do
    if found == name then return true end
  end
  return false
end

-- `name` or `v.name` (a property as written in prose)
local function mentions_property(text, name)
  for _, s in ipairs(spans(text)) do
    if s == name or s:match("^[%a_][%w_]*%.([%a_][%w_]*)$") == name then return true end
  end
  return false
end

-- `name`, `b:name(...)`, `b:name`
local function mentions_method(text, name)
  for _, s in ipairs(spans(text)) do
    if s == name or ident_at(s, "[%w_]:", name) then return true end
  end
  return false
end

-- `"value"` or `value`, or **value**
local function mentions_value(text, value)
  for _, s in ipairs(spans(text)) do
    if s == value or s == '"' .. value .. '"' then return true end
  end
  for b in text:gmatch("%*%*([^*\n]+)%*%*") do
    if b == value then return true end
  end
  return false
end

-- `name` as a whole identifier anywhere in a span (`b:box{ w, h, x = 0 }`)
local function mentions_word(text, name)
  for _, s in ipairs(spans(text)) do
    if s:find("%f[%w_]" .. name .. "%f[^%w_]") then return true end
  end
  return false
end

local function mentions_module_member(text, name)
  for _, s in ipairs(spans(text)) do
    if ident_at(s, "tumble%.", name) then return true end
  end
  return false
end

---------------------------------------------------------------------------

describe("the documentation", function()
  local info = tumble._introspect()
  local dlua = parse_dlua(engine_part(read(DLUA_PATH), DLUA_HOST_MARK))
  local ref = parse_reference(engine_part(read(REF_PATH), REF_HOST_MARK))

  local function class_of(t)
    local c = dlua.classes["tumble." .. t]
    assert(c, "lua/tumble.d.lua has no ---@class tumble." .. t)
    return c
  end

  local function section(title)
    local s = ref.sections[title]
    assert(s, "lua/REFERENCE.md has no section '## " .. title .. "'")
    return s
  end

  describe("tumble._introspect", function()
    -- the hook is only worth what it agrees with: cross-check it against real objects
    it("reports the methods and read-only properties the objects really have", function()
      local world = tumble.world()
      local body = world:body{ type = "dynamic" }
      local shape = body:circle{ r = 1 }
      local other = world:body{ type = "dynamic", x = 3 }
      local joint = world:joint{ kind = "revolute", a = body, b = other }
      local objects = { World = world, Body = body, Shape = shape, Joint = joint, Snapshot = world:snapshot(),
                        Mover = world:mover{ x = 5, y = 5 } }
      local problems = {}
      for t, obj in pairs(objects) do
        for _, m in ipairs(info[t].methods) do
          if type(obj[m]) ~= "function" then problems[#problems + 1] = t .. ":" .. m .. " is not a function" end
        end
        local ro = set_of(info[t].readonly)
        for _, p in ipairs(info[t].properties) do
          local ok, err = pcall(function() obj[p] = obj[p] end)
          local said_ro = not ok and tostring(err):find("cannot assign read-only property '" .. p .. "'", 1, true)
          if ro[p] and not said_ro then
            problems[#problems + 1] = t .. "." .. p .. " is listed read-only but assigning it gave: " .. tostring(err)
          elseif not ro[p] and said_ro then
            problems[#problems + 1] = t .. "." .. p .. " is listed writable but is read-only"
          end
        end
        local ok, err = pcall(function() obj.no_such_name = 1 end)
        assert.is_false(ok)
        assert.truthy(tostring(err):find("has no property 'no_such_name'", 1, true))
      end
      for _, name in ipairs(info.module) do
        if type(tumble[name]) ~= "function" then problems[#problems + 1] = "tumble." .. name .. " is not a function" end
      end
      -- every setting is a writable World property and vice versa
      local ro = set_of(info.World.readonly)
      local writable = {}
      for _, p in ipairs(info.World.properties) do
        if not ro[p] then writable[#writable + 1] = p end
      end
      assert.are.same(writable, info.settings)
      assert.are.same(info.events, { "begin", "end", "hit", "sensor_enter", "sensor_exit", "joint_break", "presolve" })
      assert_none(problems, "tumble._introspect disagrees with the objects")
      world:destroy()
    end)
  end)

  describe("lua/tumble.d.lua", function()
    it("annotates every property and method under its class", function()
      local problems = {}
      for _, t in ipairs(ALL_TYPES) do
        local c = class_of(t)
        for _, p in ipairs(info[t].properties) do
          if not hidden(p) and not c.fields[p] then
            problems[#problems + 1] = "property " .. t .. "." .. p .. ": no ---@field " .. p .. " in ---@class tumble." .. t
          end
        end
        for _, m in ipairs(info[t].methods) do
          if not hidden(m) and not c.methods[m] then
            problems[#problems + 1] = "method " .. t .. ":" .. m .. ": no function " .. t .. ":" .. m .. "() annotated"
          end
        end
      end
      assert_none(problems, "missing from lua/tumble.d.lua")
    end)

    it("marks exactly the read-only properties (read-only)", function()
      local problems = {}
      for _, t in ipairs(HANDLE_TYPES) do
        local c = class_of(t)
        local ro = set_of(info[t].readonly)
        for _, p in ipairs(info[t].properties) do
          local f = c.fields[p]
          if f and ro[p] and not f.readonly then
            problems[#problems + 1] = t .. "." .. p .. " is read-only: its ---@field should say (read-only)"
          elseif f and not ro[p] and f.readonly then
            problems[#problems + 1] = t .. "." .. p .. " is writable: its ---@field says (read-only)"
          end
        end
      end
      assert_none(problems, "wrong read-only marks in lua/tumble.d.lua")
    end)

    it("annotates nothing that does not exist", function()
      local problems = {}
      for _, t in ipairs(ALL_TYPES) do
        local c = class_of(t)
        local props, methods = set_of(info[t].properties), set_of(info[t].methods)
        for _, f in ipairs(sorted_keys(c.fields)) do
          if not props[f] then
            problems[#problems + 1] = "---@field " .. f .. " of tumble." .. t .. ": " .. t .. " has no such property"
          end
        end
        for _, m in ipairs(sorted_keys(c.methods)) do
          if not methods[m] then
            problems[#problems + 1] = "function " .. t .. ":" .. m .. "(): " .. t .. " has no such method"
          end
        end
      end
      for _, name in ipairs(sorted_keys(dlua.module)) do
        if tumble[name] == nil then
          problems[#problems + 1] = "tumble." .. name .. " (" .. dlua.module[name] .. "): the module has no such member"
        end
      end
      assert_none(problems, "stale in lua/tumble.d.lua")
    end)

    it("annotates every member of the module", function()
      local problems = {}
      for _, name in ipairs(info.module) do
        if not hidden(name) and dlua.module[name] ~= "function" then
          problems[#problems + 1] = "tumble." .. name .. ": no function tumble." .. name .. "() annotated"
        end
      end
      for name, v in pairs(tumble) do
        if not hidden(name) and type(v) ~= "function" and dlua.module[name] ~= "field" then
          problems[#problems + 1] = "tumble." .. name .. ": no ---@field " .. name .. " in ---@class tumble"
        end
      end
      assert_none(problems, "missing from lua/tumble.d.lua")
    end)

    it("annotates exactly the world settings and body options", function()
      local problems = {}
      local function same_set(class, names)
        local c = dlua.classes[class]
        if not c then
          problems[#problems + 1] = "no ---@class " .. class
          return
        end
        local want = set_of(names)
        for _, n in ipairs(names) do
          if not c.fields[n] then problems[#problems + 1] = class .. ": missing ---@field " .. n .. "?" end
        end
        for _, f in ipairs(sorted_keys(c.fields)) do
          if not want[f] then problems[#problems + 1] = class .. ": ---@field " .. f .. " is not an option" end
        end
      end
      same_set("tumble.WorldSettings", info.settings)
      same_set("tumble.BodyOptions", info.Body.options)
      same_set("tumble.MoverOptions", info.Mover.options)
      -- the shape constructors: ShapeOptions holds what every solid one takes,
      -- CircleOptions and BoxOptions add their own (the others are lists)
      local ctor = info.Shape.options
      local common = {}
      for _, n in ipairs(ctor.circle) do
        local all = true
        for _, k in ipairs{ "box", "polygon", "capsule", "segment" } do all = all and set_of(ctor[k])[n] == true end
        if all then common[#common + 1] = n end
      end
      same_set("tumble.ShapeOptions", common)
      local function own(list)
        local c, out = set_of(common), {}
        for _, n in ipairs(list) do if not c[n] then out[#out + 1] = n end end
        return out
      end
      same_set("tumble.CircleOptions", own(ctor.circle))
      same_set("tumble.BoxOptions", own(ctor.box))
      -- joints and fields: one class for every kind's options
      local function union(by_kind)
        local seen, out = {}, {}
        for _, list in pairs(by_kind) do
          for _, n in ipairs(list) do
            if not seen[n] then seen[n] = true; out[#out + 1] = n end
          end
        end
        return out
      end
      same_set("tumble.JointOptions", union(info.Joint.options))
      same_set("tumble.Field", union(info.field_options))
      assert_none(problems, "settings/options in lua/tumble.d.lua")
    end)

    it("lists every event, kind and enumeration value in its alias", function()
      local problems = {}
      local function same_values(alias, values)
        local got = dlua.aliases[alias]
        if not got then
          problems[#problems + 1] = "no ---@alias " .. alias
          return
        end
        local want, have = set_of(values), set_of(got)
        for _, v in ipairs(values) do
          if not have[v] then problems[#problems + 1] = alias .. ': missing "' .. v .. '"' end
        end
        for _, v in ipairs(got) do
          if not want[v] then problems[#problems + 1] = alias .. ': "' .. v .. '" does not exist' end
        end
      end
      same_values("tumble.EventName", info.events)
      same_values("tumble.JointKind", info.joint_kinds)
      same_values("tumble.ShapeKind", info.shape_kinds)
      same_values("tumble.BodyType", info.body_types)
      same_values("tumble.FieldKind", info.field_kinds)
      same_values("tumble.Falloff", info.falloffs)
      assert_none(problems, "aliases in lua/tumble.d.lua")
    end)
  end)

  describe("lua/REFERENCE.md", function()
    it("mentions every property and method in its type's section", function()
      local problems = {}
      for _, t in ipairs(ALL_TYPES) do
        local text = section(t)
        for _, p in ipairs(info[t].properties) do
          if not hidden(p) and not mentions_property(text, p) then
            problems[#problems + 1] = "property " .. t .. "." .. p .. ": no `" .. p .. "` in section '## " .. t .. "'"
          end
        end
        for _, m in ipairs(info[t].methods) do
          if not hidden(m) and not mentions_method(text, m) then
            problems[#problems + 1] = "method " .. t .. ":" .. m .. ": no `" .. m .. "` in section '## " .. t .. "'"
          end
        end
      end
      assert_none(problems, "missing from lua/REFERENCE.md")
    end)

    it("mentions every member of the module", function()
      local problems = {}
      local text = section("The module")
      for name in pairs(tumble) do
        if not hidden(name) and not mentions_module_member(text, name) then
          problems[#problems + 1] = "tumble." .. name .. ": no `tumble." .. name .. "` in section '## The module'"
        end
      end
      table.sort(problems)
      assert_none(problems, "missing from lua/REFERENCE.md")
    end)

    it("documents every world setting, event and enumeration value", function()
      local problems = {}
      local function check(where, text, values, what)
        for _, v in ipairs(values) do
          if not mentions_value(text, v) then
            problems[#problems + 1] = what .. ' "' .. v .. '": not in ' .. where
          end
        end
      end
      local settings = ref.subsections["Settings"]
      if not settings then
        problems[#problems + 1] = "no '### Settings' subsection"
      else
        check("'### Settings'", settings, info.settings, "setting")
      end
      check("section '## Events'", section("Events"), info.events, "event")
      check("section '## World' (world:on)", section("World"), info.events, "event")
      for _, name in ipairs(info.handlers) do
        local found = false
        for _, s in ipairs(spans(section("Events"))) do
          if s:match("^([%a_][%w_]*)") == name then found = true end
        end
        if not found then problems[#problems + 1] = 'handler "' .. name .. '": no `' .. name .. '(...)` in section \'## Events\'' end
      end
      check("section '## Joint'", section("Joint"), info.joint_kinds, "joint kind")
      check("section '## Shape'", section("Shape"), info.shape_kinds, "shape kind")
      check("section '## Body'", section("Body"), info.body_types, "body type")
      check("section '## Areas (fields)'", section("Areas (fields)"), info.field_kinds, "field kind")
      check("section '## Areas (fields)'", section("Areas (fields)"), info.falloffs, "falloff")
      check("section '## Body'", section("Body"), info.Body.options, "body option")
      check("section '## Mover'", section("Mover"), info.Mover.options, "mover option")
      assert_none(problems, "missing from lua/REFERENCE.md")
    end)

    it("documents every option of every shape constructor, joint kind and field kind", function()
      local problems = {}
      local function check(where, text, by_set, what)
        for _, set in ipairs(sorted_keys(by_set)) do
          for _, n in ipairs(by_set[set]) do
            if not mentions_word(text, n) then
              problems[#problems + 1] = what .. " " .. set .. ": option '" .. n .. "' not in " .. where
            end
          end
        end
      end
      check("section '## Shape'", section("Shape"), info.Shape.options, "constructor")
      check("section '## Joint'", section("Joint"), info.Joint.options, "joint kind")
      check("section '## Areas (fields)'", section("Areas (fields)"), info.field_options, "field kind")
      -- and every kind's row in the joint table names that kind's own options
      local rows = {}
      for kind, opts in section("Joint"):gmatch('\n| `"([%w_]+)"` | ([^\n]*)') do rows[kind] = opts end
      -- the "all" row: options every kind takes
      local shared = set_of{ "kind", "a", "b", "collide", "user", "break_force", "break_torque" }
      for kind, list in pairs(info.Joint.options) do
        for _, n in ipairs(list) do
          if not shared[n] and not (rows[kind] or ""):find("%f[%w_]" .. n .. "%f[^%w_]") then
            problems[#problems + 1] = "joint kind " .. kind .. ": option '" .. n .. "' not in its row of the table"
          end
        end
      end
      table.sort(problems)
      assert_none(problems, "options missing from lua/REFERENCE.md")
    end)

    it("names no method or module member that does not exist", function()
      local receivers = { world = "World", b = "Body", s = "Shape", j = "Joint" }
      local problems, seen = {}, {}
      for _, s in ipairs(spans(ref.all)) do
        if s:match("%.so$") or s:match("%.lua$") or s:match("%.md$") then s = "" end -- file names
        for recv, name in s:gmatch("%f[%w_]([%a_][%w_]*):([%a_][%w_]*)") do
          local t = receivers[recv]
          if t and not set_of(info[t].methods)[name] and not seen[t .. name] then
            seen[t .. name] = true
            problems[#problems + 1] = "`" .. s .. "`: " .. t .. " has no method " .. name
          end
        end
        for name in s:gmatch("%f[%w_]tumble%.([%a_][%w_]*)") do
          if tumble[name] == nil and not seen[name] then
            seen[name] = true
            problems[#problems + 1] = "`" .. s .. "`: the module has no member " .. name
          end
        end
      end
      assert_none(problems, "stale in lua/REFERENCE.md")
    end)
  end)
end)
