// Playback in the pager: asks /video/status first; plays /video once it is ready (the original,
// or its transcode), says "Preparing video… N%" while a transcode runs, and says why with a link
// to the original when there can be no playback.

import * as api from './api.js';

export const videoURL = (id) => `/api/photos/${id}/video`;
const statusURL = (id) => `/api/photos/${id}/video/status`;

// Starts playback of photo `id` in `video`; stops polling once the element leaves the page.
export function attachVideo(video, id) {
  const note = document.createElement('div');
  note.className = 'video-note';
  note.hidden = true;
  video.after(note);
  let tries = 0;
  const check = async () => {
    if (!video.isConnected && tries > 0) return;
    tries += 1;
    let status;
    try {
      const response = await fetch(statusURL(id), { cache: 'no-store' });
      status = await response.json();
    } catch {
      status = { state: 'failed', message: 'The server did not answer.' };
    }
    if (!video.isConnected) return;
    if (status.state === 'ready') {
      note.hidden = true;
      video.src = videoURL(id);
    } else if (status.state === 'preparing') {
      note.hidden = false;
      note.textContent = `Preparing video… ${status.percent ?? 0}%`;
      setTimeout(check, 1000);
    } else {
      note.hidden = false;
      note.textContent = `This video cannot be played here: ${status.message || status.error?.message || 'unknown reason'} `;
      const link = document.createElement('a');
      link.href = api.originalURL(id);
      link.textContent = 'Download the original';
      link.setAttribute('download', '');
      note.appendChild(link);
    }
  };
  check();
}
