"""The Duplicates page: the groups `shoebox duplicates` stored, from `/api/duplicates`, each a row of
its files with size, dimensions, date and folder, the kept one marked; opened by `?view=duplicates`
and by its button, Escape back to the timeline, Back to the page again, a file opens in the pager.

The library is made here from real JPEGs (ImageMagick's `convert`, fixed seeds): four distinct
pictures, an exact copy of one, a quality-60 and a half-size copy of another."""
import os
import shutil
import subprocess
import urllib.parse
from datetime import datetime

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import SHOEBOX_BIN, VIEWPORTS, Server, imagemagick_convert
from viewer import open_viewer, wait_idle, wait_for, console_errors, screenshot, page_button

CONVERT = imagemagick_convert()
KIND_LABELS = {"exact": "Exact copy", "same-picture": "Same picture", "similar": "Similar"}


def convert(*args):
    subprocess.run([CONVERT, *map(str, args)], check=True, timeout=60)


def dated(path, when):
    """Gives a file a modification time (the capture date of a picture without metadata)."""
    t = datetime.fromisoformat(when).timestamp()
    os.utime(path, (t, t))


def shoebox(*args):
    return subprocess.run([str(SHOEBOX_BIN), *map(str, args)], check=True, timeout=300, capture_output=True, text=True)


def make_photos(root, with_duplicates):
    (root / "2019" / "lisbon").mkdir(parents=True)
    (root / "2020").mkdir()
    originals = {
        "2019/lisbon/tram.jpg": ("-size", "640x480", "-seed", "11", "plasma:fractal"),
        "2019/lisbon/river.jpg": ("-size", "640x480", "-seed", "22", "plasma:red-blue"),
        "2020/swirl.jpg": ("-size", "640x480", "gradient:yellow-navy", "-swirl", "120"),
        "2020/portrait.jpg": ("-size", "480x640", "-seed", "44", "plasma:green-purple"),
    }
    for n, (name, args) in enumerate(originals.items()):
        convert(*args, root / name)
        dated(root / name, f"2019-0{n + 3}-1{n}T10:1{n}:00")
    if with_duplicates:
        (root / "copies").mkdir()
        shutil.copyfile(root / "2019/lisbon/tram.jpg", root / "copies/tram copy.jpg")
        convert(root / "2019/lisbon/river.jpg", "-quality", "60", root / "copies/river-q60.jpg")
        convert(root / "2019/lisbon/river.jpg", "-resize", "50%", root / "copies/river-small.jpg")
        for n, name in enumerate(["tram copy.jpg", "river-q60.jpg", "river-small.jpg"]):
            dated(root / "copies" / name, f"2021-01-0{n + 1}T09:00:00")


def library_server(folder, with_duplicates):
    if CONVERT is None:
        pytest.skip("ImageMagick's `convert` is needed to make the test's photos: install it with `apt-get install imagemagick`.")
    if folder.exists():
        shutil.rmtree(folder)
    photos = folder / "photos"
    db = folder / "library.sqlite"
    photos.mkdir(parents=True)
    make_photos(photos, with_duplicates)
    shoebox("index", photos, "--db", db)
    shoebox("duplicates", "--db", db)
    return Server(db)


@pytest.fixture(scope="module")
def dup_server(workdir):
    server = library_server(workdir / "duplicates", with_duplicates=True)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def many_server(workdir):
    """201 distinct small pictures (random noise), each stored twice: one group more than the server's page of 200."""
    if CONVERT is None:
        pytest.skip("ImageMagick's `convert` is needed to make the test's photos: install it with `apt-get install imagemagick`.")
    folder = workdir / "many-duplicates"
    if folder.exists():
        shutil.rmtree(folder)
    photos = folder / "photos"
    (photos / "copies").mkdir(parents=True)
    for n in range(201):
        name = f"p{n:03}.jpg"
        convert("-seed", str(1000 + n), "-size", "48x48", "xc:gray", "+noise", "Random", photos / name)
        shutil.copyfile(photos / name, photos / "copies" / name)
    db = folder / "library.sqlite"
    shoebox("index", photos, "--db", db)
    shoebox("duplicates", "--db", db)
    server = Server(db)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def distinct_server(workdir):
    server = library_server(workdir / "no-duplicates", with_duplicates=False)
    yield server
    server.stop()


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def tap(driver, element):
    ActionChains(driver).move_to_element(element).click().perform()


def page_ready(driver):
    return driver.execute_script(
        "const p = document.querySelector('#duplicates'); return window.shoebox.ready && !p.hidden && p.dataset.ready === 'true';")


def page_hidden(driver):
    return driver.execute_script("return document.querySelector('#duplicates').hidden")


def url_view(driver):
    return urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query).get("view", ["timeline"])[0]


def shown_groups(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#duplicates [data-group]')].map(g => ({
            kind: g.dataset.kind, label: g.querySelector('.dup-kind').textContent,
            photos: [...g.querySelectorAll('[data-photo-id]')].map(p => {
                const r = p.getBoundingClientRect();
                const mark = p.querySelector('.dup-keep');
                const m = mark && mark.getBoundingClientRect();
                return { id: +p.dataset.photoId, keep: p.hasAttribute('data-keep'), size: +p.dataset.size,
                         sizeText: p.querySelector('.dup-size').textContent,
                         dimensions: p.querySelector('.dup-dimensions').textContent,
                         date: p.querySelector('.dup-date').textContent,
                         folder: p.querySelector('.dup-folder').textContent,
                         reason: p.querySelector('.dup-reason') ? p.querySelector('.dup-reason').textContent : null,
                         mark: mark ? { text: mark.textContent, width: m.width, height: m.height } : null,
                         img: (() => { const i = p.querySelector('img'); return i ? { src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0 } : null; })(),
                         top: r.top, left: r.left, right: r.right, width: r.width };
            }) }));""")


def human_size(n):
    assert 1000 <= n < 1_000_000, n  # the test's files are tens to hundreds of kB
    return f"{n / 1000:.1f} kB"


def assert_matches_api(groups, expected):
    assert len(groups) == len(expected["groups"]), groups
    for group, want in zip(groups, expected["groups"]):
        assert group["kind"] == want["kind"] and group["label"] == KIND_LABELS[want["kind"]]
        assert [p["id"] for p in group["photos"]] == [p["id"] for p in want["photos"]]
        for shown, photo in zip(group["photos"], want["photos"]):
            assert shown["keep"] == photo["keep"]
            assert shown["size"] == photo["size"] and shown["sizeText"] == human_size(photo["size"]), shown
            assert shown["dimensions"] == f"{photo['width']} × {photo['height']}"
            assert shown["folder"] == photo["folder"] + "/"
            day = datetime.fromisoformat(photo["captured"][:19])
            assert shown["date"].startswith(f"{day.day} {day.strftime('%b')} {day.year}"), shown["date"]
            assert shown["img"]["src"] == f"/api/photos/{photo['id']}/thumbnail?size=thumbnail"
            if photo["keep"]:
                assert shown["mark"] and shown["mark"]["text"] == "Keep" and shown["mark"]["width"] > 0 and shown["mark"]["height"] > 0
                assert shown["reason"] == f"Keep: {want['reason']}"
            else:
                assert shown["mark"] is None and shown["reason"] is None
        kept = [p for p in group["photos"] if p["keep"]]
        assert len(kept) == 1 and kept[0]["id"] == next(p["id"] for p in want["photos"] if p["path"] == want["keep"])


def assert_side_by_side(driver, groups, viewport):
    width = VIEWPORTS[viewport][0]
    for group in groups:
        photos = group["photos"]
        assert len({round(p["top"]) for p in photos}) == 1, photos  # one row
        for a, b in zip(photos, photos[1:]):
            assert b["left"] >= a["right"] - 0.5, (a, b)  # side by side, in the API's order
        assert photos[0]["left"] >= 0
    # the page itself never scrolls sideways; the header's buttons stay on screen
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    right = driver.execute_script("return Math.max(...[...document.querySelectorAll('#bar button')].map(b => b.getBoundingClientRect().right))")
    assert right <= width, right


def test_duplicates_page(browser, dup_server, screenshots, viewport):
    expected = dup_server.get("/api/duplicates")
    kinds = sorted(g["kind"] for g in expected["groups"])
    assert kinds == ["exact", "similar"], expected  # the copy; the quality-60 and the half-size copies
    assert all("id" in p for g in expected["groups"] for p in g["photos"])
    similar = next(g for g in expected["groups"] if g["kind"] == "similar")
    assert sorted(p["path"] for p in similar["photos"]) == ["2019/lisbon/river.jpg", "copies/river-q60.jpg", "copies/river-small.jpg"]

    # a link to the page
    open_viewer(browser, dup_server.url, "?view=duplicates")
    wait_for(lambda: page_ready(browser), message="the Duplicates page")
    assert browser.find_element("css selector", "#duplicates-button").get_attribute("aria-pressed") == "true"
    wait_for(lambda: all(p["img"]["loaded"] for g in shown_groups(browser) for p in g["photos"]), message="the thumbnails")
    groups = shown_groups(browser)
    assert_matches_api(groups, expected)
    assert_side_by_side(browser, groups, viewport)
    summary = browser.find_element("css selector", "#duplicates .duplicates-summary").text
    assert summary.startswith("2 groups · 3 extra files"), summary
    screenshot(browser, screenshots, f"{viewport}-duplicates-1-page")

    # Escape: the timeline; Back: the page again; Forward: the timeline
    press(browser, Keys.ESCAPE)
    wait_for(lambda: page_hidden(browser), message="Escape to the timeline")
    assert url_view(browser) == "timeline"
    assert browser.find_element("css selector", "#duplicates-button").get_attribute("aria-pressed") == "false"
    wait_idle(browser)
    browser.back()
    wait_for(lambda: page_ready(browser) and url_view(browser) == "duplicates", message="Back to the Duplicates page")
    assert_matches_api(shown_groups(browser), expected)
    browser.forward()
    wait_for(lambda: page_hidden(browser) and url_view(browser) == "timeline", message="Forward to the timeline")

    # the button opens it and closes it
    tap(browser, page_button(browser, "duplicates"))
    wait_for(lambda: page_ready(browser), message="the Duplicates page from its button")
    assert url_view(browser) == "duplicates"
    assert_matches_api(shown_groups(browser), expected)
    tap(browser, page_button(browser, "duplicates"))
    wait_for(lambda: page_hidden(browser) and url_view(browser) == "timeline", message="the button to close the page")
    # Places and Duplicates: one page at a time
    tap(browser, page_button(browser, "places"))
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready"), message="the Places page")
    tap(browser, page_button(browser, "duplicates"))
    wait_for(lambda: page_ready(browser), message="the Duplicates page over Places")
    assert browser.execute_script("return document.querySelector('#places').hidden")
    assert browser.find_element("css selector", "#places-button").get_attribute("aria-pressed") == "false"
    browser.back()
    wait_for(lambda: browser.execute_script("return document.querySelector('#places').dataset.ready") and page_hidden(browser),
             message="Back to Places")
    browser.forward()
    wait_for(lambda: page_ready(browser), message="Forward to Duplicates")

    # a file opens in the pager; Back shows the page again
    extra = next(p for p in similar["photos"] if not p["keep"])
    tap(browser, browser.find_element("css selector", f'#duplicates [data-photo-id="{extra["id"]}"]'))
    wait_for(lambda: browser.execute_script(
        "const p = window.shoebox.pager; return !document.querySelector('#pager').hidden && p.current && p.current.id === arguments[0];",
        extra["id"]), message="the pager on the chosen file")
    assert page_hidden(browser) and url_view(browser) == "timeline"
    screenshot(browser, screenshots, f"{viewport}-duplicates-2-pager")
    browser.back()
    wait_for(lambda: page_ready(browser) and browser.execute_script("return document.querySelector('#pager').hidden"),
             message="Back from the pager to the Duplicates page")
    browser.refresh()  # the page is a route of its own
    wait_for(lambda: page_ready(browser), message="the Duplicates page after a reload")
    press(browser, Keys.ESCAPE)
    wait_for(lambda: page_hidden(browser), message="Escape after a reload")
    assert console_errors(browser) == []
    assert browser.execute_script("return window.shoebox.errors") == []


def test_no_duplicates_says_so(browser, distinct_server, screenshots, viewport):
    assert distinct_server.get("/api/duplicates")["groups"] == []
    open_viewer(browser, distinct_server.url, "?view=duplicates")
    wait_for(lambda: page_ready(browser), message="the empty Duplicates page")
    assert browser.execute_script("return document.querySelectorAll('#duplicates [data-group]').length") == 0
    text = browser.find_element("css selector", "#duplicates .duplicates-list").text
    assert text.startswith("No duplicates found.") and "shoebox duplicates" in text, text
    screenshot(browser, screenshots, f"{viewport}-duplicates-3-empty")
    press(browser, Keys.ESCAPE)
    wait_for(lambda: page_hidden(browser), message="Escape to the timeline")
    assert console_errors(browser) == []


def test_more_groups_than_a_page(browser, many_server, viewport):
    """The server answers 200 groups at a time with the totals of all; the page says the totals and
    shows the rest with Show more."""
    first = many_server.get("/api/duplicates")
    assert first["total"] == 201 and len(first["groups"]) == 200 and first["extraFiles"] == 201, {k: first[k] for k in ("total", "extraFiles")}
    rest = many_server.get("/api/duplicates?offset=200")
    keeps = [g["keep"] for g in first["groups"] + rest["groups"]]
    assert keeps == [f"p{n:03}.jpg" for n in range(201)], keeps[:3]

    open_viewer(browser, many_server.url, "?view=duplicates")
    wait_for(lambda: page_ready(browser), message="the Duplicates page")
    summary = browser.find_element("css selector", "#duplicates .duplicates-summary").text
    assert summary.startswith("201 groups · 201 extra files"), summary
    assert len(shown_groups(browser)) == 200
    more = browser.find_element("css selector", "#duplicates .dup-more")
    assert more.text == "Show more (1 group left)", more.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", more)
    tap(browser, more)
    wait_for(lambda: len(shown_groups(browser)) == 201, message="the last group after Show more")
    assert browser.find_elements("css selector", "#duplicates .dup-more") == []
    shown_keeps = browser.execute_script(
        "return [...document.querySelectorAll('#duplicates [data-group]')].map(g => g.querySelector('[data-keep]').dataset.path)")
    assert shown_keeps == keeps
    assert console_errors(browser) == []
