-- docs_blocks: every ```lua block of README.md, lua/REFERENCE.md (and the
-- other pages named on the command line) runs, in the context the page gives
-- it. A block's context is an HTML comment on the nearest non-blank line
-- above its fence:
--   <!-- test: module -->     a script for plain lua5.4 with tumble.so
--                             (`local tumble = require "tumble"` comes first)
--   <!-- test: level -->      a whole level file: run headless by the host
--                             (load, 30 steps, draw)
--   <!-- test: in-level -->   part of a level file: between `local level = {}`
--                             and `return level`, run as a level
--   <!-- test: fragment -->   not run (say why in the comment)
-- Any of the first three may carry `; given: LUA`, code run before the block
-- (what the block assumes: a world, a body...). A block with no comment is
-- run as a level if it returns one, as a module if it requires tumble, else
-- in-level; it fails only if it errors (and the failure says how to mark it).
-- Level blocks run in a folder holding examples/assets' files.
-- Usage: lua5.4 docs_blocks.lua ROOT TUMBLE_BIN TUMBLE_SO_DIR PAGE...
-- Prints TAP; exits 1 when a block failed.
local root, bin, so_dir = arg[1], arg[2], arg[3]
local pages = {}
for i = 4, #arg do pages[#pages + 1] = arg[i] end

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

-- the blocks of a page: {line, code, kind, given, marked}
local function blocks_of(path)
  local lines = {}
  for l in (read(path) .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = l end
  local out, i = {}, 1
  while i <= #lines do
    if lines[i]:match("^```lua%s*$") then
      local start = i
      local body = {}
      i = i + 1
      while i <= #lines and not lines[i]:match("^```%s*$") do
        body[#body + 1] = lines[i]
        i = i + 1
      end
      local b = {line = start, code = table.concat(body, "\n") .. "\n"}
      local j = start - 1
      while j >= 1 and lines[j]:match("^%s*$") do j = j - 1 end
      local marker = j >= 1 and lines[j]:match("^%s*<!%-%-%s*test:%s*(.-)%s*%-%->%s*$")
      if marker then
        b.marked = true
        b.kind, b.given = marker:match("^([%w-]+)%s*;%s*given:%s*(.-)$")
        b.kind = b.kind or marker:match("^([%w-]+)")
      elseif b.code:match("\nreturn level%s*$") or b.code:match("^return level%s*$") then
        b.kind = "level"
      elseif b.code:match("require%s*%(?%s*[\"']tumble[\"']") then
        b.kind = "module"
      else
        b.kind = "in-level"
      end
      out[#out + 1] = b
    end
    i = i + 1
  end
  return out
end

local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p " .. sh_quote(tmp)))
local assets = root .. "/examples/assets"

local function run(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok, out, code
end

local n, failed = 0, 0
local function tap(ok, what, detail)
  n = n + 1
  if not ok then failed = failed + 1 end
  print((ok and "ok " or "not ok ") .. n .. " - " .. what)
  if detail and detail ~= "" then
    for l in detail:gmatch("[^\n]+") do print("# " .. l) end
  end
end

local counts = {}
for _, page in ipairs(pages) do
  local rel = page:sub(#root + 2)
  for _, b in ipairs(blocks_of(page)) do
    local where = string.format("%s:%d (%s%s)", rel, b.line, b.kind, b.marked and "" or ", unmarked")
    counts[b.kind] = (counts[b.kind] or 0) + 1
    local given = b.given and (b.given .. "\n") or ""
    if b.kind == "fragment" then
      tap(true, where .. " is a fragment: not run")
    elseif b.kind == "module" then
      local file = string.format("%s/block%d.lua", tmp, n + 1)
      write(file, 'local tumble = require "tumble"\n' .. given .. b.code)
      local ok, out = run(string.format("cd %s && LD_PRELOAD=%s LUA_CPATH=%s LUA_PATH=%s timeout 120 lua5.4 %s", sh_quote(tmp),
        sh_quote(os.getenv("DOCS_LUA_PRELOAD") or ""), sh_quote(so_dir .. "/?.so;;"), sh_quote(root .. "/lua/?.lua;;"),
        sh_quote(file)))
      tap(ok, where .. " runs under lua5.4", not ok and (out .. (b.marked and "" or
        "(mark it <!-- test: fragment --> or give it a context: <!-- test: module; given: ... -->)")) or nil)
    elseif b.kind == "level" or b.kind == "in-level" then
      local dir = string.format("%s/level%d", tmp, n + 1)
      assert(os.execute(string.format("mkdir -p %s && cp %s/* %s/", sh_quote(dir), sh_quote(assets), sh_quote(dir))))
      local text = b.kind == "level" and (given .. b.code) or ("local level = {}\n" .. given .. b.code .. "return level\n")
      write(dir .. "/level.lua", text)
      local ok, out = run(string.format("cd %s && timeout 120 %s --headless --frames 30 --quiet level.lua",
        sh_quote(dir), sh_quote(bin)))
      tap(ok and not out:find("Lua error", 1, true), where .. " runs as a level (load, 30 steps, draw)",
        (not ok or out:find("Lua error", 1, true)) and (out .. (b.marked and "" or
          "(mark it <!-- test: fragment --> or give it a context: <!-- test: in-level; given: ... -->)")) or nil)
    else
      tap(false, where .. ": unknown kind '" .. tostring(b.kind) .. "' (module, level, in-level or fragment)")
    end
  end
end
os.execute("rm -rf " .. sh_quote(tmp))
local summary = {}
for k, v in pairs(counts) do summary[#summary + 1] = k .. " " .. v end
table.sort(summary)
print("# blocks: " .. table.concat(summary, ", "))
print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
