-- Fixture for kit_sound.sh: a rewind takes a Sound's voices back with the
-- world. A looping sound starts at frame 100, pauses at 180 and resumes at
-- 200 from a seek; every frame the level lives (not while the host replays)
-- it prints what it reads of the sound. A run rewound from frame 240 to 120
-- and given the same input again prints the same lines as a straight run.
local level = {}

function level.load(world)
  local ground = world:body{ type = "static" }
  ground:box{ w = 4, h = 0.5 }
  level.state = { snd = tumble.beep{ freq = 300, length = 1.5, wave = "sine" } }
  level.state.snd:stop()
end

function level.update(dt, world)
  local f, snd = tumble.frame, level.state.snd
  if f == 100 then snd:play{ loop = true } end
  if f == 180 then snd:pause() end
  if f == 200 then snd:seek(1.25) snd:resume() end
  if f == 250 then snd:set_volume(0.5) snd:set_looping(false) end
  if not tumble.replaying then
    print(("frame %d %s %s %.6f %.2f %s"):format(f, snd:playing(), snd:paused(), snd:tell(), snd.volume, snd.looping))
  end
  if f == 300 then tumble.exit(0, "sound rewind done") end
end

return level
