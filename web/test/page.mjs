// The page in headless Chromium (Debian's chromium, driven by playwright-core),
// served from WEB_ROOT on 127.0.0.1 by a small static server of its own.
// Prints TAP lines; web/test/run.sh numbers them.
//  - a level starts with no error and draws a frame that is not blank;
//  - it reacts to keys: F2 freezes the picture, F1 opens the dev overlay on it;
//  - the mouse drags a body out of a sleeping pyramid (the overlay's drag);
//  - a Lua error in a level shows on the page;
//  - edit mode (`) writes into the Source panel's text: a drag changes the
//    number there, Ctrl+Z gives the text back byte for byte, and an edit made
//    after typing in the panel keeps what was typed;
//  - a native recording loaded through the Replay button ends with the native
//    hash, shown on the page and offered for download; so do 600 frames of
//    every example;
//  - a build packed with LEVEL=folder (LEVEL_WEB_ROOT) opens that level first;
//    so does the web/ of `tumble --package` (PACKAGE_WEB_ROOT);
//  - screenshots land in WEB_ROOT/../web-shots for a person to look at.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const root = process.env.WEB_ROOT;
const shots = path.join(root, '..', 'web-shots');
fs.mkdirSync(shots, { recursive: true });
const say = (line) => process.stdout.write(line + '\n');
const check = (ok, what) => say((ok ? 'ok - ' : 'not ok - ') + what);

// ---- static servers for WEB_ROOT (and LEVEL_WEB_ROOT), loopback only ----
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
                '.data': 'application/octet-stream' };
const servers = [];
async function serve(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    const target = file.endsWith('/') ? path.join(file, 'index.html') : file;
    if (!target.startsWith(dir) || !fs.existsSync(target) || fs.statSync(target).isDirectory()) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(target)] || 'application/octet-stream' });
    fs.createReadStream(target).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}
const base = await serve(root);

// ---- PNG: Chromium's screenshots are 8-bit RGB or RGBA, not interlaced ----
function decodePng(buf) {
  let pos = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), kind = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); type = data[9]; }
    if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3, stride = width * bpp;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0, b = y ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y ? out[(y - 1) * stride + x - bpp] : 0;
      let v = line[x];
      if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      out[y * stride + x] = v & 255;
    }
  }
  return { width, height, bpp, px: out };
}
// how many pixels differ from the commonest colour, and how many colours there are
function picture(png) {
  const counts = new Map();
  for (let i = 0; i < png.px.length; i += png.bpp) {
    const k = (png.px[i] << 16) | (png.px[i + 1] << 8) | png.px[i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const total = png.width * png.height, top = Math.max(...counts.values());
  return { colours: counts.size, busy: (total - top) / total };
}
function differing(a, b) {
  let n = 0;
  for (let i = 0; i < a.px.length; i += a.bpp)
    if (a.px[i] !== b.px[i] || a.px[i + 1] !== b.px[i + 1] || a.px[i + 2] !== b.px[i + 2]) n++;
  return n;
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tumble-chromium-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'], // playwright gives it a fresh profile
});
const errorsOf = (page) => page.$eval('#errors-text', (e) => e.textContent);
const statusOf = (page) => page.$eval('#status', (e) => e.textContent);
const shoot = async (page, name) => {
  const buf = await page.locator('#canvas').screenshot();
  fs.writeFileSync(path.join(shots, name + '.png'), buf);
  return decodePng(buf);
};
const frames = (page, n) => page.evaluate((n) => new Promise((done) => {
  const tick = () => (n-- <= 0 ? done() : requestAnimationFrame(tick));
  requestAnimationFrame(tick);
}), n);

try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 640 } });
  const console_ = [];
  page.on('console', (m) => console_.push(m.text()));
  let stage = 'start';
  page.on('pageerror', (e) => console_.push(`pageerror (${stage}): ` + e.message + (process.env.PAGE_DEBUG ? '\n' + e.stack : '')));

  // 1. a level starts and draws
  await page.goto(base + 'index.html?level=examples/stacking.lua');
  await page.waitForFunction(() => /stacking/.test(document.getElementById('status').textContent), null,
                             { timeout: 30000 });
  await frames(page, 90);
  const first = await shoot(page, 'stacking');
  const p = picture(first);
  const startErrors = await errorsOf(page);
  check(startErrors === '', 'stacking starts with no error on the page' + (startErrors ? ': ' + startErrors.split('\n')[0] : ''));
  check(p.colours > 8 && p.busy > 0.02,
        `the canvas shows a frame that is not blank (${p.colours} colours, ${(100 * p.busy).toFixed(1)}% drawn)`);
  const size = await page.$eval('#canvas', (c) => [c.width, c.height, c.clientWidth, c.clientHeight]);
  check(size[0] === size[2] && size[1] === size[3], `the canvas fits the window (${size[0]}x${size[1]} pixels)`);

  stage = 'keys';
  // 2. keys: F2 pauses (two pictures a second apart are the same), F1 opens the overlay
  await page.keyboard.press('F2');
  await frames(page, 5);
  const paused1 = await shoot(page, 'stacking-paused');
  await frames(page, 30);
  const paused2 = await shoot(page, 'stacking-paused-later');
  check(differing(paused1, paused2) === 0, 'F2 pauses: the picture stands still');
  await page.keyboard.press('F1');
  await frames(page, 5);
  const overlay = await shoot(page, 'stacking-overlay');
  const changed = differing(paused2, overlay);
  check(changed > 1000, `F1 opens the dev overlay (${changed} pixels changed)`);
  // mouse drag (overlay open, running again): pull a box out of the bottom of
  // the sleeping 12-box stack; the stack's part of the picture, below the
  // overlay's panels, changes only through the drag
  await page.keyboard.press('F2');
  await frames(page, 20);
  const region = (png) => { // x 100..260, y 460..555 of the canvas
    const out = []; for (let y = 460; y < 555; y++) for (let x = 100; x < 260; x++) {
      const i = (y * png.width + x) * png.bpp; out.push(png.px[i], png.px[i + 1], png.px[i + 2]); }
    return out; };
  const still1 = region(await shoot(page, 'stacking-before-drag'));
  await frames(page, 20);
  const still2 = region(await shoot(page, 'stacking-before-drag-later'));
  const box = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return [r.left, r.top]; });
  await page.mouse.move(box[0] + 155, box[1] + 515);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) { await page.mouse.move(box[0] + 155 + 15 * i, box[1] + 515 - 4 * i); await frames(page, 2); }
  await frames(page, 20);
  await page.mouse.up();
  await frames(page, 30);
  const dragged = region(await shoot(page, 'stacking-dragged'));
  const diff = (a, b) => a.reduce((n, v, i) => n + (v !== b[i] ? 1 : 0), 0);
  check(diff(still1, still2) === 0 && diff(still2, dragged) > 2000,
        `mouse drag pulls a box out of the stack (${diff(still1, still2)} then ${diff(still2, dragged)} values changed)`);
  await page.keyboard.press('F1');

  stage = 'open';
  // 3. a level of the user's, with a Lua error, through the Open button
  const bad = path.join(profile, 'broken.lua');
  fs.writeFileSync(bad, 'local level = {}\nfunction level.update()\n  local t = nil\n  return t.x\nend\nreturn level\n');
  await page.setInputFiles('#open', bad);
  await page.waitForFunction(() => /attempt to index/.test(document.getElementById('errors-text').textContent),
                             null, { timeout: 10000 }).catch(() => {});
  const err = await errorsOf(page);
  check(/broken\.lua:4: attempt to index a nil value/.test(err), 'a Lua error shows on the page: ' +
        (err.split('\n')[0] || '(none)').slice(0, 100));
  await shoot(page, 'lua-error');

  stage = 'edit';
  // 3b. edit mode writes into the Source panel (a level of the user's: its
  // camera at (0, 5), 40 px/m, so in the 1000x600 canvas world (x, y) is
  // pixel (500 + 40 x, 500 - 40 y); edit mode pauses, and the world is drawn
  // fitted above the timeline's 52 pixels, 548/600 of its size: pixel
  // (500 + 36.53 x, 274 - 36.53 (y - 5)), so the platform at (-4, 3) is at
  // (354, 347) and 1 m is 37 pixels (to the grid's 0.1 m); clear of the
  // inspector, which takes the right 420 pixels once selected)
  const editText = 'local level = {}\nfunction level.load(world)\n' +
    '  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 5, 40\n' +
    '  world:body{ type = "static", x = 0, y = -0.5 }:box{ w = 20, h = 1 }\n' +
    '  local platform = world:body{ type = "static", x = -4, y = 3 }\n' +
    '  platform:box{ w = 3, h = 0.5 }\nend\nreturn level\n';
  const editFile = path.join(profile, 'editme.lua');
  fs.writeFileSync(editFile, editText);
  await page.setInputFiles('#open', editFile);
  await page.waitForFunction(() => /editme/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  await frames(page, 10);
  const sourceOf = () => page.$eval('#source', (t) => t.value);
  check(await sourceOf() === editText, 'the Source panel holds the level\'s text');
  const cbox = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return [r.left, r.top]; });
  const drag = async (x0, y0, x1, y1) => {
    await page.mouse.move(cbox[0] + x0, cbox[1] + y0);
    await frames(page, 2);
    await page.mouse.down();
    await frames(page, 2);
    for (let i = 1; i <= 4; i++) { await page.mouse.move(cbox[0] + x0 + (x1 - x0) * i / 4, cbox[1] + y0 + (y1 - y0) * i / 4); await frames(page, 2); }
    await page.mouse.up();
    await frames(page, 6);
  };
  await page.focus('#canvas');
  await page.keyboard.press('Backquote');
  await frames(page, 3);
  await drag(354, 347, 391, 347);
  const moved = await sourceOf();
  const movedWant = editText.replace('x = -4, y = 3', 'x = -3, y = 3');
  check(moved === movedWant, 'edit mode: a drag of the platform 1 m right writes x = -3 into the Source panel' +
        (moved === movedWant ? '' : ': ' + JSON.stringify(moved.split('\n')[4])));
  await shoot(page, 'edit-dragged');
  await page.keyboard.down('Control');
  await page.keyboard.press('z');
  await page.keyboard.up('Control');
  await frames(page, 6);
  check(moved === movedWant && await sourceOf() === editText,
        'edit mode: Ctrl+Z gives the Source panel its text back, byte for byte');
  // typing in the panel (it is the file the session edits), then a drag of
  // the platform (at x = -4 again): the edit goes into the typed text. The
  // keys typed are the text's: the ` in it does not leave edit mode.
  await page.click('#source-toggle');
  await frames(page, 3);
  await page.click('#source');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('-- typed in the page (` is text here)\n');
  await page.click('#source-toggle');
  await frames(page, 6);
  await page.focus('#canvas');
  await drag(354, 347, 354, 310);
  const typed = await sourceOf();
  const typedWant = editText.replace('x = -4, y = 3', 'x = -4, y = 4') + '-- typed in the page (` is text here)\n';
  check(typed === typedWant, 'edit mode: after typing in the panel, a drag 1 m up writes y = 4 and keeps what was typed' +
        (typed === typedWant ? '' : ': ' + JSON.stringify(typed.slice(-80))));
  const editErrors = await errorsOf(page);
  check(editErrors === '', 'no error while editing' + (editErrors ? ': ' + editErrors.split('\n')[0] : ''));
  await page.click('#source-toggle');
  await frames(page, 10);
  await shoot(page, 'edit-source-panel');
  await page.screenshot({ path: path.join(shots, 'edit-source-page.png') });
  await page.click('#source-toggle');
  await page.focus('#canvas');
  await page.keyboard.press('Backquote');
  await frames(page, 3);

  stage = 'replay';
  // 4. the native recording, replayed in the page
  await page.selectOption('#level', 'examples/slingshot.lua');
  await frames(page, 10);
  await page.setInputFiles('#replay', process.env.REPLAY_FILE);
  await page.waitForSelector('#hash', { timeout: 60000 });
  const hash = await page.$eval('#hash', (e) => e.textContent);
  check(hash === process.env.NATIVE_REPLAY_HASH,
        `the native recording replays in Chromium to the native hash (${hash})`);
  const href = await page.$eval('#hash-download', (a) => a.href);
  const text = await page.evaluate((u) => fetch(u).then((r) => r.text()), href);
  check(text.includes('hash=' + process.env.NATIVE_REPLAY_HASH) && text.includes('frames=' + process.env.REPLAY_FRAMES),
        'the hash can be downloaded with the frame count');
  await shoot(page, 'slingshot-replayed');

  stage = 'example hashes';
  // 5. every example, 600 frames replayed in the page: the native hash
  const wanted = (process.env.EXAMPLE_HASHES || '').trim().split(/\s+/).filter(Boolean).map((kv) => kv.split('='));
  const mismatched = [];
  for (const [level, want] of wanted) {
    await page.selectOption('#level', level);
    await frames(page, 3);
    await page.setInputFiles('#replay', process.env.FLAT_REPLAY);
    const got = await page.waitForSelector('#hash', { timeout: 60000 }).then((e) => e.textContent())
      .catch(() => 'none');
    if (got !== want) mismatched.push(`${level}: ${got} (native ${want})`);
  }
  check(wanted.length >= 7 && mismatched.length === 0,
        `every example, 600 frames in Chromium, ends with the native hash (${wanted.length} levels)` +
        (mismatched.length ? ': ' + mismatched.join('; ') : ''));

  stage = 'examples';
  // 6. every example starts in the page without an error
  const levels = await page.$$eval('#level option', (os) => os.map((o) => o.value));
  const failed = [];
  for (const level of levels.filter((l) => l.startsWith('examples/'))) {
    await page.selectOption('#level', level);
    await frames(page, 45);
    const e = await errorsOf(page);
    if (e !== '') failed.push(level + ': ' + e.split('\n')[0]);
    await shoot(page, path.basename(level, '.lua'));
  }
  check(failed.length === 0 && levels.length >= 7,
        `all ${levels.filter((l) => l.startsWith('examples/')).length} examples run in the page` +
        (failed.length ? ': ' + failed.join('; ') : ''));
  stage = 'LEVEL';
  // 7. a build packed with LEVEL=folder opens that level first
  if (process.env.LEVEL_WEB_ROOT) {
    const other = await serve(process.env.LEVEL_WEB_ROOT);
    await page.goto(other);
    await page.waitForFunction(() => /levels\//.test(document.getElementById('status').textContent), null,
                               { timeout: 30000 }).catch(() => {});
    await frames(page, 60);
    const st = await statusOf(page), e = await errorsOf(page);
    check(/levels\/mylevel\/main\.lua/.test(st) && e === '',
          `a LEVEL=folder build opens its main.lua, which requires a module beside it (${st.split(' ')[0]}${e ? ', ' + e.split('\n')[0] : ''})`);
    await shoot(page, 'mylevel');
  }
  // 8. the browser build `tumble --package` made for the same folder
  if (process.env.PACKAGE_WEB_ROOT && fs.existsSync(process.env.PACKAGE_WEB_ROOT)) {
    stage = 'package';
    const packed = await serve(process.env.PACKAGE_WEB_ROOT);
    await page.goto(packed);
    await page.waitForFunction(() => /levels\//.test(document.getElementById('status').textContent), null,
                               { timeout: 30000 }).catch(() => {});
    await frames(page, 60);
    const st = await statusOf(page), e = await errorsOf(page);
    check(/levels\/mylevel\/main\.lua/.test(st) && e === '',
          `the web/ of tumble --package opens the game's main.lua (${st.split(' ')[0]}${e ? ', ' + e.split('\n')[0] : ''})`);
    await shoot(page, 'packaged');
  }
  const crashes = console_.filter((l) => /pageerror/.test(l));
  check(crashes.length === 0, 'no uncaught error or wasm trap in the page all along' +
        (crashes.length ? ': ' + crashes[0].split('\n')[0] : ''));
  if (crashes.length) say('# ' + crashes.join('\n# '));
} catch (e) {
  say('not ok - the browser test stopped: ' + String(e.message || e).split('\n')[0]);
} finally {
  await browser.close();
  servers.forEach((s) => s.close());
  fs.rmSync(profile, { recursive: true, force: true });
}
