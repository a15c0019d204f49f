-- Fixture for kit_sound.sh: a Sound's voices on the level's clock (play,
-- pause, resume, seek, tell, looping, volume, pan, a position), what the
-- headless mixer was told of them, and the errors of hostile arguments.
-- Each check prints "check NAME" so the script can say which failed.
local level = {}

local function expect_error(pattern, fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "no error, expected " .. pattern)
  assert(tostring(err):find(pattern, 1, true), "expected '" .. pattern .. "', got: " .. tostring(err))
end

local function near(a, b, what)
  assert(math.abs(a - b) < 1e-6, what .. ": " .. tostring(a) .. ", expected " .. tostring(b))
end

local s, world_ref, ball
local dt = 1 / 60

function level.load(world)
  world_ref = world
  -- a 2-second sound (a beep is a Sound like any other); stop its first play
  s = tumble.beep{ freq = 330, length = 2, wave = "sine" }
  s:stop()
  assert(not s:playing() and not s:paused() and s:tell() == 0, "stopped")
  near(s.duration, 2, "duration")
  assert(s.volume == 1 and s.pan == 0 and s.looping == false, "defaults")
  -- hostile arguments
  expect_error("set_volume: number in [0, 1] expected, got nan", s.set_volume, s, 0 / 0)
  expect_error("set_volume: number in [0, 1] expected, got 2", s.set_volume, s, 2)
  expect_error("set_pan: number in [-1, 1] expected, got string", s.set_pan, s, "left")
  expect_error("set_pan: number in [-1, 1] expected, got inf", s.set_pan, s, math.huge)
  expect_error("seek: number in [0, 2] expected, got 3", s.seek, s, 3)
  expect_error("seek: number in [0, 2] expected, got -1", s.seek, s, -1)
  expect_error("set_looping: boolean expected, got number", s.set_looping, s, 1)
  expect_error("set_position: x, y or a live Body expected, got table", s.set_position, s, {})
  expect_error("set_position: number in [-1e+09, 1e+09] expected, got no value", s.set_position, s, 1)
  expect_error("set_position: number in [-1e+09, 1e+09] expected, got nan", s.set_position, s, 0 / 0, 0)
  local gone = world:body{ x = 1, y = 1 }
  gone:destroy()
  expect_error("set_position: x, y or a live Body expected, got a destroyed Body", s.set_position, s, gone)
  expect_error("Sound is read-only (cannot assign 'volume'; use set_volume", function() s.volume = 0.5 end)
  expect_error("Sound expected", s.pause, {})
  local cam = tumble.camera
  cam.x, cam.y, cam.scale = 0, 0, 32
  ball = world:body{ type = "kinematic", x = 0, y = 0 }
  ball:circle{ r = 0.5 }
  print("check errors")
end

local steps = {}

-- frame 0 is the first update; tumble.frame counts completed steps
steps[0] = function()
  s:seek(0.5) -- stopped: where the next play starts
  near(s:tell(), 0.5, "seek while stopped")
  s:play()
  assert(s:playing(), "playing")
  near(s:tell(), 0.5, "play starts at the seek")
  local m = s:_mixer()
  assert(m and m.playing and not m.paused, "the mixer plays it")
  near(m.start, 0.5, "the mixer starts half a second in")
  print("check play_at_seek")
end
steps[30] = function()
  near(s:tell(), 0.5 + 30 * dt, "half a second of frames later")
  s:pause()
  assert(s:paused() and not s:playing(), "paused")
  assert(s:_mixer().paused, "the mixer's channel is paused")
  print("check pause")
end
steps[60] = function()
  near(s:tell(), 0.5 + 30 * dt, "a paused voice does not move")
  s:resume()
  assert(s:playing() and not s:paused(), "resumed")
  assert(s:_mixer().playing, "the mixer's channel plays again")
  s:seek(1.5)
  near(s:tell(), 1.5, "seek while playing")
  near(s:_mixer().start, 1.5, "the mixer restarts at the seek")
  print("check resume_seek")
end
steps[61] = function()
  s:set_volume(0.5)
  s:set_pan(-1)
  local m = s:_mixer()
  near(m.left, 0.5, "left gain")
  near(m.right, 0, "right gain")
  near(m.volume, 64 / 128, "the channel's volume")
  s:set_pan(0.5)
  m = s:_mixer()
  near(m.left, 0.25, "left gain, panned right")
  near(m.right, 0.5, "right gain, panned right")
  print("check gains")
end
steps[120] = function()
  -- 1.5 + 59 frames: 2.48 s, past the end: the voice ended on the level's clock
  assert(not s:playing() and s:tell() == 0, "ended at its end")
  s:set_pan(0)
  s:set_volume(1)
  s:set_looping(true)
  s:seek(1.9)
  s:play()
  print("check ended")
end
steps[132] = function()
  -- 1.9 + 12 frames = 2.1: a loop wraps to 0.1
  assert(s:playing(), "a loop plays on")
  near(s:tell(), 1.9 + 12 * dt - 2, "a loop wraps")
  s:stop()
  assert(not s:playing() and s:_mixer() == nil, "stopped, off the mixer")
  print("check loop")
end
steps[133] = function()
  -- a position: the camera looks at (0, 0) (set in load); a view 640 px
  -- wide at 32 px a metre is 20 m, so 10 m either side is the edge of the
  -- full volume
  s:set_looping(false)
  s:set_position(5, 0)
  s:play()
  local m = s:_mixer()
  near(m.left, 0.5, "half right: left gain")
  near(m.right, 1, "half right: right gain")
  s:set_position(-15, 0)
  m = s:_mixer()
  near(m.left, 0.5, "beyond the view's edge: fading")
  near(m.right, 0, "beyond the view's edge, left: no right")
  s:set_position(0, 30)
  near(s:_mixer().left, 0, "far away: silent")
  print("check position")
end
steps[134] = function()
  -- a body: the sound follows it each step
  s:set_position(ball)
  ball.x = 10
end
steps[136] = function()
  local m = s:_mixer()
  near(m.left, 0, "on the body at the right edge: left")
  near(m.right, 1, "on the body at the right edge: right")
  ball:destroy()
end
steps[137] = function()
  near(s:_mixer().right, 1, "a destroyed body leaves the sound where it was")
  s:set_position(nil)
  local m = s:_mixer()
  near(m.left, 1, "no position: centred")
  print("check body")
  tumble.exit(0, "sound control ok")
end

function level.update(dt_, world)
  local f = steps[tumble.frame]
  if f then f() end
end

return level
