"""Fixtures for the viewer's browser tests: a shoebox server on loopback, headless Chromium.

Configuration (environment):
  SHOEBOX_BIN            the shoebox executable        (default .build/debug/shoebox)
  SHOEBOX_MAKE_LIBRARY   the make-library executable   (default .build/debug/make-library)
  SHOEBOX_PACKING_VECTORS the packing-vectors executable (default .build/debug/packing-vectors)
  SHOEBOX_VIEWER_DIR     serve the viewer from this folder (default: the files beside the binary)
  SHOEBOX_SCREENSHOTS    folder for screenshots        (default: a new temporary folder, printed)
  SHOEBOX_VECTORS        seed-layout vectors           (default ../shared/seed-layouts/vectors.json)
  CHROMIUM, CHROMEDRIVER browser and driver            (default /usr/bin/chromium, /usr/bin/chromedriver)
"""
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _path(env, default):
    value = os.environ.get(env)
    return Path(value) if value else REPO / default


SHOEBOX_BIN = _path("SHOEBOX_BIN", ".build/debug/shoebox")
MAKE_LIBRARY = _path("SHOEBOX_MAKE_LIBRARY", ".build/debug/make-library")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")

VIEWPORTS = {"phone": (390, 844), "desktop": (1440, 900)}


def pytest_configure(config):
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        raise pytest.UsageError(
            f"Headless Chromium is needed for the browser tests, and {', '.join(missing)} is missing: "
            "install it with `apt-get install chromium chromium-driver` (CI does this in .ci/run).")
    for tool in (SHOEBOX_BIN, MAKE_LIBRARY):
        if not tool.exists():
            raise pytest.UsageError(f"{tool} does not exist: build it (`swift build`) or set SHOEBOX_BIN / SHOEBOX_MAKE_LIBRARY.")


def imagemagick_convert():
    """ImageMagick's `convert`, or None: the first `convert` on PATH, or Debian's, that says it is
    ImageMagick (a stand-in of the same name is passed over)."""
    for candidate in (shutil.which("convert"), "/usr/bin/convert"):
        if not candidate or not Path(candidate).exists():
            continue
        try:
            version = subprocess.run([candidate, "-version"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        if "ImageMagick" in version:
            return candidate
    return None


@pytest.fixture(scope="session")
def workdir():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def screenshots():
    folder = Path(os.environ.get("SHOEBOX_SCREENSHOTS") or tempfile.mkdtemp(prefix="shoebox-screenshots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nScreenshots: {folder}")
    with open(folder / "README.txt", "w") as f:
        f.write("Screenshots of the viewer's states, written by Tests/Browser.\n")
    return folder


def make_library(db, photos, timeout):
    subprocess.run([str(MAKE_LIBRARY), "--photos", str(photos), "--db", str(db)], check=True,
                   timeout=timeout, stdout=subprocess.DEVNULL)


class Server:
    """`shoebox serve --port 0` on loopback; the URL is read from its stderr, with a deadline."""

    def __init__(self, db, startup_timeout=120, watch=False):
        env = dict(os.environ)
        self.log = []
        self.process = subprocess.Popen([str(SHOEBOX_BIN), "serve", "--db", str(db), "--port", "0", "--host", "127.0.0.1"]
                                        + (["--watch"] if watch else []),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        found = threading.Event()
        self.url = None

        def read():
            for line in self.process.stderr:
                self.log.append(line)
                m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
                if m and not self.url:
                    self.url = m.group(1)
                    found.set()
        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + startup_timeout
        if not found.wait(timeout=startup_timeout):
            self.stop()
            raise RuntimeError("shoebox serve printed no URL in time:\n" + "".join(self.log[-20:]))
        while True:  # the API answers once the library is loaded
            try:
                with urllib.request.urlopen(self.url + "/api/library", timeout=10) as r:
                    self.library = json.load(r)
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not answer /api/library in time")
                time.sleep(0.25)

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.load(r)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def server3k(workdir):
    db = workdir / "3k.sqlite"
    make_library(db, 3000, timeout=120)
    server = Server(db)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def server1m(workdir):
    db = workdir / "million.sqlite"
    make_library(db, 1_000_000, timeout=400)
    server = Server(db, startup_timeout=180)
    yield server
    server.stop()


def new_driver(width, height, mobile=False, trace=False, network=False, scale=1):
    """Headless Chromium with the viewport set exactly, at `scale` device pixels per CSS pixel; `trace` records
    the renderer's tasks (see frames.py), `network` every request in the performance log
    (`Network.requestWillBeSent`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--force-device-scale-factor={scale}", f"--window-size={width},{height}"):
        options.add_argument(arg)
    logging = {"browser": "ALL"}
    if network and not trace:
        logging["performance"] = "ALL"
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    if trace:
        from frames import TRACE_CATEGORIES
        logging["performance"] = "ALL"
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": False, "enablePage": False,
                                                             "traceCategories": TRACE_CATEGORIES})
    options.set_capability("goog:loggingPrefs", logging)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    # The window's outer size is not the viewport: set the viewport exactly.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
    if mobile:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return driver


@pytest.fixture(params=list(VIEWPORTS), scope="module")
def viewport(request):
    return request.param


@pytest.fixture(scope="module")
def browser(viewport):
    width, height = VIEWPORTS[viewport]
    driver = new_driver(width, height, mobile=(viewport == "phone"))
    driver.viewport_name = viewport
    yield driver
    driver.quit()
