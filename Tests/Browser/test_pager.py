"""The pager and its strip; the seed-layout vectors run in the browser; URL state."""
import json
import os
from pathlib import Path

import pytest

from conftest import REPO
from viewer import open_viewer, wait_idle, wait_for, state, cell_top, visible_cells, console_errors, screenshot

VECTORS = Path(os.environ.get("SHOEBOX_VECTORS") or REPO.parent / "shared" / "seed-layouts" / "vectors.json")


# Skipped, as the Swift vector tests are, where the shared vectors are not beside the clone.
@pytest.mark.skipif(not VECTORS.exists(), reason=f"the seed-layout vectors ({VECTORS}) are absent: skipped (set SHOEBOX_VECTORS)")
def test_geometry_vectors_in_browser(browser, server3k, viewport):
    """geometry.js, as the page loads it, passes every vector the Swift GalleryLayout passes."""
    vectors = json.loads(VECTORS.read_text())["vectors"]
    open_viewer(browser, server3k.url)
    result = browser.execute_async_script("""
      const [vectors, done] = arguments;
      import('/js/geometry.js').then(({ behaviour }) => {
        function cmp(a, e, tol, path) {
          if (e === null) return a === null ? [] : [`${path}: ${JSON.stringify(a)} != null`];
          if (Array.isArray(e)) {
            if (!Array.isArray(a) || a.length !== e.length) return [`${path}: length ${a && a.length} != ${e.length}`];
            return e.flatMap((x, i) => cmp(a[i], x, tol, `${path}[${i}]`));
          }
          if (typeof e === 'object') {
            if (!a || typeof a !== 'object') return [`${path}: not an object`];
            return Object.keys(e).flatMap((k) => cmp(a[k], e[k], tol, `${path}.${k}`));
          }
          if (typeof e === 'number') {
            if (typeof a !== 'number') return [`${path}: ${a} != ${e}`];
            const integer = Number.isInteger(e) && !/(width|height|x|y|offset|inset|spacing|center|fraction|progress|duration|scale|alpha|rate|magnitude|dx|dy|distance|translate|eased_t|^\\.t$)/.test(path);
            return (integer ? a === e : Math.abs(a - e) <= tol) ? [] : [`${path}: ${a} != ${e}`];
          }
          return a === e ? [] : [`${path}: ${JSON.stringify(a)} != ${JSON.stringify(e)}`];
        }
        const failures = [];
        for (const v of vectors) {
          const fn = behaviour(v.behaviour);
          if (!fn) { failures.push(`${v.id}: ${v.behaviour} not implemented`); continue; }
          const errors = cmp(fn(JSON.parse(JSON.stringify(v.input))), v.expected, v.tolerance, '');
          if (errors.length) failures.push(`${v.id}: ${errors.slice(0, 3).join('; ')}`);
        }
        done({ count: vectors.length, failures });
      }, (e) => done({ count: 0, failures: [String(e)] }));
    """, vectors)
    print(f"[{viewport}] vectors: {result['count'] - len(result['failures'])} of {result['count']} pass in the browser")
    assert result["count"] == len(vectors) and result["failures"] == [], result["failures"][:10]


def pager_state(driver):
    return driver.execute_script("""
      const p = document.querySelector('#pager');
      if (p.hidden) return null;
      const strip = document.querySelector('#strip');
      const sr = strip.getBoundingClientRect();
      const cur = strip.querySelector('.thumb.current');
      const page = p.querySelector(`.page[data-index="${p.dataset.index}"]`);
      const stage = p.querySelector('.stage').getBoundingClientRect();
      const pr = page && page.getBoundingClientRect();
      return { photoId: p.dataset.photoId, index: +p.dataset.index, section: +p.dataset.section,
               stripCurrent: strip.dataset.current === '' ? null : +strip.dataset.current,
               stripCentreDelta: cur ? (cur.getBoundingClientRect().left + cur.getBoundingClientRect().width / 2) - (sr.left + sr.width / 2) : null,
               pageCentreDelta: pr ? (pr.left + pr.width / 2) - (stage.left + stage.width / 2) : null,
               thumbs: strip.querySelectorAll('.thumb:not([hidden])').length,
               original: p.querySelector('.pager-original').getAttribute('href') };""")


def settled(driver, index):
    def check():
        s = pager_state(driver)
        return s if s and s["index"] == index and s["stripCurrent"] == index and abs(s["stripCentreDelta"]) < 1 and abs(s["pageCentreDelta"]) < 1 else None
    return wait_for(check, timeout=10, message=f"the pager to settle on {index}")


def test_pager_and_strip(browser, server3k, screenshots, viewport):
    fine = server3k.get("/api/sections?level=fine")
    sec = next(s for s in fine[len(fine) // 3:] if s["count"] >= 8)
    open_viewer(browser, server3k.url, f"?level=fine&section={sec['index']}&item=0&y=100")
    before = state(browser)
    photo = server3k.get(f"/api/sections/fine/{sec['index']}")["photos"][2]
    browser.execute_script("document.querySelector(`#timeline [data-photo-id=\"${arguments[0]}\"]`).click()", photo["id"])
    s = settled(browser, 2)
    assert s["photoId"] == str(photo["id"]) and s["original"] == f"/api/photos/{photo['id']}/original"
    screenshot(browser, screenshots, f"{viewport}-5-pager")
    # arrow keys: the pager moves, the strip follows (current thumbnail unfolded in the centre)
    body = browser.find_element("css selector", "body")
    body.send_keys("\ue014")  # ArrowRight
    s = settled(browser, 3)
    body.send_keys("\ue012")  # ArrowLeft
    body.send_keys("\ue012")
    s = settled(browser, 1)
    print(f"[{viewport}] pager: arrows 2 -> 3 -> 1; strip centre delta {s['stripCentreDelta']:.3f} px, page centre delta {s['pageCentreDelta']:.3f} px, {s['thumbs']} thumbnails in the DOM")
    # swipe left with the mouse (pointer events) → next photo
    stage = browser.execute_script("const r = document.querySelector('#pager .stage').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width};")
    x, y = stage["x"], stage["y"]
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
    for k in range(1, 9):
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x - k * stage["w"] * 0.06, "y": y, "button": "left", "buttons": 1})
    mid = pager_state(browser)
    screenshot(browser, screenshots, f"{viewport}-6-pager-mid-swipe")
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x - 8 * stage["w"] * 0.06, "y": y, "button": "left", "clickCount": 1})
    s = settled(browser, 2)
    # the strip drives the pager: tap a thumbnail
    thumb = browser.execute_script("const t = document.querySelector('#strip .thumb[data-index=\"4\"]'); if (!t) return null; const r = t.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};")
    if thumb:
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": thumb["x"], "y": thumb["y"], "button": "left", "clickCount": 1})
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": thumb["x"], "y": thumb["y"], "button": "left", "clickCount": 1})
        s = settled(browser, 4)
    # drag the strip: it folds, the pager follows the thumbnail under the centre, then it unfolds
    sr = browser.execute_script("const r = document.querySelector('#strip').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};")
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": sr["x"], "y": sr["y"], "button": "left", "clickCount": 1})
    for k in range(1, 11):
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": sr["x"] + k * 6.4, "y": sr["y"], "button": "left", "buttons": 1})
    browser.execute_script("return new Promise(r => setTimeout(r, 350))")
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": sr["x"] + 64, "y": sr["y"], "button": "left", "clickCount": 1})
    s = wait_for(lambda: (lambda p: p if p and p["stripCurrent"] == p["index"] and abs(p["stripCentreDelta"]) < 1 and abs(p["pageCentreDelta"]) < 1 and p["index"] < 4 else None)(pager_state(browser)),
                 timeout=10, message="strip drag to settle")
    print(f"[{viewport}] strip drag 64 px right: pager 4 -> {s['index']}, strip centre delta {s['stripCentreDelta']:.3f} px")
    screenshot(browser, screenshots, f"{viewport}-7-pager-after-strip-drag")
    # Escape: back to the grid at the same place
    browser.find_element("css selector", "body").send_keys("\ue00c")
    wait_for(lambda: pager_state(browser) is None, timeout=5, message="the pager to close")
    wait_idle(browser)
    after = state(browser)
    assert after["level"] == "fine" and abs(after["offset"] - before["offset"]) <= 1, (before, after)
    assert console_errors(browser) == []


def real_click(driver, photo_id):
    """A trusted click (user activation), so Chromium keeps the history entry it pushes for Back."""
    driver.find_element("css selector", f'#timeline [data-photo-id="{photo_id}"]').click()


def test_reload_and_back_restore_the_view(browser, server3k, screenshots, viewport):
    open_viewer(browser, server3k.url)
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(2345.5)")
    wait_idle(browser)
    cells = visible_cells(browser)
    target = cells[len(cells) // 2]
    real_click(browser, target["id"])
    wait_for(lambda: state(browser)["level"] == "fine", timeout=20, message="fine level")
    wait_idle(browser)
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.offset + 777)")
    wait_idle(browser)
    wait_for(lambda: "level=fine" in browser.current_url, timeout=5, message="the URL to update")
    browser.execute_script("return new Promise(r => setTimeout(r, 400))")  # the URL follows scrolling after 250 ms
    cells = visible_cells(browser)
    probe = cells[len(cells) // 2]
    url = browser.current_url
    browser.refresh()
    wait_idle(browser)
    top = cell_top(browser, photo_id=probe["id"])
    assert state(browser)["level"] == "fine" and top is not None and abs(top - probe["top"]) <= 1, (url, probe, top)
    print(f"[{viewport}] reload: photo {probe['id']} top {probe['top']:.3f} -> {top:.3f} ({url.split('/', 3)[-1]})")
    screenshot(browser, screenshots, f"{viewport}-8-after-reload")
    # open the pager, reload: the pager comes back on the same photo
    real_click(browser, probe["id"])
    wait_for(lambda: (pager_state(browser) or {}).get("photoId") == probe["id"], timeout=10, message="pager")
    browser.refresh()
    wait_for(lambda: (pager_state(browser) or {}).get("photoId") == probe["id"], timeout=20, message="pager after reload")
    # Back: pager closed, fine grid; Back again: coarse level where it was
    browser.back()
    wait_for(lambda: pager_state(browser) is None, timeout=10, message="Back to close the pager")
    wait_idle(browser)
    top = cell_top(browser, photo_id=probe["id"])
    assert top is not None and abs(top - probe["top"]) <= 1, top
    browser.back()
    wait_for(lambda: state(browser)["level"] == "coarse", timeout=10, message="Back to the coarse level")
    wait_idle(browser)
    top = cell_top(browser, photo_id=target["id"])
    assert top is not None and abs(top - target["top"]) <= 1, (top, target)
    browser.forward()
    wait_for(lambda: state(browser)["level"] == "fine", timeout=10, message="Forward to fine")
    assert console_errors(browser) == []
