#!/usr/bin/env bash
# Security suite, class "sandbox escapes": require and load cannot
# read files outside the level's folder, probe the machine, load bytecode or
# block; the standard library has no way out; the OS lock is on.
. "$(dirname "$0")/lib.sh"

# --- require reads only the level's folder, whatever `package` says ---
L=$(level kept_package <<'EOF'
local pkg = package
package = { path = "/etc/?", searchpath = function() return "/etc/passwd" end }
pkg.path = "/etc/?;/etc/?.lua;./?"
pkg.cpath = "/usr/lib/x86_64-linux-gnu/lua/5.4/?.so"
local ok, err = pcall(require, "passwd")
assert(not ok and tostring(err):find("not found", 1, true), "require read outside the folder")
assert(not tostring(err):find("root:", 1, true), "a line of /etc/passwd leaked")
pkg.searchers[2] = nil
ok, err = pcall(require, "hostname")
assert(not ok, "require found /etc/hostname")
tumble.exit(0, "held")
EOF
)
host_case "escape: a kept package reference cannot point require at /etc" ok "held" 10 0 --sandbox "$L"

L=$(level searchpath <<'EOF'
assert(package.searchpath == nil, "package.searchpath is there")
assert(package.loadlib == nil, "package.loadlib is there")
assert(package.cpath == "", "package.cpath is not empty")
assert(#package.searchers == 2, "searchers: " .. #package.searchers)
-- the host's searcher takes names, not paths: a path cannot be probed with it
for _, name in ipairs { "/etc/passwd", "../../etc/passwd", "..", "a/../../b", "a..b", ".a", "a.", "x\0y", ("a"):rep(300) } do
  local r = package.searchers[2](name)
  assert(type(r) == "string" and r:find("no module", 1, true), "name " .. ("%q"):format(name) .. " reached the file system: " .. tostring(r))
end
tumble.exit(0, "held")
EOF
)
host_case "escape: package.searchpath is gone; names with / or .. never reach the file system" ok "held" 10 0 --sandbox "$L"

# a symlink to an existing file outside and one to a missing file give the same answer
L=$(level symlinks <<'EOF'
local a = select(2, pcall(require, "outside_exists"))
local b = select(2, pcall(require, "outside_missing"))
local c = select(2, pcall(require, "nothing_here"))
local function norm(s, name) return (tostring(s):gsub(name, "NAME")) end
assert(norm(a, "outside_exists") == norm(c, "nothing_here"), "an existing outside file is told apart: " .. tostring(a))
assert(norm(b, "outside_missing") == norm(c, "nothing_here"), "a missing outside file is told apart: " .. tostring(b))
assert(not tostring(a):find("root:", 1, true))
tumble.exit(0, "held")
EOF
)
ln -s /etc/passwd "$TMP/symlinks/outside_exists.lua"
ln -s /nonexistent/x.lua "$TMP/symlinks/outside_missing.lua"
host_case "escape: symlinks out of the folder cannot read or probe (same answer as a missing file)" ok "held" 10 0 --sandbox "$L"

# a sub-folder symlinked elsewhere must not open the rest of the file system
L=$(level dirlink <<'EOF'
local ok, err = pcall(require, "elsewhere.secret")
assert(not ok and not tostring(err):find("the secret", 1, true), "read through a folder symlink: " .. tostring(err))
tumble.exit(0, "held")
EOF
)
mkdir -p "$TMP/outside" && echo 'return "the secret"' > "$TMP/outside/secret.lua"
ln -s "$TMP/outside" "$TMP/dirlink/elsewhere"
host_case "escape: a folder symlinked out of the level's folder leads nowhere" ok "held" 10 0 --sandbox "$L"

# --- bytecode: not through require, not through load ---
L=$(level bytecode <<'EOF'
local ok, err = pcall(require, "evil")
assert(not ok and tostring(err):find("binary chunk", 1, true), "require accepted bytecode: " .. tostring(err))
ok, err = pcall(require, "valid")
assert(not ok and tostring(err):find("binary chunk", 1, true), "require ran bytecode: " .. tostring(err))
local chunk = string.dump(function() return 1 end)
local f, e = load(chunk)
assert(f == nil and tostring(e):find("binary", 1, true), "load accepted bytecode")
local i = 0
f, e = load(function() i = i + 1; return i == 1 and chunk or nil end)
assert(f == nil, "load accepted bytecode from a reader")
f, e = load(chunk, "x", "b")
assert(f == nil, "load accepted mode 'b'")
tumble.exit(0, "held")
EOF
)
# a crafted "module": Lua's own bytecode with a corrupted body
lua5.4 -e 'local s = string.dump(function() return 1 end); io.write(s:sub(1, 20) .. ("\255"):rep(64))' > "$TMP/bytecode/evil.lua"
lua5.4 -e 'io.write(string.dump(load("return { pwned = true }")))' > "$TMP/bytecode/valid.lua"
host_case "escape: bytecode is refused by require, load, a load reader and mode 'b'" ok "held" 10 0 --sandbox "$L"

# --- files that block or are not files ---
L=$(level fifo <<'EOF'
local ok, err = pcall(require, "pipe")
assert(not ok and tostring(err):find("not a regular file", 1, true), tostring(err))
ok, err = pcall(require, "stdin")
assert(not ok, "require read stdin")
ok, err = pcall(require, "folder")
assert(not ok, "require read a folder")
tumble.exit(0, "held")
EOF
)
mkfifo "$TMP/fifo/pipe.lua"
ln -s /dev/stdin "$TMP/fifo/stdin.lua"
mkdir -p "$TMP/fifo/folder.lua"
# stdin is a pipe nobody writes to: a read of it would block until the timeout
run_capture "$((5 * SLOW))" bash -c 'exec "$0" --headless --sandbox "$1" < <(sleep 30)' "$BIN" "$L"
report "escape: require of a FIFO, /dev/stdin or a folder fails at once instead of blocking" "$(why_bad ok held 5 0)"

L=$(level huge <<'EOF'
local ok, err = pcall(require, "big")
assert(not ok and tostring(err):find("too large", 1, true), tostring(err))
tumble.exit(0, "held")
EOF
)
truncate -s 20M "$TMP/huge/big.lua"
host_case "escape: a 20 MB module is refused before it is read" ok "held" 10 100 --sandbox "$L"

# a module bigger than the memory left: the failed read must not leak its descriptor
L=$(raw_level fds <<'EOF'
local level = {}
function level.update()
  if tumble.frame < 300 then
    local ok = pcall(require, "big") -- 6 MB under --mem-limit 4: the buffer is refused
  else
    package.loaded.small = nil
    assert(require("small") == "small", "require failed after 300 refused reads")
    tumble.exit(0, "no descriptor leaked")
  end
end
return level
EOF
)
truncate -s 6M "$TMP/fds/big.lua"
echo 'return "small"' > "$TMP/fds/small.lua"
run_capture "$((20 * SLOW))" bash -c 'ulimit -n 128; exec "$0" --headless --keep-going --sandbox --mem-limit 4 --frames 400 "$1"' \
  "$BIN" "$L"
report "escape: a module read refused for memory leaks no file descriptor (300 tries, 128 allowed)" \
  "$(why_bad ok 'no descriptor leaked' 20 0)"

# --- what still works ---
L=$(level works <<'EOF'
local helper = require "helper"
local deep = require "sub.deep"
local kit = require "levelkit"
assert(helper.value == 42 and deep == "deep" and type(kit) == "table")
tumble.exit(0, "modules load")
EOF
)
echo 'return { value = 42 }' > "$TMP/works/helper.lua"
mkdir -p "$TMP/works/sub" && echo 'return "deep"' > "$TMP/works/sub/deep.lua"
host_case "escape (control): modules next to the level and the runtime's lua/ still load" ok "modules load" 10 0 --sandbox "$L"

# --- the standard library ---
host_case "escape: no io, os, debug, dofile, loadfile, loadlib, C searchers, binary chunks or path escape" \
  ok "sandbox holds" 10 0 --sandbox "$ROOT/tests/playtest/levels/sandbox_escape.lua"

L=$(level stdlib <<'EOF'
local bad = {}
for _, name in ipairs { "io", "os", "debug", "dofile", "loadfile", "require_c" } do
  if rawget(_G, name) ~= nil and name ~= "require_c" then bad[#bad + 1] = name end
end
for name, v in pairs(package.loaded) do
  if name == "io" or name == "os" or name == "debug" or name == "ffi" then bad[#bad + 1] = "package.loaded." .. name end
end
-- the searchers table can be replaced, but only with Lua functions: no C loader comes back
package.searchers = { function() return function() return io end end }
local ok, v = pcall(require, "anything")
if ok and type(v) == "table" then bad[#bad + 1] = "a searcher brought io back" end
assert(#bad == 0, table.concat(bad, ", "))
tumble.exit(0, "held")
EOF
)
host_case "escape: io, os and debug are nowhere, not even in package.loaded" ok "held" 10 0 --sandbox "$L"

# --- the terminal: a level's text cannot carry escape sequences to it ---
L=$(level terminal <<'EOF'
print("title\27]0;pwned\7 csi\27[2J c1\194\155 raw\155 del\127 cr\r ok: caf\195\169 \226\130\172")
tumble.exit(3, "exit\27]52;c;cHduZWQ=\7")
EOF
)
host_case "escape: print and exit messages reach the terminal without control sequences" error "" 5 0 --sandbox "$L"
N=$((N + 1))
if ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$TMP/out" "$TMP/err" && ! LC_ALL=C grep -qP '\xc2[\x80-\x9f]|\x9b' "$TMP/out" "$TMP/err" \
   && grep -q "caf" "$TMP/out" && grep -q "€" "$TMP/out"; then
  echo "ok $N - escape: no ESC, BEL, CR, DEL or C1 byte reached stdout or stderr; UTF-8 text did"
else
  echo "not ok $N - escape: control bytes reached the terminal: $(od -c "$TMP/out" "$TMP/err" | head -5 | tr '\n' ' ')"
fi
L=$(level terminal_error <<'EOF'
error("boom\27]0;pwned\7\27[2J")
EOF
)
host_case "escape: an error message is cleaned too" error "boom\?\]0;pwned\?\?\[2J" 5 0 --sandbox "$L"

# --- the OS lock ---
L=$(raw_level oslock <<'EOF'
local level = {}
function level.update() end
return level
EOF
)
"$BIN" --headless --sandbox --realtime --frames 120 "$L" > /dev/null 2> "$TMP/lock_err" &
pid=$!
sleep 0.5
seccomp=$(awk '/^Seccomp:/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
wait $pid; RC=$?; SECS=2; RSS_MB=0
N=$((N + 1))
if [ "$seccomp" = 2 ] && [ $RC -eq 0 ]; then
  echo "ok $N - escape: the sandboxed host runs under a seccomp filter (Seccomp: $seccomp)"
else
  echo "not ok $N - escape: the sandboxed host runs under a seccomp filter (Seccomp: '$seccomp', exit $RC)"
  sed 's/^/#   /' "$TMP/lock_err" | head -5
fi
finish
