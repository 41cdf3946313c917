"""Packing benchmark in the browser: js/packing.js lays out the sections of 1,000,000 photos
(100,000 sections, most of a few photos, some of hundreds) at one width, in headless Chromium,
as the viewer does after every layout request. The Swift figure is `TimelineBenchmark --packing`.

  Tests/Browser/setup && .build/browser-venv/bin/python Benchmarks/browser/packing.py [--rounds N]

The viewer's files are served from the source folder on a loopback port; nothing else is fetched.
"""
import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
from conftest import new_driver  # noqa: E402  (the tests' Chromium settings)

SCRIPT = """
const [rounds, done] = arguments;
import('/js/packing.js').then(({ PackedLayout }) => {
  // 100,000 sections of 1,000,000 photos in all, a month group every ~8 sections (seeded LCG).
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const counts = [];
  const groups = [];
  let left = 1000000, group = 2000 * 12;
  for (let s = 0; s < 100000; s++) {
    const r = next();
    const n = s === 99999 ? left : Math.max(1, Math.min(left - (99999 - s), r < 0.6 ? 1 + Math.floor(next() * 5) : r < 0.97 ? 6 + Math.floor(next() * 20) : 100 + Math.floor(next() * 300)));
    counts.push(n); left -= n;
    if (next() < 0.125) group += 1;
    groups.push(group);
  }
  const out = {};
  for (const [level, width] of [['fine', 390], ['fine', 1440], ['coarse', 390], ['coarse', 1440]]) {
    const times = [];
    let layout = null;
    for (let k = 0; k < rounds; k++) {
      const started = performance.now();
      layout = new PackedLayout(level, counts, groups, width);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    out[`${level} ${width}`] = { best: times[0], median: times[times.length >> 1], lines: layout.lineCount, photos: counts.reduce((a, b) => a + b, 0) };
  }
  done(out);
}, (e) => done({ error: String(e) }));
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=str(REPO / "Sources/ShoeboxServer/Viewer"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = new_driver(1440, 900)
    try:
        driver.get(f"http://127.0.0.1:{server.server_port}/viewer.css")
        result = driver.execute_async_script(SCRIPT, max(1, args.rounds))
    finally:
        driver.quit()
        server.shutdown()
    if "error" in result:
        sys.exit(f"packing.js failed: {result['error']}")
    for key, r in result.items():
        print(f"{key:12} {r['photos']:,} photos, 100,000 sections -> {r['lines']:,} lines: best {r['best']:.1f} ms, median {r['median']:.1f} ms")


if __name__ == "__main__":
    main()
