"""Frame costs: how much work the page's main thread did in each long animation frame.

On this shared 2-core machine a frame can take long in wall-clock time because other processes had
the CPU, not because the viewer worked. So the page observes Long Animation Frames (the
`long-animation-frame` PerformanceObserver: every frame whose wall time is over 50 ms, with its
scripts and style/layout attribution), and Chromium traces its renderer's tasks (chromedriver's
performance log, the `RunTask` events DevTools uses, each with `tdur`: CPU time of its thread).
The trace also has an `AnimationFrame` event for every frame (not only the long ones). A frame's
cost is the CPU time of the renderer main thread's tasks inside that frame's interval: the work of
scripts, style, layout, paint and anything else the page caused, without the time the thread
waited for a core.

Time bases: the page calls `console.timeStamp(MARK)` and records `performance.now()` at the same
moment; the trace's `TimeStamp` event for MARK gives the trace time of that instant and the thread
of the page's renderer.

`calibrate()` burns 400 ms (wall) of script in one frame first: the measurement must report it as over
budget (so a broken measurement fails the test instead of passing it); that frame is then left out
(`split()`).
"""
import json

TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline"
MARK = "shoebox-frames"

OBSERVE = """
  window.__frames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__frames.push({
        start: e.startTime, duration: e.duration,
        script: e.scripts.reduce((t, s) => t + s.duration, 0),
        forcedLayout: e.scripts.reduce((t, s) => t + s.forcedStyleAndLayoutDuration, 0),
        render: e.renderStart ? e.duration - (e.renderStart - e.startTime) : 0,
        styleAndLayout: e.styleAndLayoutStart ? e.duration - (e.styleAndLayoutStart - e.startTime) : 0,
        scripts: e.scripts.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`),
      });
    }).observe({ type: 'long-animation-frame', buffered: false });
    window.__framesSupported = true;
  } catch (e) { window.__framesSupported = false; }
  window.__mark = performance.now();
  console.timeStamp(arguments[0]);
"""

CALIBRATE = """
  const [milliseconds, done] = arguments;
  requestAnimationFrame(() => {
    window.__calibration = performance.now();
    let x = 0;
    while (performance.now() - window.__calibration < milliseconds) x += Math.sqrt(x + 1);
    document.body.dataset.calibration = String(x > 0);
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(window.__calibration), 100)));
  });
"""


def start(driver):
    """Starts observing long animation frames; call before the measured interaction.

    chromedriver hands over the trace once, at the first `get_log("performance")`: call
    collect() once, at the end.
    """
    driver.execute_script(OBSERVE, MARK)
    return driver.execute_script("return window.__framesSupported")


def calibrate(driver):
    """One frame with 400 ms of script; returns its performance.now() start."""
    return driver.execute_async_script(CALIBRATE, CALIBRATION_MS)


CALIBRATION_MS = 400


def split(every, long, calibration):
    """The calibration frame, and the traced and long frames to measure: those that do not overlap
    its 400 ms.

    The calibration frame is the traced frame holding the calibration's start. Once, in CI, the trace
    had no such frame (one of its begin or end events missing) though the page saw it; then it is
    the long animation frame the page observed there, its CPU time from the same trace tasks. None
    when neither holds it.
    """
    holds = lambda f: f["start"] <= calibration + 1 < f["start"] + f["duration"]
    overlaps = lambda f: f["start"] < calibration + CALIBRATION_MS and calibration < f["start"] + f["duration"]
    calibrated = next((f for f in every if holds(f)), None) or next((f for f in long if holds(f)), None)
    return calibrated, [f for f in every if not overlaps(f)], [f for f in long if not overlaps(f)]


def _cpu(tasks, begin, end):
    """CPU ms of the tasks inside [begin, end) (trace µs); a task cut by an edge counts pro rata."""
    cpu = 0.0
    for t in tasks:
        overlap = min(end, t["ts"] + t["dur"]) - max(begin, t["ts"])
        if overlap > 0 and t["dur"] > 0:
            cpu += t["tdur"] * min(1.0, overlap / t["dur"])
    return cpu / 1000


def collect(driver):
    """Every animation frame since start() as `{start, duration, cpu}` (ms; start in the page's
    performance.now() time) from the trace's AnimationFrame events, and the long animation frames
    the page observed, each with `cpu` too (for their script and layout attribution)."""
    long = driver.execute_script("return window.__frames")
    mark_now = driver.execute_script("return window.__mark")
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Tracing.dataCollected":
            events.append(message["params"])
    marks = [e for e in events if e.get("name") == "TimeStamp" and (e.get("args", {}).get("data", {}) or {}).get("message") == MARK]
    if not marks:
        raise AssertionError("the trace has no TimeStamp mark: is the performance log on (new_driver(trace=True))?")
    mark = marks[-1]
    pid, tid = mark["pid"], mark["tid"]
    tasks = [e for e in events if e.get("name") == "RunTask" and e.get("ph") == "X"
             and e.get("pid") == pid and e.get("tid") == tid and "tdur" in e]
    origin = mark["ts"] - mark_now * 1000  # trace µs at performance.now() == 0
    frames = []
    begun = {}
    for e in sorted((e for e in events if e.get("name") == "AnimationFrame" and e.get("pid") == pid and e.get("ph") in ("b", "e")),
                    key=lambda e: e["ts"]):
        key = json.dumps(e.get("id2") or e.get("id"))
        if e["ph"] == "b":
            begun[key] = e["ts"]
        elif key in begun:
            begin = begun.pop(key)
            if begin >= mark["ts"]:
                frames.append({"start": (begin - origin) / 1000, "duration": (e["ts"] - begin) / 1000,
                               "cpu": _cpu(tasks, begin, e["ts"])})
    for f in long:
        begin = origin + f["start"] * 1000
        f["cpu"] = _cpu(tasks, begin, begin + f["duration"] * 1000)
    return frames, long
