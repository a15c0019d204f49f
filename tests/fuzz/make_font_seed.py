#!/usr/bin/env python3
"""Writes a minimal TrueType font (about 400 bytes: a .notdef and an 'A' that
is a square) for the fuzz_font seeds: the fuzzer's inputs are at most 64 KB,
smaller than any real font, and a truncated real font never gets past the
parsers' first check. Usage: make_font_seed.py OUT [ASCENDER [UNITS_PER_EM]]
(a font whose lines are out of all proportion, for tests/security/drawing.sh)."""
import struct
import sys


def table_checksum(data):
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(">%dI" % (len(data) // 4), data)) & 0xFFFFFFFF


ascender = int(sys.argv[2]) if len(sys.argv) > 2 else 800
units = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
head = struct.pack(">IIIIHHqqhhhhHHhhh", 0x00010000, 0x00010000, 0, 0x5F0F3CF5, 0, units, 0, 0,
                   0, 0, 600, 700, 0, 8, 2, 0, 0)
hhea = struct.pack(">IhhhHhhhhhhhhhhhH", 0x00010000, ascender, -200, 0, 600, 0, 0, 600, 1, 0, 0, 0, 0, 0, 0, 0, 2)
maxp = struct.pack(">IHHHHHHHHHHHHHH", 0x00010000, 2, 4, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0)
hmtx = struct.pack(">HhHh", 600, 0, 600, 50)
# glyph 1: one contour, four on-curve points (50,0) (550,0) (550,700) (50,700)
glyph = struct.pack(">hhhhhHH", 1, 50, 0, 550, 700, 3, 0) + bytes([1, 1, 1, 1]) + \
    struct.pack(">hhhhhhhh", 50, 500, 0, -500, 0, 0, 700, 0)
glyph += b"\0" * (len(glyph) % 2)
glyf = glyph
loca = struct.pack(">HHH", 0, 0, len(glyph) // 2)
# cmap: format 4, 'A' (0x41) -> glyph 1
segs = [(0x41, 0x41, (1 - 0x41) & 0xFFFF), (0xFFFF, 0xFFFF, 1)]
sub = struct.pack(">HHHHHHH", 4, 16 + 8 * len(segs), 0, 2 * len(segs), 4, 1, 0)
sub += b"".join(struct.pack(">H", e) for _, e, _ in segs) + struct.pack(">H", 0)
sub += b"".join(struct.pack(">H", s) for s, _, _ in segs)
sub += b"".join(struct.pack(">H", d) for _, _, d in segs)
sub += b"".join(struct.pack(">H", 0) for _ in segs)
cmap = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub

tables = sorted({b"head": head, b"hhea": hhea, b"maxp": maxp, b"hmtx": hmtx, b"loca": loca, b"glyf": glyf,
                 b"cmap": cmap}.items())
n = len(tables)
out = struct.pack(">IHHHH", 0x00010000, n, 64, 2, n * 16 - 64)
offset = 12 + 16 * n
body = b""
for tag, data in tables:
    out += struct.pack(">4sIII", tag, table_checksum(data), offset + len(body), len(data))
    body += data + b"\0" * (-len(data) % 4)
with open(sys.argv[1], "wb") as f:
    f.write(out + body)
