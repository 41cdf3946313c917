

def test_without_outlines_the_map_says_how_to_set_them_up(browser, workdir, monkeypatch):
    """No countries.geojson: a plain background, a one-line hint, and the markers all the same."""
    from conftest import Server, make_library
    db = workdir / "no-outlines.sqlite"
    if not db.exists():
        make_library(db, 300, timeout=120)
    monkeypatch.setenv("SHOEBOX_MAP_OUTLINES", str(workdir / "missing" / "countries.geojson"))
    server = Server(db)
    try:
        open_viewer(browser, server.url, "?view=map")
        wait_map(browser)
        hint = browser.find_element("css selector", "#map .map-hint")
        assert hint.is_displayed() and "scripts/map-data" in hint.text, hint.text
        assert browser.execute_script("return document.querySelectorAll('#map path.map-outline').length") == 0
        assert sum(m["count"] for m in markers(browser)) == map_debug(browser)["total"] > 0
    finally:
        server.stop()
