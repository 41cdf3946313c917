"""A live library (issue 17): `shoebox serve --watch` on a folder of real image files; photos are
added and deleted while the viewer is open, and the photo at the top of the view keeps its y.

Photos without EXIF dates named `IMG_YYYYMMDD_HHMMSS.*` are dated from their names, so a file under
such a name is a photo of any date. The library starts as small PNGs written here (a colour per
day, a bar as long as the photo's number in its day, so screenshots show which photo is where);
photos added later are copies of `testdata/photos/phone/IMG_20250412_093015.jpg`, a grey JPEG
without EXIF. Each file is written under a hidden name and renamed, so the watcher never reads half
a file.
"""
import colorsys
import datetime as dt
import os
import shutil
import struct
import subprocess
import time
import zlib

import pytest

from conftest import REPO, SHOEBOX_BIN, Server
from viewer import open_viewer, wait_idle, wait_for, state, cell_top, visible_cells, console_errors, screenshot

SOURCE = REPO / "testdata" / "photos" / "phone" / "IMG_20250412_093015.jpg"
TOLERANCE = 1.0  # px
PER_DAY = 12  # a day of 12 photos is its own fine section (smaller days are merged with neighbours)
BASE = dt.datetime(2015, 3, 2, 9, 0, 0)

# Records every text the status pill shows, so a short index run's progress is not missed.
WATCH_PILL = """
  window.__pill = [];
  const pill = document.querySelector('#status');
  new MutationObserver(() => { if (!pill.hidden && pill.textContent) window.__pill.push(pill.textContent); })
    .observe(pill, { childList: true, characterData: true, subtree: true, attributes: true });
"""


def photo_name(when):
    return when.strftime("IMG_%Y%m%d_%H%M%S.jpg")


def png(day, k, width=64, height=48):
    """A small PNG: the day's colour, a light bar of k + 1 eighths of the width at the bottom."""
    r, g, b = (round(255 * c) for c in colorsys.hsv_to_rgb((day * 0.13) % 1.0, 0.55, 0.85))
    rows = []
    for y in range(height):
        bar = y >= height - 10
        rows.append(b"\x00" + b"".join(bytes((245, 245, 245) if bar and x < (k + 1) * width // 12 else (r, g, b)) for x in range(width)))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def add_days(folder, first_day, days, per_day=PER_DAY, kind="jpeg"):
    """Writes `per_day` photos on each of `days` days from `first_day` (PNGs or JPEG copies); returns their names."""
    names = []
    for d in range(days):
        for k in range(per_day):
            when = first_day + dt.timedelta(days=d, minutes=10 * k)
            name = photo_name(when)
            if kind == "png":
                name = name.replace(".jpg", ".png")
            tmp = folder / f".{name}.part"
            if kind == "png":
                tmp.write_bytes(png(d, k))
            else:
                shutil.copyfile(SOURCE, tmp)
            os.replace(tmp, folder / name)
            names.append(name)
    return names


@pytest.fixture
def live(workdir, request):
    """A watched library of 40 days × 12 photos in March–April 2015, served with --watch."""
    folder = workdir / f"live-{request.node.name}".replace("[", "-").replace("]", "")
    folder.mkdir()
    add_days(folder, BASE, 40, kind="png")
    db = workdir / f"{folder.name}.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(folder), "--db", str(db)], check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(db, watch=True)
    server.folder = folder
    assert server.library["photos"] == 40 * PER_DAY
    fine = server.get("/api/sections?level=fine")
    assert fine[0]["start"] == "2015-03-02" and len(fine) == 40, "the copies are not dated from their names"
    yield server
    server.stop()


def open_live(driver, server, query):
    """Opens the viewer; drops console lines of earlier pages (their servers stopped under them)."""
    open_viewer(driver, server.url, query)
    driver.get_log("browser")


def wait_for_library(driver, server, photos, timeout=30):
    """The server has indexed the change and the viewer has shown it (refresh done, photos in place)."""
    wait_for(lambda: server.get("/api/library")["photos"] == photos, timeout=timeout,
             message=f"the server to index the change ({photos} photos)")
    wait_for(lambda: driver.execute_script(
        "const s = window.shoebox; return s.library && s.library.photos === arguments[0] && !document.querySelector('#timeline').dataset.busy;",
        photos), timeout=timeout, message=f"the viewer to show {photos} photos")
    wait_idle(driver, timeout=timeout)


def top_photo(driver):
    """The photo at the top of the view: the top-left of the first row fully inside the viewport."""
    cells = visible_cells(driver)
    assert cells, "no photo is visible"
    return min(cells, key=lambda c: (round(c["top"], 3), c["left"]))


def assert_kept(driver, anchor, label, report):
    top = cell_top(driver, photo_id=anchor["id"])
    assert top is not None, f"{label}: photo {anchor['id']} is not in the DOM any more"
    delta = top - anchor["top"]
    report.append((label, delta))
    assert abs(delta) <= TOLERANCE, f"{label}: photo {anchor['id']} moved from y {anchor['top']:.3f} to {top:.3f}"
    return top


def test_photos_added_above_keep_the_view(browser, live, screenshots, viewport):
    driver = browser
    report = []
    open_live(driver, live, "?level=fine")
    driver.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.5)")
    wait_idle(driver)
    driver.execute_script(WATCH_PILL)
    anchor = top_photo(driver)
    before = state(driver)
    # the address names the same photo (the viewer's anchor is the test's)
    wait_for(lambda: f"anchor={anchor['id']}&" in driver.current_url, timeout=5, message="the URL to hold the anchor")
    address = driver.current_url
    screenshot(driver, screenshots, f"{viewport}-live-1-before")

    # 1. five days in 2010, earlier than everything: five new sections above the view
    add_days(live.folder, dt.datetime(2010, 1, 4, 8, 0, 0), 5)
    wait_for(lambda: driver.execute_script("return !document.querySelector('#status').hidden"), timeout=10,
             message="the status pill")
    screenshot(driver, screenshots, f"{viewport}-live-2-indexing")
    wait_for_library(driver, live, 45 * PER_DAY)
    after = state(driver)
    fine = live.get("/api/sections?level=fine")
    assert fine[0]["start"] == "2010-01-04" and len(fine) == 45
    assert after["offset"] > before["offset"] + 5 * 50, "the new sections are not above the view"
    assert_kept(driver, anchor, "added above", report)
    screenshot(driver, screenshots, f"{viewport}-live-3-added-above")
    refresh = driver.execute_script("return window.shoebox.refreshes.at(-1)")
    assert refresh["anchor"]["id"] == int(anchor["id"]), (refresh, anchor)
    # the index progress was shown, then the pill went away
    wait_for(lambda: driver.execute_script("return document.querySelector('#status').hidden"), timeout=10,
             message="the status pill to hide")
    pill = driver.execute_script("return window.__pill")
    assert any(t.startswith("Indexing") or t.startswith("Indexed") for t in pill), pill

    # 2. photos after everything (2016): nothing moves
    offset = state(driver)["offset"]
    add_days(live.folder, dt.datetime(2016, 6, 1, 8, 0, 0), 3)
    wait_for_library(driver, live, 48 * PER_DAY)
    assert abs(state(driver)["offset"] - offset) <= TOLERANCE
    assert_kept(driver, anchor, "added below", report)

    # 3. a day above deleted (12 of 576 photos: under the removal limit)
    for name in sorted(os.listdir(live.folder))[:PER_DAY]:
        assert name.startswith("IMG_20100104_")
        os.remove(live.folder / name)
    wait_for_library(driver, live, 47 * PER_DAY)
    assert live.get("/api/sections?level=fine")[0]["start"] == "2010-01-05"
    assert_kept(driver, anchor, "deleted above", report)

    # 4. the address from before the changes (its section and item are stale now) still lands on the photo
    driver.get(address)
    wait_idle(driver)
    assert_kept(driver, anchor, "old address", report)

    # 5. the pager stays on its photo while days are added above, and the grid under it keeps still
    driver.find_element("css selector", f'#timeline [data-photo-id="{anchor["id"]}"]').click()
    pager_photo = lambda: driver.execute_script("const p = document.querySelector('#pager'); return p.hidden ? null : p.dataset.photoId;")
    wait_for(lambda: pager_photo() == anchor["id"], timeout=10, message="the pager")
    add_days(live.folder, dt.datetime(2009, 2, 2, 8, 0, 0), 2)
    wait_for_library(driver, live, 49 * PER_DAY)
    assert pager_photo() == anchor["id"]
    position = live.get(f"/api/photos/{anchor['id']}/position")["fine"]
    assert driver.execute_script("return +document.querySelector('#pager').dataset.section") == position["section"]
    driver.find_element("css selector", "body").send_keys("\ue00c")  # Escape
    wait_for(lambda: pager_photo() is None, timeout=5, message="the pager to close")
    wait_idle(driver)
    assert_kept(driver, anchor, "under the pager", report)

    print(f"[{viewport}] live, fine level: photo {anchor['id']} at y {anchor['top']:.3f}; "
          + ", ".join(f"{label} {delta:+.3f} px" for label, delta in report)
          + f"; offset {before['offset']:.1f} -> {after['offset']:.1f} after 5 days above; pill showed {pill[:3]}")
    assert console_errors(driver) == []


def test_coarse_level_keeps_the_view(browser, live, screenshots, viewport):
    driver = browser
    open_live(driver, live, "?level=coarse")
    # the overview of 40 days is short: add years so it scrolls, then anchor in the middle
    add_days(live.folder, dt.datetime(2012, 1, 2, 8, 0, 0), 10, per_day=6)
    wait_for_library(driver, live, 40 * PER_DAY + 60)
    driver.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.6)")
    wait_idle(driver)
    anchor = top_photo(driver)
    report = []
    add_days(live.folder, dt.datetime(2009, 5, 4, 8, 0, 0), 4)
    wait_for_library(driver, live, 44 * PER_DAY + 60)
    coarse = live.get("/api/sections?level=coarse")
    assert coarse[0]["start"] <= "2009-05-04"
    assert_kept(driver, anchor, "coarse, added above", report)
    screenshot(driver, screenshots, f"{viewport}-live-4-coarse-added-above")
    refresh = driver.execute_script("return window.shoebox.refreshes.at(-1)")
    assert refresh["target"]["how"] == "photo" and refresh["anchor"]["id"] == int(anchor["id"]), refresh

    # 2. the anchor's own fortnight triples: its sample of 50 changes and may hide the anchor. The
    # viewer then anchors on the first visible photo still shown, else on the anchor's nearest shown
    # neighbour; either way the photo it chose is at the y its anchor had.
    anchor = top_photo(driver)
    fortnight = live.get("/api/sections?level=coarse")[anchor["section"]]
    first = dt.datetime.fromisoformat(fortnight["start"]).replace(hour=13)
    days = (dt.date.fromisoformat(fortnight["end"]) - dt.date.fromisoformat(fortnight["start"])).days + 1
    add_days(live.folder, first, days, per_day=24)
    total = 44 * PER_DAY + 60 + 24 * days
    wait_for_library(driver, live, total)
    refresh = driver.execute_script("return window.shoebox.refreshes.at(-1)")
    target = refresh["target"]
    top = cell_top(driver, section=target["section"], item=target["item"])
    assert top is not None and abs(top - refresh["anchor"]["dy"]) <= TOLERANCE, (top, refresh)
    assert refresh["anchor"]["dy"] >= -0.5
    kept = cell_top(driver, photo_id=anchor["id"])
    report.append((f"resampled ({target['how']}, photo {refresh['anchor']['id']})", top - refresh["anchor"]["dy"]))
    screenshot(driver, screenshots, f"{viewport}-live-5-coarse-resampled")
    print(f"[{viewport}] live, coarse level: photo {anchor['id']} at y {anchor['top']:.3f}; "
          + ", ".join(f"{label} {delta:+.3f} px" for label, delta in report)
          + f"; after resampling the first anchor is {'shown at y %.3f' % kept if kept is not None else 'not shown'}")
    assert console_errors(driver) == []


def test_server_gone_no_error_loop(browser, live, screenshots, viewport):
    """When the server stops, the viewer says so and does not log an error every two seconds."""
    driver = browser
    open_live(driver, live, "?level=fine")
    wait_for(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#timeline .cell[data-photo-id] img')]"
        + ".every((i) => i.src && !i.src.includes('size=tiny') && i.complete && !i.hidden)"),
        timeout=20, message="the thumbnails to load (the real ones, after the tiny first paint)")
    driver.get_log("browser")
    live.stop()
    wait_for(lambda: driver.execute_script(
        "const p = document.querySelector('#status'); return !p.hidden && p.dataset.state === 'offline';"),
        timeout=15, message="the offline pill")
    screenshot(driver, screenshots, f"{viewport}-live-6-offline")
    time.sleep(8)
    errors = console_errors(driver, allow=())
    events = [e for e in errors if "/api/events" in e]
    print(f"[{viewport}] server stopped: {len(errors)} console errors in ~10 s ({len(events)} about /api/events)")
    assert len(errors) <= 3, errors  # the dropped stream, then attempts after 2 and 6 s (an attempt every 2 s: 5 or more)
