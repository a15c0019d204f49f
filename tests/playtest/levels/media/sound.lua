-- Fixture for kit_media.sh: sound calls headless neither fail nor block.
-- Loads a WAV and an OGG, plays them with every option many times per frame,
-- beeps every wave, and checks the errors a level can make.
local level = {}

local function expect_error(pattern, fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "no error, expected " .. pattern)
  assert(tostring(err):find(pattern, 1, true), "expected '" .. pattern .. "', got: " .. tostring(err))
end

function level.load(world)
  local wav = tumble.sound("tone.wav")
  local ogg = tumble.sound("tone.ogg")
  assert(math.abs(wav.duration - 0.2) < 0.01, "wav duration " .. wav.duration)
  assert(math.abs(ogg.duration - 0.2) < 0.01, "ogg duration " .. ogg.duration)
  level.sounds = { wav, ogg }
  expect_error("cannot open sound 'missing.wav' (looked for ", tumble.sound, "missing.wav")
  expect_error("/missing.wav): No such file or directory", tumble.sound, "missing.wav")
  -- a missing image names the path it looked for, in the level's folder
  expect_error("cannot open image 'sub/nope.png' (looked for ", tumble.gfx.image, "sub/nope.png")
  expect_error("/sub/nope.png): No such file or directory", tumble.gfx.image, "sub/nope.png")
  expect_error("cannot load sound 'notes.txt': not a WAV or OGG file", tumble.sound, "notes.txt")
  expect_error("cannot open sound 'fifo.wav': not a regular file", tumble.sound, "fifo.wav")
  expect_error("cannot load sound 'claims.wav': a damaged WAV file", tumble.sound, "claims.wav")
  expect_error("cannot open image 'fifo.wav': not a regular file", tumble.gfx.image, "fifo.wav")
  expect_error("cannot load image 'tone.wav': not a PNG or JPEG file", tumble.gfx.image, "tone.wav")
  expect_error("field 'pitch': number in", wav.play, wav, { pitch = 9 })
  expect_error("unknown option 'volum'", wav.play, wav, { volum = 1 })
  expect_error("field 'wave': one of 'sine'", tumble.beep, { wave = "organ" })
  expect_error("field 'freq': number in", tumble.beep, { freq = 0 / 0 })
  expect_error("Sound is read-only", function() wav.duration = 1 end)
  local b = tumble.beep{ freq = 880, length = 0.05 }
  assert(tostring(b):find("Sound(beep square 880", 1, true), tostring(b))
  assert(tumble.beep{ freq = 880, length = 0.05 } == b, "the same beep is one cached sound")
end

local waves = { "sine", "square", "triangle", "saw", "noise" }

function level.update()
  local f = tumble.frame
  for i, s in ipairs(level.sounds) do
    s:play{ volume = (f % 10) / 10, pitch = 0.25 + (f % 16) * 0.25, loop = f % 50 == 0 }
    if f % 7 == i then s:stop() end
    assert(type(s:playing()) == "boolean")
  end
  tumble.beep{ freq = 200 + 10 * (f % 100), to = 300, length = 0.02 + 0.01 * (f % 5), wave = waves[f % 5 + 1] }
  if f == (tonumber(os.getenv("SND_FRAMES")) or 299) then tumble.exit(0, "sound calls ok") end
end

return level
