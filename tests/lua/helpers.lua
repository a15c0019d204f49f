-- Shared helpers for the busted specs of the tumble module.
-- Loaded with dofile so that the specs run with or without LUA_PATH set.
local tumble = require "tumble"

local M = { tumble = tumble }

-- The error message of fn(...) without the "file:line: " position, or nil when
-- fn does not fail.
function M.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return nil end
  if type(err) == "string" then
    err = err:gsub("^[^\n]-:%d+: ", "", 1)
  end
  return err
end

-- A world with a static ground box whose top face is y = 0.
function M.world_with_ground(settings)
  local world = tumble.world(settings)
  local ground = world:body{ type = "static", y = -0.5 }
  local ground_shape = ground:box{ w = 40, h = 1 }
  return world, ground, ground_shape
end

function M.step(world, n, dt)
  for _ = 1, n or 1 do world:step(dt or 1 / 60) end
end

-- Full collection, twice, so that finalizers run and weak entries clear.
function M.collect()
  collectgarbage("collect")
  collectgarbage("collect")
end

function M.near(a, b, tol)
  return math.abs(a - b) <= (tol or 1e-5)
end

return M
