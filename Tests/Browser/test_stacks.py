"""Stacks in the timeline: a burst is one cell with its count (`[data-stack-count]`, a badge) at
both levels, zoom lands on that one cell, and the pager steps through every member of the stack,
cover first, before going on to the next photo.

The library is made here: JPEGs from ffmpeg's test pattern (fixed frames), with EXIF written by
this file (capture time to the tenth of a second, make and model), so nothing beyond the
set-up's packages is needed."""
import shutil
import struct
import subprocess

import pytest

from conftest import SHOEBOX_BIN, Server
from viewer import open_viewer, wait_idle, wait_for, console_errors, screenshot

FFMPEG = shutil.which("ffmpeg")
BURST = 4


def exif_segment(date, subsec, make, model):
    """An APP1 Exif segment (little-endian TIFF): Make and Model in IFD0, DateTimeOriginal and
    SubSecTimeOriginal in the Exif IFD."""
    def ifd(entries, start):
        head, data = struct.pack("<H", len(entries)), b""
        after = start + 2 + 12 * len(entries) + 4
        for tag, kind, value in sorted(entries):
            raw = value.encode() + b"\0" if kind == 2 else struct.pack("<I", value)
            count = len(raw) if kind == 2 else 1
            if len(raw) <= 4:
                head += struct.pack("<HHI", tag, kind, count) + raw.ljust(4, b"\0")
            else:
                head += struct.pack("<HHII", tag, kind, count, after + len(data))
                data += raw + (b"\0" if len(raw) % 2 else b"")
        return head + struct.pack("<I", 0) + data
    ifd0_entries = [(0x010F, 2, make), (0x0110, 2, model), (0x8769, 4, 0)]
    exif_start = 8 + len(ifd(ifd0_entries, 8))
    ifd0_entries[2] = (0x8769, 4, exif_start)
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd(ifd0_entries, 8) + ifd([(0x9003, 2, date), (0x9291, 2, subsec)], exif_start)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def write_photo(path, frame, date, subsec, make="Shoebox", model="Burst Cam"):
    path.parent.mkdir(parents=True, exist_ok=True)
    plain = path.with_suffix(".plain.jpg")
    subprocess.run([FFMPEG, "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=320x240:rate=1:duration={frame + 1}",
                    "-vf", f"select=eq(n\\,{frame})", "-frames:v", "1", str(plain)], check=True, timeout=60)
    jpeg = plain.read_bytes()
    plain.unlink()
    assert jpeg[:2] == b"\xff\xd8"
    path.write_bytes(jpeg[:2] + exif_segment(date, subsec, make, model) + jpeg[2:])


@pytest.fixture(scope="module")
def stack_server(workdir):
    if FFMPEG is None:
        pytest.skip("ffmpeg is needed to make the test's photos (scripts/dependencies installs it).")
    folder = workdir / "stacks"
    if folder.exists():
        shutil.rmtree(folder)
    photos = folder / "photos"
    # A photo before, the burst (0.3 s apart, one camera), a photo after: one day, one section.
    write_photo(photos / "day/before.jpg", 0, "2024:06:01 09:00:00", "0", model="Other Cam")
    for k in range(BURST):
        write_photo(photos / f"day/burst/IMG_{100 + k}.JPG", k + 1, "2024:06:01 12:00:00", str(k * 3))
    write_photo(photos / "day/after.jpg", 9, "2024:06:01 18:00:00", "0", model="Other Cam")
    db = folder / "library.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(photos), "--db", str(db)], check=True, timeout=300, capture_output=True)
    server = Server(db)
    yield server
    server.stop()


def cells(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#timeline .cell[data-photo-id]:not([hidden])')].map(c => {
            const b = c.querySelector('.badge'); const r = b.getBoundingClientRect();
            return { id: +c.dataset.photoId, item: +c.dataset.item, stack: c.dataset.stackCount ? +c.dataset.stackCount : null,
                     badge: b.textContent, badgeShown: getComputedStyle(b).display !== 'none' && r.width > 0 && r.height > 0 };
        });""")


def pager(driver):
    return driver.execute_script("""
        const p = document.querySelector('#pager');
        if (p.hidden) return null;
        return { id: +p.dataset.photoId, item: +p.dataset.index, stackCount: p.dataset.stackCount ? +p.dataset.stackCount : null,
                 position: p.dataset.stackPosition ? +p.dataset.stackPosition : null,
                 title: p.querySelector('.pager-title').textContent,
                 strip: document.querySelector('#strip').dataset.current };""")


def test_a_burst_is_one_cell_and_the_pager_shows_every_member(browser, stack_server, screenshots, viewport):
    section = stack_server.get("/api/sections/fine/0")
    assert [p["path"] for p in section["photos"]] == ["day/before.jpg", "day/burst/IMG_100.JPG", "day/after.jpg"], section
    cover = section["photos"][1]
    assert cover["stackCount"] == BURST and cover["stack"] == cover["id"]
    members = stack_server.get(f"/api/photos/{cover['id']}/stack")["photos"]
    assert [m["path"] for m in members] == [f"day/burst/IMG_{100 + k}.JPG" for k in range(BURST)]

    for level in ("coarse", "fine"):
        open_viewer(browser, stack_server.url, f"?level={level}")
        shown = cells(browser)
        assert [c["id"] for c in shown] == [p["id"] for p in section["photos"]], (level, shown)
        stacked = [c for c in shown if c["stack"]]
        assert len(stacked) == 1 and stacked[0]["id"] == cover["id"] and stacked[0]["stack"] == BURST, shown
        assert stacked[0]["badge"] == str(BURST) and stacked[0]["badgeShown"], stacked
        assert all(not c["badgeShown"] for c in shown if not c["stack"]), shown
        # The section's header counts photos (three cells: the stack counts for all its photos).
        counts = browser.execute_script(
            "return [...document.querySelectorAll('#timeline .section-header:not([hidden]) .count')].map(e => e.textContent)")
        assert counts == [f"{BURST + 2} photos"], (level, counts)
    screenshot(browser, screenshots, f"{viewport}-stack-cell")

    # Open the stack: its cover first, then each member, then the photo after it; and back.
    browser.find_element("css selector", f'#timeline [data-photo-id="{cover["id"]}"]').click()
    seen = [wait_for(lambda: (lambda p: p if p and p["id"] == cover["id"] else None)(pager(browser)), timeout=10,
                     message="the pager on the cover")]
    body = browser.find_element("css selector", "body")
    for member in members[1:] + [section["photos"][2]]:
        body.send_keys("\ue014")  # ArrowRight
        seen.append(wait_for(lambda: (lambda p: p if p and p["id"] == member["id"] else None)(pager(browser)), timeout=10,
                             message=f"the pager on {member['path']}"))
    assert [s["position"] for s in seen] == list(range(1, BURST + 1)) + [None], seen
    assert all(s["stackCount"] == BURST and s["item"] == 1 for s in seen[:BURST]), seen
    assert seen[1]["title"].endswith(f"2 of {BURST}"), seen[1]
    assert seen[-1]["item"] == 2 and seen[-1]["stackCount"] is None, seen[-1]
    screenshot(browser, screenshots, f"{viewport}-stack-pager")
    for _ in range(BURST + 1):
        body.send_keys("\ue012")  # ArrowLeft
    wait_for(lambda: (lambda p: p if p and p["id"] == section["photos"][0]["id"] else None)(pager(browser)), timeout=10,
             message="the pager back on the photo before the stack")
    # Escape: the grid, with the stack's one cell where it was.
    body.send_keys("\ue00c")
    wait_for(lambda: pager(browser) is None, timeout=5, message="the pager to close")
    wait_idle(browser)
    assert [c["id"] for c in cells(browser)] == [p["id"] for p in section["photos"]]
    assert console_errors(browser) == []


def test_a_search_for_a_member_opens_its_stack_on_that_member(browser, stack_server, screenshots, viewport):
    last = f"IMG_{100 + BURST - 1}"
    found = stack_server.get(f"/api/search?q={last}")
    assert len(found["photos"]) == 1 and found["total"] == BURST, found
    cover = found["photos"][0]
    assert cover["stackCount"] == BURST and cover["matchedMember"] != cover["id"], cover
    open_viewer(browser, stack_server.url, f"?q={last}&level=fine")
    shown = cells(browser)
    assert [c["id"] for c in shown] == [cover["id"]] and shown[0]["stack"] == BURST, shown
    browser.find_element("css selector", f'#timeline [data-photo-id="{cover["id"]}"]').click()
    opened = wait_for(lambda: (lambda p: p if p and p["id"] == cover["matchedMember"] else None)(pager(browser)), timeout=10,
                      message=f"the pager on {last}, the member the search found")
    assert opened["position"] == BURST and opened["stackCount"] == BURST, opened
    screenshot(browser, screenshots, f"{viewport}-stack-search-member")
    assert console_errors(browser) == []
