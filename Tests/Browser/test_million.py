"""A 1,000,000-photo library: the last photo is reachable, the DOM stays small, no long frames."""
import os

import pytest

from conftest import new_driver
from viewer import open_viewer, wait_idle, wait_for, state, console_errors, screenshot

MAX_CELLS = 600
LONG_FRAME_MS = 50

OBSERVE = """
  window.__long = [];
  for (const type of ['long-animation-frame', 'longtask']) {
    try {
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ type, duration: e.duration, name: e.name, start: Math.round(e.startTime), resources: performance.getEntriesByType('resource').filter((r) => r.responseEnd > e.startTime - 300 && r.responseEnd < e.startTime + e.duration).map((r) => `${r.name.split('/api/')[1]} ${Math.round(r.transferSize / 1024)} KB`) }); })
        .observe({ type, buffered: false });
    } catch (e) { /* not supported */ }
  }
  window.__maxCells = 0;
  window.__countCells = () => { window.__maxCells = Math.max(window.__maxCells, document.querySelectorAll('#timeline .cell').length); };
  new MutationObserver(window.__countCells).observe(document.querySelector('#timeline'), { childList: true, subtree: true });
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_scroll_to_last_photo_of_a_million(server1m, screenshots, size):
    width, height = (390, 844) if size == "phone" else (1440, 900)
    driver = new_driver(width, height, mobile=(size == "phone"))
    try:
        lib = server1m.library
        fine = server1m.get("/api/sections?level=fine")
        last = fine[-1]
        open_viewer(driver, server1m.url, "?level=fine")
        driver.execute_script(OBSERVE)
        t = state(driver)
        layout = server1m.get(f"/api/layout?level=fine&viewport={t['width']}x{t['height']}")
        assert layout["contentHeight"] > 16_700_000, "the fine level should be taller than Chromium's element cap"
        # 1. scroll by wheel through a stretch of the library (real scrolling, 1:1)
        for _ in range(40):
            driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": width / 2, "y": 400, "deltaX": 0, "deltaY": 600})
        wait_idle(driver)
        wheel_offset = state(driver)["offset"]
        assert wheel_offset > 10_000
        # 2. the date scrubber: drag its thumb to the bottom
        r = driver.execute_script("const r = document.querySelector('#scrubber').getBoundingClientRect(); return {x: r.left + r.width / 2, top: r.top, bottom: r.bottom};")
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": r["x"], "y": r["top"] + 30, "button": "left", "clickCount": 1})
        for k in range(1, 21):
            y = r["top"] + 30 + (r["bottom"] - r["top"]) * k / 20
            driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": r["x"], "y": y, "button": "left", "buttons": 1})
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": r["x"], "y": r["bottom"] + 50, "button": "left", "buttons": 1})
        screenshot(driver, screenshots, f"million-{size}-scrubbing")
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": r["x"], "y": r["bottom"] + 50, "button": "left", "clickCount": 1})
        wait_idle(driver, timeout=60)
        s = state(driver)
        assert abs(s["offset"] - (layout["contentHeight"] - t["height"])) < 1, s
        # the last photo of the library is in the DOM and on screen
        last_item = last["shown"] - 1
        top = driver.execute_script(
            "const c = document.querySelector(`#timeline .cell[data-section=\"${arguments[0]}\"][data-item=\"${arguments[1]}\"]`);"
            "if (!c || !c.dataset.photoId) return null; const t = document.querySelector('#timeline').getBoundingClientRect();"
            "const r = c.getBoundingClientRect(); return r.bottom <= t.bottom + 0.5 && r.top >= t.top ? r.top - t.top : null;",
            last["index"], last_item)
        assert top is not None, "the last photo is not visible"
        last_id = driver.execute_script(
            "return document.querySelector(`#timeline .cell[data-section=\"${arguments[0]}\"][data-item=\"${arguments[1]}\"]`).dataset.photoId", last["index"], last_item)
        screenshot(driver, screenshots, f"million-{size}-last-photo")
        # 3. wheel up from the end still scrolls 1:1 (window moved under the content, no jump)
        before = state(driver)["offset"]
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": width / 2, "y": 400, "deltaX": 0, "deltaY": -300})
        wait_for(lambda: state(driver)["offset"] < before, timeout=10, message="wheel up")
        wait_idle(driver)
        moved = before - state(driver)["offset"]
        # 4. the coarse level, End key
        driver.find_element("css selector", "#timeline").send_keys("-")
        wait_for(lambda: state(driver)["level"] == "coarse", timeout=30, message="coarse level")
        wait_idle(driver)
        driver.find_element("css selector", "#timeline").send_keys("\ue010")  # End
        wait_idle(driver)
        screenshot(driver, screenshots, f"million-{size}-coarse-end")
        max_cells = driver.execute_script("window.__countCells(); return window.__maxCells;")
        long = driver.execute_script("return window.__long;")
        loaf_supported = driver.execute_script("return PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')")
        frames = [e for e in long if e["type"] == ("long-animation-frame" if loaf_supported else "longtask")]
        longest = max((e["duration"] for e in frames), default=0)
        longest_task = max((e["duration"] for e in long if e["type"] == "longtask"), default=0)
        print(f"[million {size}] photos {lib['photos']}, fine content {layout['contentHeight']:.0f} px; wheel reached {wheel_offset:.0f} px; "
              f"last photo {last_id} (fine section {last['index']} item {last_item}) at y {top:.1f}; wheel up moved {moved:.0f} px; "
              f"max .cell elements {max_cells}; long animation frames (> 50 ms, LoAF supported={loaf_supported}) {len(frames)}, longest {longest:.1f} ms; "
              f"longest long task {longest_task:.1f} ms")
        assert max_cells <= MAX_CELLS
        assert moved > 100
        assert longest <= LONG_FRAME_MS, frames
        assert console_errors(driver) == []
    finally:
        driver.quit()
