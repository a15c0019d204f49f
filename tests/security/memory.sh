#!/usr/bin/env bash
# Security suite, class "memory" (issue 12): what a level allocates counts
# against --mem-limit and ends in a clear error with the peak RSS under the
# limit plus the host's own footprint; engine objects count too (once the
# engine takes the Lua allocator: cases marked TODO-SKIP until then).
. "$(dirname "$0")/lib.sh"
BASE=60 # MB: the host itself, headless (SDL, Lua, the binary)
# what an engine out-of-memory or world limit must say (not the time limit)
ENGINE_ERR='memory limit exceeded|out of memory|(body|bodies|shape|contact|joint)s?.{0,30}limit|limit.{0,40}(bodies|shapes|contacts|joints)|too many (bodies|shapes|contacts|joints)'


L=$(level bomb_table <<'EOF'
local t = {}
for i = 1, 1e9 do t[i] = { i, i } end
EOF
)
host_case "memory: a table bomb stops at --mem-limit 16" error "memory limit exceeded in load \(16 MB\)" 10 $((16 + BASE)) \
  --sandbox --mem-limit 16 "$L"

L=$(level bomb_string <<'EOF'
local s = "x"
while true do s = s .. s end
EOF
)
host_case "memory: a doubling string stops at --mem-limit 16" error "memory limit exceeded in load" 10 $((16 + BASE)) \
  --sandbox --mem-limit 16 "$L"

L=$(level bomb_coroutines <<'EOF'
local keep = {}
for i = 1, 1e9 do
  local co = coroutine.create(function(...) coroutine.yield(...) end)
  coroutine.resume(co, ("c"):rep(64))
  keep[i] = co
end
EOF
)
host_case "memory: a million suspended coroutines stop at --mem-limit 32" error "memory limit exceeded in load" 10 \
  $((32 + BASE)) --sandbox --mem-limit 32 "$L"

L=$(level bomb_closures <<'EOF'
local keep = {}
for i = 1, 1e9 do local x = i; keep[i] = function() return x end end
EOF
)
host_case "memory: closures and upvalues count" error "memory limit exceeded in load" 10 $((16 + BASE)) \
  --sandbox --mem-limit 16 "$L"

L=$(level bomb_handles <<'EOF'
local keep = {}
local b = world:body{ type = "static" }
for i = 1, 1e9 do keep[i] = { b, b, b } end
EOF
)
host_case "memory: tables of engine handles count" error "memory limit exceeded in load" 10 $((16 + BASE)) \
  --sandbox --mem-limit 16 "$L"

# --- engine objects: issue 12's two numbers ---
L=$(raw_level bodies <<'EOF'
local level = {}
function level.update(dt, world)
  for i = 1, 200000 do world:body{ type = "dynamic", x = i % 1000, y = i // 1000 } end
end
return level
EOF
)
host_todo "engine (engine allocations in the Lua allocator, world limits)" \
  "memory: 200,000 bodies per frame under --mem-limit 16 end in a clear error under the limit" error \
  "$ENGINE_ERR" 10 $((16 + BASE)) --sandbox --mem-limit 16 --frames 3 "$L"

L=$(level circles <<'EOF'
for i = 1, 3000 do
  local b = world:body{ type = "dynamic", x = 0, y = 0 }
  b:circle{ r = 0.5 }
end
EOF
)
host_todo "engine (contact limits per world)" \
  "memory: 3,000 circles on one spot end in a clear error (no quadratic contact memory)" error \
  "$ENGINE_ERR" 10 $((256 + BASE)) --sandbox --time-limit 0.5 --frames 2 "$L"

L=$(level shapes <<'EOF'
for i = 1, 1e7 do
  local b = world:body{ type = "static", x = (i % 1000) * 3, y = (i // 1000) * 3 }
  b:box{ w = 1, h = 1 }
  b:circle{ r = 0.5, x = 1 }
end
EOF
)
host_todo "engine (engine allocations in the Lua allocator, world limits)" \
  "memory: ten million static bodies with two shapes each end in a clear error under --mem-limit 32" \
  error "$ENGINE_ERR" 10 $((32 + BASE)) --sandbox --mem-limit 32 --time-limit 1 --frames 1 "$L"

finish
