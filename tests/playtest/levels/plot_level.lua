-- tumble.plot from update and from a begin handler, for host_plot.sh.
-- PLOT_CASE picks a bad call to make at frame 2 instead (its error is asserted).
local case = os.getenv("PLOT_CASE") or "ok"
local level = {}

function level.load(world)
	world:body{type = "static"}:box{w = 10, h = 1}
end

function level.update(dt, world)
	tumble.plot("frame", tumble.frame)
	if tumble.frame % 2 == 0 then tumble.plot("half", tumble.frame / 2) end
	tumble.plot("third", 1 / 3)
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
