"""Zoom in and out keeps the photo under the finger (3,000-photo library, phone and desktop)."""
import pytest

from viewer import (open_viewer, wait_idle, wait_for, state, cell_top, visible_cells, last_zoom, zoom_count,
                    console_errors, screenshot)

TOLERANCE = 1.0  # px


def click_cell(driver, cell):
    driver.execute_script(
        "document.querySelector(`#timeline [data-photo-id=\"${arguments[0]}\"]`).click();", cell["id"])


def after_zoom(driver, before_count):
    wait_for(lambda: zoom_count(driver) > before_count, timeout=20, message="the zoom to answer")
    wait_idle(driver)
    return last_zoom(driver)


def assert_one_level_shown(driver, level):
    """Nothing marked hidden is drawn, and the section headers on screen belong to `level` alone
    (a recycled header whose CSS display overrides `hidden` once stayed over the other level's)."""
    shown = driver.execute_script("""
        return [...document.querySelectorAll('#timeline [hidden]')]
            .filter(e => getComputedStyle(e).display !== 'none')
            .map(e => e.className + ' ' + e.textContent.trim().slice(0, 40));""")
    assert shown == [], f"hidden but drawn: {shown}"
    overlapping = driver.execute_script("""
        const rects = [...document.querySelectorAll('#timeline .section-header')]
            .filter(e => getComputedStyle(e).display !== 'none')
            .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect()])
            .filter(([, r]) => r.bottom > 0 && r.top < innerHeight && r.height > 0);
        const pairs = [];
        for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
            const [a, r] = rects[i], [b, q] = rects[j];
            if (r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5 && r.left < q.right && q.left < r.right) pairs.push([a, b]);
        }
        return pairs;""")
    assert overlapping == [], f"section headers drawn over each other at the {level} level: {overlapping}"


def assert_anchored(driver, z, report):
    """The target photo's cell top is at targetViewportY (= viewportY unless clamped), within 1 px."""
    to = z["to"]
    top = cell_top(driver, section=to["section"], item=to["item"])
    assert top is not None, f"target cell {to} is not in the DOM"
    assert abs(top - z["targetViewportY"]) <= TOLERANCE, (top, z)
    if not z["clamped"]:
        assert abs(top - z["viewportY"]) <= TOLERANCE, (top, z)
    report.append(abs(top - z["viewportY"]) if not z["clamped"] else None)
    return top


def test_zoom_in_out_keeps_photo(browser, server3k, screenshots, viewport):
    open_viewer(browser, server3k.url)
    assert state(browser)["level"] == "coarse"
    # scroll somewhere into the middle of the library, then tap a photo in the lower half
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.4)")
    wait_idle(browser)
    screenshot(browser, screenshots, f"{viewport}-1-coarse")
    deltas = []
    cells = visible_cells(browser)
    assert cells, "no visible cells"
    tapped = cells[len(cells) * 2 // 3]
    before = cell_top(browser, photo_id=tapped["id"])
    n = zoom_count(browser)
    click_cell(browser, tapped)
    z = after_zoom(browser, n)
    assert state(browser)["level"] == "fine"
    assert z["from"] == {"level": "coarse", "section": tapped["section"], "item": tapped["item"]}
    assert abs(z["viewportY"] - before) <= TOLERANCE
    top = assert_anchored(browser, z, deltas)
    # same photo id (zoom in always finds the same photo)
    same = cell_top(browser, photo_id=tapped["id"])
    assert same is not None and abs(same - top) <= TOLERANCE
    print(f"[{viewport}] zoom in: photo {tapped['id']} top {before:.3f} -> {same:.3f} (delta {abs(same - before):.3f} px, clamped={z['clamped']})")
    assert_one_level_shown(browser, "fine")
    screenshot(browser, screenshots, f"{viewport}-2-fine-after-zoom-in")

    # zoom out with the '-' key: anchored at the viewport centre (focalY)
    n = zoom_count(browser)
    browser.find_element("css selector", "#timeline").send_keys("-")
    z = after_zoom(browser, n)
    assert z["from"]["level"] == "fine" and state(browser)["level"] == "coarse"
    top = assert_anchored(browser, z, deltas)
    print(f"[{viewport}] zoom out (-): {z['from']} -> {z['to']} at y {z['viewportY']:.3f} -> {top:.3f} clamped={z['clamped']}")
    assert_one_level_shown(browser, "coarse")
    screenshot(browser, screenshots, f"{viewport}-3-coarse-after-zoom-out")
    assert console_errors(browser) == []


def test_zoom_out_hidden_photo_lands_on_neighbour(browser, server3k, viewport):
    """A fine photo the coarse sample hides: zoom out lands on its nearest shown neighbour."""
    sections = server3k.get("/api/sections?level=coarse")
    big = next(s for s in sections[len(sections) // 2:] if s["count"] > s["shown"])
    coarse_ids = {p["id"] for p in server3k.get(f"/api/sections/coarse/{big['index']}")["photos"]}
    fine = server3k.get("/api/sections?level=fine")
    hidden = None
    for f in fine:
        if f["start"] >= big["start"] and f["end"] <= big["end"]:
            for i, p in enumerate(server3k.get(f"/api/sections/fine/{f['index']}")["photos"]):
                if p["id"] not in coarse_ids:
                    hidden = (f["index"], i, p["id"])
                    break
        if hidden:
            break
    assert hidden, "no hidden photo in the generated library"
    s, i, pid = hidden
    open_viewer(browser, server3k.url, f"?level=fine&section={s}&item={i}&y=300")
    before = cell_top(browser, photo_id=pid)
    assert before is not None and abs(before - 300) <= TOLERANCE, before
    # ctrl+wheel (trackpad pinch) out, focal point on that photo
    r = browser.execute_script(
        "const c = document.querySelector(`#timeline [data-photo-id=\"${arguments[0]}\"]`).getBoundingClientRect();"
        "return {x: c.left + c.width / 2, y: c.top + 5};", pid)
    n = zoom_count(browser)
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": r["x"], "y": r["y"], "deltaX": 0, "deltaY": 120, "modifiers": 2})
    z = after_zoom(browser, n)
    assert z["from"] == {"level": "fine", "section": s, "item": i}, z
    assert z["to"]["level"] == "coarse" and z["targetPath"] != z["path"], z
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] hidden photo {pid} -> neighbour {z['to']} top {top:.3f} (viewportY {z['viewportY']:.3f}, clamped={z['clamped']})")


def test_pinch_touch_and_ctrl_wheel(browser, server3k, screenshots, viewport):
    open_viewer(browser, server3k.url)
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(1500)")
    wait_idle(browser)
    t = state(browser)
    fx, fy = t["width"] * 0.4, t["height"] * 0.55
    # two-finger pinch out (zoom in) via CDP touch events, about (fx, fy)
    n = zoom_count(browser)
    cx, cy = fx, fy + t["top"]
    def touch(kind, spread):
        points = [] if kind == "touchEnd" else [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    touch("touchStart", 20)
    for spread in (30, 45, 60, 80):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    z = after_zoom(browser, n)
    assert z["from"]["level"] == "coarse" and z["to"]["level"] == "fine"
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] touch pinch in at y {fy:.1f}: {z['from']} -> {z['to']} top {top:.3f} (viewportY {z['viewportY']:.3f}, clamped={z['clamped']})")
    screenshot(browser, screenshots, f"{viewport}-4-fine-after-pinch")

    # ctrl+wheel in then out is a no-op at fine for 'in', zoom out for 'out'
    n = zoom_count(browser)
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": fx, "y": cy, "deltaX": 0, "deltaY": 120, "modifiers": 2})
    z = after_zoom(browser, n)
    assert z["from"]["level"] == "fine" and z["to"]["level"] == "coarse"
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] ctrl+wheel out: {z['from']} -> {z['to']} top {top:.3f} (viewportY {z['viewportY']:.3f}, clamped={z['clamped']})")
    n = zoom_count(browser)
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": fx, "y": cy, "deltaX": 0, "deltaY": -120, "modifiers": 2})
    z = after_zoom(browser, n)
    assert z["to"]["level"] == "fine"
    assert_anchored(browser, z, [])
    # the page itself was not zoomed by ctrl+wheel
    assert browser.execute_script("return window.visualViewport.scale") == 1
    assert console_errors(browser) == []
