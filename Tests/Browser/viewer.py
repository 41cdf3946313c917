"""Helpers that drive and read the viewer page (through the DOM hooks of DESIGN.md)."""
import json
import re
import time


class Timeout(AssertionError):
    pass


def wait_for(fn, timeout=20, interval=0.05, message="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Timeout(f"timed out after {timeout}s waiting for {message}")
        time.sleep(interval)


def open_viewer(driver, url, query=""):
    driver.get(url + "/" + query)
    wait_idle(driver)


def wait_idle(driver, timeout=30):
    """Ready, no zoom running, and every rendered cell has its photo id."""
    wait_for(lambda: driver.execute_script(
        "const t = document.querySelector('#timeline');"
        "return window.shoebox && window.shoebox.ready && !t.dataset.busy && !t.dataset.animating"
        " && document.querySelectorAll('#timeline .cell:not([hidden]):not([data-photo-id])').length === 0"
        " && document.querySelectorAll('#timeline .cell:not([hidden])').length > 0"),
        timeout=timeout, message="the timeline to settle")
    # two animation frames, so a pending render has run
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def state(driver):
    return driver.execute_script("""
      const t = document.querySelector('#timeline');
      const top = t.getBoundingClientRect().top;
      return { level: t.dataset.level, offset: window.shoebox.timeline.offset, top,
               width: t.clientWidth, height: t.clientHeight,
               cells: document.querySelectorAll('#timeline .cell').length,
               visible: document.querySelectorAll('#timeline [data-photo-id]').length };""")


def cell_top(driver, *, photo_id=None, section=None, item=None):
    """Viewport y (relative to #timeline's top) of a cell, or None when it is not in the DOM."""
    # pooled cells are hidden but keep their last data-section/data-item: skip them
    if photo_id is not None:
        selector = f'#timeline .cell:not([hidden])[data-photo-id="{photo_id}"]'
    else:
        selector = f'#timeline .cell:not([hidden])[data-section="{section}"][data-item="{item}"]'
    return driver.execute_script(
        "const c = document.querySelector(arguments[0]); if (!c || c.hidden) return null;"
        "return c.getBoundingClientRect().top - document.querySelector('#timeline').getBoundingClientRect().top;", selector)


def visible_cells(driver):
    """Cells fully inside the viewport: [{id, section, item, top, left}]."""
    return driver.execute_script("""
      const t = document.querySelector('#timeline').getBoundingClientRect();
      const out = [];
      for (const c of document.querySelectorAll('#timeline [data-photo-id]')) {
        const r = c.getBoundingClientRect();
        if (r.top >= t.top && r.bottom <= t.bottom && r.left >= t.left && r.right <= t.right - 30)
          out.push({ id: c.dataset.photoId, section: +c.dataset.section, item: +c.dataset.item,
                     top: r.top - t.top, left: r.left - t.left, x: r.left + r.width / 2, y: r.top + r.height / 2 });
      }
      return out;""")


def last_zoom(driver):
    return driver.execute_script("const z = window.shoebox.zooms; return z.length ? z[z.length - 1] : null;")


def zoom_count(driver):
    return driver.execute_script("return window.shoebox.zooms.length;")


def console_errors(driver, allow=()):
    """Severe console entries, except failed thumbnail requests while the server has none (404)."""
    errors = []
    for entry in driver.get_log("browser"):
        if entry.get("level") != "SEVERE":
            continue
        message = entry.get("message", "")
        if re.search(r"/api/photos/\d+/thumbnail\?size=\w+ - Failed to load resource: the server responded with a status of 404", message):
            continue
        if any(re.search(a, message) for a in allow):
            continue
        errors.append(message)
    return errors


def screenshot(driver, folder, name):
    path = folder / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def page_button(driver, name):
    """The button of page `name` (places, map, duplicates), its menu opened first where the bar keeps
    the pages in one (a phone's compact bar)."""
    button = driver.find_element("css selector", f"#{name}-button")
    if not button.is_displayed():
        driver.find_element("css selector", "#pages-toggle").click()
        wait_for(button.is_displayed, message="the pages' menu")
    return button
