// Animations as functions of time, driven by requestAnimationFrame (the PhotoSwipe model).

export const easeInOut = (x) => (x < 0.5 ? 2 * x * x : -2 * x * x + 4 * x - 1);
export const easeOut = (x) => 1 - (1 - x) * (1 - x);

/**
 * Calls `frame(progress)` every animation frame for `duration` ms (progress eased 0 → 1), then
 * resolves. `cancel()` on the returned handle stops it where it is (the promise resolves too).
 */
export function animate(duration, frame, easing = easeInOut) {
  let id = 0;
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  const start = performance.now();
  const step = (now) => {
    const t = duration > 0 ? Math.min(1, (now - start) / duration) : 1;
    frame(easing(t), t);
    if (t < 1) id = requestAnimationFrame(step); else done();
  };
  id = requestAnimationFrame(step);
  return { finished, cancel() { cancelAnimationFrame(id); done(); } };
}
