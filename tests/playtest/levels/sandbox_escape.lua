-- Fixture for host_sandbox.sh: every way out of the sandbox must be closed.
-- Ends with tumble.exit(0) only if all of them are.
local level = {}

local function check()
  local problems = {}
  local function expect(ok, what) if not ok then problems[#problems + 1] = what end end
  expect(io == nil, "io is reachable")
  expect(os == nil, "os is reachable")
  expect(debug == nil, "debug is reachable")
  expect(dofile == nil and loadfile == nil, "dofile/loadfile are reachable")
  expect(package.loadlib == nil, "package.loadlib is reachable")
  expect(package.searchers[3] == nil and package.searchers[4] == nil, "C searchers are installed")
  -- binary chunks can crash the VM: load must refuse them
  local chunk = string.dump(function() return 1 end)
  local fn = load(chunk)
  expect(fn == nil, "load accepted a binary chunk")
  -- the search path cannot be widened to read arbitrary files
  package.path = "/etc/?"
  local ok, err = pcall(require, "passwd")
  expect(not ok and tostring(err):find("not found", 1, true), "require read a file outside the search path")
  -- text chunks still work
  expect(load("return 2 + 3")() == 5, "load of text chunks is broken")
  return problems
end

function level.load(world)
  local problems = check()
  if #problems == 0 then
    tumble.exit(0, "sandbox holds")
  else
    tumble.exit(3, "sandbox leaks: " .. table.concat(problems, "; "))
  end
end

return level
