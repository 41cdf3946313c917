"""Many tabs, one event stream (issue 24, part 7).

Every viewer page hears `/api/events`. Chromium allows six HTTP/1.1 connections per host, so a viewer
whose every tab held its own stream left the seventh tab waiting for a connection forever. The tabs
now share one stream: the visible tab holding the Web Lock `shoebox-events` opens it and relays its
events to the others on a BroadcastChannel; a hidden tab gives it up.

In headless Chromium, as in a window on a desktop, only a window's active tab is visible, and
switching to a tab shows it (and hides the one before). So the test does not switch tabs to count
streams: a script that Chromium runs before each page's own (CDP
`Page.addScriptToEvaluateOnNewDocument`) wraps `EventSource` and writes the page's open streams and
whether it is hidden to localStorage, which every tab of the origin reads.
"""
import datetime as dt
import subprocess

import pytest
from selenium.common.exceptions import TimeoutException

from conftest import SHOEBOX_BIN, Server, new_driver
from test_live import BASE, PER_DAY, add_days
from viewer import Timeout, wait_for, wait_idle, console_errors, screenshot

TABS = 8
LOAD_DEADLINE = 20  # s for one tab to load and show its grid

COUNT_STREAMS = """
(() => {
  const Native = window.EventSource;
  if (!Native) return;
  const key = 'test-streams:' + Math.random().toString(36).slice(2);
  const open = new Set();
  const publish = () => localStorage.setItem(key, JSON.stringify({ open: open.size, hidden: document.hidden, url: location.href }));
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      open.add(this);
      this.addEventListener('error', () => { if (this.readyState === Native.CLOSED) { open.delete(this); publish(); } });
      publish();
    }
    close() { open.delete(this); publish(); super.close(); }
  };
  document.addEventListener('visibilitychange', publish);
  addEventListener('pagehide', () => localStorage.removeItem(key));
  publish();
})();
"""

READ_STREAMS = """
return Object.keys(localStorage).filter((k) => k.startsWith('test-streams:')).map((k) => JSON.parse(localStorage.getItem(k)));
"""


@pytest.fixture
def watched(workdir, request):
    """A watched library of 10 days × 12 photos, served with --watch."""
    folder = workdir / f"tabs-{request.node.name}"
    folder.mkdir()
    add_days(folder, BASE, 10, kind="png")
    db = workdir / f"{folder.name}.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(folder), "--db", str(db)], check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(db, watch=True)
    server.folder = folder
    assert server.library["photos"] == 10 * PER_DAY
    yield server
    server.stop()


@pytest.fixture
def driver():
    driver = new_driver(1440, 900)
    driver.set_page_load_timeout(LOAD_DEADLINE)
    driver.set_script_timeout(LOAD_DEADLINE)
    yield driver
    driver.quit()


def open_tab(driver, url, number, before=()):
    """The viewer with the stream counter (after the scripts `before`) in a new tab (tab 1: the
    first, which the driver has); fails if it does not load in time."""
    if number > 1:
        driver.switch_to.new_window("tab")
    for script in (*before, COUNT_STREAMS):
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    try:
        driver.get(url + "/?level=fine")
        wait_idle(driver, timeout=LOAD_DEADLINE)
    except (TimeoutException, Timeout):
        pytest.fail(f"tab {number} did not load within {LOAD_DEADLINE} s (no free connection to the server?)")
    cells = driver.execute_script("return document.querySelectorAll('#timeline [data-photo-id]').length")
    assert cells > 0, f"tab {number} shows no photos"
    return driver.current_window_handle


def streams(driver):
    """Every open viewer page of the origin: {open, hidden, url}, read from the current tab."""
    return driver.execute_script(READ_STREAMS)


def one_stream_in_the_visible_tab(driver):
    pages = streams(driver)
    holders = [p for p in pages if p["open"]]
    return sum(p["open"] for p in pages) == 1 and not holders[0]["hidden"]


def wait_for_photos(driver, server, photos, timeout=30):
    wait_for(lambda: server.get("/api/library")["photos"] == photos, timeout=timeout,
             message=f"the server to index the change ({photos} photos)")
    wait_for(lambda: driver.execute_script(
        "return window.shoebox.library.photos === arguments[0] && !document.querySelector('#timeline').dataset.busy", photos),
        timeout=timeout, message=f"the viewer to show {photos} photos")


def test_eight_tabs_share_one_stream(driver, watched, screenshots):
    handles = [open_tab(driver, watched.url, k + 1) for k in range(TABS)]
    screenshot(driver, screenshots, "tabs-1-eighth-tab")

    # one stream across the eight tabs, held by the visible one (the last opened)
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10,
             message="one open event stream, in the visible tab")
    pages = streams(driver)
    assert len(pages) == TABS and sum(p["hidden"] for p in pages) == TABS - 1, pages
    assert driver.execute_script("return window.shoebox.live.leading")

    # a live update reaches every tab: the hidden ones hear the visible tab's relay
    add_days(watched.folder, dt.datetime(2016, 6, 1, 8, 0, 0), 1)
    photos = 11 * PER_DAY
    wait_for_photos(driver, watched, photos)
    assert one_stream_in_the_visible_tab(driver), streams(driver)
    heard = []
    for handle in handles[:-1]:
        driver.switch_to.window(handle)  # shows the tab, which then leads: `relayed` counts what it heard before
        heard.append(driver.execute_script("return window.shoebox.live.received.relayed"))
    print(f"{TABS} tabs: one stream; events relayed to the hidden tabs {heard}")
    assert all(n >= 1 for n in heard), f"a hidden tab heard nothing: {heard}"
    for k, handle in enumerate(handles[:-1]):
        driver.switch_to.window(handle)
        wait_for_photos(driver, watched, photos, timeout=10)
        assert driver.execute_script("return document.querySelector('#summary').textContent") == f"{photos} photos", k
        assert console_errors(driver) == []
    wait_idle(driver)
    screenshot(driver, screenshots, "tabs-2-first-tab-updated")
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10,
             message="one open event stream, in the tab shown last")


def test_hidden_tabs_hold_no_stream(driver, watched, screenshots):
    """A minimized window's tabs give the stream up; shown again, one takes it and catches up."""
    open_tab(driver, watched.url, 1)
    open_tab(driver, watched.url, 2)
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10, message="one open event stream")

    driver.minimize_window()
    wait_for(lambda: driver.execute_script("return document.hidden"), timeout=10, message="the tab to be hidden")
    wait_for(lambda: sum(p["open"] for p in streams(driver)) == 0, timeout=10,
             message="the hidden tabs to close the stream")
    assert not driver.execute_script("return window.shoebox.live.leading")

    # nobody hears this one; the tab shown next asks the library when its stream opens
    add_days(watched.folder, dt.datetime(2016, 6, 1, 8, 0, 0), 1)
    photos = 11 * PER_DAY
    wait_for(lambda: watched.get("/api/library")["photos"] == photos, timeout=30,
             message=f"the server to index the change ({photos} photos)")
    driver.set_window_rect(width=1440, height=900)  # un-minimizes
    wait_for(lambda: not driver.execute_script("return document.hidden"), timeout=10, message="the tab to be shown")
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10, message="the shown tab's stream")
    wait_for_photos(driver, watched, photos)
    wait_idle(driver)
    screenshot(driver, screenshots, "tabs-3-shown-again")
    assert console_errors(driver) == []


NO_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"


def test_without_web_locks_each_visible_tab_holds_its_own(driver, watched, screenshots):
    """Where the Web Locks API is missing (plain http on a LAN address is no secure context), each
    tab holds a stream while visible, and a tab shown again catches up with what it missed."""
    first = open_tab(driver, watched.url, 1, before=[NO_LOCKS])
    open_tab(driver, watched.url, 2, before=[NO_LOCKS])
    assert driver.execute_script("return navigator.locks === undefined")
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10, message="one open event stream, in the visible tab")
    assert driver.execute_script("return !window.shoebox.live.shared")

    add_days(watched.folder, dt.datetime(2016, 6, 1, 8, 0, 0), 1)
    photos = 11 * PER_DAY
    wait_for_photos(driver, watched, photos)
    driver.switch_to.window(first)
    assert driver.execute_script("return window.shoebox.live.received.relayed") == 0
    wait_for_photos(driver, watched, photos, timeout=10)
    wait_for(lambda: one_stream_in_the_visible_tab(driver), timeout=10, message="the shown tab's own stream")
    wait_idle(driver)
    assert console_errors(driver) == []
