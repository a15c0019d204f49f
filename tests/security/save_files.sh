#!/usr/bin/env bash
# Security suite, class "save data", second part: what a save file holds is
# data, whatever its bytes. Random bytes, Lua code (a function call, a
# `return os.exit`), a number of 100000 digits, 3000 mutations of a real save:
# each reads back as a value or is "damaged (line N: ...)", never runs and
# never crashes. What tumble.save reads of a table is raw: no metamethod runs
# (__pairs, __index, __len, __tostring, ... not even for an error's message).
# A save that fails (too large, a function in it) leaves the old one as it
# was, and no temporary file. 100 random tables read back the same.
. "$(dirname "$0")/lib.sh"
export TUMBLE_DATA_DIR="$TMP/data"
mkdir -p "$TMP/data"

# slot_file CASE: the file slot.save of the level `level CASE` writes (the
# game's folder is named after the level's folder)
slot_file() { mkdir -p "$TMP/data/$1"; echo "$TMP/data/$1/slot.save"; }

L=$(level junk_file <<'EOF'
tumble.load_save("slot")
EOF
)
head -c 4096 /dev/urandom > "$(slot_file junk_file)"
host_case "a save file of random bytes: damaged, with its line" error "save 'slot' is damaged \(line [0-9]+: " 20 0 "$L"

L=$(level code_file <<'EOF'
local ok, err = pcall(tumble.load_save, "slot")
assert(not ok and tostring(err):find("is damaged", 1, true), tostring(err))
tumble.exit(0, "save code not run: " .. tostring(err))
EOF
)
printf '%s\n' "{ [1] = (function() io.open('$TMP/ran', 'w'):close() return 1 end)() }" > "$(slot_file code_file)"
host_case "a save file holding Lua code is damaged data" ok "save code not run: .*is damaged \(line 1: " 20 0 "$L"
N=$((N + 1)); if [ ! -e "$TMP/ran" ]; then echo "ok $N - ... and its code never ran"; else echo "not ok $N - the save file's code ran"; fi

L=$(level code_return <<'EOF'
tumble.load_save("slot")
EOF
)
printf 'return os.exit(7)\n' > "$(slot_file code_return)"
host_case "'return os.exit(7)' as a save file: damaged (not exit 7)" error "save 'slot' is damaged \(line 1: " 20 0 "$L"

L=$(level long_number <<'EOF'
tumble.load_save("slot")
EOF
)
{ printf '{[1] = '; head -c 100000 /dev/zero | tr '\0' '9'; printf '}\n'; } > "$(slot_file long_number)"
host_case "a number of 100000 digits in a save file: damaged" error "save 'slot' is damaged \(line 1: " 20 0 "$L"

L=$(level metamethods <<'EOF'
local ran = {}
local mt = {}
for _, m in ipairs({ "__pairs", "__index", "__newindex", "__len", "__tostring", "__eq", "__lt", "__le",
                     "__call", "__concat", "__name" }) do
  mt[m] = function() ran[#ran + 1] = m error(m .. " ran") end
end
local t = setmetatable({ raw = 1, list = setmetatable({ 1, 2 }, mt) }, mt)
assert(tumble.save("slot", t))
local back = tumble.load_save("slot")
assert(#ran == 0, "ran: " .. table.concat(ran, " "))
assert(getmetatable(back) == nil and rawget(back, "raw") == 1 and back.list[2] == 2, "the raw contents read back")
-- errors name where, without running the key's or the value's metamethods
local key = setmetatable({}, mt)
local ok, err = pcall(tumble.save, "slot", { sub = { [key] = 1 } })
assert(not ok and tostring(err):find("tumble.save: ", 1, true), tostring(err))
ok, err = pcall(tumble.save, "slot", { sub = setmetatable({ f = print }, mt) })
assert(not ok and tostring(err):find("tumble.save: ", 1, true), tostring(err))
assert(#ran == 0, "ran: " .. table.concat(ran, " "))
tumble.exit(0, "no metamethod ran")
EOF
)
host_case "metatables (__pairs, __index, __len, __tostring...): raw contents saved, no metamethod runs" ok "no metamethod ran" 20 0 "$L"

L=$(level atomic <<'EOF'
assert(tumble.save("slot", { version = 1 }))
local ok, err = pcall(tumble.save, "slot", { version = 2, blob = ("x"):rep(2 * 1024 * 1024) })
assert(not ok and tostring(err):find("bytes of text", 1, true), tostring(err))
ok, err = pcall(tumble.save, "slot", { version = 3, bad = print })
assert(not ok and tostring(err):find("cannot save a function", 1, true), tostring(err))
assert(tumble.load_save("slot").version == 1, "the old save stays")
tumble.exit(0, "old save kept")
EOF
)
host_case "a failed save (too large, a function in it) leaves the old one as it was" ok "old save kept" 20 0 "$L"
N=$((N + 1))
if [ "$(ls -A "$TMP/data/atomic")" = "slot.save" ]; then echo "ok $N - ... and no temporary file"
else echo "not ok $N - the folder holds: $(ls -A "$TMP/data/atomic" | tr '\n' ' ')"; fi

L=$(level random <<'EOF'
local dir = os.getenv("TUMBLE_DATA_DIR") .. "/random/"
math.randomseed(35)
local function random_value(depth)
  local r = math.random(depth > 4 and 6 or 8)
  if r == 1 then return math.random(-1000, 1000)
  elseif r == 2 then return (math.random() - 0.5) * 10 ^ math.random(-300, 300)
  elseif r == 3 then return math.random(2) == 1
  elseif r == 4 then
    local b = {}
    for i = 1, math.random(0, 12) do b[i] = string.char(math.random(0, 255)) end
    return table.concat(b)
  elseif r == 5 then return ({ math.maxinteger, math.mininteger, 0.0, -0.0, 5e-324, 2 ^ 63 })[math.random(6)]
  elseif r == 6 then return "k" .. math.random(5)
  else
    local t = {}
    for i = 1, math.random(0, 6) do
      local k = random_value(depth + 1)
      if type(k) ~= "table" then t[k] = random_value(depth + 1) end
    end
    return t
  end
end
local function same(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b and (type(a) ~= "number" or math.type(a) == math.type(b)) end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
for i = 1, 100 do
  local t = { random_value(0), random_value(0), x = random_value(0) }
  assert(tumble.save("slot", t))
  assert(same(t, tumble.load_save("slot")), "round trip " .. i)
end
-- mutations of the last save: each reads back as a value or is damaged
local f = assert(io.open(dir .. "slot.save", "rb"))
local good = f:read("a")
f:close()
local tokens = { "{", "}", "[", "]", "=", ",", '"', "\\", "\\999", "-", "1e999", "--", "\n", "\0", "true",
                 "9999999999999999999", "0x1p4", "nil", "inf" }
local read_ok, damaged = 0, 0
for i = 1, 3000 do
  local s = good
  for _ = 1, math.random(1, 4) do
    local at = math.random(1, #s + 1)
    local m = math.random(3)
    if m == 1 then s = s:sub(1, at - 1) .. string.char(math.random(0, 255)) .. s:sub(at + 1)
    elseif m == 2 then s = s:sub(1, at - 1) .. tokens[math.random(#tokens)] .. s:sub(at)
    else s = s:sub(1, at - 1) .. s:sub(at + math.random(1, 8)) end
  end
  local w = assert(io.open(dir .. "slot.save", "wb"))
  w:write(s)
  w:close()
  local ok, r = pcall(tumble.load_save, "slot")
  if ok then
    read_ok = read_ok + 1
  else
    assert(tostring(r):find("save 'slot' is damaged (line ", 1, true), tostring(r))
    damaged = damaged + 1
  end
end
assert(read_ok > 0 and damaged > 0, read_ok .. " read, " .. damaged .. " damaged")
tumble.exit(0, ("random saves ok: %d read, %d damaged"):format(read_ok, damaged))
EOF
)
host_case "100 random tables read back the same; 3000 mutated save files read or are damaged, never crash" \
  ok "random saves ok" 120 0 "$L"

finish
