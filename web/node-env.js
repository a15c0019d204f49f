// tumble's node build (build/web/node/tumble.js): the program sees the
// environment of the node process, as the native one does (LUA_PATH, ...);
// emscripten otherwise gives it a fixed, made-up one. (A program that never
// calls getenv has no ENV at all.)
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof ENV === 'undefined') return;
  for (var key in process.env) ENV[key] = process.env[key];
});
