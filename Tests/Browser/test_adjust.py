"""Corrections in the viewer, as a person makes them: `#select`, taps on photos (`aria-selected`), a
section's header, shift-click for a range, `#adjust` with the sheet prefilled with the earliest
selected photo's date (never today's), a shift typed in, preview rows flagging the photo that
changes day, Apply (the photos move in the open timeline, sidecars appear beside them) and Undo
(every sidecar gone, every date back). At phone and desktop sizes."""
import datetime
import shutil

import pytest

from conftest import SHOEBOX_BIN, Server
from test_stacks import FFMPEG, write_photo
from viewer import open_viewer, wait_idle, wait_for, console_errors, screenshot
import subprocess

TRIP = ["trip/a.jpg", "trip/b.jpg", "trip/c.jpg"]


@pytest.fixture(scope="module")
def adjust_server(workdir):
    if FFMPEG is None:
        pytest.skip("ffmpeg is needed to make the test's photos (scripts/dependencies installs it).")
    folder = workdir / "adjust"
    if folder.exists():
        shutil.rmtree(folder)
    photos = folder / "photos"
    # Three photos of one day (the last at 23:30), one a few days later: two Days sections.
    for k, (name, time) in enumerate(zip(TRIP, ["09:00:00", "12:00:00", "23:30:00"])):
        write_photo(photos / name, k, f"2024:06:01 {time}", "0", model="Trip Cam")
    write_photo(photos / "home.jpg", 5, "2024:06:05 10:00:00", "0", model="Home Cam")
    db = folder / "library.sqlite"
    subprocess.run([str(SHOEBOX_BIN), "index", str(photos), "--db", str(db)], check=True, timeout=300, capture_output=True)
    server = Server(db)
    server.photos = photos
    yield server
    server.stop()


def selected(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#timeline .cell[data-photo-id]:not([hidden])')]
          .filter(c => c.getAttribute('aria-selected') === 'true').map(c => +c.dataset.photoId).sort((a, b) => a - b);""")


def cell(driver, photo_id):
    return driver.find_element("css selector", f'#timeline .cell[data-photo-id="{photo_id}"]')


def sidecars(server):
    return sorted(str(p.relative_to(server.photos)) for p in server.photos.rglob("*.xmp"))


def test_select_adjust_undo(browser, adjust_server, screenshots, viewport):
    day = adjust_server.get("/api/sections/fine/0")
    ids = {p["path"]: p["id"] for p in day["photos"]}
    assert sorted(ids) == TRIP, day
    open_viewer(browser, adjust_server.url, "?level=fine")

    # Selection mode: taps toggle, a second tap unselects.
    select = browser.find_element("css selector", "#select")
    assert select.is_displayed()
    # Every control of the bar stays inside the window (a phone's bar has no room to spare).
    overflow = browser.execute_script("""
        return [...document.querySelectorAll('#bar button, #bar h1')].filter(e => e.offsetParent)
          .map(e => e.getBoundingClientRect()).filter(r => r.right > innerWidth + 0.5 || r.left < -0.5).length""")
    assert overflow == 0
    select.click()
    assert select.get_attribute("aria-pressed") == "true"
    adjust = browser.find_element("css selector", "#adjust")
    assert adjust.is_displayed() and not adjust.is_enabled()
    cell(browser, ids["trip/b.jpg"]).click()
    wait_for(lambda: selected(browser) == [ids["trip/b.jpg"]], timeout=5, message="b selected")
    cell(browser, ids["trip/b.jpg"]).click()
    wait_for(lambda: selected(browser) == [], timeout=5, message="b unselected")
    # Shift-click: the range from the last photo clicked.
    cell(browser, ids["trip/a.jpg"]).click()
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    ActionChains(browser).key_down(Keys.SHIFT).click(cell(browser, ids["trip/c.jpg"])).key_up(Keys.SHIFT).perform()
    wait_for(lambda: selected(browser) == sorted(ids.values()), timeout=5, message="the range a–c selected")
    # A section's header selects its section (all selected: a second click unselects them).
    # Its label (a packed header can lie over its photos; the label is what a person taps).
    header = browser.find_element("css selector", '#timeline [data-section-header][data-section="0"] > *')
    header.click()
    wait_for(lambda: selected(browser) == [], timeout=5, message="the header unselects its full section")
    header.click()
    wait_for(lambda: selected(browser) == sorted(ids.values()), timeout=5, message="the header selects its section")
    screenshot(browser, screenshots, f"{viewport}-adjust-selected")
    overflow = browser.execute_script("""
        return [...document.querySelectorAll('#bar button, #bar h1')].filter(e => e.offsetParent)
          .map(e => e.getBoundingClientRect()).filter(r => r.right > innerWidth + 0.5 || r.left < -0.5).length""")
    assert overflow == 0, "the bar overflows while selecting"

    # The sheet: prefilled with the earliest selected photo's date, not today's.
    assert adjust.is_enabled() and "3" in adjust.text, adjust.text
    adjust.click()
    sheet = browser.find_element("css selector", "#adjust-sheet")
    wait_for(lambda: sheet.is_displayed(), timeout=5, message="the Adjust sheet")
    date = sheet.find_element("css selector", "[name=date]").get_attribute("value")
    assert date in ("2024-06-01T09:00:00", "2024-06-01T09:00"), date  # Chromium leaves out :00 seconds
    assert not date.startswith(datetime.date.today().isoformat())
    for name in ("shift", "zone", "place"):
        assert sheet.find_element("css selector", f"[name={name}]").is_displayed(), name
    # The place field suggests places of the whole places table as one types (when one is installed).
    place = sheet.find_element("css selector", "[name=place]")
    place.send_keys("Lisb")
    if adjust_server.get("/api/places/names?q=Lisb")["places"]:
        options = wait_for(lambda: browser.execute_script(
            "return [...document.querySelectorAll('#adjust-place-names option')].map(o => o.value)"),
            timeout=10, message="place suggestions")
        assert options[0] == "Lisbon, Lisbon, Portugal", options
    place.clear()
    sheet.find_element("css selector", "[name=shift]").send_keys("+1h")
    rows = wait_for(lambda: (lambda r: r if len(r) == 3 else None)(browser.execute_script(
        "return [...document.querySelectorAll('[data-adjust-row]')].map(r => ({path: r.dataset.path, day: 'dayChange' in r.dataset, text: r.textContent}))")),
        timeout=10, message="three preview rows")
    assert [r["path"] for r in rows] == TRIP, rows
    assert [r["day"] for r in rows] == [False, False, True], rows
    assert "2024-06-02 00:30:00" in rows[2]["text"], rows[2]
    assert sidecars(adjust_server) == [], "a preview wrote"
    screenshot(browser, screenshots, f"{viewport}-adjust-sheet")

    # Apply: sidecars beside the photos, and the open timeline shows the late photo on the next day.
    browser.find_element("css selector", "#adjust-apply").click()
    undo = browser.find_element("css selector", "#undo")
    wait_for(lambda: undo.is_displayed(), timeout=30, message="the Undo toast")
    assert sidecars(adjust_server) == [name + ".xmp" for name in TRIP]
    moved = adjust_server.get(f"/api/photos/{ids['trip/c.jpg']}")
    assert moved["captured"][:19] == "2024-06-02T00:30:00" and moved["dateSource"] == "xmpSidecar", moved

    # The open timeline follows without a reload: the day's section now ends on 2 June (two days
    # of few photos share a section), and its header says so.
    def header_label():
        return browser.execute_script(
            "const h = document.querySelector('#timeline [data-section-header][data-section=\"0\"] .title'); return h ? h.textContent : null")
    after = adjust_server.get("/api/sections?level=fine")[0]
    assert after["end"] == "2024-06-02", after
    wait_for(lambda: header_label() == after["label"], timeout=30, message=f"the header to read {after['label']} without a reload")
    screenshot(browser, screenshots, f"{viewport}-adjust-applied")

    # Undo: every sidecar gone, the dates back, the photo back in its day.
    undo.click()
    wait_for(lambda: sidecars(adjust_server) == [], timeout=30, message="the sidecars removed")
    # (the sidecars go first, then the index reads the photos again)
    wait_for(lambda: adjust_server.get(f"/api/photos/{ids['trip/c.jpg']}")["captured"][:19] == "2024-06-01T23:30:00",
             timeout=30, message="the date back")
    wait_for(lambda: adjust_server.get("/api/sections?level=fine")[0]["end"] == "2024-06-01", timeout=30, message="the section back to one day")
    back = adjust_server.get("/api/sections?level=fine")[0]
    assert back["end"] == "2024-06-01", back
    wait_for(lambda: header_label() == back["label"], timeout=30, message="the header back to one day")
    browser.find_element("css selector", "#select").click()
    assert selected(browser) == []
    assert console_errors(browser) == []
