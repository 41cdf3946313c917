"""Viewer polish (issue 26, point 6): a sharp grid at any device pixel ratio, a scrubber that stays
while a finger drags it, and a video page whose label and poster leave the video alone.

The library here is real files: photos of 2000 × 1500 px, so the larger grid rendition is not capped
by "never upscaled", written as PNGs named `IMG_YYYYMMDD_HHMMSS.png` (dated from their names), and
one short WebM made with ffmpeg (the video tests are skipped without it).
"""
import datetime as dt
import shutil
import struct
import subprocess
import time
import zlib

import pytest

from conftest import SHOEBOX_BIN, Server, new_driver
from viewer import open_viewer, wait_idle, wait_for, console_errors, screenshot

BASE = dt.datetime(2016, 5, 2, 9, 0, 0)
DAYS = 2
PER_DAY = 12  # a day of 12 photos is its own fine section
WIDTH, HEIGHT = 2000, 1500
DESKTOP = (1440, 900)
PHONE = (390, 844)
VIDEO_NAME = "VID_20160502_083000.webm"
VIDEO_RGB = (220, 30, 30)  # the video's every frame


def big_png(day, k, width=WIDTH, height=HEIGHT):
    """A photo with detail that blurs when upscaled: the day's colour, a 2 px black grid every 25 px,
    and a white band as wide as the photo's number in its day."""
    colour = bytes(((day * 90 + 60) % 256, (k * 19 + 100) % 256, 170))
    black, white = b"\x00\x00\x00", b"\xff\xff\xff"
    plain = bytearray()
    for x in range(width):
        plain += black if x % 25 < 2 else colour
    band = bytearray(plain)
    band[: (k + 1) * width // 14 * 3] = white * ((k + 1) * width // 14)
    line = b"\x00" + black * width
    rows = []
    for y in range(height):
        if y % 25 < 2:
            rows.append(line)
        else:
            rows.append(b"\x00" + bytes(band if height // 2 <= y < height // 2 + 120 else plain))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 3)) + chunk(b"IEND", b""))


def decode_png_pixel(png, x, y):
    """The RGB of pixel (x, y) of an 8-bit RGB or RGBA PNG (a screenshot), without any library."""
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and kind in (2, 6), (depth, kind)
    channels = 3 if kind == 2 else 4
    data, at = b"", 8
    while at < len(png):
        length, name = struct.unpack(">I4s", png[at:at + 8])
        if name == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    for row in range(y + 1):
        start = row * (stride + 1)
        kind_of_filter, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind_of_filter == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind_of_filter == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind_of_filter == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind_of_filter == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        previous = line
    return tuple(previous[x * channels:x * channels + 3])


@pytest.fixture(scope="module")
def photos(workdir):
    """Two days of 12 photos of 2000 × 1500 px, and (with ffmpeg) a 3 s WebM early on the first day."""
    folder = workdir / "polish"
    folder.mkdir()
    for d in range(DAYS):
        for k in range(PER_DAY):
            when = BASE + dt.timedelta(days=d, minutes=10 * k)
            (folder / when.strftime("IMG_%Y%m%d_%H%M%S.png")).write_bytes(big_png(d, k))
    has_video = shutil.which("ffmpeg") is not None
    if has_video:
        r, g, b = VIDEO_RGB
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", f"color=c=0x{r:02x}{g:02x}{b:02x}:s=640x360:d=3:r=25",
                        "-c:v", "libvpx", "-b:v", "200k", "-pix_fmt", "yuv420p", str(folder / VIDEO_NAME)],
                       check=True, timeout=120)
    db = workdir / "polish.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(folder), "--db", str(db)], check=True, timeout=120,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(db)
    server.has_video = has_video
    assert server.library["photos"] in (DAYS * PER_DAY, DAYS * PER_DAY + 1)
    yield server
    server.stop()


def driver_at(width, height, ratio=1, mobile=False):
    driver = new_driver(width, height, mobile=mobile)
    if ratio != 1:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": ratio, "mobile": mobile})
    return driver


GRID_IMAGES = """
  const out = [];
  const t = document.querySelector('#timeline').getBoundingClientRect();
  for (const c of document.querySelectorAll('#timeline .cell[data-photo-id]:not([hidden]):not(.video)')) {
    const r = c.getBoundingClientRect();
    if (r.bottom <= t.top || r.top >= t.bottom) continue;
    const img = c.querySelector('img');
    out.push({ id: c.dataset.photoId, side: r.width, loaded: !img.hidden && img.complete && img.naturalWidth > 0,
               natural: [img.naturalWidth, img.naturalHeight], src: img.getAttribute('src') });
  }
  return { ratio: window.devicePixelRatio, cells: out };"""


@pytest.mark.parametrize("ratio", [1, 2])
def test_grid_is_sharp(photos, screenshots, ratio):
    """On a desktop viewport at DPR 1 and 2, every visible cell's image has at least as many pixels
    on its short edge as the cell has device pixels: the grid is never upscaled."""
    driver = driver_at(*DESKTOP, ratio=ratio)
    try:
        open_viewer(driver, photos.url, "?level=fine")
        # A cell shows the `tiny` rendition first and swaps in its real thumbnail when that has
        # loaded: wait for the swap, not only for the first image.
        grid = wait_for(lambda: (lambda g: g if g["cells"] and all(
            c["loaded"] and "size=tiny" not in (c["src"] or "") for c in g["cells"]) else None)(
            driver.execute_script(GRID_IMAGES)), timeout=60, message="every visible cell's real thumbnail to load")
        # decoded and painted before the screenshot (the cells decode asynchronously)
        driver.execute_async_script("""
          const done = arguments[0];
          const imgs = [...document.querySelectorAll('#timeline .cell[data-photo-id] img:not([hidden])')];
          Promise.all(imgs.map((i) => i.decode().catch(() => {})))
            .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done())));""")
        screenshot(driver, screenshots, f"polish-grid-dpr{ratio}")
        assert grid["ratio"] == ratio
        assert len(grid["cells"]) >= 8, grid["cells"]
        blurred = [c for c in grid["cells"] if min(c["natural"]) < int(c["side"] * ratio)]
        print(f"[dpr {ratio}] {len(grid['cells'])} cells of {grid['cells'][0]['side']:.1f} px, "
              f"images {sorted({tuple(c['natural']) for c in grid['cells']})}")
        assert not blurred, f"{len(blurred)} of {len(grid['cells'])} cells are upscaled: " + "; ".join(
            f"{c['natural'][0]}×{c['natural'][1]} in a {c['side']:.1f} px cell × {ratio} ({c['src']})" for c in blurred[:4])
        assert console_errors(driver) == []
    finally:
        driver.quit()


SCRUBBER = """
  const s = document.querySelector('#scrubber');
  const r = s.querySelector('.scrubber-thumb').getBoundingClientRect();
  return { opacity: Number(getComputedStyle(s).opacity), dragging: s.classList.contains('dragging'),
           x: r.left + r.width / 2, y: r.top + r.height / 2, bottom: s.getBoundingClientRect().bottom };"""


def test_scrubber_stays_during_touch_drag(server3k, screenshots):
    """A finger that grabs the scrubber just after a scroll (when it has just appeared) and drags it
    for 2 s sees it at full opacity the whole time; it fades only after the finger lifts."""
    driver = driver_at(*PHONE, mobile=True)
    try:
        open_viewer(driver, server3k.url)
        # a scroll, as a flick would make it: the scrubber appears and its fade-out is due in a moment
        driver.execute_script("document.querySelector('#timeline').scrollBy(0, 600)")
        wait_for(lambda: driver.execute_script(SCRUBBER)["opacity"] == 1, timeout=5, message="the scrubber to appear")
        start = driver.execute_script(SCRUBBER)
        x, y = start["x"], start["y"]
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        samples = []
        began = time.monotonic()
        travel = (start["bottom"] - 60) - y
        shot = False
        while (elapsed := time.monotonic() - began) < 2.0:
            driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                                   {"type": "touchMove", "touchPoints": [{"x": x, "y": y + travel * elapsed / 2.0}]})
            now = driver.execute_script(SCRUBBER)
            samples.append((time.monotonic() - began, now["opacity"], now["dragging"]))
            if elapsed > 1.5 and not shot:
                screenshot(driver, screenshots, "polish-scrubber-mid-drag")
                shot = True
            time.sleep(0.05)
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert all(dragging for _, _, dragging in samples), "the drag was not seen as one drag"
        assert driver.execute_script("return window.shoebox.timeline.offset") > 1000, "the drag did not scroll"
        faded = [(round(t, 2), o) for t, o, _ in samples if o < 0.999]
        print(f"scrubber: {len(samples)} samples over 2 s, faded in {len(faded)}")
        assert not faded, f"the scrubber faded while the finger was on it (s, opacity): {faded[:6]}"
        # after the finger lifts it fades as before
        wait_for(lambda: driver.execute_script(SCRUBBER)["opacity"] < 0.5, timeout=5, message="the scrubber to fade after the drag")
        assert console_errors(driver) == []
    finally:
        driver.quit()


def open_video(driver, server):
    open_viewer(driver, server.url, "?level=fine")
    wait_for(lambda: driver.execute_script("return document.querySelector('#timeline .cell.video') !== null"),
             message="the video's cell")
    driver.execute_script("document.querySelector('#timeline .cell.video').click()")
    wait_for(lambda: driver.execute_script(
        "const v = document.querySelector(`#pager:not([hidden]) .page[data-index='${document.querySelector('#pager').dataset.index}'] video`);"
        "return v && v.readyState >= 2;"), timeout=30, message="the video page with its first frame")
    time.sleep(0.6)  # the poster check (if any) and a frame


CURRENT_VIDEO = """
  const p = document.querySelector('#pager');
  const page = p.querySelector(`.page[data-index="${p.dataset.index}"]`);
  const v = page.querySelector('video'), label = page.querySelector('.page-label');
  const vr = v.getBoundingClientRect(), lr = label.getBoundingClientRect();
  const shown = getComputedStyle(label).display !== 'none' && lr.width > 0;
  return { video: [vr.left, vr.top, vr.right, vr.bottom], label: shown ? [lr.left, lr.top, lr.right, lr.bottom] : null,
           poster: v.getAttribute('poster'), text: label.textContent };"""


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_video_label_clears_the_controls(photos, screenshots, viewport):
    """The file name on a video page stays out of the bottom 40 px of the video, where the native
    controls put the seek bar."""
    if not photos.has_video:
        pytest.skip("ffmpeg is needed to make the test video")
    driver = driver_at(*(DESKTOP if viewport == "desktop" else PHONE), mobile=viewport == "phone")
    try:
        open_video(driver, photos)
        screenshot(driver, screenshots, f"polish-video-{viewport}")
        page = driver.execute_script(CURRENT_VIDEO)
        assert page["text"] == VIDEO_NAME
        left, top, right, bottom = page["video"]
        if page["label"]:
            l, t, r, b = page["label"]
            overlaps = l < right and r > left and t < bottom and b > bottom - 40
            assert not overlaps, f"the label {page['label']} covers the seek bar of the video {page['video']}"
    finally:
        driver.quit()


def test_video_shows_its_first_frame(photos, screenshots):
    """A video whose poster would be a grey placeholder shows its first frame instead (no poster)."""
    if not photos.has_video:
        pytest.skip("ffmpeg is needed to make the test video")
    driver = driver_at(*DESKTOP)
    try:
        open_video(driver, photos)
        page = driver.execute_script(CURRENT_VIDEO)
        path = screenshot(driver, screenshots, "polish-video-first-frame")
        left, top, right, bottom = page["video"]
        # the middle of the video, above its controls
        pixel = decode_png_pixel(path.read_bytes(), int((left + right) / 2), int((top + bottom) / 2))
        print(f"video middle pixel {pixel}, poster {page['poster']!r}")
        assert all(abs(p - q) <= 40 for p, q in zip(pixel, VIDEO_RGB)), \
            f"the middle of the video is {pixel}, not its first frame {VIDEO_RGB} (poster {page['poster']!r})"
        assert console_errors(driver) == []
    finally:
        driver.quit()


BAR = """
  const bar = document.querySelector('#bar').getBoundingClientRect();
  const box = (sel) => {
    const e = document.querySelector(sel);
    const r = e.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    return { sel, shown, left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: e.textContent.trim(),
             clipped: e.scrollWidth > e.clientWidth + 0.5 };
  };
  return { bar: { left: bar.left, right: bar.right, top: bar.top, bottom: bar.bottom },
           items: arguments[0].map(box), active: document.activeElement.id || document.activeElement.textContent.trim() };"""

PHONE_CONTROLS = ["#bar h1", "#summary", "#search-toggle", "#pages-toggle",
                  '[data-set-level="years"]', '[data-set-level="coarse"]', '[data-set-level="fine"]']
DESKTOP_CONTROLS = ["#bar h1", "#summary", "#search-input", "#places-button", "#map-button", "#duplicates-button",
                    '[data-set-level="years"]', '[data-set-level="coarse"]', '[data-set-level="fine"]']


def assert_laid_out_in_bar(m, width):
    """Every item shown, whole (its text not cut), inside the bar and the window, none over another."""
    bar = m["bar"]
    for item in m["items"]:
        assert item["shown"], item
        assert not item["clipped"], item
        assert 0 <= item["left"] and item["right"] <= width and bar["top"] <= item["top"] and item["bottom"] <= bar["bottom"], item
    items = m["items"]
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            p, q = items[a], items[b]
            if p["sel"] == "#bar h1" and q["sel"] == "#summary":
                # stacked on a phone: one above the other
                assert p["bottom"] <= q["top"] + 0.5 or min(p["right"], q["right"]) - max(p["left"], q["left"]) <= 0.5, (p, q)
                continue
            overlap_x = min(p["right"], q["right"]) - max(p["left"], q["left"])
            overlap_y = min(p["bottom"], q["bottom"]) - max(p["top"], q["top"])
            assert overlap_x <= 0.5 or overlap_y <= 0.5, (p, q)


def touch(driver, selector):
    r = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};",
        selector)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [r]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_phone_bar(photos, screenshots):
    """At 390 px (2 device pixels per px) the bar shows the title, the count, a search icon, a menu of
    the pages and the level buttons, whole and apart; the search opens from its icon by touch and
    finds; the pages' menu opens by touch and by keyboard; every control is reachable with Tab."""
    from selenium.webdriver.common.keys import Keys
    driver = driver_at(*PHONE, ratio=2, mobile=True)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        open_viewer(driver, photos.url)
        m = driver.execute_script(BAR, PHONE_CONTROLS)
        screenshot(driver, screenshots, "polish-phone-bar")
        print("phone bar: " + ", ".join(f"{i['sel']} {i['left']:.0f}–{i['right']:.0f}" for i in m["items"]))
        assert_laid_out_in_bar(m, PHONE[0])
        texts = {i["sel"]: i["text"] for i in m["items"]}
        assert texts["#bar h1"] == "Shoebox" and texts["#summary"] == f"{photos.library['photos']} photos" + (
            f" · {photos.library['videos']} videos" if photos.library.get("videos") else ""), texts
        assert not driver.find_element("css selector", "#search-input").is_displayed()
        assert not driver.find_element("css selector", "#places-button").is_displayed()

        # search: a touch on the icon opens the field, focused, in the title's place; it finds
        touch(driver, "#search-toggle")
        wait_for(lambda: driver.execute_script("return document.activeElement.id") == "search-input", message="the search field")
        field = driver.execute_script(BAR, ["#search-input", "#search-cancel", '[data-set-level="years"]', '[data-set-level="fine"]'])
        assert_laid_out_in_bar(field, PHONE[0])
        assert field["items"][0]["right"] - field["items"][0]["left"] >= 150, field["items"][0]
        screenshot(driver, screenshots, "polish-phone-bar-search")
        driver.switch_to.active_element.send_keys("2016", Keys.ENTER)
        wait_for(lambda: driver.execute_script("return document.querySelector('#timeline').dataset.query") == "2016", message="the result")
        wait_idle(driver)
        assert int(driver.execute_script("return document.querySelector('#result-bar').dataset.total")) >= DAYS * PER_DAY
        # Enter hands the keys to the result: the field closes, the title and count are back
        wait_for(lambda: not driver.find_element("css selector", "#search-input").is_displayed(), message="the field to close")
        assert_laid_out_in_bar(driver.execute_script(BAR, PHONE_CONTROLS), PHONE[0])
        driver.find_element("css selector", "#timeline").send_keys(Keys.ESCAPE)
        wait_for(lambda: driver.execute_script("return document.querySelector('#timeline').dataset.query") == "", message="the library again")

        # the pages' menu by touch: its three buttons on screen, apart; one opens its page and closes the menu
        touch(driver, "#pages-toggle")
        wait_for(lambda: driver.find_element("css selector", "#places-button").is_displayed(), message="the pages' menu")
        menu = driver.execute_script(BAR, ["#places-button", "#map-button", "#duplicates-button"])
        screenshot(driver, screenshots, "polish-phone-bar-menu")
        for item in menu["items"]:
            assert item["shown"] and 0 <= item["left"] and item["right"] <= PHONE[0] and item["bottom"] - item["top"] >= 40, item
        for p, q in zip(menu["items"], menu["items"][1:]):
            assert p["bottom"] <= q["top"] + 0.5, (p, q)
        touch(driver, "#places-button")
        wait_for(lambda: driver.execute_script("return document.querySelector('#places').dataset.ready"), message="the Places page")
        assert not driver.find_element("css selector", "#places-button").is_displayed()
        assert driver.find_element("css selector", "#pages-toggle").get_attribute("aria-expanded") == "false"
        driver.find_element("css selector", "#places").send_keys(Keys.ESCAPE)
        wait_for(lambda: driver.execute_script("return document.querySelector('#places').hidden"), message="Places to close")

        # the keyboard: Tab reaches every control of the bar; Enter opens the menu on its first page, Escape closes it
        driver.execute_script("document.activeElement.blur(); document.querySelector('#bar h1').setAttribute('tabindex', '-1');"
                              "document.querySelector('#bar h1').focus()")
        reached = []
        for _ in range(12):
            driver.switch_to.active_element.send_keys(Keys.TAB)
            reached.append(driver.execute_script("const e = document.activeElement; return e.id || e.dataset.setLevel || e.tagName"))
        for control in ("search-toggle", "pages-toggle", "years", "coarse", "fine"):
            assert control in reached, reached
        driver.execute_script("document.querySelector('#pages-toggle').focus()")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: driver.execute_script("return document.activeElement.id") == "places-button", message="the menu's first page")
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        assert driver.execute_script("return document.activeElement.id") == "map-button"
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait_for(lambda: driver.execute_script("return document.activeElement.id") == "pages-toggle", message="the menu to close")
        assert not driver.find_element("css selector", "#map-button").is_displayed()
        # the search icon by keyboard, and "/" anywhere
        driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
        assert driver.execute_script("return document.activeElement.id") in ("search-toggle", "search-cancel", "search-input")
        driver.execute_script("document.querySelector('#timeline').focus()")
        driver.switch_to.active_element.send_keys("/")
        wait_for(lambda: driver.execute_script("return document.activeElement.id") == "search-input", message="/ to open the search")
        assert console_errors(driver) == []
    finally:
        driver.quit()


def test_desktop_bar_is_unchanged(photos, screenshots):
    """At 1440 px the bar is as before the phone's compact bar: the title, the count, the field and the
    pages' buttons in the bar, in that order, and no icons."""
    driver = driver_at(*DESKTOP)
    try:
        open_viewer(driver, photos.url)
        m = driver.execute_script(BAR, DESKTOP_CONTROLS)
        screenshot(driver, screenshots, "polish-desktop-bar")
        assert_laid_out_in_bar(m, DESKTOP[0])
        lefts = [i["left"] for i in m["items"]]
        assert lefts == sorted(lefts), m["items"]
        field = m["items"][2]
        assert abs((field["right"] - field["left"]) - 240) <= 1, field  # the field's own width, as before
        assert not driver.find_element("css selector", "#search-toggle").is_displayed()
        assert not driver.find_element("css selector", "#pages-toggle").is_displayed()
        assert not driver.find_element("css selector", "#search-cancel").is_displayed()
    finally:
        driver.quit()
