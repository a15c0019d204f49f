#!/usr/bin/env bash
# Security suite, class "drawing": every size and count a level can ask of
# gfx is bounded (the transform stack, canvases, sprite batches, particles,
# fonts, text), so a hostile level gets a clear Lua error, never unbounded
# memory or time, and objects dropped or collected while drawing never leave
# the host drawing into freed memory.
. "$(dirname "$0")/lib.sh"
LONG=(--sandbox --time-limit 120)
CEIL=160

# --- the transform ---
L=$(level push_forever <<'EOF'
for i = 1, 1e9 do tumble.gfx.push() end
EOF
)
host_case "drawing: gfx.push a billion times stops at the stack's 64 with a clear error" \
  error "transform stack is full \(64 deep\)" 30 $CEIL "${LONG[@]}" "$L"
L=$(level pop_empty <<'EOF'
tumble.gfx.pop()
EOF
)
host_case "drawing: gfx.pop without a push is an error" error "gfx.pop without a gfx.push" 30 $CEIL "${LONG[@]}" "$L"
L=$(level huge_transform <<'EOF'
local gfx = tumble.gfx
gfx.scale(1e200)
gfx.scale(1e200)
EOF
)
host_case "drawing: a transform beyond 1e12 is refused" error "leave the range drawing works in" 30 $CEIL "${LONG[@]}" "$L"
L=$(level wide_line <<'EOF'
tumble.gfx.line_width(1e9)
EOF
)
host_case "drawing: a line 1e9 pixels wide is refused" error "line width in pixels in \(0, 256\]" 30 $CEIL "${LONG[@]}" "$L"
L=$(level bad_blend <<'EOF'
tumble.gfx.blend_mode("xor")
EOF
)
host_case "drawing: an unknown blend mode names the valid ones" error "valid modes: alpha, add, multiply, replace" 30 $CEIL \
  "${LONG[@]}" "$L"

# --- canvases ---
L=$(level canvas_huge <<'EOF'
tumble.gfx.canvas(1e6, 1e6)
EOF
)
host_case "drawing: a canvas of 1e6 x 1e6 is refused before anything is allocated" \
  error "a canvas of 1000000 x 1000000 pixels is too large" 30 $CEIL "${LONG[@]}" "$L"
L=$(level canvas_side <<'EOF'
tumble.gfx.canvas(8192, 8192)
EOF
)
host_case "drawing: a canvas within the side but over the view's pixel cap is refused" \
  error "8192 x 8192 pixels is too large" 30 $CEIL "${LONG[@]}" "$L"
L=$(level canvas_keep <<'EOF'
local keep = {}
for i = 1, 1000 do keep[i] = tumble.gfx.canvas(4096, 4096) end
EOF
)
host_case "drawing: canvases kept in a loop stop at the images' memory limit (--mem-limit 64)" \
  error "images' memory limit \(64 MB\)" 60 $CEIL "${LONG[@]}" --mem-limit 64 "$L"
L=$(level canvas_churn <<'EOF'
local gfx = tumble.gfx
for i = 1, 100 do
  local c = gfx.canvas(2048, 2048)
  gfx.set_canvas(c)
  gfx.clear(1, 0, 0, 1)
  gfx.set_canvas()
end
tumble.exit(0, "made 100 canvases")
EOF
)
host_case "drawing: canvases made, drawn into and dropped are collected (100 of 16 MB under --mem-limit 64)" \
  ok "made 100 canvases" 120 $CEIL "${LONG[@]}" --mem-limit 64 "$L"
L=$(raw_level canvas_dropped <<'EOF'
local level = {}
local gfx = tumble.gfx
local frames = 0
function level.load(world)
  -- drawn into and never left: only the host holds it
  gfx.set_canvas(gfx.canvas(256, 256))
  collectgarbage(); collectgarbage()
  gfx.circle("fill", 10, 10, 5)
end
function level.draw(gfx)
  frames = frames + 1
  local c = gfx.canvas(64, 64)
  gfx.set_canvas(c)
  gfx.circle("fill", 32, 32, 20)
  c = nil
  collectgarbage(); collectgarbage()
  gfx.rect("fill", 5, 5, 4, 4)
  gfx.draw(gfx.get_canvas(), 0, 0)
  if frames == 3 then tumble.exit(0, "drew into collected-looking canvases") end
end
return level
EOF
)
host_case "drawing: a canvas drawn into while the level drops it stays alive until left (and at close)" \
  ok "drew into collected-looking canvases" 60 $CEIL --sandbox --frames 10 --screenshot "$TMP/dropped.png" "$L"

# --- batches and particles ---
L=$(level batch_huge <<'EOF'
tumble.gfx.batch(tumble.gfx.canvas(4, 4), 1e9)
EOF
)
host_case "drawing: a batch of a billion sprites is refused" error "sprite count in \[1, 100000\] expected" 30 $CEIL \
  "${LONG[@]}" "$L"
L=$(level batch_full <<'EOF'
local b = tumble.gfx.batch(tumble.gfx.canvas(4, 4), 10)
for i = 1, 1e9 do b:add(0, 0) end
EOF
)
host_case "drawing: adding past a batch's max is an error" error "SpriteBatch is full \(10 sprites\)" 30 $CEIL \
  "${LONG[@]}" "$L"
L=$(level particles_huge <<'EOF'
tumble.gfx.particles({max = 1e9})
EOF
)
host_case "drawing: an emitter of a billion particles is refused" error "particle count in \[1, 100000\] expected" 30 \
  $CEIL "${LONG[@]}" "$L"
L=$(raw_level particles_flood <<'EOF'
local level = {}
local gfx = tumble.gfx
local ps, b
function level.load(world)
  ps = gfx.particles({max = 100000, rate = 1e6, life = 1000, speed = {0, 10}})
  ps:emit(math.maxinteger)
  for i = 1, 10 do ps:update(1) end
  b = gfx.batch(gfx.canvas(8, 8), 100000)
  for i = 1, 100000 do b:add(i % 100, i // 1000) end
end
function level.draw(gfx)
  gfx.draw(ps)
  gfx.draw(b)
  tumble.exit(0, "particles " .. ps.count .. " sprites " .. b.count)
end
return level
EOF
)
host_case "drawing: 100000 particles and 100000 sprites, emitted at 1e6/s, draw within their bounds" \
  ok "particles 100000 sprites 100000" 120 300 "${LONG[@]}" --frames 5 --screenshot "$TMP/flood.png" "$L"

# --- fonts and text ---
L=$(level font_huge <<'EOF'
tumble.gfx.font(1e9)
EOF
)
host_case "drawing: a font of 1e9 pixels is refused" error "font size in pixels in \[1, 256\] expected" 30 $CEIL \
  "${LONG[@]}" "$L"
L=$(level font_outside <<'EOF'
tumble.gfx.font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 12)
EOF
)
host_case "drawing: under --sandbox a font outside the level's folder is refused" error "cannot open font" 30 $CEIL \
  "${LONG[@]}" "$L"
L=$(level font_not <<'EOF'
tumble.gfx.font("level.lua", 12)
EOF
)
host_case "drawing: a file that is not a font is a clear error" error "cannot load font 'level.lua'" 30 $CEIL \
  "${LONG[@]}" "$L"
L=$(raw_level font_tall <<'EOF'
local level = {}
function level.load(world)
  tumble.gfx.font("tall.ttf", 14)
end
return level
EOF
)
# a valid font whose lines claim 26,000 pixels at 14: each line's picture
# would be that tall
python3 "$ROOT/tests/fuzz/make_font_seed.py" "$(dirname "$L")/tall.ttf" 30000 16
host_case "drawing: a font whose lines are out of all proportion to its size is refused" \
  error "cannot load font 'tall.ttf': its lines are [0-9]+ pixels tall at 14 pixels" 30 $CEIL "${LONG[@]}" "$L"
L=$(raw_level text_flood <<'EOF'
local level = {}
local line = string.rep("W", 10 * 1024 * 1024)
local lines = string.rep("many lines\n", 100000)
function level.load(world)
  local w, h = tumble.gfx.text_size(lines, 1)
  print("lines", h)
end
function level.draw(gfx)
  gfx.set_font(gfx.font(256))
  gfx.screen_text(-1e6, 10, line, 2)
  gfx.screen_text(10, 10, line, 16)
  gfx.text(0, 0, line, 16, "center")
  gfx.screen_text(10, -1e5, lines, 1)
  tumble.exit(0, "drew 10 MB of text")
end
return level
EOF
)
host_case "drawing: a 10 MB line at 512 px and 100000 lines render only what is seen" \
  ok "drew 10 MB of text" 120 300 "${LONG[@]}" --mem-limit 200 --frames 5 --screenshot "$TMP/text.png" "$L"

# metamethods that run in the middle of a drawing call (the options of a draw
# switching the canvas and dropping the one drawn into, a batch cleared while
# a sprite is added, an emitter emptied while its settings are read, a length
# of 2^31): each call ends in its result or a clear Lua error, nothing freed
# is touched (the sanitized run checks that)
L=$(raw_level hostile_mid_call <<'EOF'
local level = {}
local gfx = tumble.gfx
local results = {}
local function try(name, f)
  local ok, err = pcall(f)
  results[#results + 1] = name .. "=" .. (ok and "ok" or ("err:" .. tostring(err):gsub("^.-:%d+: ", ""):sub(1, 80)))
end
local c, c2, b, ps, img
function level.load(world)
  c = gfx.canvas(64, 64)
  c2 = gfx.canvas(32, 32)
end
function level.draw(g)
  if tumble.frame ~= 2 then return end
  try("self-draw", function() gfx.set_canvas(c); gfx.draw(c, 0, 0); gfx.set_canvas() end)
  try("switch-mid-options", function()
    gfx.set_canvas(c)
    gfx.draw(c2, 0, 0, setmetatable({}, {__index = function(t, k) gfx.set_canvas(c2); c = nil; collectgarbage(); return nil end}))
    gfx.set_canvas()
  end)
  b = gfx.batch(c2, 10)
  try("batch-clear-mid-add", function()
    for i = 1, 20 do b:add(0, 0, setmetatable({}, {__index = function(t, k) b:clear(); return nil end})) end
  end)
  try("batch-draw-self", function() gfx.set_canvas(c2); gfx.draw(b, 0, 0); gfx.set_canvas() end)
  ps = gfx.particles(c2, {max = 50})
  try("ps-set-mid", function()
    ps:set(setmetatable({}, {__index = function(t, k) ps:emit(50); ps:reset(); ps:update(0.1); return nil end}))
  end)
  try("ps-colors-len", function()
    ps:set({colors = setmetatable({}, {__len = function() return 2^31 end})})
  end)
  try("ps-colors-len-mid", function()
    ps:set({colors = setmetatable({{1,0,0},{0,1,0}}, {__len = function() ps:emit(50) return 2 end})})
  end)
  try("plot-table-name", function() tumble.plot(setmetatable({}, {__tostring = function() error("x") end}), 1) end)
  try("plot-many", function() for i = 1, 100000 do tumble.plot("s" .. i, i) end end)
  try("plot-nan", function() tumble.plot("n", 0/0) end)
  try("font-huge-mid", function() gfx.text(0, 0, setmetatable({}, {__tostring = function() gfx.pop() return "x" end})) end)
  try("push-in-canvas", function() gfx.set_canvas(c2); for i = 1, 10 do gfx.push() end; gfx.set_canvas(); gfx.pop() end)
  try("text-size-mt", function() gfx.text_size(setmetatable({}, {__index = function() collectgarbage() end})) end)
  print(table.concat(results, "\n"))
  tumble.exit(0, "hostile calls answered")
end
return level
EOF
)
host_case "drawing: metamethods in the middle of canvas, batch, particle and plot calls" \
  ok "hostile calls answered" 60 0 "${LONG[@]}" --frames 5 "$L"
N=$((N + 1))
if grep -q "^self-draw=ok" "$TMP/out" && grep -q "^ps-colors-len=err:.*field 'colors'" "$TMP/out" &&
  grep -q "^plot-many=err:.*too many series" "$TMP/out" && grep -q "^batch-clear-mid-add=err:.*SpriteBatch is full" "$TMP/out"; then
  echo "ok $N - drawing: the hostile calls' answers are the documented ones"
else
  echo "not ok $N - drawing: the hostile calls' answers are the documented ones"
  sed 's/^/#   /' "$TMP/out" | head -16
fi

finish
