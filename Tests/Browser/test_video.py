"""Video playback in Chromium (issue 25): a library of small videos made by
`scripts/make-test-videos` (and the shared corpus's videos when present) is indexed and served;
each video's `/api/photos/{id}/video` — the original or its H.264/AAC MP4 transcode — is played in
a <video> element, which must decode a frame (readyState >= 2) of the video's display width.
The pager's video also plays through /video.
"""
import os
import shutil
import subprocess
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
