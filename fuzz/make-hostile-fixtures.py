#!/usr/bin/env python3
"""Writes the small hand-made hostile inputs of testdata/fuzz/ (the fuzzer's finds sit beside them).

Each file is named <target>-<what>.bin, where <target> is the fuzz target (and so the reader) it
exercises; FuzzRegressionTests reads every file through MetadataReader and through that reader.
Run from anywhere: python3 fuzz/make-hostile-fixtures.py
"""
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "fuzz")


def box(kind, payload, size=None):
    return struct.pack(">I", len(payload) + 8 if size is None else size) + kind + payload


def full_box(kind, version, payload):
    return box(kind, bytes([version, 0, 0, 0]) + payload)


FTYP = box(b"ftyp", b"heic" + b"\0\0\0\0" + b"mif1heic")


def ifd(entries, next_offset, order="<"):
    data = struct.pack(order + "H", len(entries))
    for tag, kind, count, value in entries:
        data += struct.pack(order + "HHII", tag, kind, count, value)
    return data + struct.pack(order + "I", next_offset)


fixtures = {}

# TIFF: IFD0 -> IFD1 -> IFD0 chain, SubIFDs pointing at both, Exif IFD pointing at IFD0 (a NIKON
# CFA file, so the raw-image search follows the chain).
ifd0_at, ifd1_at = 8, 8 + 2 + 12 * 6 + 4
make_at = ifd1_at + 2 + 12 * 2 + 4
tiff = b"II*\0" + struct.pack("<I", ifd0_at)
tiff += ifd([(0x0106, 3, 1, 32803), (0x010F, 2, 6, make_at), (0x014A, 4, 2, make_at + 6),
             (0x8769, 4, 1, ifd0_at), (0x0100, 3, 1, 0), (0x0101, 3, 1, 0)], ifd1_at)
tiff += ifd([(0x0106, 3, 1, 32803), (0x00FE, 4, 1, 1)], ifd0_at)
tiff += b"NIKON\0" + struct.pack("<II", ifd1_at, ifd0_at)
fixtures["tiff-ifd-loop"] = tiff

# TIFF: an IFD that claims 65535 entries, and a SubIFDs entry claiming 2^32-1 offsets.
fixtures["tiff-huge-counts"] = b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 0xFFFF) + \
    struct.pack(">HHII", 0x014A, 4, 0xFFFFFFFF, 8) + struct.pack(">HHII", 0x8769, 4, 0xFFFFFFFF, 8) + bytes(64)

# ISO BMFF: a 'meta' box whose length runs far past the end of the file.
fixtures["isobmff-box-past-eof"] = FTYP + box(b"meta", bytes(4) + box(b"hdlr", bytes(24)), size=0x40000000)

# ISO BMFF: a 64-bit box length of 2^63-1.
fixtures["isobmff-largesize"] = FTYP + struct.pack(">I", 1) + b"meta" + struct.pack(">Q", 2**63 - 1) + bytes(16)

# ISO BMFF: 'meta' holding 2000 nested 'iprp' boxes (no reader recurses, none may try).
nested = box(b"ispe", bytes(4) + struct.pack(">II", 1, 1))
for _ in range(2000):
    nested = box(b"iprp", nested)
fixtures["isobmff-deep-nesting"] = FTYP + full_box(b"meta", 0, nested)

# ISO BMFF: 'iloc' version 2 with 1024 items of 65535 extents each whose offsets and lengths take
# zero bytes: 67 million extents in 10 KiB.
iloc = bytes([0x00, 0x00]) + struct.pack(">I", 1024)
iloc += (struct.pack(">IHH", 1, 0, 0) + struct.pack(">H", 0xFFFF)) * 1024
fixtures["isobmff-iloc-empty-extents"] = FTYP + full_box(b"meta", 0, full_box(b"iloc", 2, iloc))

# ISO BMFF: 'iloc' version 2 announcing 4 billion items.
fixtures["isobmff-iloc-huge-count"] = FTYP + full_box(b"meta", 0, full_box(b"iloc", 2, bytes([0x44, 0x00]) + struct.pack(">I", 0xFFFFFFFF) + bytes(32)))

# ISO BMFF: an Exif item whose extent lies past the end of the file, and 'ipma' with 2^32-1 entries.
iinf = full_box(b"iinf", 0, struct.pack(">H", 1) + full_box(b"infe", 2, struct.pack(">HH", 1, 0) + b"Exif" + b"\0"))
iloc = full_box(b"iloc", 0, bytes([0x44, 0x00]) + struct.pack(">HHHHII", 1, 1, 0, 1, 0x7FFFFFFF, 0x100))
ipma = full_box(b"ipma", 0, struct.pack(">I", 0xFFFFFFFF) + struct.pack(">HB", 1, 1) + b"\x01")
fixtures["isobmff-exif-past-eof"] = FTYP + full_box(b"meta", 0, iinf + iloc + box(b"iprp", ipma))

# PNG: a chunk of length 0x7FFFFFFF, and an eXIf chunk of 0x7FFFFFFE bytes.
sig = b"\x89PNG\r\n\x1a\n"
fixtures["png-chunk-7fffffff"] = sig + struct.pack(">I", 0x7FFFFFFF) + b"IHDR" + bytes(17)
fixtures["png-exif-7ffffffe"] = sig + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 1, 1) + bytes(9) + \
    struct.pack(">I", 0x7FFFFFFE) + b"eXIf" + b"MM\0*" + bytes(8)

# WebP: a RIFF size of 4 GB and an EXIF chunk that claims more than the file.
fixtures["webp-chunk-past-eof"] = b"RIFF" + struct.pack("<I", 0xFFFFFFF0) + b"WEBP" + b"VP8X" + struct.pack("<I", 10) + \
    bytes(10) + b"EXIF" + struct.pack("<I", 0x7FFFFFF0) + b"Exif\0\0II*\0"

# JPEG: 5000 empty COM segments, more than the reader walks.
fixtures["jpeg-many-segments"] = b"\xff\xd8" + b"\xff\xfe\x00\x02" * 5000 + b"\xff\xd9"

# JPEG: an APP1 Exif whose IFD0 claims 65535 entries and whose Exif IFD pointer is IFD0 itself.
exif = b"Exif\0\0" + b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", 0xFFFF) + \
    struct.pack("<HHII", 0x8769, 4, 1, 8) + struct.pack("<HHII", 0x0132, 2, 0xFFFFFFFF, 0)
fixtures["jpeg-exif-huge-ifd"] = b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + b"\xff\xd9"

os.makedirs(out, exist_ok=True)
for name, data in sorted(fixtures.items()):
    with open(os.path.join(out, name + ".bin"), "wb") as f:
        f.write(data)
    print(f"{name}.bin: {len(data)} bytes")
