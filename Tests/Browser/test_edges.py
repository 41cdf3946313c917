"""Nothing lost at the timeline's edges (issue 31): a photo dated 1900, one dated 2100 and 12,000
taken on one day lay out at Years, Overview and Days, phone and desktop, and in a window 10,000 px
wide: no console error, nothing overlapping, every year there with its count, the last photo
reachable at the bottom.

The library is made here: one small JPEG from ImageMagick, written 12,002 times with EXIF dates
(`exif_segment` of test_stacks), no camera named, so the day's photos are no burst."""
import shutil
import subprocess

import pytest

from conftest import SHOEBOX_BIN, Server, new_driver, imagemagick_convert
from test_stacks import exif_segment
from viewer import console_errors, open_viewer, screenshot, wait_idle

CONVERT = imagemagick_convert()
BIG_DAY = 12_000

# Every cell and header on screen, and the pairs that overlap (a label laid over its own block's
# first row excepted, as in test_archive).
ON_SCREEN = """
const t = document.querySelector('#timeline');
const box = t.getBoundingClientRect();
const rects = [];
for (const el of t.querySelectorAll('.cell:not([hidden]), .section-header:not([hidden]), [data-year]:not([hidden])')) {
  const r = el.getBoundingClientRect();
  if (r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left || r.left >= box.right) continue;
  const card = el.closest('[data-year]');
  rects.push({ cell: el.classList.contains('cell'), s: el.dataset.section, id: el.dataset.photoId, card: card ? card.dataset.year : null,
               l: r.left, t: r.top, r: r.right, b: r.bottom, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 });
}
const over = t.classList.contains('labels-over');
const overlaps = [];
for (let a = 0; a < rects.length && overlaps.length < 5; a++)
  for (let b = a + 1; b < rects.length; b++) {
    const p = rects[a], q = rects[b];
    if (p.card && p.card === q.card) continue;  // a year card and the key photo's cell in it
    if (over && p.cell !== q.cell && p.s === q.s) continue;  // a label over its own block
    if (Math.min(p.r, q.r) - Math.max(p.l, q.l) > 0.5 && Math.min(p.b, q.b) - Math.max(p.t, q.t) > 0.5) overlaps.push([p, q]);
  }
return { cells: rects.filter((r) => r.cell).length, ids: rects.filter((r) => r.cell && r.id).map((r) => +r.id),
         outside: rects.filter((r) => !r.inside).length, overlaps };
"""


@pytest.fixture(scope="module")
def edges(workdir):
    if CONVERT is None:
        pytest.skip("ImageMagick's `convert` is needed to make the test's photos: install it with `apt-get install imagemagick`.")
    folder = workdir / "edges"
    if folder.exists():
        shutil.rmtree(folder)
    photos = folder / "photos"
    base = folder / "base.jpg"
    folder.mkdir(parents=True)
    subprocess.run([CONVERT, "-size", "64x48", "gradient:steelblue-khaki", str(base)], check=True, timeout=60)
    jpeg = base.read_bytes()

    def write(path, date):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(jpeg[:2] + exif_segment(date, "0", "", "") + jpeg[2:])

    write(photos / "1900/first.jpg", "1900:01:01 12:00:00")
    for n in range(BIG_DAY):  # 2 s apart from 06:00: the day ends at 12:39:58
        s = 6 * 3600 + 2 * n
        write(photos / f"2010/day/IMG_{n:05}.jpg", f"2010:06:15 {s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}")
    write(photos / "2100/last.jpg", "2100:12:31 12:00:00")
    db = folder / "library.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(photos), "--db", str(db)], check=True, timeout=600, capture_output=True)
    server = Server(db)
    yield server
    server.stop()


def scroll_to(driver, fraction):
    driver.execute_script("const s = window.shoebox.timeline.scroller; s.scrollTo(s.maxOffset * arguments[0]);", fraction)
    wait_idle(driver)


def check_levels(driver, server, label, screenshots):
    years = server.get("/api/sections?level=years")
    assert [(y["year"], y["count"]) for y in years] == [(1900, 1), (2010, BIG_DAY), (2100, 1)], years
    last = server.get("/api/sections/fine/" + str(len(server.get("/api/sections?level=fine")) - 1))["photos"][-1]
    assert last["path"] == "2100/last.jpg"
    for level in ("years", "coarse", "fine"):
        open_viewer(driver, server.url, f"?level={level}")
        for fraction in (0, 0.5, 1):
            scroll_to(driver, fraction)
            seen = driver.execute_script(ON_SCREEN)
            assert seen["cells"] > 0, (label, level, fraction)
            assert seen["overlaps"] == [], (label, level, fraction, seen["overlaps"])
            assert seen["outside"] == 0, (label, level, fraction, seen)
        if level == "years":
            cards = driver.execute_script(
                "return [...document.querySelectorAll('#timeline [data-year]')].map((c) => [+c.dataset.year, +c.dataset.count]);")
            assert sorted(cards) == [[1900, 1], [2010, BIG_DAY], [2100, 1]], (label, cards)
        else:
            assert last["id"] in seen["ids"], (label, level, "the 2100 photo at the bottom")
        screenshot(driver, screenshots, f"edges-{label}-{level}")
    assert console_errors(driver) == []


def test_edges_lay_out(browser, edges, screenshots, viewport):
    check_levels(browser, edges, viewport, screenshots)


def test_a_window_ten_thousand_pixels_wide(edges, screenshots):
    driver = new_driver(10_000, 900)
    try:
        check_levels(driver, edges, "10000px", screenshots)
    finally:
        driver.quit()
