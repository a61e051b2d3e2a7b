#!/usr/bin/env python3
"""Draws PageTree's icon (a page tree: a root, two branches, four leaves, on a rounded
square) at the sizes Tauri asks for, into icons/. Pure standard library, so anyone can
redraw them."""
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "icons"
BACKGROUND = (36, 84, 150)
INK = (250, 250, 245)
LEAF = (255, 196, 87)


def draw(size):
    px = [[(0, 0, 0, 0)] * size for _ in range(size)]
    radius = size * 0.2

    def inside_rounded(x, y):
        cx = min(max(x, radius), size - radius)
        cy = min(max(y, radius), size - radius)
        return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2

    def disc(cx, cy, r, colour):
        for y in range(size):
            for x in range(size):
                if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r:
                    px[y][x] = colour + (255,)

    def line(x0, y0, x1, y1, width, colour):
        steps = int(max(abs(x1 - x0), abs(y1 - y0)) * 2) + 1
        for i in range(steps + 1):
            t = i / steps
            disc(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, width / 2, colour)

    for y in range(size):
        for x in range(size):
            if inside_rounded(x + 0.5, y + 0.5):
                px[y][x] = BACKGROUND + (255,)
    s = size
    root = (s * 0.5, s * 0.24)
    mids = [(s * 0.3, s * 0.5), (s * 0.7, s * 0.5)]
    leaves = [(s * 0.18, s * 0.78), (s * 0.42, s * 0.78), (s * 0.58, s * 0.78), (s * 0.82, s * 0.78)]
    stroke = max(1.0, s * 0.045)
    for m in mids:
        line(*root, *m, stroke, INK)
    for i, leaf in enumerate(leaves):
        line(*mids[i // 2], *leaf, stroke, INK)
    disc(*root, s * 0.09, INK)
    for m in mids:
        disc(*m, s * 0.07, INK)
    for leaf in leaves:
        disc(*leaf, s * 0.07, LEAF)
    return px


def png(px):
    size = len(px)
    raw = b"".join(b"\x00" + b"".join(struct.pack("4B", *p) for p in row) for row in px)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for name, size in [("32x32.png", 32), ("128x128.png", 128), ("128x128@2x.png", 256), ("icon.png", 512)]:
        (OUT / name).write_bytes(png(draw(size)))
        print("wrote", OUT / name)
