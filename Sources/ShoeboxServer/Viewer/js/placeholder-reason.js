// Why the pager shows a grey placeholder instead of a photo: the server names the reason in the
// `X-Shoebox-Placeholder` header of the rendition; the page says it in a sentence, with a link
// to the original file.

import { originalURL } from './api.js';

const SENTENCES = {
  damaged: 'This file is damaged: no decoder could read its picture.',
  unsupported: 'Shoebox cannot show this kind of file (for a raw file: it embeds no preview).',
  'too-large': 'This picture is too large to decode safely here.',
  'no-decoder': 'The server has no decoder for pictures (libvips is not installed).',
  missing: 'The file is missing or cannot be read.',
  timeout: 'Decoding this picture took too long and was stopped.',
};

/** The sentence for a placeholder reason (an unknown one reads as `unsupported`). */
export const reasonSentence = (reason) => SENTENCES[reason] || SENTENCES.unsupported;

/**
 * Once `img` (a photo's rendition in `page`) has loaded: when it may be a placeholder (they are
 * square), asks the server for the rendition's headers and, for a placeholder, adds the sentence.
 */
export async function explainPlaceholder(page, photo, img) {
  if (img.naturalWidth !== img.naturalHeight || page.querySelector('.page-reason')) return;
  let reason = null;
  try {
    const response = await fetch(img.currentSrc || img.src, { method: 'HEAD' });
    reason = response.headers.get('X-Shoebox-Placeholder');
  } catch { return; }
  if (!reason || !page.isConnected) return;
  const note = document.createElement('p');
  note.className = 'page-reason';
  note.dataset.reason = reason;
  note.append(reasonSentence(reason) + ' ');
  const link = document.createElement('a');
  link.href = originalURL(photo.id);
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = 'Open the original';
  note.append(link, '.');
  page.appendChild(note);
}
