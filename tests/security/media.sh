#!/usr/bin/env bash
# Security suite, class "media": decoded sizes are bounded by the budget
# whatever a file's headers claim (sounds, images), and views are capped before
# anything is allocated for them (level.conf, --size, replays, screenshots).
# The hostile files are made here, at run time, by media_gen.c.
. "$(dirname "$0")/lib.sh"

GEN="$TMP/media_gen"
HAVE_VORBIS=1
cc -O1 -o "$GEN" "$ROOT/tests/security/media_gen.c" $(pkg-config --cflags --libs vorbisenc vorbis ogg 2>/dev/null) \
  2> "$TMP/gen.log" || HAVE_VORBIS=0
if [ "$HAVE_VORBIS" = 0 ]; then
  # without libvorbisenc the generator still makes WAV, PNG and JPEG files
  sed 's/^#include <vorbis\/vorbisenc.h>$//' "$ROOT/tests/security/media_gen.c" |
    awk '/^static void write_pages/,/^}$/ { next } /^static int make_ogg/,/^}$/ { next } { print }' |
    sed 's/return make_ogg(.*/return fail("no libvorbisenc");/' > "$TMP/media_gen_nv.c"
  cc -O1 -o "$GEN" "$TMP/media_gen_nv.c" || { echo "Bail out! cannot build media_gen"; exit 1; }
fi

# the memory ceiling of the cases that must end in an error without decoding
# anything big (the host alone is about 20 MB)
CEIL=120

# --- sounds ---
if [ "$HAVE_VORBIS" = 1 ]; then
  L=$(level ogg_lie <<'EOF2'
tumble.sound("five.ogg")
EOF2
)
  "$GEN" ogg "$(dirname "$L")/five.ogg" 300 1
  host_case "media: an OGG whose last page says 1 s but holds 5 minutes (53 MB) is refused before decoding (--mem-limit 16)" \
    error "cannot load sound 'five.ogg': .*memory limit \(16 MB\)" 120 $CEIL --sandbox --mem-limit 16 --time-limit 60 "$L"
  L=$(level ogg_hour <<'EOF2'
tumble.sound("hour.ogg")
EOF2
)
  "$GEN" ogg "$(dirname "$L")/hour.ogg" 3600 1
  host_case "media: an OGG whose last page says 1 s but holds an hour is refused before decoding (--sandbox)" \
    error "cannot load sound 'hour.ogg': too long" 120 $CEIL --sandbox --time-limit 60 "$L"
  L=$(level ogg_false <<'EOF2'
tumble.sound("false.ogg")
EOF2
)
  "$GEN" oggfalse "$(dirname "$L")/false.ogg" 60
  host_case "media: an OGG of 60 MB of false page headers is refused without checking each one in full" \
    error "cannot load sound 'false.ogg': a damaged OGG file" 120 $CEIL --sandbox --time-limit 60 "$L"
  L=$(raw_level ogg_ok <<'EOF2'
local level = {}
local s
function level.load() s = tumble.sound("two.ogg") end
function level.update()
  if math.abs(s.duration - 2) > 0.1 then tumble.exit(3, "duration " .. s.duration) end
  tumble.exit(0, "two seconds loaded")
end
return level
EOF2
)
  "$GEN" ogg "$(dirname "$L")/two.ogg" 2 2
  host_case "media: an honest 2 s OGG still loads under --mem-limit 16" ok "two seconds loaded" 60 $CEIL \
    --sandbox --mem-limit 16 --time-limit 30 "$L"
  L=$(level ogg_lie_nolimit <<'EOF2'
tumble.sound("hour.ogg")
EOF2
)
  "$GEN" ogg "$(dirname "$L")/hour.ogg" 3600 1
  host_case "media: the lying OGG is refused before decoding without --sandbox too (1 GB budget)" \
    error "cannot load sound 'hour.ogg': too long" 120 $CEIL --time-limit 60 "$L"
else
  for i in 1 2 3 4 5; do N=$((N + 1)); echo "ok $N - media: OGG case $i # SKIP no libvorbisenc to make OGG files"; done
fi

L=$(level wav_two_fmt <<'EOF2'
tumble.sound("two.wav")
EOF2
)
"$GEN" wav2 "$(dirname "$L")/two.wav" 4000 384000 8000000
host_case "media: a WAV whose second format chunk says 0.01 s of what SDL reads as 2000 s is refused" \
  error "cannot load sound 'two.wav': a WAV file with two format chunks" 120 $CEIL --sandbox --mem-limit 16 \
  --time-limit 60 "$L"
L=$(level wav_long <<'EOF2'
tumble.sound("long.wav")
EOF2
)
"$GEN" wav "$(dirname "$L")/long.wav" 4000 8000000
host_case "media: a WAV of 2000 s at 4000 Hz is refused before decoding" \
  error "cannot load sound 'long.wav': too long" 120 $CEIL --sandbox --time-limit 60 "$L"
L=$(level wav_slow <<'EOF2'
tumble.sound("slow.wav")
EOF2
)
"$GEN" wav "$(dirname "$L")/slow.wav" 100 4000
host_case "media: a WAV at 100 Hz (441 times as big once converted) is refused" \
  error "cannot load sound 'slow.wav': .*sample rate" 120 $CEIL --sandbox --time-limit 60 "$L"
L=$(raw_level wav_ok <<'EOF2'
local level = {}
local s
function level.load() s = tumble.sound("ok.wav") end
function level.update()
  if math.abs(s.duration - 2) > 0.01 then tumble.exit(3, "duration " .. s.duration) end
  tumble.exit(0, "two seconds loaded")
end
return level
EOF2
)
"$GEN" wav "$(dirname "$L")/ok.wav" 8000 16000
host_case "media: an honest 2 s WAV still loads under --mem-limit 16" ok "two seconds loaded" 60 $CEIL \
  --sandbox --mem-limit 16 --time-limit 30 "$L"
L=$(level wav_budget <<'EOF2'
tumble.sound("big.wav")
EOF2
)
"$GEN" wav "$(dirname "$L")/big.wav" 44100 8000000
host_case "media: a 181 s WAV (32 MB once decoded) is refused under --mem-limit 16 (the sounds' budget follows it)" \
  error "cannot load sound 'big.wav': .*memory limit \(16 MB\)" 120 $CEIL --sandbox --mem-limit 16 --time-limit 60 "$L"

# --- images ---
L=$(level jpeg_svg <<'EOF2'
tumble.gfx.image("svg.jpg")
EOF2
)
"$GEN" jpegsvg "$(dirname "$L")/svg.jpg" 12000
host_case "media: a file whose JPEG header says 257x257 is decoded as a JPEG only, never as the 12000x12000 SVG it holds" \
  error "cannot load image 'svg.jpg'" 120 $CEIL --sandbox --mem-limit 16 --time-limit 60 "$L"
L=$(level png_huge <<'EOF2'
tumble.gfx.image("huge.png")
EOF2
)
"$GEN" png "$(dirname "$L")/huge.png" 100000 100000
host_case "media: a PNG whose header says 100000x100000 is refused before decoding" \
  error "cannot load image 'huge.png': picture too large" 60 $CEIL --sandbox --time-limit 30 "$L"
L=$(level png_budget <<'EOF2'
tumble.gfx.image("big.png")
EOF2
)
"$GEN" png "$(dirname "$L")/big.png" 4096 4096
host_case "media: a 4096x4096 PNG (64 MB of pixels) is refused under --mem-limit 16 before decoding" \
  error "cannot load image 'big.png': the images' memory limit \(16 MB\)" 60 $CEIL --sandbox --mem-limit 16 \
  --time-limit 30 "$L"

# --- views ---
conf_level() {
  raw_level "$1" <<EOF2
local level = { conf = { width = $2, height = $3 } }
function level.update() tumble.exit(0, "ran") end
return level
EOF2
}
L=$(conf_level conf_huge 16384 8192)
host_case "media: level.conf asking for a 16384x8192 view with --screenshot is refused before anything is drawn" \
  error "level.conf.*8192" 120 $CEIL --sandbox --mem-limit 16 --time-limit 60 --frames 2 --screenshot "$TMP/huge.png" "$L"
L=$(conf_level conf_area 8192 8192)
host_case "media: level.conf asking for 8192x8192 (64 million pixels) is refused" \
  error "level.conf: a view of 8192x8192 is too large" 120 $CEIL --sandbox --mem-limit 16 --time-limit 60 --frames 2 \
  --screenshot "$TMP/area.png" "$L"
L=$(conf_level conf_ok 640 360)
host_case "media: level.conf asking for 640x360 with --screenshot still works" ok "ran" 60 $CEIL \
  --sandbox --mem-limit 16 --time-limit 30 --frames 2 --screenshot "$TMP/ok.png" "$L"
run_capture 10 "$BIN" --headless --size 16384x8192 --frames 1 "$L"
report "media: --size 16384x8192 is refused at start" "$(why_bad error "size expects" 10 0)"
printf 'tumble-input 1\nview 8192 8192\nF 1 30\n' > "$TMP/area.rec"
host_case "media: a replay's 8192x8192 view is refused when the replay is opened" error "view W H" 30 $CEIL \
  --replay "$TMP/area.rec" --screenshot "$TMP/rec.png" "$L"

# --- a Sound's controls ---
L=$(raw_level sound_flood <<'EOF2'
local level = {}
local snd, ball
function level.load(world)
  snd = tumble.beep{ length = 5 }
  ball = world:body{ type = "dynamic" }
  ball:circle{ r = 0.5 }
  snd:set_position(ball)
end
function level.update(dt, world)
  -- every voice a play can start, every frame: at most 8 a Sound, oldest first
  for i = 1, 2000 do snd:play{ loop = i % 2 == 0 } snd:seek(i % 5) snd:pause() snd:resume() end
  if tumble.frame == 5 then ball:destroy() end
  if tumble.frame == 120 then tumble.exit(0, "flooded " .. tostring(snd:playing())) end
end
return level
EOF2
)
host_case "media: 2000 plays, seeks, pauses a frame on a Sound following a body destroyed mid-way: bounded, no error" \
  ok "flooded true" 120 $CEIL --sandbox --mem-limit 64 --time-limit 60 "$L"
L=$(level sound_args <<'EOF2'
local snd = tumble.beep{ length = 1 }
for _, bad in ipairs({ 0 / 0, math.huge, -math.huge, 1e308, -1e300, "1", {}, true }) do
  assert(not pcall(snd.seek, snd, bad))
  assert(not pcall(snd.set_volume, snd, bad))
  assert(not pcall(snd.set_pan, snd, bad))
  assert(not pcall(snd.set_position, snd, bad, 0))
end
assert(not pcall(snd.set_looping, snd, "yes"))
assert(not pcall(snd.pause, "not a sound"))
tumble.exit(0, "every bad argument refused")
EOF2
)
host_case "media: NaN, infinities, huge and wrongly typed arguments to a Sound's methods are errors" \
  ok "every bad argument refused" 60 $CEIL --sandbox --time-limit 30 "$L"

finish
