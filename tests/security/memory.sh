#!/usr/bin/env bash
# Security suite, class "memory": what a level allocates counts
# against --mem-limit and ends in a clear error with the peak RSS under the
# limit plus the host's own footprint; engine objects count too (worlds
# allocate through the Lua state's allocator), and --sandbox caps what a
# world holds.
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

# --- engine objects: they allocate through the Lua state's allocator, and
# --sandbox caps bodies, shapes, joints and contacts per world ---
L=$(raw_level bodies <<'EOF'
local level = {}
function level.update(dt, world)
  for i = 1, 200000 do world:body{ type = "dynamic", x = i % 1000, y = i // 1000 } end
end
return level
EOF
)
host_case "memory: 200,000 bodies per frame under --mem-limit 16 end in a clear error under the limit" error \
  "$ENGINE_ERR" 10 $((16 + BASE)) --sandbox --mem-limit 16 --frames 3 "$L"

L=$(level circles <<'EOF'
for i = 1, 3000 do
  local b = world:body{ type = "dynamic", x = 0, y = 0 }
  b:circle{ r = 0.5 }
end
EOF
)
host_case "memory: 3,000 circles on one spot end in a clear error under --mem-limit 32 (no quadratic contact memory)" \
  error "$ENGINE_ERR" 60 $((32 + BASE)) --sandbox --mem-limit 32 --time-limit 30 --frames 2 "$L"
host_case "memory: the same at the default 256 MB: the contact limit, under the limit" \
  error "too many contacts|$ENGINE_ERR" 10 $((256 + BASE)) --sandbox --time-limit 20 --frames 2 "$L"

L=$(level statics <<'EOF'
for i = 1, 1e7 do
  local b = world:body{ type = "static", x = (i % 1000) * 3, y = (i // 1000) * 3 }
  b:box{ w = 1, h = 1 }
  b:circle{ r = 0.5, x = 1 }
end
EOF
)
host_case "memory: ten million static bodies with two shapes each end in a clear error under --mem-limit 32" \
  error "$ENGINE_ERR" 10 $((32 + BASE)) --sandbox --mem-limit 32 --frames 1 "$L"

L=$(level max_bodies <<'EOF'
for i = 1, 100001 do world:body{ type = "static", x = (i % 1000) * 2, y = (i // 1000) * 2 } end
EOF
)
host_case "limit: body 100,001 of a sandboxed world is refused by name" error "too many bodies" 10 $((256 + BASE)) \
  --sandbox --time-limit 20 "$L"
L=$(level max_shapes <<'EOF'
for i = 1, 70000 do
  local b = world:body{ type = "static", x = (i % 300) * 4, y = (i // 300) * 4 }
  b:circle{ r = 0.2 }; b:circle{ r = 0.2, x = 1 }; b:circle{ r = 0.2, y = 1 }
end
EOF
)
host_case "limit: shape 200,001 of a sandboxed world is refused by name" error "too many shapes" 10 $((256 + BASE)) \
  --sandbox --time-limit 20 "$L"
L=$(level max_joints <<'EOF'
local a = world:body{ type = "dynamic" }; a:circle{ r = 0.5 }
local b = world:body{ type = "dynamic", x = 1 }; b:circle{ r = 0.5 }
for i = 1, 100001 do world:joint{ kind = "distance", a = a, b = b } end
EOF
)
host_case "limit: joint 100,001 of a sandboxed world is refused by name" error "too many joints" 10 $((256 + BASE)) \
  --sandbox --time-limit 20 "$L"
L=$(level limits_fixed <<'EOF'
assert(not pcall(tumble.world, { max_bodies = 1e9 }), "tumble.world took a max_bodies option")
local w2 = tumble.world{}
local ok, err = pcall(function()
  for i = 1, 100001 do w2:body{ type = "static", x = (i % 1000) * 2, y = (i // 1000) * 2 } end
end)
assert(not ok and tostring(err):find("too many bodies", 1, true), "a second world has no limit: " .. tostring(err))
tumble.exit(0, "every world is capped")
EOF
)
host_case "limit: a level cannot raise the limits, and a world it makes itself has them too" ok "every world is capped" \
  10 $((256 + BASE)) --sandbox --time-limit 20 "$L"

L=$(raw_level oom_usable <<'EOF'
local level = {}
local bodies = {}
function level.update(dt, world)
  if tumble.frame == 0 then
    for i = 1, 1e7 do bodies[i] = world:body{ type = "dynamic", x = (i % 500) * 2, y = (i // 500) * 2 } end
  else
    for i = 1, #bodies, 2 do bodies[i]:destroy() end
    bodies = {}
    collectgarbage()
    local b = world:body{ type = "dynamic", y = 5 }
    b:circle{ r = 0.5 }
    world:step(1 / 60)
    tumble.exit(0, "the world is usable after running out of memory")
  end
end
return level
EOF
)
host_case "memory: the engine out of memory is a Lua error and the world stays usable" ok "usable after running out" 10 \
  $((24 + BASE)) --sandbox --mem-limit 24 --keep-going --frames 5 "$L"

finish
