-- tumble.plot from update and from a begin handler, for host_plot.sh.
-- PLOT_CASE picks a bad call to make at frame 2 instead (its error is asserted).
-- With PLOT_EDIT_FILE (the copy being run) it edits what load() builds at
-- frame 3, so the host rebuilds and replays frames 0..3.
local case = os.getenv("PLOT_CASE") or "ok"
local file = os.getenv("PLOT_EDIT_FILE")
local WIDTH = 10
local level = {}

function level.load(world)
	world:body{type = "static"}:box{w = WIDTH, h = 1}
end

function level.update(dt, world)
	tumble.plot("frame", tumble.frame)
	if tumble.frame % 2 == 0 then tumble.plot("half", tumble.frame / 2) end
	tumble.plot("third", 1 / 3)
	if file ~= nil then tumble.plot("width", WIDTH) end
	if file ~= nil and tumble.frame == 3 and not tumble.replaying then
		local f = assert(io.open(file, "r"))
		local text = f:read("a")
		f:close()
		f = assert(io.open(file, "w"))
		f:write((text:gsub("local WIDTH = 10", "local WIDTH = 12")))
		f:close()
	end
	if tumble.frame == 2 then
		if case == "many" then
			for i = 1, 17 do tumble.plot("s" .. i, i) end
		elseif case == "string" then
			tumble.plot("frame", "3")
		elseif case == "nan" then
			tumble.plot("frame", 0 / 0)
		elseif case == "long" then
			tumble.plot(string.rep("x", 65), 1)
		elseif case == "comma" then
			tumble.plot("a,b", 1)
		end
	end
end

return level
