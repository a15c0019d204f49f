// tumble's page: loads the wasm build, picks the level from the address
// (?level=examples/slingshot.lua, a path inside the page's data), shows the
// host's errors on the page, and offers restart, a level from disk and
// replays. The host itself (src/web/main.c) draws into #canvas through SDL;
// its hot keys (F1 overlay, F2 pause, F3 step, F4 slow motion, F5 restart,
// F6-F10 layers) and mouse drag work as in the native window; edit mode is `
// (backquote) here, as F12 opens the browser's developer tools.
//
// The Source panel holds the level's text (its main file). What is typed in it
// is written to that file in the page's file system at once, so nothing typed
// is lost and Restart (or Ctrl+Enter in it) runs it; edit mode's edits, undos
// and redos are written to the same file, and the host tells the page
// (Module.tumbleSourceWritten), which puts the new text back into the panel.
// Edit mode's session thus works on the panel's text: an edit made after some
// typing takes the typed text, or refuses if what it would change is gone,
// and an undo after typing is refused rather than lose the typing.
'use strict';

var Module = (function () {
  var $ = function (id) { return document.getElementById(id); };
  var ROOT = '/tumble/';            // where tumble.data puts lua/, examples/, levels/
  var USER = '/tumble/user/';       // levels opened from disk
  var REPLAY = '/tmp/replay.rec';
  var errors = [];
  var current = null;               // {level, replay, frames, replayName}
  var sourcePath = null;            // the file the Source panel shows
  var summary = null;               // the host's closing line of a scripted run

  function status(html) { $('status').innerHTML = html; }

  function showErrors() {
    $('errors-text').textContent = errors.join('\n');
    $('errors').style.display = errors.length ? 'block' : 'none';
  }
  function addError(text) {
    errors.push(text);
    if (errors.length > 40) errors.splice(0, errors.length - 40);
    showErrors();
  }
  function clearErrors() { errors = []; showErrors(); }

  // Everything the page knows about a run is what the host prints: its errors
  // on stderr ("tumble: ...", with the Lua traceback on the lines after), and
  // the summary line "frames=... hash=..." of a run with a frame count.
  function printErr(text) {
    console.warn(text);
    // notices, not errors: the canvas shows them (the overlay's notice, edit
    // mode's status line)
    if (/^tumble: (restarted|reloaded|edit: |load\(\) changed: rebuilt)/.test(text)) return;
    addError(text);
  }
  function print(text) {
    console.log(text);
    if (/^frames=\d+ steps=\d+ .*hash=[0-9a-f]{16}$/.test(text)) summary = text;
  }

  // The examples, and the .lua files of each level folder a build packed
  // (examples/assets and the like hold tools, not levels).
  function levelList() {
    var list = [];
    var lua = function (dir) {
      try {
        return Module.FS.readdir(ROOT + dir).filter(function (n) {
          return /\.lua$/.test(n) && n[0] !== '.' && !Module.FS.isDir(Module.FS.stat(ROOT + dir + '/' + n).mode);
        }).sort().map(function (n) { return dir + '/' + n; });
      } catch (e) { return []; }
    };
    list = list.concat(lua('examples'));
    var levels = [];
    try { levels = Module.FS.readdir(ROOT + 'levels').sort(); } catch (e) { /* none */ }
    levels.forEach(function (name) {
      if (name[0] === '.' || !Module.FS.isDir(Module.FS.stat(ROOT + 'levels/' + name).mode)) return;
      list = list.concat(lua('levels/' + name));
    });
    return list;
  }

  // The level a build was made for (make web LEVEL=...) comes first.
  function defaultLevel(list) {
    try {
      var start = Module.FS.readFile(ROOT + 'levels/START', {encoding: 'utf8'}).trim();
      if (start) return start;
    } catch (e) { /* no LEVEL in this build */ }
    return list.indexOf('examples/forcefield.lua') >= 0 ? 'examples/forcefield.lua' : list[0];
  }

  function countFrames(text) {
    var frames = 0;
    text.split('\n').forEach(function (line) {
      var f = line.trim().split(/\s+/);
      if (f[0] === 'F') frames += f.length > 2 ? parseInt(f[2], 10) : 1;
    });
    return frames;
  }

  function viewSize() {
    var r = $('canvas').getBoundingClientRect();
    return [Math.max(64, Math.round(r.width)), Math.max(64, Math.round(r.height))];
  }

  // A run that ended leaves its last picture on the page (the host's window,
  // and with it the canvas, is gone).
  function freeze() {
    var still = $('still');
    still.src = $('canvas').toDataURL('image/png');
    still.style.display = 'block';
  }
  function unfreeze() { $('still').style.display = 'none'; }

  function start(run) {
    unfreeze();
    current = run;
    summary = null;
    clearErrors();
    var path = run.level.charAt(0) === '/' ? run.level : ROOT + run.level;
    showSource(path);
    var size = viewSize();
    var rc = Module.ccall('tumble_web_start', 'number',
                          ['string', 'string', 'number', 'number', 'number'],
                          [path, run.replay || '', run.frames || 0, size[0], size[1]]);
    if (rc !== 0) {
      if (!errors.length) addError('tumble: cannot start ' + run.level);
      status('could not start <code>' + escapeHtml(run.level) + '</code>');
      return;
    }
    status(run.replay ? 'replaying ' + escapeHtml(run.replayName) + ' (' + run.frames + ' frames)&hellip;'
                      : escapeHtml(run.level) + ' &mdash; F1 overlay, F2 pause, F5 restart, ` edit');
    $('canvas').focus();
  }

  // The Source panel: the level's file, read when a run starts and whenever
  // edit mode writes it; what is typed goes straight back into the file.
  function showSource(path) {
    sourcePath = path;
    $('source-name').textContent = path.replace(ROOT, '');
    try { $('source').value = Module.FS.readFile(path, {encoding: 'utf8'}); } catch (e) { $('source').value = ''; }
  }
  function sourceWritten(path) {
    if (path !== sourcePath) return;
    var ta = $('source'), at = ta.selectionStart, top = ta.scrollTop;
    ta.value = Module.FS.readFile(path, {encoding: 'utf8'});
    ta.selectionStart = ta.selectionEnd = Math.min(at, ta.value.length);
    ta.scrollTop = top;
  }
  function wireSource() {
    var ta = $('source');
    ta.addEventListener('input', function () {
      if (sourcePath) Module.FS.writeFile(sourcePath, ta.value);
    });
    // keys typed here are the text's, not the level's or the host's (SDL
    // listens on the window: the events stop at the text area)
    ['keydown', 'keyup', 'keypress'].forEach(function (type) {
      ta.addEventListener(type, function (ev) {
        ev.stopPropagation();
        if (type === 'keydown' && ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && current) {
          ev.preventDefault();
          start({level: current.level});
        }
      });
    });
    $('source-toggle').onclick = function () {
      document.body.classList.toggle('source-open');
      // SDL sizes the canvas on the window's resize
      window.dispatchEvent(new Event('resize'));
      if (!document.body.classList.contains('source-open')) $('canvas').focus();
    };
  }

  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; });
  }

  // Called by the host (src/web/main.c) when a run ends: a replay's last
  // frame, tumble.exit, or Esc.
  function ended(code) {
    if (current && current.replay && summary) {
      var text = 'level ' + current.level + '\nreplay ' + current.replayName + '\n' + summary + '\n';
      var url = URL.createObjectURL(new Blob([text], {type: 'text/plain'}));
      var hash = summary.replace(/.*hash=/, '');
      status('replay done: hash <code id="hash">' + hash + '</code> &mdash; <a id="hash-download" download="' +
             escapeHtml(current.replayName) + '.hash.txt" href="' + url + '">download</a>');
    } else {
      status('stopped (exit ' + code + ') &mdash; Restart runs it again');
    }
  }

  function setLevel(level, push) {
    var sel = $('level');
    if (![].some.call(sel.options, function (o) { return o.value === level; })) {
      var o = document.createElement('option');
      o.value = o.textContent = level;
      sel.appendChild(o);
    }
    sel.value = level;
    if (push) history.replaceState(null, '', '?level=' + encodeURIComponent(level));
    start({level: level});
  }

  function wire() {
    var list = levelList();
    var sel = $('level');
    list.forEach(function (l) {
      var o = document.createElement('option');
      o.value = o.textContent = l;
      sel.appendChild(o);
    });
    sel.onchange = function () { setLevel(sel.value, true); };
    $('restart').onclick = function () { if (current) start({level: current.level}); };
    wireSource();
    $('errors-close').onclick = function () { $('errors').style.display = 'none'; };
    $('open').onchange = function (ev) {
      var files = [].slice.call(ev.target.files);
      if (!files.length) return;
      Promise.all(files.map(function (f) { return f.text().then(function (t) { return [f.name, t]; }); }))
        .then(function (pairs) {
          try { Module.FS.mkdir(USER); } catch (e) { /* exists */ }
          pairs.forEach(function (p) { Module.FS.writeFile(USER + p[0], p[1]); });
          var main = pairs.filter(function (p) { return p[0] === 'main.lua'; })[0] || pairs[0];
          setLevel(USER + main[0], false);
        });
      ev.target.value = '';
    };
    $('replay').onchange = function (ev) {
      var f = ev.target.files[0];
      if (!f) return;
      f.text().then(function (text) {
        Module.FS.writeFile(REPLAY, text);
        var level = current ? current.level : sel.value;
        start({level: level, replay: REPLAY, frames: countFrames(text), replayName: f.name});
      });
      ev.target.value = '';
    };
    var want = new URLSearchParams(location.search).get('level');
    setLevel(want || defaultLevel(list), false);
  }

  window.addEventListener('error', function (e) { addError('page: ' + e.message); });

  return {
    canvas: $('canvas'),
    print: print,
    printErr: printErr,
    tumbleEnded: ended,
    tumbleFreeze: freeze,
    tumbleSourceWritten: sourceWritten,
    onRuntimeInitialized: wire,
    setStatus: function (text) { if (text) status(escapeHtml(text)); },
    onAbort: function (what) { addError('tumble stopped: ' + what); status('stopped'); },
    monitorRunDependencies: function (left) { if (left) status('loading&hellip;'); }
  };
})();

// file_packager's loader (tumble.data.js) and emscripten's runtime find it here
window.Module = Module;
