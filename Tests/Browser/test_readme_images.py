"""The README's pictures of the timeline: the Overview level and, after a tap on one of its photos,
the Days level with that photo under the finger, side by side, at phone and desktop sizes.

Each picture is two screenshots of the viewer serving a library of some 140 generated photos (ffmpeg's
colour gradients, a day's photos alike, landscape and portrait) over three weeks, put side by side on
a canvas in the page (no image library needed). The test checks what the pictures must show (both
levels, thumbnails drawn, the tapped photo in view); with SHOEBOX_README_IMAGES=docs/images
it also writes them there, which is how `docs/images/timeline-*.png` are made:

    SHOEBOX_README_IMAGES=docs/images Tests/Browser/run -k readme_images
"""
import base64
import os
from pathlib import Path

import shutil
import subprocess

import pytest

from conftest import REPO, SHOEBOX_BIN, Server
from test_stacks import FFMPEG, exif_segment
from test_zoom import click_cell, after_zoom
from viewer import open_viewer, wait_for, wait_idle, state, visible_cells, cell_top, console_errors

PER_DAY = [6, 3, 9, 2, 0, 5, 12, 4, 7, 1, 0, 8, 3, 6, 10, 2, 5, 0, 4, 9, 3, 7, 2, 6]
GAP = 24  # px between the two levels, in CSS pixels of the page


@pytest.fixture(scope="module")
def trip_server(workdir):
    if FFMPEG is None:
        pytest.skip("ffmpeg is needed to make the pictures' photos (scripts/dependencies installs it).")
    photos = workdir / "readme-images"
    if photos.exists():
        shutil.rmtree(photos)
    photos.mkdir()
    for day, count in enumerate(PER_DAY):
        if count == 0:
            continue
        size = "300x400" if day % 3 == 1 else "400x300"
        frames = photos / f"day{day:02}-%02d.plain.jpg"
        subprocess.run([FFMPEG, "-v", "error", "-f", "lavfi", "-i",
                        f"gradients=s={size}:n=4:speed=0.05:seed={day + 3}:duration={count}:rate=1",
                        "-q:v", "4", str(frames)], check=True, timeout=60)
        for k in range(count):
            plain = photos / f"day{day:02}-{k + 1:02}.plain.jpg"
            jpeg = plain.read_bytes()
            plain.unlink()
            date = f"2025:07:{day + 1:02} {8 + k:02}:{(7 * k) % 60:02}:00"
            (photos / f"IMG_{day + 1:02}{k:02}.jpg").write_bytes(jpeg[:2] + exif_segment(date, "0", "Shoebox", "Trip Cam") + jpeg[2:])
    db = workdir / "readme-images.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(photos), "--db", str(db)], check=True, timeout=300, capture_output=True)
    server = Server(db)
    assert server.library["photos"] == sum(PER_DAY)
    yield server
    server.stop()


def thumbnails_drawn(driver):
    """Every visible cell's thumbnail has loaded (an <img> complete with a size, or a painted background)."""
    return driver.execute_script("""
        const t = document.querySelector('#timeline').getBoundingClientRect();
        const cells = [...document.querySelectorAll('#timeline [data-photo-id]')].filter(c => {
          const r = c.getBoundingClientRect(); return r.bottom > t.top && r.top < t.bottom; });
        if (cells.length === 0) return false;
        return cells.every(c => { const img = c.querySelector('img');
          return img ? img.complete && img.naturalWidth > 0 : getComputedStyle(c).backgroundImage !== 'none'; });""")


def side_by_side(driver, left, right, scale):
    """The two PNG screenshots (base64) next to each other on a dark ground, scaled by `scale`: a PNG's bytes."""
    url = driver.execute_async_script("""
        const [left, right, gap, scale, done] = arguments;
        const load = data => new Promise((ok, fail) => { const i = new Image(); i.onload = () => ok(i); i.onerror = fail;
                                                         i.src = 'data:image/png;base64,' + data; });
        Promise.all([load(left), load(right)]).then(([a, b]) => {
          const canvas = document.createElement('canvas');
          canvas.width = Math.round((a.width + gap + b.width) * scale);
          canvas.height = Math.round(Math.max(a.height, b.height) * scale);
          const g = canvas.getContext('2d');
          g.fillStyle = '#202124'; g.fillRect(0, 0, canvas.width, canvas.height);
          g.imageSmoothingQuality = 'high';
          g.drawImage(a, 0, 0, a.width * scale, a.height * scale);
          g.drawImage(b, (a.width + gap) * scale, 0, b.width * scale, b.height * scale);
          done(canvas.toDataURL('image/png'));
        }, error => done('failed: ' + error));""", left, right, GAP, scale)
    assert url.startswith("data:image/png;base64,"), url[:80]
    return base64.b64decode(url.split(",", 1)[1])


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_timeline_at_both_levels(browser, trip_server, viewport):
    open_viewer(browser, trip_server.url, "?level=coarse")
    assert state(browser)["level"] == "coarse"
    wait_for(lambda: thumbnails_drawn(browser), timeout=30, message="the Overview's thumbnails")
    overview = browser.get_screenshot_as_base64()

    # Tap a photo in the middle of the screen: the Days level opens with it under the finger.
    cells = visible_cells(browser)
    middle = state(browser)["height"] / 2
    tapped = min(cells, key=lambda c: abs(c["top"] - middle))
    before = tapped["top"]
    count = browser.execute_script("return window.shoebox.zooms.length;")
    click_cell(browser, tapped)
    after_zoom(browser, count)
    assert state(browser)["level"] == "fine"
    # Kept in view (exactly under the finger unless the Days grid ends first: test_zoom's matter).
    now = cell_top(browser, photo_id=tapped["id"])
    assert now is not None and 0 <= now <= state(browser)["height"], (before, now)
    wait_idle(browser)
    wait_for(lambda: thumbnails_drawn(browser), timeout=30, message="the Days level's thumbnails")
    days = browser.get_screenshot_as_base64()

    scale = 0.5 if viewport == "desktop" else 1.0
    picture = side_by_side(browser, overview, days, scale)
    width, height = png_size(picture)
    view_width, view_height = browser.execute_script("return [innerWidth, innerHeight];")
    assert (width, height) == (round((2 * view_width + GAP) * scale), round(view_height * scale))
    assert console_errors(browser) == []

    folder = os.environ.get("SHOEBOX_README_IMAGES")
    if folder:
        target = Path(folder) if Path(folder).is_absolute() else REPO / folder
        target.mkdir(parents=True, exist_ok=True)
        (target / f"timeline-{viewport}.png").write_bytes(picture)
