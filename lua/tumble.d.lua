---@meta tumble
-- LuaLS annotations of the `tumble` module (tumble.so / the host's global).
-- Units: metres, kilograms, seconds, radians; y points up. See lua/REFERENCE.md.

---@class tumble
---@field version string  module version, e.g. "0.1.0"
tumble = {}

---A 2D vector as returned by the module: `{x, y, x = x, y = y}`.
---Anywhere a vector is taken, `{x, y}` and `{x = x, y = y}` both work.
---@class tumble.Vec2
---@field x number
---@field y number
---@field [1] number
---@field [2] number

---@alias tumble.BodyType "static"|"kinematic"|"dynamic"
---@alias tumble.ShapeKind "circle"|"capsule"|"segment"|"polygon"|"chain_segment"
---@alias tumble.JointKind "revolute"|"prismatic"|"distance"|"weld"|"mouse"|"wheel"|"motor"
---@alias tumble.EventName "begin"|"end"|"hit"|"sensor_enter"|"sensor_exit"|"joint_break"|"presolve"
---@alias tumble.MixRule "geometric"|"max"|"min"|"average"|"multiply"
---@alias tumble.Falloff "none"|"linear"|"inverse_square"
---@alias tumble.FieldKind "none"|"linear"|"radial"|"drag"

---@class tumble.WorldSettings
---@field gravity? tumble.Vec2|number[]       m/s^2, default {0, -10}
---@field substeps? integer                    solver substeps per step, 1..64, default 8
---@field contact_hertz? number                contact stiffness (Hz), >= 0
---@field contact_damping_ratio? number        >= 0
---@field joint_hertz? number                  joint stiffness (Hz), >= 0
---@field joint_damping_ratio? number          >= 0
---@field max_push_speed? number               m/s, how fast overlap is resolved, >= 0
---@field restitution_threshold? number        m/s, slower approach does not bounce, >= 0
---@field hit_threshold? number                m/s, minimum approach speed of a hit event, >= 0
---@field max_linear_speed? number             m/s, > 0
---@field time_to_sleep? number                s, >= 0
---@field warm_starting? boolean               default true
---@field position_correction? boolean         default true
---@field sleeping? boolean                    default true
---@field continuous? boolean                  default true
---@field motion? boolean                      false freezes integration, default true
---@field contact_cache? boolean               resting pairs remade instead of collided, default true
---@field friction_mix? tumble.MixRule         how two frictions make a contact's, default "geometric"
---@field restitution_mix? tumble.MixRule      the same for restitution, default "max"

---Creates a world. Every setting is optional; unknown names are errors.
---@param settings? tumble.WorldSettings
---@return tumble.World
function tumble.world(settings) end

---The distance between two shapes of one world at any separation (negative
---when their cores overlap), the closest point of each (world) and the unit
---normal from a to b.
---@param a tumble.Shape
---@param b tumble.Shape
---@return number distance, number x1, number y1, number x2, number y2, number nx, number ny
function tumble.distance(a, b) end

---Do two shapes (of one world) touch, and how? `touching` is true when some
---manifold point has separation <= 0; `contact` is nil when the shapes are
---further apart than the speculative distance (2 cm).
---@param a tumble.Shape
---@param b tumble.Shape
---@return boolean touching
---@return tumble.Contact|nil contact  normal from a to b
function tumble.collide(a, b) end

---Reads back a string from `snap:save()`: a Snapshot of the engine state only
---(no handles, user values or handlers), to restore into any world. A string
---that is not a snapshot, is corrupt or truncated, or was saved by another
---version or build of tumble raises an error.
---@param bytes string
---@return tumble.Snapshot
function tumble.snapshot(bytes) end

---Test hook: the determinism scene built in C, stepped n times.
---@param n_steps integer
---@return number[] xs_ys_angles
---@return string hash
function tumble._c_reference_scene(n_steps) end

---Test hook: the engine's default world settings, read in C.
---@return table
function tumble._c_default_settings() end

---Test hook: what the binding really has, read from the arrays it dispatches
---on (tests/lua/docs_spec.lua checks this file and REFERENCE.md against it):
---`{World = {properties, readonly, methods, options}, Body, Shape, Joint, Contact, Snapshot,
---module, settings, events, handlers, body_types, shape_kinds, joint_kinds,
---field_kinds, falloffs}`, each a list of names.
---@return table
function tumble._introspect() end

------------------------------------------------------------------------------
-- World
------------------------------------------------------------------------------

---@class tumble.World : tumble.WorldSettings
---@field gravity tumble.Vec2
---@field substeps integer
---@field contact_hertz number
---@field contact_damping_ratio number
---@field joint_hertz number
---@field joint_damping_ratio number
---@field max_push_speed number
---@field restitution_threshold number
---@field hit_threshold number
---@field max_linear_speed number
---@field time_to_sleep number
---@field warm_starting boolean
---@field position_correction boolean
---@field sleeping boolean
---@field continuous boolean
---@field motion boolean
---@field contact_cache boolean
---@field friction_mix tumble.MixRule
---@field restitution_mix tumble.MixRule
---@field valid boolean            (read-only) false after world:destroy()
---@field body_count integer       (read-only)
---@field awake_body_count integer (read-only)
---@field shape_count integer      (read-only)
---@field joint_count integer      (read-only)
---@field contact_count integer    (read-only) touching contacts
---@field step_count integer       (read-only)
---@field dispatch_ms number       (read-only) time spent in event handlers during the last step
local World = {}

---Advances the world by dt seconds (0 <= dt <= 1), then delivers the step's
---events to the handlers. Refused from inside a handler.
---@param dt number
function World:step(dt) end

---@class tumble.BodyOptions
---@field type? tumble.BodyType  default "static"
---@field x? number
---@field y? number
---@field angle? number
---@field vx? number
---@field vy? number
---@field spin? number           rad/s, counter-clockwise positive
---@field bullet? boolean
---@field fixed_rotation? boolean
---@field linear_damping? number  1/s, >= 0
---@field angular_damping? number 1/s, >= 0
---@field gravity_scale? number   default 1
---@field awake? boolean          default true
---@field enabled? boolean        default true
---@field can_sleep? boolean      default true
---@field sleep_threshold? number m/s, default 0.05: slower than this the body may sleep
---@field user? any

---@param options? tumble.BodyOptions
---@return tumble.Body
function World:body(options) end

---@class tumble.JointOptions
---@field kind tumble.JointKind
---@field a tumble.Body
---@field b tumble.Body
---@field collide? boolean        may the two bodies collide, default false
---@field user? any
---@field x? number               world anchor (revolute, prismatic, weld, mouse), default b's origin
---@field y? number
---@field x1? number              distance: world anchor on a, default a's origin
---@field y1? number
---@field x2? number              distance: world anchor on b, default b's origin
---@field y2? number
---@field axis? tumble.Vec2|number[] prismatic: world axis, default {1, 0}; wheel: suspension axis, default {0, 1}
---@field motor? boolean          default: true when a motor field is given
---@field motor_speed? number     rad/s (revolute, wheel) or m/s (prismatic)
---@field max_torque? number      revolute / wheel motor, motor joint, N*m
---@field max_force? number       prismatic motor / mouse / motor joint, N
---@field offset? tumble.Vec2|number[] motor: b's origin in a's frame, default where it is
---@field angle? number           motor: b's angle minus a's, default as it is
---@field correction? number      motor: 0..1, share of the error closed per substep, default 0.3
---@field break_force? number     N, default math.huge (unbreakable): past it the joint breaks
---@field break_torque? number    N*m, default math.huge
---@field limit? boolean          default: true when lower and upper are given
---@field lower? number           radians (revolute) or metres (prismatic, wheel)
---@field upper? number
---@field length? number          distance, default the anchors' distance
---@field min_length? number
---@field max_length? number
---@field spring? boolean         default: true when hertz > 0 is given
---@field hertz? number
---@field damping? number
---@field angular_hertz? number   weld
---@field angular_damping? number weld
---@field target? tumble.Vec2|number[] mouse: world target, default the anchor

---@param options tumble.JointOptions
---@return tumble.Joint
function World:joint(options) end

---Sets (or with nil removes) the world's handler of an event.
---begin/end/hit handlers get (shape_a, shape_b, contact); sensor handlers get
---(sensor, visitor, nil). end handlers get contact = nil.
---joint_break handlers get (joint, {kind, a, b, force, torque, user}) after
---the step; presolve handlers get (shape_a, shape_b, contact) during the step
---and return false to switch the contact off (nothing may change the world
---meanwhile).
---@param event tumble.EventName
---@param handler fun(a: tumble.Shape, b: tumble.Shape, contact: tumble.Contact|nil)|fun(joint: tumble.Joint, info: table)|fun(a: tumble.Shape, b: tumble.Shape, contact: tumble.Contact): boolean|nil
function World:on(event, handler) end

---Sweeps a geometry placed at (x, y, angle) by (dx, dy): the first hit, or
---nothing. `shape_or_def` is a Shape (its own body is never hit) or one of
---{circle = {r, x, y}}, {box = {w, h, x, y, angle, radius}},
---{capsule = {x1, y1, x2, y2, r}}, {polygon = {x1, y1, ..., radius}}.
---@param shape_or_def tumble.Shape|table
---@param mask? integer
---@return tumble.Shape? shape, number x, number y, number nx, number ny, number fraction
function World:cast_shape(shape_or_def, x, y, angle, dx, dy, mask) end

---@class tumble.ExplosionOptions
---@field x number
---@field y number
---@field radius number           m: full impulse within it
---@field impulse number          N*s, away from (x, y); negative pulls in
---@field falloff? number         m beyond radius over which it fades to nothing, default 0
---@field mask? integer           categories pushed, default all

---Pushes every dynamic body near (x, y) away from it; returns how many.
---@param options tumble.ExplosionOptions
---@return integer pushed
function World:explode(options) end

---@class tumble.MoverOptions
---@field capsule? number[]       {x1, y1, x2, y2, r} relative to the position, default {0, -0.5, 0, 0.5, 0.3}
---@field x? number
---@field y? number
---@field max_slope? number       rad in [0, pi/2), default pi/4
---@field step_height? number     m, default 0
---@field push_strength? number   N, default 0
---@field mask? integer           categories it collides with, default all

---A kinematic character capsule moved by mover:move.
---@param options tumble.MoverOptions
---@return tumble.Mover
function World:mover(options) end

---Iterates the bodies in creation (slot) order; bodies destroyed during the
---loop are skipped.
---@return fun(): tumble.Body
function World:bodies() end

---@return fun(): tumble.Joint
function World:joints() end

---Destroys every body, shape and joint (handles go stale); settings stay.
function World:destroy_all() end

---Frees the engine world now; every later use raises "world was destroyed".
---(`local world <close> = tumble.world()` does it at the end of the block.)
function World:destroy() end

---16 hex digits hashing every body's transform and velocity.
---@return string
function World:hash() end

---Milliseconds per phase of the last step, plus `dispatch` (handlers).
---@return table<string, number>
function World:profile() end

---@return table<string, integer>
function World:counters() end

---Touching contacts.
---@return {a: tumble.Shape, b: tumble.Shape, contact: tumble.Contact}[]
function World:contacts() end

---Everything that decides the world's future, and the handles alive now with
---their user values and handlers. Not inside world:restore.
---@return tumble.Snapshot
function World:snapshot() end

---Puts the world back to the snapshot: the steps after it are bit-identical
---to those after the moment it was taken. Handles alive then are the same
---userdata again, with the values and handlers they had; handles of objects
---made since are stale. A snapshot read from bytes makes every handle of the
---world stale. Errors inside an event handler, for a snapshot of another
---world (move one as a string) and past the host's limits.
---@param snap tumble.Snapshot
function World:restore(snap) end

---Closest hit of the segment (x1, y1) -> (x2, y2); nothing on a miss.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param mask? integer  category bits to consider, default all
---@return tumble.Shape? shape
---@return number x
---@return number y
---@return number nx
---@return number ny
---@return number fraction
function World:raycast(x1, y1, x2, y2, mask) end

---Every hit, sorted by fraction then shape id.
---@return {shape: tumble.Shape, x: number, y: number, nx: number, ny: number, fraction: number}[]
function World:raycast_all(x1, y1, x2, y2, mask) end

---Shapes whose bounding box overlaps the box (corners in any order), by id.
---@return tumble.Shape[]
function World:query_box(x1, y1, x2, y2, mask) end

---Shapes containing the point, by id.
---@return tumble.Shape[]
function World:query_point(x, y, mask) end

---Shapes really overlapping the shape (itself excluded), by id.
---@param shape tumble.Shape
---@param mask? integer
---@return tumble.Shape[]
function World:overlap(shape, mask) end

------------------------------------------------------------------------------
-- Body
------------------------------------------------------------------------------

---@class tumble.Body
---@field x number             origin, world
---@field y number
---@field angle number
---@field vx number            velocity of the centre of mass
---@field vy number
---@field spin number          rad/s
---@field type tumble.BodyType
---@field awake boolean
---@field enabled boolean
---@field bullet boolean
---@field fixed_rotation boolean
---@field gravity_scale number
---@field linear_damping number
---@field angular_damping number
---@field can_sleep boolean
---@field sleep_threshold number  m/s
---@field user any
---@field mass number          (read-only) kg
---@field inertia number       (read-only) kg*m^2 about the centre of mass
---@field world tumble.World   (read-only)
---@field valid boolean        (read-only) never raises
---@field id integer           (read-only) slot index + 1, never raises
local Body = {}

---@param fx number
---@param fy number
---@param px? number world point, default the centre of mass
---@param py? number
function Body:apply_force(fx, fy, px, py) end
---@param ix number
---@param iy number
---@param px? number
---@param py? number
function Body:apply_impulse(ix, iy, px, py) end
---@param torque number
function Body:apply_torque(torque) end
---@param impulse number
function Body:apply_angular_impulse(impulse) end
---Destroys the body with its shapes and joints (a second call does nothing).
function Body:destroy() end
---@return tumble.Shape[]
function Body:shapes() end
---@return tumble.Joint[]
function Body:joints() end
---@return {a: tumble.Shape, b: tumble.Shape, contact: tumble.Contact}[]
function Body:contacts() end
---@return number x, number y
function Body:world_point(lx, ly) end
---@return number x, number y
function Body:local_point(wx, wy) end
---@return number x, number y
function Body:world_vector(lx, ly) end
---@return number x, number y
function Body:local_vector(wx, wy) end
---Velocity of the material point at a world position.
---@return number vx, number vy
function Body:velocity_at(wx, wy) end
---@return number x, number y
function Body:world_center() end
---@return number x, number y
function Body:local_center() end
---@param angle? number default: unchanged
function Body:set_position(x, y, angle) end
---@return number x, number y, number angle
function Body:get_position() end
---@param spin? number default: unchanged
function Body:set_velocity(vx, vy, spin) end
---@return number vx, number vy, number spin
function Body:get_velocity() end
---@return number x1, number y1, number x2, number y2
function Body:aabb() end

---@class tumble.ShapeOptions
---@field density? number        kg/m^2, default 1
---@field friction? number       default 0.6
---@field restitution? number    default 0
---@field rolling_resistance? number coefficient, default 0: round shapes roll to a stop
---@field tangent_speed? number  m/s, default 0: a conveyor belt
---@field one_way? tumble.Vec2|number[] a one-way platform's "up" (body frame), default nil
---@field sensor? boolean
---@field enabled? boolean
---@field category? integer      default 1
---@field mask? integer          default all bits (-1)
---@field group? integer         same positive group always collides, same negative never
---@field contact_events? boolean default true
---@field hit_events? boolean     default true
---@field sensor_events? boolean  default true (reported when entering sensors)
---@field user? any
---@field field? tumble.Field
---@field on_begin? fun(self: tumble.Shape, other: tumble.Shape, contact: tumble.Contact)
---@field on_end? fun(self: tumble.Shape, other: tumble.Shape)
---@field on_hit? fun(self: tumble.Shape, other: tumble.Shape, contact: tumble.Contact)
---@field on_sensor_enter? fun(self: tumble.Shape, other: tumble.Shape)
---@field on_sensor_exit? fun(self: tumble.Shape, other: tumble.Shape)

---@class tumble.CircleOptions : tumble.ShapeOptions
---@field r number
---@field x? number
---@field y? number

---@param options tumble.CircleOptions|number  table, or r
---@param x? number
---@param y? number
---@return tumble.Shape
function Body:circle(options, x, y) end

---@class tumble.BoxOptions : tumble.ShapeOptions
---@field w number
---@field h number
---@field x? number
---@field y? number
---@field angle? number
---@field radius? number  rounding, adds to the extents

---@param options tumble.BoxOptions|number  table, or w
---@param h? number
---@param x? number
---@param y? number
---@param angle? number
---@return tumble.Shape
function Body:box(options, h, x, y, angle) end

---`{x1, y1, x2, y2, ..., radius = 0, ...}`: 3 to 8 points of a convex outline.
---@param options table
---@return tumble.Shape
function Body:polygon(options) end

---`{x1, y1, x2, y2, r}` or `{x1 = , y1 = , x2 = , y2 = , r = }`.
---@param options table
---@return tumble.Shape
function Body:capsule(options) end

---`{x1, y1, x2, y2}` or named.
---@param options table
---@return tumble.Shape
function Body:segment(options) end

---`{x1, y1, x2, y2, ..., loop = false, friction, restitution, category, mask,
---group, sensor_events}`: a one-sided chain; returns its link shapes in order.
---@param options table
---@return tumble.Shape[]
function Body:chain(options) end

------------------------------------------------------------------------------
-- Shape
------------------------------------------------------------------------------

---@class tumble.Field
---@field kind tumble.FieldKind   "none" removes the field
---@field fx? number            linear: force (N, or m/s^2 with acceleration)
---@field fy? number
---@field strength? number      radial: > 0 repels, < 0 attracts
---@field falloff? tumble.Falloff radial
---@field x? number             radial: centre, body-local
---@field y? number
---@field drag? number          drag: N per m/s (or 1/s with acceleration), >= 0
---@field acceleration? boolean same effect whatever the mass

---@class tumble.Shape
---@field kind tumble.ShapeKind  (read-only) boxes are "polygon"
---@field friction number
---@field restitution number
---@field rolling_resistance number
---@field tangent_speed number
---@field one_way tumble.Vec2|nil
---@field density number
---@field sensor boolean
---@field enabled boolean
---@field category integer
---@field mask integer
---@field group integer
---@field user any
---@field field tumble.Field|nil
---@field on_begin fun(self: tumble.Shape, other: tumble.Shape, contact: tumble.Contact)|nil
---@field on_end fun(self: tumble.Shape, other: tumble.Shape)|nil
---@field on_hit fun(self: tumble.Shape, other: tumble.Shape, contact: tumble.Contact)|nil
---@field on_sensor_enter fun(self: tumble.Shape, other: tumble.Shape)|nil
---@field on_sensor_exit fun(self: tumble.Shape, other: tumble.Shape)|nil
---@field r number|nil           circle/capsule radius, polygon rounding
---@field w number|nil           box width (rectangles only)
---@field h number|nil           box height
---@field body tumble.Body       (read-only)
---@field valid boolean          (read-only)
---@field id integer             (read-only)
---@field chain integer|nil      (read-only) chain id of a chain link
local Shape = {}

---Destroys the shape and updates the body's mass.
function Shape:destroy() end
---@return boolean
function Shape:test_point(x, y) end
---@return number x1, number y1, number x2, number y2
function Shape:aabb() end
---@return number? x, number y, number nx, number ny, number fraction
function Shape:raycast(x1, y1, x2, y2) end
---The geometry in body coordinates: {kind, r, x, y} / {kind, x1, y1, x2, y2[, r]} /
---{kind, radius, points = {x1, y1, ...}, centroid}.
---@return table
function Shape:geometry() end

------------------------------------------------------------------------------
-- Joint
------------------------------------------------------------------------------

---@class tumble.Joint
---@field kind tumble.JointKind  (read-only)
---@field a tumble.Body          (read-only)
---@field b tumble.Body          (read-only)
---@field motor_speed number|nil
---@field max_torque number|nil
---@field max_force number|nil
---@field motor boolean|nil
---@field lower number|nil       nil when the limit is off; assigning nil turns it off
---@field upper number|nil
---@field limit boolean|nil
---@field length number|nil
---@field min_length number|nil
---@field max_length number|nil
---@field spring boolean|nil
---@field hertz number|nil
---@field damping number|nil
---@field angular_hertz number|nil
---@field angular_damping number|nil
---@field target tumble.Vec2|nil
---@field offset tumble.Vec2|nil   motor joint
---@field angle number|nil         motor joint
---@field correction number|nil    motor joint
---@field break_force number       math.huge: unbreakable
---@field break_torque number
---@field collide boolean
---@field user any
---@field value number           (read-only) angle, translation or length
---@field anchor_a tumble.Vec2   (read-only) world
---@field anchor_b tumble.Vec2   (read-only)
---@field force tumble.Vec2      (read-only) N, last step, on b
---@field torque number          (read-only) N*m
---@field world tumble.World     (read-only)
---@field valid boolean          (read-only)
---@field id integer             (read-only)
local Joint = {}

function Joint:destroy() end

------------------------------------------------------------------------------
-- Contact (a read-only value: a copy, valid forever)
------------------------------------------------------------------------------

---@class tumble.Contact
---@field normal tumble.Vec2      from a to b (from self to other in a per-shape handler)
---@field nx number
---@field ny number
---@field points tumble.Vec2[]    world, 0..2
---@field count integer
---@field separations number[]|nil  per point, < 0 overlapping (nil for hit events)
---@field depth number|nil        max(0, -separation)
---@field approach_speed number|nil m/s (begin and hit events)
---@field point tumble.Vec2|nil   the first point

------------------------------------------------------------------------------
-- Snapshot (world:snapshot(), tumble.snapshot(bytes))
------------------------------------------------------------------------------

---@class tumble.Snapshot
---@field valid boolean        (read-only) false once closed (`local s <close> = ...`), never raises
---@field bytes integer        (read-only) memory it holds (the engine state; the handles' tables come on top)
---@field step_count integer   (read-only) the world's step_count at its moment
---@field body_count integer   (read-only) bodies at its moment
local Snapshot = {}

---The engine state as a string (a versioned format with a checksum): what
---tumble.snapshot(bytes) reads back. Not in it: handles, user values,
---handlers, world:on handlers (they are Lua values, code).
---@return string
function Snapshot:save() end

------------------------------------------------------------------------------
-- Mover (world:mover{...})
------------------------------------------------------------------------------

---@class tumble.Mover
---@field capsule table          (read-only) {x1, y1, x2, y2, r}
---@field x number               writing teleports
---@field y number
---@field max_slope number
---@field step_height number
---@field push_strength number
---@field mask integer
---@field grounded boolean       (read-only) on walkable ground after the last move
---@field ground_normal tumble.Vec2|nil (read-only)
---@field ground tumble.Shape|nil (read-only)
---@field world tumble.World     (read-only)
---@field valid boolean          (read-only)
---@field id integer             (read-only)
local Mover = {}

---Moves by (dx, dy), sliding, climbing and stepping; returns the displacement made.
---@return number dx, number dy
function Mover:move(dx, dy) end

function Mover:destroy() end

-- ==== The host ==============================================================
-- Everything below exists in the host only (`tumble level.lua`), not in
-- tumble.so: the level's callbacks and conf, tumble.input, tumble.gfx (with
-- images and sprites), tumble.camera, sound and the run's fields. See the
-- "The host" part of lua/REFERENCE.md; tests/lua/host_docs_spec.lua holds
-- this part against the host's own tables.

---@class tumble
---@field frame integer         (host) fixed steps completed since the level started
---@field replaying boolean     (host) true while the host re-runs recorded frames (a rebuild, a rewind); print and sound are held back then
---@field headless boolean      (host) true when running without a window
---@field sandbox boolean       (host) true under --sandbox
---@field dt number             (host) the fixed step, 1/60 s
---@field input tumble.Input    (host)
---@field gfx tumble.Gfx        (host) the same table draw(gfx) receives
---@field camera tumble.Camera  (host)

---Records `value` for the series `name` in the frame being run: the overlay
---draws it as a strip chart, and `--plot-csv FILE` writes it. At most 16
---series; a name of 1..64 bytes without commas, quotes or control characters;
---a finite number. Anything else is an error.
---@param name string
---@param value number
function tumble.plot(name, value) end

---Ends the run after this callback: exit status `code` (true = 0, false = 1,
---default 0), and `message` printed (stdout for 0, stderr otherwise).
---@param code? integer|boolean
---@param message? string
function tumble.exit(code, message) end

---Loads a WAV or OGG (Vorbis) file; a relative name is looked up in the
---level's folder. Silent, but checked, when headless or without an audio device.
---@param path string
---@return tumble.Sound
function tumble.sound(path) end

---@alias tumble.Wave "sine"|"square"|"triangle"|"saw"|"noise"

---@class tumble.BeepOptions
---@field freq? number           Hz, 20..20000, default 440
---@field to? number             Hz at the end (a sweep), default freq
---@field length? number         s, 0.005..5, default 0.15
---@field wave? tumble.Wave      default "square"
---@field volume? number         0..1, default 0.5

---Plays a generated tone at once and returns it as a Sound (the same
---parameters give the same, cached, Sound).
---@param options? tumble.BeepOptions
---@return tumble.Sound
function tumble.beep(options) end

---@class tumble.PlayOptions
---@field volume? number   0..1, default 1 (times the Sound's volume)
---@field pitch? number    0.25..4, default 1 (2 = an octave up, and twice as fast)
---@field loop? boolean    default snd.looping (false)

---A loaded sound. Each play starts a voice (at most 8 a Sound; a ninth takes
---the oldest one's place); the methods below act on every voice of it. What a
---level reads back (playing, paused, tell) runs on the level's clock (its
---fixed steps), so a replay reads the same.
---@class tumble.Sound
---@field duration number  (read-only) s
---@field name string      (read-only) the name it was loaded by
---@field volume number    (read-only; set_volume) 0..1, default 1
---@field pan number       (read-only; set_pan) -1 (left) .. 1 (right), default 0
---@field looping boolean  (read-only; set_looping) default false
local Sound = {}
---Starts a new voice (where a seek while stopped left it, else at the start).
---@param options? tumble.PlayOptions
function Sound:play(options) end
---Stops every voice; the next play starts at the beginning.
function Sound:stop() end
---Pauses every playing voice.
function Sound:pause() end
---Resumes every paused voice where it was paused.
function Sound:resume() end
---Moves every voice to `seconds` (0..duration); with none, the next play starts there.
---@param seconds number
function Sound:seek(seconds) end
---Seconds into the sound of its newest voice (where the next play starts, without one).
---@return number
function Sound:tell() end
---True while a voice plays (on the level's clock).
---@return boolean
function Sound:playing() end
---True when a voice is paused and none plays.
---@return boolean
function Sound:paused() end
---@param volume number 0..1
function Sound:set_volume(volume) end
---@param pan number -1 (left) .. 1 (right)
function Sound:set_pan(pan) end
---Sets looping for the voices playing and the default of the next plays.
---@param looping boolean
function Sound:set_looping(looping) end
---A positional sound: heard from a point, or from a Body (followed each step),
---relative to the camera; nil removes the position.
---@overload fun(self: tumble.Sound, body: tumble.Body|nil)
---@param x number
---@param y number
function Sound:set_position(x, y) end

---Writes `value` (a table, or a string, number or boolean) as the save
---`name` in the game's folder of the user's data directory. Returns true.
---@param name string  1..64 of letters, digits, '_', '-', '.'; not starting with '.', no ".."
---@param value table|string|number|boolean
---@return boolean
function tumble.save(name, value) end

---Reads the save `name`: its value, or nil when there is none.
---@param name string
---@return table|string|number|boolean|nil
function tumble.load_save(name) end

-- The level: a module returning a table of callbacks, all optional.

---@class tumble.ConfCamera
---@field x? number
---@field y? number
---@field scale? number    pixels per metre

---@class tumble.ConfLayers
---@field shapes? boolean
---@field joints? boolean
---@field contacts? boolean
---@field aabbs? boolean
---@field mass? boolean

---@class tumble.Conf
---@field title? string              window title
---@field width? integer             view width in pixels (--size wins)
---@field height? integer
---@field fullscreen? boolean
---@field resizable? boolean         default true
---@field camera? tumble.ConfCamera
---@field layers? tumble.ConfLayers  debug draw layers at the start (F6-F10 toggle them)
---@field claim_keys? string[]       keys that are the level's: no host action fires for them (at most 64)
---@field dev_keys? boolean          false: the developer keys are off (quit and fullscreen keep theirs)
---@field host_keys? tumble.ConfHostKeys  the host's actions on other keys (false: no key)

---@class tumble.ConfHostKeys
---@field quit? string|false        default "escape"
---@field overlay? string|false     default "f1"
---@field pause? string|false       default "f2"
---@field step? string|false        default "f3"
---@field slowmo? string|false      default "f4"
---@field restart? string|false     default "f5"
---@field shapes? string|false      default "f6"
---@field joints? string|false      default "f7"
---@field contacts? string|false    default "f8"
---@field aabbs? string|false       default "f9"
---@field mass? string|false        default "f10"
---@field fullscreen? string|false  default "f11"
---@field edit? string|false        default "f12" (and "`")
---@field back? string|false        default "pageup"
---@field forward? string|false     default "pagedown"
---@field oldest? string|false      default "home"
---@field present? string|false     default "end"

---@class tumble.Level
---@field conf? tumble.Conf                              read before load, on every start
---@field state? table                                   the level's mutable game state (plain data and handles)
---@field load? fun(world: tumble.World)                 build the scene
---@field update? fun(dt: number, world: tumble.World)   fixed 60 Hz, before each step
---@field draw? fun(gfx: tumble.Gfx)                     after the debug draw and the sprites
---@field frame? fun(dt: number)                       once per drawn frame (real seconds since the last), for what is shown only
---@field keypressed? fun(key: string, scancode: string, isrepeat: boolean)
---@field keyreleased? fun(key: string, scancode: string)
---@field textinput? fun(text: string)                   typed text, UTF-8
---@field mousepressed? fun(x: number, y: number, button: string)
---@field mousereleased? fun(x: number, y: number, button: string)
---@field mousemoved? fun(x: number, y: number, dx: number, dy: number)
---@field wheelmoved? fun(x: number, y: number)
---@field gamepadpressed? fun(button: string)
---@field gamepadreleased? fun(button: string)
---@field gamepadaxis? fun(axis: string, value: number)
---@field resize? fun(width: integer, height: integer)   the view's new size in pixels
---@field touchpressed? fun(id: integer, x: number, y: number, dx: number, dy: number, sx: integer, sy: integer)  world, then pixels
---@field touchmoved? fun(id: integer, x: number, y: number, dx: number, dy: number, sx: integer, sy: integer)
---@field touchreleased? fun(id: integer, x: number, y: number, dx: number, dy: number, sx: integer, sy: integer)
---@field reload? fun(world: tumble.World, old: tumble.Level)  after a hot reload

---Polling input; key names are SDL's, lowercased ("left", "space", "a").
---@class tumble.Input
tumble.input = {}
---@param key string
---@return boolean
function tumble.input.down(key) end
---Pressed since the last step.
---@param key string
---@return boolean
function tumble.input.pressed(key) end
---@param key string
---@return boolean
function tumble.input.released(key) end
---The mouse in world coordinates.
---@return number x, number y
function tumble.input.mouse() end
---The mouse in pixels from the top-left.
---@return integer x, integer y
function tumble.input.mouse_screen() end
---@param button? string|integer "left", "middle", "right", "x1", "x2" or 1..5 (default 1)
---@return boolean
function tumble.input.mouse_down(button) end
---@param button? string|integer
---@return boolean
function tumble.input.mouse_pressed(button) end
---@param button? string|integer
---@return boolean
function tumble.input.mouse_released(button) end
---Wheel motion since the last step.
---@return number x, number y
function tumble.input.wheel() end
---@return boolean connected
function tumble.input.gamepad() end
---@param button string SDL's name: "a", "b", "x", "y", "start", "dpup", ...
---@return boolean
function tumble.input.gamepad_down(button) end
---@param button string
---@return boolean
function tumble.input.gamepad_pressed(button) end
---@param button string
---@return boolean
function tumble.input.gamepad_released(button) end
---@param axis string "leftx", "lefty", "rightx", "righty", "triggerleft", "triggerright"
---@return number value -1..1
function tumble.input.axis(axis) end
---keypressed also for the keyboard's auto-repeat (isrepeat true); off by default.
---@param on boolean
function tumble.input.set_key_repeat(on) end
---@return boolean
function tumble.input.key_repeat() end
---Show or hide the pointer over the window (shown again while an error, the overlay or edit mode is up).
---@param visible boolean
function tumble.input.set_mouse_visible(visible) end
---@return boolean
function tumble.input.mouse_visible() end
---Keep the pointer inside the window (let go while an error, the overlay or edit mode is up).
---@param grabbed boolean
function tumble.input.set_mouse_grabbed(grabbed) end
---@return boolean
function tumble.input.mouse_grabbed() end

---Drawing in world units (metres, y up), in draw(gfx).
---@class tumble.Gfx
tumble.gfx = {}
---@param r number|number[] 0..1, or {r, g, b [, a]}
---@param g? number
---@param b? number
---@param a? number default 1
function tumble.gfx.color(r, g, b, a) end
---A polyline: x1, y1, x2, y2, ... or one table of them.
function tumble.gfx.line(...) end
---A convex polygon: [mode,] x1, y1, x2, y2, x3, y3, ... (mode "line" or "fill").
function tumble.gfx.poly(...) end
---@param mode? "fill"|"line"
function tumble.gfx.circle(mode, x, y, radius) end
---Centred at (x, y), like a body's box.
---@param mode? "fill"|"line"
function tumble.gfx.rect(mode, x, y, w, h, angle) end
---Text with its top-left at a world point.
---@param scale? number (0, 16]: times the font's size; default 2 with the built-in font (10 px), 1 with a gfx.font
---@param align? "left"|"center"|"right"
function tumble.gfx.text(x, y, text, scale, align) end
---Text with its top-left at a pixel (from the top-left of the view).
---@param scale? number
---@param align? "left"|"center"|"right"
function tumble.gfx.screen_text(px, py, text, scale, align) end
---The pixels text takes in the current font (at gfx.text's default scale).
---@param text any
---@param scale? number
---@return integer w, integer h
function tumble.gfx.text_size(text, scale) end
---The built-in font (DejaVu Sans) at size pixels, or a TrueType/OpenType file
---in the level's folder: gfx.font(size) or gfx.font(path, size).
---@param path string|number|nil
---@param size? number 1..256 pixels
---@return tumble.Font
function tumble.gfx.font(path, size) end
---The font text draws in from now on; none: the built-in one.
---@param font? tumble.Font
function tumble.gfx.set_font(font) end
---@return tumble.Font|nil font the font set, nil for the built-in one
function tumble.gfx.get_font() end
---@return integer pixels (a canvas's width while drawing into one)
function tumble.gfx.width() end
---@return integer pixels
function tumble.gfx.height() end

---Saves the transform (at most 64 saved).
function tumble.gfx.push() end
---Restores the transform gfx.push saved.
function tumble.gfx.pop() end
---Moves what is drawn after.
---@param dx number
---@param dy number
function tumble.gfx.translate(dx, dy) end
---Turns what is drawn after (radians, counter-clockwise in the world).
---@param angle number
function tumble.gfx.rotate(angle) end
---Scales what is drawn after.
---@param sx number
---@param sy? number default sx
function tumble.gfx.scale(sx, sy) end
---Coordinates become the target's pixels from its top-left, y down.
function tumble.gfx.origin() end
---Where a point of the current space lands, in pixels.
---@return number px, number py
function tumble.gfx.transform_point(x, y) end
---Sets the width of lines and outlines, in pixels (default 1).
---@param w? number (0, 256]
---@return number before
function tumble.gfx.line_width(w) end
---@alias tumble.BlendMode "alpha"|"add"|"multiply"|"replace"
---Sets how what is drawn mixes with what is there.
---@param mode? tumble.BlendMode
---@return tumble.BlendMode before
function tumble.gfx.blend_mode(mode) end
---The colour each frame is cleared to (from the next frame).
---@param r number|number[] 0..1, or {r, g, b [, a]}
---@param g? number
---@param b? number
---@param a? number
function tumble.gfx.background(r, g, b, a) end
---Fills the whole target (default: the background, or transparent in a canvas).
---@param r? number|number[]
---@param g? number
---@param b? number
---@param a? number
function tumble.gfx.clear(r, g, b, a) end

---@class tumble.CanvasOptions
---@field ppm? number        pixels per metre when drawn, default 32
---@field filter? "linear"|"nearest"

---A transparent offscreen picture of w x h pixels (at most 8192 a side, 4096 x 4096 in all).
---@param w integer
---@param h integer
---@param options? tumble.CanvasOptions
---@return tumble.Canvas
function tumble.gfx.canvas(w, h, options) end
---gfx draws into canvas (its pixels, y down) until gfx.set_canvas() or the end of draw.
---@param canvas? tumble.Canvas
function tumble.gfx.set_canvas(canvas) end
---@return tumble.Canvas|nil
function tumble.gfx.get_canvas() end
---Many sprites of one image (or canvas), drawn at once by gfx.draw(batch).
---@param image tumble.Image|tumble.Canvas
---@param max? integer 1..100000, default 1000
---@return tumble.SpriteBatch
function tumble.gfx.batch(image, max) end

---@class tumble.ParticleSettings
---@field max? integer            the most particles alive, 1..100000 (only when made), default 1000
---@field x? number               where new particles start
---@field y? number
---@field area? number|number[]   half extents {w, h} of the box they start in
---@field rate? number            particles a second update emits, default 0
---@field life? number|number[]   seconds, or {min, max}; default 1
---@field speed? number|number[]  metres a second at birth; default 1
---@field direction? number       radians, counter-clockwise from +x; default pi/2
---@field spread? number          radians the direction spreads over; default 2 pi
---@field gravity? number[]       {x, y} metres a second squared
---@field size? number|number[]   side in metres, or {at birth, at death}; default 0.1
---@field spin? number|number[]   radians a second
---@field colors? number[][]      1 to 8 colours {r, g, b [, a]} over a particle's life
---@field seed? integer           the same seed gives the same particles

---A particle emitter: squares, or the image; drawn by gfx.draw(ps).
---@param image? tumble.Image|tumble.Canvas|tumble.ParticleSettings
---@param settings? tumble.ParticleSettings
---@return tumble.Particles
function tumble.gfx.particles(image, settings) end

---@class tumble.ImageOptions
---@field frame_w? integer  sprite sheet: frame width in pixels
---@field frame_h? integer
---@field ppm? number       pixels per metre for the default size, default 32
---@field filter? "linear"|"nearest"

---Loads a PNG or JPEG; a relative name is looked up in the level's folder.
---The picture reloads when its file changes.
---@param path string
---@param options? tumble.ImageOptions
---@return tumble.Image
function tumble.gfx.image(path, options) end

---@class tumble.DrawOptions
---@field w? number          metres (default: from the frame's pixels and ppm; one of w, h keeps the aspect)
---@field h? number
---@field angle? number      radians, counter-clockwise
---@field sx? number         scale (negative flips)
---@field sy? number
---@field ox? number         origin in the frame, 0..1 from the left (default 0.5)
---@field oy? number         0..1 from the bottom (default 0.5)
---@field frame? integer     sprite-sheet frame, 1-based
---@field rect? integer[]    {x, y, w, h}: a sub-rectangle in pixels
---@field tint? number[]     {r, g, b [, a]} multiplies the pixels

---Draws an image or canvas with its origin at world (x, y); a batch or
---particles moved by (x, y) (default 0, 0).
---@param image tumble.Image|tumble.Canvas|tumble.SpriteBatch|tumble.Particles
---@param x? number
---@param y? number
---@param options? tumble.DrawOptions
function tumble.gfx.draw(image, x, y, options) end

---@class tumble.SpriteOptions : tumble.DrawOptions
---@field image tumble.Image
---@field x? number          offset in the body's frame, metres
---@field y? number
---@field visible? boolean   default true

---Attaches an image to a body: drawn every frame at the body's (interpolated)
---position and angle until detached (`nil`) or the body is destroyed. The
---table is read each frame: change its fields to animate. Without `spec`,
---returns the body's current sprite.
---@param body tumble.Body
---@param spec? tumble.SpriteOptions|nil
---@return tumble.SpriteOptions|nil
function tumble.gfx.sprite(body, spec) end

---@class tumble.Image
---@field width integer        (read-only) pixels
---@field height integer       (read-only)
---@field name string          (read-only) as loaded
---@field path string          (read-only) the file, resolved
---@field frame_w integer      (read-only) sprite-sheet frame (the whole image if not a sheet)
---@field frame_h integer      (read-only)
---@field frame_count integer  (read-only)
---@field reloads integer      (read-only) times its file was reloaded
local Image = {}
---A pixel's colour, x and y from the top-left, from 0.
---@return number r, number g, number b, number a
function Image:pixel(x, y) end

---@class tumble.Font
---@field size integer         (read-only) pixels
---@field name string|nil      (read-only) the file as given; nil for the built-in font
---@field height integer       (read-only) the height of a line, pixels
local Font = {}
---@return integer w, integer h pixels at the font's size
function Font:text_size(text) end

---@class tumble.Canvas
---@field width integer        (read-only) pixels
---@field height integer       (read-only)
local Canvas = {}
---A pixel's colour, x and y from the top-left, from 0.
---@return number r, number g, number b, number a
function Canvas:pixel(x, y) end

---@class tumble.SpriteBatch
---@field count integer        (read-only) sprites in it
---@field max integer          (read-only)
---@field image tumble.Image|tumble.Canvas (read-only)
local SpriteBatch = {}
---Adds a sprite at world (x, y); past max is an error.
---@param options? tumble.DrawOptions
---@return integer index
function SpriteBatch:add(x, y, options) end
---Changes sprite i.
---@param options? tumble.DrawOptions
function SpriteBatch:set(i, x, y, options) end
function SpriteBatch:clear() end

---@class tumble.Particles
---@field count integer        (read-only) particles alive
---@field max integer          (read-only)
local Particles = {}
---Emits n at once (no more than there is room for).
---@return integer emitted
function Particles:emit(n) end
---Ages, moves and emits at the rate; dt 0..1 seconds.
function Particles:update(dt) end
---Where new particles start.
function Particles:move_to(x, y) end
---@param settings tumble.ParticleSettings (without max)
function Particles:set(settings) end
---Removes every particle.
function Particles:reset() end

---The view: centre and pixels per metre; assign to move it.
---@class tumble.Camera
---@field x number
---@field y number
---@field scale number        pixels per metre
tumble.camera = {}
---Keeps the camera centred on a body (anything with x and y), offset by dx, dy;
---nil stops following.
---@param body? tumble.Body
---@param dx? number
---@param dy? number
function tumble.camera.follow(body, dx, dy) end
---@return number x, number y
function tumble.camera.to_world(px, py) end
---@return number px, number py
function tumble.camera.to_screen(x, y) end

-- ==== levelkit: require "levelkit" (lua/levelkit.lua, lua/LEVELKIT.md)

---A colour {r, g, b [, a]}, each in 0..1.
---@alias levelkit.Color number[]

---@class levelkit.Palette
---@field text levelkit.Color
---@field dim levelkit.Color
---@field panel levelkit.Color     translucent black, behind panels
---@field accent levelkit.Color
---@field good levelkit.Color
---@field bad levelkit.Color
---@field cool levelkit.Color
---@field violet levelkit.Color

---@class levelkit.PanelOptions
---@field scale? number             text scale (default 2)
---@field x? number                 pixels from the left (controls; default 10)
---@field y? number                 pixels from the top (default 28 for controls, 10 for status)
---@field align? "right"            controls: the top-right corner instead

---A status line: {text [, color]}.
---@class levelkit.StatusLine
---@field [1] string
---@field [2]? levelkit.Color

---A seeded generator (xorshift32), independent of math.random; its state is
---the plain field x, so it rewinds with level.state.
---@class levelkit.Rng
---@field x integer                 the generator's state
local Rng = {}
---@return integer                  the next raw value, 1..2^32-1
function Rng:next() end
---@param lo number
---@param hi number
---@return number                   uniform in [lo, hi)
function Rng:range(lo, hi) end
---@param lo integer
---@param hi integer
---@return integer                  in [lo, hi]
function Rng:int(lo, hi) end

---Helpers the example levels share: panels, banners, bars, a palette, a
---seeded generator. See lua/LEVELKIT.md.
---@class levelkit
---@field colors levelkit.Palette
local levelkit = {}
---@param seed? integer             default 1
---@return levelkit.Rng
function levelkit.rng(seed) end
---Sets the drawing colour from a palette entry; alpha overrides its alpha.
---@param gfx tumble.Gfx
---@param c levelkit.Color
---@param alpha? number
function levelkit.color(gfx, c, alpha) end
---A panel in the top-left corner: the title, then one line per control.
---@param gfx tumble.Gfx
---@param title string
---@param lines string[]
---@param opts? levelkit.PanelOptions
---@return number x, number y, number w, number h   the panel in pixels
function levelkit.controls(gfx, title, lines, opts) end
---A filled rectangle in pixels (top-left corner px, py).
---@param gfx tumble.Gfx
---@param px number
---@param py number
---@param pw number
---@param ph number
---@param color? levelkit.Color     default colors.panel
function levelkit.screen_panel(gfx, px, py, pw, ph, color) end
---Lines of text in a panel at the top right.
---@param gfx tumble.Gfx
---@param lines levelkit.StatusLine[]
---@param opts? levelkit.PanelOptions
function levelkit.status(gfx, lines, opts) end
---A large centred message with an optional smaller second line.
---@param gfx tumble.Gfx
---@param text string
---@param sub? string
---@param color? levelkit.Color     default colors.accent
function levelkit.banner(gfx, text, sub, color) end
---A progress bar in world units centred on x, y, filled by t in 0..1.
---@param gfx tumble.Gfx
---@param x number
---@param y number
---@param w number
---@param h number
---@param t number
---@param color? levelkit.Color     default colors.accent
function levelkit.bar(gfx, x, y, w, h, t, color) end
---Fills every shape of a body in one colour at its current pose.
---@param gfx tumble.Gfx
---@param body tumble.Body
---@param color levelkit.Color
---@param alpha? number
function levelkit.draw_body(gfx, body, color, alpha) end
---Returns -1, 0 or 1 from two opposite keys held down (or either of two pairs).
---@param neg string
---@param pos string
---@param neg2? string
---@param pos2? string
---@return -1|0|1
function levelkit.axis(neg, pos, neg2, pos2) end
---@param v number
---@param lo number
---@param hi number
---@return number
function levelkit.clamp(v, lo, hi) end
---v moved towards target by at most step.
---@param v number
---@param target number
---@param step number
---@return number
function levelkit.approach(v, target, step) end

---Test hook (tests/lua/host_docs_spec.lua): the names the host dispatches on.
---@return table
function tumble._host_introspect() end

return tumble
