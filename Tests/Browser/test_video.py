"""Video playback in Chromium (issue 25): a library of small videos made by
`scripts/make-test-videos` (and the shared corpus's videos when present) is indexed and served;
each video's `/api/photos/{id}/video` — the original or its H.264/AAC MP4 transcode — is played in
a <video> element, which must decode a frame (readyState >= 2) of the video's display width.
The pager's video also plays through /video: it says "Preparing video… N%" while the transcode
runs, and why, with a link to the original, when the transcode fails.
"""
import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, SHOEBOX_BIN, Server, new_driver

CORPUS = REPO.parent.parent / "shared" / "corpus" / "videos" / "files"
if not CORPUS.exists():
    CORPUS = Path(os.environ.get("SHOEBOX_VIDEO_CORPUS", REPO.parent / "shared" / "corpus" / "videos" / "files"))

# ExifTool's metadata samples in the corpus: a kilobyte of container, no frame any tool can decode.
# They must fail with a reason that names the file, never hang in "preparing".
NO_FRAMES = {"corpus/et_RIFF.avi", "corpus/et_Matroska.mkv", "corpus/et_M2TS.mts"}

PLAY = """
const [id, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  for (let i = 0; i < 1200; i++) {
    const status = await (await fetch(`/api/photos/${id}/video/status`)).json();
    if (status.state !== 'preparing') {
      if (status.state !== 'ready') return done({ error: JSON.stringify(status) });
      const video = document.createElement('video');
      video.muted = true;
      video.preload = 'auto';
      document.body.appendChild(video);
      const timer = setTimeout(() => done({ error: 'no frame in 30 s', readyState: video.readyState }), 30000);
      video.onloadeddata = () => { clearTimeout(timer); done({ source: status.source, width: video.videoWidth, height: video.videoHeight, readyState: video.readyState }); };
      video.onerror = () => { clearTimeout(timer); done({ error: 'media error ' + (video.error && video.error.code) }); };
      video.src = `/api/photos/${id}/video`;
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  done({ error: 'still preparing' });
})();
"""


@pytest.fixture(scope="module")
def video_server(workdir):
    folder = workdir / "videos"
    subprocess.run(["sh", str(REPO / "scripts" / "make-test-videos"), str(folder)], check=True, timeout=120)
    for hostile in ("playlist.avi", "concat.avi"):
        (folder / hostile).unlink()
    if CORPUS.exists():
        shutil.copytree(CORPUS, folder / "corpus")  # into the test's temporary folder only
    db = workdir / "videos.sqlite"
    env = dict(os.environ, XDG_CACHE_HOME=str(workdir / "cache"))
    subprocess.run([str(SHOEBOX_BIN), "index", str(folder), "--db", str(db)], check=True, timeout=120,
                   stdout=subprocess.DEVNULL, env=env)
    os.environ["XDG_CACHE_HOME"] = str(workdir / "cache")
    server = Server(db)
    yield server
    server.stop()


def test_every_video_plays(video_server):
    driver = new_driver(800, 600)
    try:
        driver.set_script_timeout(600)
        driver.get(video_server.url + "/")
        ids = []
        # Every photo id of the library: walk the fine sections.
        count = video_server.library["sections"]["fine"]
        for index in range(count):
            section = video_server.get(f"/api/sections/fine/{index}")
            for photo in section.get("photos", []):
                if photo.get("mediaType") == "video":
                    ids.append((photo["id"], photo.get("path", ""), photo.get("width"), photo.get("height")))
        assert len(ids) >= 7, ids
        failures = []
        for id, path, width, height in ids:
            result = driver.execute_async_script(PLAY, id)
            print(path, result)
            if path in NO_FRAMES:
                assert "error" in result and '"reason":"damaged"' in result["error"], (path, result)
                assert path.split("/")[-1] in result["error"] and "/proc/" not in result["error"], (path, result)
                continue
            if "error" in result:
                failures.append((path, result))
                continue
            assert result["readyState"] >= 2, (path, result)
            assert result["width"] > 0, (path, result)
            if width and height:
                # The transcode may be scaled down (≤1080p), never the shape changed.
                assert abs(result["width"] / result["height"] - width / height) < 0.05, (path, result, width, height)
        assert not failures, failures
    finally:
        driver.quit()


# The pager's video, while its transcode runs and when there can be none.
NOTE = """
const page = document.querySelector(`#pager:not([hidden]) .page[data-photo-id="${arguments[0]}"]`);
const note = page && page.querySelector('.video-note');
const video = page && page.querySelector('video');
const link = note && note.querySelector('a');
return page && { note: note && !note.hidden ? note.textContent : null, link: link && link.getAttribute('href'),
                 src: video && video.getAttribute('src'), readyState: video ? video.readyState : -1,
                 width: video ? video.videoWidth : 0, height: video ? video.videoHeight : 0 };
"""


@pytest.fixture(scope="module")
def pager_videos(workdir):
    """A library of two videos: the 10 s 1080p MPEG-4 Matroska clip of `make-test-videos --big`
    (a few seconds to transcode), and its MJPEG AVI with the codec's four-character code replaced
    by one no decoder knows (ffprobe lists the stream, the transcode fails)."""
    made, folder = workdir / "pager-made", workdir / "pager-videos"
    subprocess.run(["sh", str(REPO / "scripts" / "make-test-videos"), str(made), "--big"], check=True, timeout=300)
    folder.mkdir()
    shutil.copy(made / "big1080.mkv", folder / "big1080.mkv")
    (folder / "nocodec.avi").write_bytes((made / "mjpeg.avi").read_bytes().replace(b"MJPG", b"XVQZ"))
    db = workdir / "pager-videos.sqlite"
    os.environ["XDG_CACHE_HOME"] = str(workdir / "pager-cache")
    subprocess.run([str(SHOEBOX_BIN), "index", str(folder), "--db", str(db)], check=True, timeout=120,
                   stdout=subprocess.DEVNULL, env=dict(os.environ))
    server = Server(db)
    ids = {}
    for index in range(server.library["sections"]["fine"]):
        for photo in server.get(f"/api/sections/fine/{index}").get("photos", []):
            ids[photo["path"]] = photo["id"]
    yield server, ids, folder
    server.stop()


def test_pager_prepares_then_plays_and_explains_a_failure(pager_videos):
    server, ids, folder = pager_videos
    big, broken = ids["big1080.mkv"], ids["nocodec.avi"]
    driver = new_driver(1000, 700)
    try:
        driver.get(server.url + f"/?level=fine&photo={big}")
        # While the transcode runs the note says so, its percentage rising; then the video plays.
        seen, deadline = [], time.monotonic() + 120
        while True:
            state = driver.execute_script(NOTE, big)
            if state and state["note"] and state["note"] not in seen:
                seen.append(state["note"])
            if state and state["src"]:
                break
            assert time.monotonic() < deadline, ("no playback in 120 s", seen, state)
            time.sleep(0.1)
        print("pager notes while transcoding:", seen)
        percents = [int(m.group(1)) for m in (re.fullmatch(r"Preparing video… (\d+)%", text) for text in seen) if m]
        assert percents and len(percents) == len(seen), seen
        assert percents == sorted(percents) and max(percents) > 0, seen
        assert state["src"] == f"/api/photos/{big}/video" and state["note"] is None, state
        driver.execute_script("const v = document.querySelector(`#pager .page[data-photo-id=\"${arguments[0]}\"] video`);"
                              "v.muted = true; v.play();", big)
        deadline = time.monotonic() + 60
        while (state := driver.execute_script(NOTE, big))["readyState"] < 2:
            assert time.monotonic() < deadline, ("no frame decoded", state)
            time.sleep(0.1)
        assert state["width"] == 1920 and state["height"] == 1080, state

        # A video whose transcode fails says why, with a link to its original.
        driver.get(server.url + f"/?level=fine&photo={broken}")
        deadline = time.monotonic() + 60
        while not ((state := driver.execute_script(NOTE, broken)) or {}).get("link"):
            assert time.monotonic() < deadline, ("no failure note", state)
            time.sleep(0.1)
        print("pager note of the failed transcode:", state["note"])
        assert state["note"].startswith("This video cannot be played here: ffmpeg cannot read nocodec.avi"), state
        assert "Decoder (codec none) not found" in state["note"], state
        assert state["link"] == f"/api/photos/{broken}/original", state
        assert state["src"] is None, state
        with urllib.request.urlopen(server.url + state["link"], timeout=30) as response:
            assert response.status == 200 and len(response.read()) == (folder / "nocodec.avi").stat().st_size
    finally:
        driver.quit()
