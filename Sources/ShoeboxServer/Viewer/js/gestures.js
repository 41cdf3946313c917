// Pinch between the levels: two-finger touch, ctrl+wheel (trackpad pinch), and the + / − keys.
//
// Touch uses touch events rather than pointer events: the timeline keeps native one-finger
// scrolling (touch-action: pan-y), under which the browser would cancel a pointer pinch; a
// two-finger touchmove is prevented so the page itself never zooms. The focal point is reported
// in the timeline's viewport coordinates.

const PINCH_IN = 1.12;
const PINCH_OUT = 1 / 1.12;
const WHEEL_STEP = 50; // accumulated ctrl+wheel delta (px) for one level change

export function installPinch(element, { onPreview, onPinch, onCancel }) {
  let start = null;
  let scale = 1;
  const focal = (touches) => {
    const r = element.getBoundingClientRect();
    return { x: (touches[0].clientX + touches[1].clientX) / 2 - r.left, y: (touches[0].clientY + touches[1].clientY) / 2 - r.top };
  };
  const distance = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);

  element.addEventListener('touchstart', (e) => {
    if (e.touches.length === 2) {
      start = { distance: distance(e.touches), focal: focal(e.touches) };
      scale = 1;
    }
  }, { passive: true });
  element.addEventListener('touchmove', (e) => {
    if (!start || e.touches.length !== 2) return;
    e.preventDefault();
    scale = distance(e.touches) / Math.max(1, start.distance);
    onPreview(scale, start.focal);
  }, { passive: false });
  const end = (e) => {
    if (!start || e.touches.length >= 2) return;
    const { focal: point } = start;
    start = null;
    if (scale >= PINCH_IN) onPinch('in', point);
    else if (scale <= PINCH_OUT) onPinch('out', point);
    else onCancel();
  };
  element.addEventListener('touchend', end, { passive: true });
  element.addEventListener('touchcancel', end, { passive: true });

  let wheel = 0;
  let wheelTimer = 0;
  element.addEventListener('wheel', (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault(); // the page itself must not zoom
    wheel += e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(() => { wheel = 0; }, 250);
    if (Math.abs(wheel) >= WHEEL_STEP) {
      const r = element.getBoundingClientRect();
      const direction = wheel < 0 ? 'in' : 'out';
      wheel = 0;
      onPinch(direction, { x: e.clientX - r.left, y: e.clientY - r.top });
    }
  }, { passive: false });
}
