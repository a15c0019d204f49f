/* tests/security: the sandbox's pattern matcher (src/host/pattern.c) against
 * Lua 5.4's own string.find/match/gmatch/gsub, on random subjects and random
 * patterns (well-formed and malformed), and its budget: a pattern that
 * backtracks exponentially ends in an error after a bounded number of steps.
 * Output is TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "sbxlib.h"

/* Stand-in for the sandbox's budget: counts steps, raises past a limit. */
static long long steps_charged, step_limit;

void th_sandbox_tick(lua_State *L, long long steps)
{
	steps_charged += steps;
	if (step_limit > 0 && steps_charged > step_limit) luaL_error(L, "budget exceeded");
}

static int set_limit(lua_State *L)
{
	step_limit = luaL_checkinteger(L, 1);
	steps_charged = 0;
	return 0;
}

static int charged(lua_State *L)
{
	lua_pushinteger(L, steps_charged);
	return 1;
}

static const char script[] =
	"local stock, sbx = ...\n"
	"local n, fails = 0, 0\n"
	"local function ok(cond, what) n = n + 1\n"
	"  if cond then print('ok ' .. n .. ' - ' .. what) else fails = fails + 1; print('not ok ' .. n .. ' - ' .. what) end end\n"
	"local function pack(...) return table.pack(...) end\n"
	"local function show(t)\n"
	"  local out = {}\n"
	"  for i = 1, t.n do local v = t[i]; out[#out + 1] = type(v) .. ':' .. tostring(v) end\n"
	"  return table.concat(out, '|')\n"
	"end\n"
	"local function run(lib, fn, ...)\n"
	"  local r = pack(pcall(lib[fn], ...))\n"
	"  if not r[1] then r[2] = tostring(r[2]):gsub('^[^:]*:%d+: ', '') end\n"
	"  return show(r)\n"
	"end\n"
	"local function run_gmatch(lib, s, p, init)\n"
	"  return show(pack(pcall(function()\n"
	"    local out = {}\n"
	"    for a, b in lib.gmatch(s, p, init) do out[#out + 1] = tostring(a) .. ',' .. tostring(b); if #out > 50 then break end end\n"
	"    return table.concat(out, ';')\n"
	"  end)))\n"
	"end\n"
	"local rnd = 12345\n"
	"local function rand(k) rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % k end\n"
	"local atoms = { 'a', 'b', 'c', '.', '%a', '%d', '%s', '%w', '%A', '%S', '%p', '[ab]', '[^a]', '[a-c]',\n"
	"  '[%d_]', '[]]', '[^]a]', '[a-]', '%b()', '%bab', '%f[%w]', '%f[%W]', '(', ')', '()', '%1', '%2', '%0',\n"
	"  '%.', '%%', '-', ' ', '\\0', 'x', '$', '^', '%', '[', '[a', '%b', '%f', '%z', '%g', '%x', '%u', '%l', '%c' }\n"
	"local quants = { '', '', '', '*', '+', '-', '?' }\n"
	"local chars = { 'a', 'b', 'c', '(', ')', ' ', '1', '_', '\\0', 'A', '.', '%', ']', 'x' }\n"
	"local function pattern()\n"
	"  local p = {}\n"
	"  if rand(5) == 0 then p[#p + 1] = '^' end\n"
	"  for _ = 1, 1 + rand(6) do p[#p + 1] = atoms[1 + rand(#atoms)] .. quants[1 + rand(#quants)] end\n"
	"  if rand(6) == 0 then p[#p + 1] = '$' end\n"
	"  return table.concat(p)\n"
	"end\n"
	"local function subject()\n"
	"  local s = {}\n"
	"  for _ = 1, rand(14) do s[#s + 1] = chars[1 + rand(#chars)] end\n"
	"  return table.concat(s)\n"
	"end\n"
	"local mismatches, first = 0, nil\n"
	"local reps = { '<%0>', '%1', '%%', '[%2]', 'x', '%9', '%z' }\n"
	"local rtab = { a = 'A', b = false, ['('] = 1 }\n"
	"for i = 1, 40000 do\n"
	"  local s, p = subject(), pattern()\n"
	"  local init = rand(4) == 0 and (rand(20) - 8) or nil\n"
	"  local cases = {\n"
	"    { 'find', s, p, init }, { 'find', s, p, init, true }, { 'match', s, p, init },\n"
	"    { 'gsub', s, p, reps[1 + rand(#reps)], rand(3) == 0 and rand(4) or nil },\n"
	"    { 'gsub', s, p, rtab }, { 'gsub', s, p, function(a, b) if a == 'c' then return nil end return tostring(a) .. tostring(b) end },\n"
	"  }\n"
	"  for _, c in ipairs(cases) do\n"
	"    local a, b = run(stock, table.unpack(c, 1, 5)), run(sbx, table.unpack(c, 1, 5))\n"
	"    if a ~= b then mismatches = mismatches + 1; first = first or (c[1] .. '(' .. ('%q'):format(s) .. ', ' .. ('%q'):format(p) .. '): stock ' .. a .. ' / ours ' .. b) end\n"
	"  end\n"
	"  local a, b = run_gmatch(stock, s, p, init), run_gmatch(sbx, s, p, init)\n"
	"  if a ~= b then mismatches = mismatches + 1; first = first or ('gmatch(' .. ('%q'):format(s) .. ', ' .. ('%q'):format(p) .. '): stock ' .. a .. ' / ours ' .. b) end\n"
	"end\n"
	"ok(mismatches == 0, '280,000 random calls give what the stock library gives' .. (first and (': ' .. first) or ''))\n"
	"-- hand-picked cases the random ones may miss\n"
	"local picked = {\n"
	"  { 'find', 'hello world', 'o w' }, { 'find', 'hello', 'l+' }, { 'find', 'abc', '', 10 }, { 'find', 'abc', '', 4 },\n"
	"  { 'find', 'a.b', '.', 1, true }, { 'match', 'key = value', '(%w+)%s*=%s*(%w+)' }, { 'match', '  trim  ', '^%s*(.-)%s*$' },\n"
	"  { 'match', 'THE (quick) fox', '%((%a+)%)' }, { 'match', 'x', '()' }, { 'match', 'abcabc', '(abc)%1' },\n"
	"  { 'gsub', 'hello world', '(%w+)', '<%1>' }, { 'gsub', 'abc', '', '-' }, { 'gsub', 'abc', '%w', '%0%0', 2 },\n"
	"  { 'gsub', 'f(a(b)c)d', '%b()', '' }, { 'gsub', 'THE (quick) fox', '%f[%a]%a+', 'W' }, { 'match', 'a\\0b', 'a%zb' },\n"
	"  { 'match', 'a\\0b', '[%z]' }, { 'find', 'a\\0b\\0c', '\\0c' }, { 'gsub', 'abc', '(b)', '%2' }, { 'match', 'aaa', '(a*(.)%w(%s*))' },\n"
	"  { 'match', ('x'):rep(300), ('x?'):rep(250) }, { 'gsub', 'x', '.', { x = {} } }, { 'find', 'abc', 'b', -1 }, { 'find', 'abc', 'b', -10 },\n"
	"  { 'match', 'key=val', '(()%w+())=' }, { 'gsub', 'abc', '()', '%1' }, { 'match', '[[x]]', '%[(%b[])%]' },\n"
	"}\n"
	"local bad = 0\n"
	"for _, c in ipairs(picked) do\n"
	"  local a, b = run(stock, table.unpack(c, 1, 5)), run(sbx, table.unpack(c, 1, 5))\n"
	"  if a ~= b then bad = bad + 1; print('# ' .. c[1] .. ' ' .. ('%q'):format(c[3]) .. ': stock ' .. a .. ' / ours ' .. b) end\n"
	"end\n"
	"ok(bad == 0, #picked .. ' hand-picked calls give what the stock library gives')\n"
	"do\n"
	"  local a, b = {}, {}\n"
	"  for k, v in stock.gmatch('a=1, b=2, c=3', '(%w+)=(%w+)') do a[#a + 1] = k .. v end\n"
	"  for k, v in sbx.gmatch('a=1, b=2, c=3', '(%w+)=(%w+)') do b[#b + 1] = k .. v end\n"
	"  ok(table.concat(a, ' ') == table.concat(b, ' ') and #b == 3, 'gmatch iterates the same matches')\n"
	"end\n"
	"-- the budget reaches inside a match\n"
	"set_limit(1e7)\n"
	"local t0 = os.clock()\n"
	"local okm, err = pcall(sbx.match, ('a'):rep(3000), ('a*'):rep(12) .. 'b')\n"
	"local dt = os.clock() - t0\n"
	"ok(not okm and tostring(err):find('budget exceeded', 1, true) and charged() <= 1e7 + 5000,\n"
	"   'an exponentially backtracking pattern ends in the budget error (' .. charged() .. ' steps, ' .. ('%.2f'):format(dt) .. ' s)')\n"
	"set_limit(1e6)\n"
	"okm, err = pcall(sbx.gsub, ('a'):rep(1e5), 'a-a-a-b', '')\n"
	"ok(not okm and tostring(err):find('budget exceeded', 1, true), 'gsub is budgeted too')\n"
	"set_limit(1e6)\n"
	"okm, err = pcall(function() for _ in sbx.gmatch(('a'):rep(1e5), 'a-a-a-b') do end end)\n"
	"ok(not okm and tostring(err):find('budget exceeded', 1, true), 'gmatch is budgeted too')\n"
	"set_limit(1e6)\n"
	"okm, err = pcall(sbx.find, ('a'):rep(2e6), ('a'):rep(1e6) .. 'b', 1, true)\n"
	"ok(okm and err == nil and charged() == 0, 'a plain find is linear (memmem), not charged')\n"
	"set_limit(0)\n"
	"okm, err = pcall(sbx.match, ('('):rep(40) .. 'x', ('%('):rep(40) .. 'x')\n"
	"ok(okm, 'long literal patterns still match')\n"
	"okm, err = pcall(sbx.match, 'x', ('('):rep(33) .. 'x' .. (')'):rep(33))\n"
	"ok(not okm and tostring(err):find('too many captures', 1, true), 'capture count is limited: ' .. tostring(err))\n"
	"okm, err = pcall(sbx.match, ('a'):rep(300), ('a?'):rep(300) .. 'b')\n"
	"ok(not okm and tostring(err):find('pattern too complex', 1, true), 'recursion depth is limited: ' .. tostring(err))\n"
	"print('1..' .. n)\n"
	"return fails\n";

int main(void)
{
	lua_State *L = luaL_newstate();
	luaL_openlibs(L);
	lua_register(L, "set_limit", set_limit);
	lua_register(L, "charged", charged);
	if (luaL_loadbuffer(L, script, sizeof(script) - 1, "=test_pattern") != LUA_OK) {
		printf("not ok 1 - test script loads: %s\n1..1\n", lua_tostring(L, -1));
		return 1;
	}
	lua_getglobal(L, "string");
	lua_newtable(L);
	th_pattern_register(L, -1);
	if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
		printf("not ok 1 - test script runs: %s\n1..1\n", lua_tostring(L, -1));
		return 1;
	}
	int fails = (int)lua_tointeger(L, -1);
	lua_close(L);
	return fails == 0 ? 0 : 1;
}
