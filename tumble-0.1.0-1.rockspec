-- `luarocks make` (from this folder) builds tumble.so, the Lua module, and
-- installs it with levelkit.lua into the rocks tree. The host (./tumble, SDL)
-- is not part of the rock: `make install` installs it.
rockspec_format = "3.0"
package = "tumble"
version = "0.1.0-1"
source = {
  url = "git+file://.",
}
description = {
  summary = "A Lua-scriptable 2D rigid-body physics engine (the tumble module)",
  detailed = [[
    tumble's physics engine (C, soft-step solver, continuous collision, joints,
    force fields, deterministic) as a Lua 5.4 module: require "tumble".
  ]],
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
build = {
  type = "make",
  build_target = "rock",
  build_variables = {
    LUA_INCDIR = "$(LUA_INCDIR)",
  },
  install_target = "install-rock",
  install_variables = {
    LUA_INCDIR = "$(LUA_INCDIR)",
    LIBDIR = "$(LIBDIR)",
    LUADIR = "$(LUADIR)",
  },
}
