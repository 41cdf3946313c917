"""Search and places as a person uses them: `/`, typing, the result as a timeline with exact zoom,
the pager, Escape back to the whole library at the same photo; the Places page.
(3,000-photo library from make-library: Berlin at home, trips to Lisbon, Sintra, Paris, Tokyo...)"""
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from viewer import open_viewer, wait_idle, wait_for, state, cell_top, visible_cells, zoom_count, console_errors, screenshot, page_button
from test_zoom import TOLERANCE, after_zoom, assert_anchored, assert_one_level_shown



def press(driver, *keys):
    """Real key presses, sent to whatever has the focus."""
    ActionChains(driver).send_keys(*keys).perform()


def tap(driver, element):
    """A real click in the middle of an element."""
    ActionChains(driver).move_to_element(element).click().perform()


def cell(driver, photo_id):
    return driver.find_element("css selector", f'#timeline [data-photo-id="{photo_id}"]')


def shown_query(driver):
    return driver.execute_script("return document.querySelector('#timeline').dataset.query || ''")


def wait_query(driver, q):
    wait_for(lambda: shown_query(driver) == q, timeout=20, message=f"the timeline of {q!r}")
    wait_idle(driver)


def bar_text(driver):
    return driver.execute_script(
        "const b = document.querySelector('#result-bar'); return b.hidden ? null : b.querySelector('.result-text').textContent;")


def url_query(driver):
    return urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query).get("q", [""])[0]


def search_api(server, q):
    return server.get("/api/search?limit=10000&q=" + urllib.parse.quote(q))


def timeline_requests(driver, since):
    """The timeline's API requests (sections, layout, zoom, position) made after resource entry `since`."""
    return driver.execute_script("""
        return performance.getEntriesByType('resource').slice(arguments[0]).map(e => e.name)
            .filter(n => /\\/api\\/(sections|layout|zoom|photos\\/\\d+\\/position)/.test(n));""", since)


def resource_count(driver):
    return driver.execute_script("return performance.getEntriesByType('resource').length")


def header_titles(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#timeline .section-header:not([hidden]) .title')].map(e => e.textContent);""")


def test_search_zoom_pager_and_back(browser, server3k, screenshots, viewport):
    open_viewer(browser, server3k.url)
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.3)")
    wait_idle(browser)
    browser.execute_script("performance.setResourceTimingBufferSize(10000)")

    # `/` focuses the field; typing (debounced) shows the result
    press(browser, "/")
    assert browser.execute_script("return document.activeElement.id") == "search-input"
    since = resource_count(browser)
    press(browser, "lisbon")
    wait_query(browser, "lisbon")
    expected = search_api(server3k, "lisbon")
    ids = {p["id"] for p in expected["photos"]}
    total = expected["total"]
    assert total == len(ids) > 1
    assert bar_text(browser) == f"{total:,} photos for “lisbon”"
    assert url_query(browser) == "lisbon"
    shown = visible_cells(browser)
    assert shown and {int(c["id"]) for c in shown} <= ids, "the grid shows a photo the search did not find"
    # the first coarse section is the API's, photo for photo
    first = server3k.get("/api/sections/coarse/0?q=lisbon")["photos"]
    on_screen = [int(c["id"]) for c in sorted(shown, key=lambda c: (c["section"], c["item"])) if c["section"] == 0]
    assert on_screen == [p["id"] for p in first][:len(on_screen)] and on_screen
    # section headers still name their places
    titles = header_titles(browser)
    assert titles and all(t.split(" · ")[0] in ("Lisbon", "Sintra", "Lisbon, Sintra", "Sintra, Lisbon") for t in titles), titles
    screenshot(browser, screenshots, f"{viewport}-search-1-coarse")

    # tap a coarse photo in the middle of the result: its fine level, the photo under the finger
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.4)")
    wait_idle(browser)
    cells = visible_cells(browser)
    tapped = cells[len(cells) * 2 // 3]
    before = cell_top(browser, photo_id=tapped["id"])
    n = zoom_count(browser)
    tap(browser, cell(browser, tapped["id"]))
    z = after_zoom(browser, n)
    assert state(browser)["level"] == "fine" and shown_query(browser) == "lisbon"
    assert z["from"] == {"level": "coarse", "section": tapped["section"], "item": tapped["item"]}
    assert abs(z["viewportY"] - before) <= TOLERANCE
    top = assert_anchored(browser, z, [])
    same = cell_top(browser, photo_id=tapped["id"])
    assert same is not None and abs(same - before) <= TOLERANCE or z["clamped"], (before, same, z)
    print(f"[{viewport}] search zoom in: photo {tapped['id']} top {before:.3f} -> {top:.3f} clamped={z['clamped']}")
    assert {int(c["id"]) for c in visible_cells(browser)} <= ids
    assert_one_level_shown(browser, "fine")
    screenshot(browser, screenshots, f"{viewport}-search-2-fine")

    # zoom out with `-` (about the viewport's centre) and in again with `+`, both exact
    n = zoom_count(browser)
    press(browser, "-")
    z = after_zoom(browser, n)
    assert z["from"]["level"] == "fine" and z["to"]["level"] == "coarse"
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] search zoom out (-): {z['from']} -> {z['to']} y {z['viewportY']:.3f} -> {top:.3f} clamped={z['clamped']}")
    n = zoom_count(browser)
    press(browser, "+")
    z = after_zoom(browser, n)
    assert z["to"]["level"] == "fine", z
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] search zoom in (+): {z['from']} -> {z['to']} y {z['viewportY']:.3f} -> {top:.3f} clamped={z['clamped']}")

    # open a result in the pager: its day is the result's fine section
    cells = visible_cells(browser)
    opened = cells[len(cells) // 2]
    tap(browser, cell(browser, opened["id"]))
    wait_for(lambda: browser.execute_script("return !document.querySelector('#pager').hidden && document.querySelector('#pager').dataset.photoId"),
             message="the pager")
    assert browser.execute_script("return document.querySelector('#pager').dataset.photoId") == opened["id"]
    day = server3k.get(f"/api/sections/fine/{opened['section']}?q=lisbon")["photos"]
    # the strip holds the result's day (its thumbnails near the current one are in the DOM)
    assert browser.execute_script("return window.shoebox.pager.photos.map((p) => p.id)") == [p["id"] for p in day]
    strip = browser.execute_script("return [...document.querySelectorAll('#strip .thumb:not([hidden])')].map((t) => +t.dataset.photoId)")
    assert strip and set(strip) <= {p["id"] for p in day}, strip
    screenshot(browser, screenshots, f"{viewport}-search-3-pager")
    press(browser, Keys.ESCAPE)  # closes the pager
    wait_for(lambda: browser.execute_script("return document.querySelector('#pager').hidden"), message="the pager to close")
    wait_idle(browser)
    opened_top = cell_top(browser, photo_id=opened["id"])
    assert opened_top is not None

    # every timeline request since the search carried its q
    requests = timeline_requests(browser, since)
    assert requests and all("q=lisbon" in r for r in requests), [r for r in requests if "q=lisbon" not in r][:5]

    # Escape: the whole library at the same level, the opened photo at the same height
    returns = len(browser.execute_script("return window.shoebox.returns"))
    press(browser, Keys.ESCAPE)
    wait_query(browser, "")
    back = browser.execute_script("return window.shoebox.returns")[returns]
    assert back["id"] == int(opened["id"]) and back["how"] == "opened", back
    assert state(browser)["level"] == "fine"
    assert bar_text(browser) is None and url_query(browser) == ""
    top = cell_top(browser, photo_id=opened["id"])
    assert top is not None and abs(top - opened_top) <= TOLERANCE, (opened_top, top)
    print(f"[{viewport}] Escape: photo {opened['id']} at y {opened_top:.3f} in the result, {top:.3f} in the library")
    sections = browser.execute_script("return window.shoebox.timeline.grid.sectionCount")
    assert sections == server3k.library["sections"]["fine"], "the whole library's fine sections"
    screenshot(browser, screenshots, f"{viewport}-search-4-library")

    # Back returns to the result (the URL holds the query), Forward to the library
    browser.back()
    wait_query(browser, "lisbon")
    assert bar_text(browser) == f"{total:,} photos for “lisbon”"
    assert browser.execute_script("return document.querySelector('#search-input').value") == "lisbon"
    browser.forward()
    wait_query(browser, "")
    assert console_errors(browser) == []
    assert browser.execute_script("return window.shoebox.errors") == []


def test_search_year_reload_and_plurals(browser, server3k, screenshots, viewport):
    years = sorted({s["start"][:4] for s in server3k.get("/api/sections?level=coarse")})
    year = years[-1]
    expected = search_api(server3k, year)
    ids = {p["id"] for p in expected["photos"]}
    assert expected["total"] == len(ids) > 0
    open_viewer(browser, server3k.url)
    press(browser, "/", year, Keys.ENTER)
    wait_query(browser, year)
    assert browser.execute_script("return document.activeElement.id") == "timeline", "Enter hands the keys back to the result"
    assert bar_text(browser) == f"{expected['total']:,} photos for “{year}”"
    # every shown photo of the result's coarse timeline is one the search found
    sections = server3k.get(f"/api/sections?level=coarse&q={year}")
    assert sum(s["count"] for s in sections) == expected["total"]
    assert all(s["start"].startswith(year) for s in sections)
    assert {int(c["id"]) for c in visible_cells(browser)} <= ids
    screenshot(browser, screenshots, f"{viewport}-search-5-year")
    # a trackpad pinch (ctrl+wheel) over a photo in the middle of the result zooms in about it
    browser.execute_script("window.shoebox.timeline.scroller.scrollTo(window.shoebox.timeline.scroller.maxOffset * 0.5)")
    wait_idle(browser)
    cells = visible_cells(browser)
    target = cells[len(cells) // 2]
    n = zoom_count(browser)
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": target["x"], "y": target["y"],
                                                         "deltaX": 0, "deltaY": -120, "modifiers": 2})
    z = after_zoom(browser, n)
    assert z["from"] == {"level": "coarse", "section": target["section"], "item": target["item"]}, (z, target)
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] {year}: pinch in over photo {target['id']}: {z['from']} -> {z['to']} y {z['viewportY']:.3f} -> {top:.3f} clamped={z['clamped']}")
    assert {int(c["id"]) for c in visible_cells(browser)} <= ids
    # a two-finger pinch (fingers closing) over a photo zooms back out about it
    t = state(browser)
    cells = visible_cells(browser)
    target = cells[len(cells) // 2]
    cx, cy = target["x"], target["y"]
    def touch(kind, spread):
        points = [] if kind == "touchEnd" else [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    n = zoom_count(browser)
    touch("touchStart", 80)
    for spread in (60, 45, 30, 20):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    z = after_zoom(browser, n)
    assert z["from"]["level"] == "fine" and z["to"]["level"] == "coarse", z
    top = assert_anchored(browser, z, [])
    print(f"[{viewport}] {year}: touch pinch out at y {cy - t['top']:.1f}: {z['from']} -> {z['to']} y {z['viewportY']:.3f} -> {top:.3f} clamped={z['clamped']}")
    assert {int(c["id"]) for c in visible_cells(browser)} <= ids
    # a reload shows the same result
    browser.refresh()
    wait_idle(browser)
    assert shown_query(browser) == year and bar_text(browser) == f"{expected['total']:,} photos for “{year}”"
    # one photo: the singular
    one = next(p for p in server3k.get("/api/sections/fine/3")["photos"])
    name = one["path"].rsplit("/", 1)[-1].split(".")[0].split("_")[-1]
    assert search_api(server3k, name)["total"] == 1, name
    press(browser, "/")
    press(browser, name, Keys.ENTER)
    wait_query(browser, name)
    assert bar_text(browser) == f"1 photo for “{name}”"
    assert [c["id"] for c in visible_cells(browser)] == [str(one["id"])]
    assert console_errors(browser) == []


def test_empty_search_says_so(browser, server3k, screenshots, viewport):
    open_viewer(browser, server3k.url)
    before = visible_cells(browser)
    press(browser, "/", "qqqzzz", Keys.ENTER)
    wait_for(lambda: shown_query(browser) == "qqqzzz" and not browser.execute_script(
        "return document.querySelector('#timeline').dataset.busy"), message="the empty result")
    assert search_api(server3k, "qqqzzz")["total"] == 0
    assert bar_text(browser) == "No photos for “qqqzzz”."
    assert browser.execute_script("return document.querySelectorAll('#timeline .cell:not([hidden])').length") == 0
    assert browser.execute_script("return document.querySelector('#message').hidden"), "an empty result is not an error"
    assert browser.execute_script("return !document.querySelector('#no-results').hidden")
    screenshot(browser, screenshots, f"{viewport}-search-6-empty")
    # the bar's × returns to the library where it was
    tap(browser, browser.find_element("css selector", "#result-bar .result-clear"))
    wait_query(browser, "")
    assert [c["id"] for c in visible_cells(browser)] == [c["id"] for c in before]
    assert browser.execute_script("return document.querySelector('#search-input').value") == ""
    assert browser.execute_script("return document.querySelector('#no-results').hidden")
    assert console_errors(browser) == []
    assert browser.execute_script("return window.shoebox.errors") == []


def test_places_page(browser, server3k, screenshots, viewport):
    expected = server3k.get("/api/places")
    open_viewer(browser, server3k.url)
    tap(browser, page_button(browser, "places"))
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready"), message="the Places page")
    assert "view=places" in browser.current_url
    listed = browser.execute_script("""
        return [...document.querySelectorAll('#places .country-group')].map(c => {
            const b = c.querySelector(':scope > .place');
            return { name: b.querySelector('.place-name').textContent, photos: +b.dataset.photos,
                     count: b.querySelector('.place-count').textContent, query: b.dataset.query,
                     regions: [...c.querySelectorAll('.region-group > .place')].map(r => r.querySelector('.place-name').textContent),
                     cities: [...c.querySelectorAll('.place-city')].map(r => r.querySelector('.place-name').textContent) };
        });""")
    assert [c["name"] for c in listed] == [c["name"] for c in expected["countries"]]
    for shown, country in zip(listed, expected["countries"]):
        assert shown["photos"] == country["photos"] and shown["count"] == f"{country['photos']:,} photo{'' if country['photos'] == 1 else 's'}"
        assert shown["query"] == country["query"]
        assert shown["regions"] == [r["name"] for r in country["regions"]]
        assert shown["cities"] == [c["name"] for r in country["regions"] for c in r["cities"]]
    assert "GeoNames" in browser.find_element("css selector", "#places .credit").text
    screenshot(browser, screenshots, f"{viewport}-places-1-page")

    # a country opens its timeline; Escape returns to the Places page, Escape again to the library
    country = expected["countries"][0]
    first = browser.find_element("css selector", "#places .country-group > .place-country")
    tap(browser, first)
    wait_query(browser, country["query"])
    assert browser.execute_script("return document.querySelector('#places').hidden")
    assert bar_text(browser) == f"{country['photos']:,} photos in {country['name']}"
    assert browser.execute_script("return document.querySelector('#search-input').value") == ""  # the bar names the place
    found = {p["id"] for p in search_api(server3k, country["query"])["photos"]}
    assert {int(c["id"]) for c in visible_cells(browser)} <= found
    titles = header_titles(browser)
    assert titles and all(" · " in t for t in titles), titles  # the headers name the places
    screenshot(browser, screenshots, f"{viewport}-places-2-country")
    press(browser, Keys.ESCAPE)
    wait_query(browser, "")
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready"), message="the Places page again")
    # a city
    region = next(r for c in expected["countries"] for r in c["regions"] if r["cities"])
    city = region["cities"][0]
    tap(browser, browser.execute_script(
        "return [...document.querySelectorAll('#places .place-city')].find(b => b.dataset.query === arguments[0])", city["query"]))
    wait_query(browser, city["query"])
    in_city = f"{city['photos']:,} photo{'' if city['photos'] == 1 else 's'} in {city['name']}, "
    assert bar_text(browser).startswith(in_city), bar_text(browser)
    browser.refresh()  # the place's name survives a reload
    wait_idle(browser)
    assert shown_query(browser) == city["query"] and bar_text(browser).startswith(in_city), bar_text(browser)
    found = {p["id"] for p in search_api(server3k, city["query"])["photos"]}
    assert len(found) == city["photos"] and {int(c["id"]) for c in visible_cells(browser)} <= found
    screenshot(browser, screenshots, f"{viewport}-places-3-city")
    browser.back()  # back to the Places page
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready"), message="Back to Places")
    browser.refresh()  # the page is a route of its own
    wait_for(lambda: browser.execute_script("return window.shoebox.ready && document.querySelector('#places').dataset.ready"),
             message="the Places page after a reload")
    # a region
    country, region = next((c, r) for c in expected["countries"] for r in c["regions"])
    tap(browser, browser.execute_script(
        "return [...document.querySelectorAll('#places .region-group > .place')].find(b => b.dataset.query === arguments[0])", region["query"]))
    wait_query(browser, region["query"])
    assert bar_text(browser) == f"{region['photos']:,} photo{'' if region['photos'] == 1 else 's'} in {region['name']}, {country['name']}"
    press(browser, Keys.ESCAPE)
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready"), message="Escape to Places")
    press(browser, Keys.ESCAPE)
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').hidden"), message="the Places page to close")
    assert "view=places" not in browser.current_url and shown_query(browser) == ""
    assert console_errors(browser) == []
    assert browser.execute_script("return window.shoebox.errors") == []
