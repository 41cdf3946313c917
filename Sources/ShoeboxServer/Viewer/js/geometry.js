// The seed browsers' layout maths (shared/seed-layouts/SPEC.md), ported from the spec.
//
// Every behaviour is a pure function named after its SPEC heading (`SA.hd_cell_size` →
// `SA.hdCellSize`) that takes the spec's input object (snake_case keys, as in vectors.json) and
// returns its output object. Formulas are evaluated in the order the spec writes them, so results
// match the Swift `GalleryLayout` module to the last bit where the vectors require it.
// `BEHAVIOURS` maps the spec's names to these functions (the browser test runs every vector).

const clampIndex = (i, n) => Math.max(0, Math.min(n - 1, i));
const clamp = (x, a, b) => Math.min(Math.max(x, a), b);
const item = (centerX, centerY, width, height) => ({ center_x: centerX, center_y: centerY, width, height });

// §1 ScrollingAlbum: HD pager + accordion thumbnail strip.
export const SA_CONST = Object.freeze({
  hdFullSpacing: 100, hdMinPhotoWidth: 40, w: 30, s: 2, F: 15, maxWidth: 160, unit: 32,
  minDuration: 0.25, baseLength: 80, tick: 0.02,
});
const { w: W, s: S_GAP, F, unit: UNIT } = SA_CONST;
const normalCenter = (i) => i * UNIT + S_GAP + W / 2;
const fullWidthOf = (widths, i) => (i >= 0 && i < widths.length ? widths[i] : 0);

export const SA = {
  hdCellSize({ image_width, image_height, view_width, view_height }) {
    const r = image_height / image_width;
    const vr = view_height / view_width;
    if (r < vr) return { width: view_width, height: view_width * r };
    return { width: view_height / r, height: view_height };
  },

  thumbnailFullWidth({ image_width, image_height, cell_height }) {
    const r = image_height / image_width;
    if (r > cell_height / W) return { width: W };
    if (r < cell_height / SA_CONST.maxWidth) return { width: SA_CONST.maxWidth };
    return { width: cell_height / r };
  },

  hdIndexFraction({ content_offset_x, inset_left, page_width, count }) {
    const rel = (content_offset_x + inset_left) / page_width;
    const index = clampIndex(Math.trunc(rel), count);
    return { index, fraction: rel - index };
  },

  hdParallaxLayout({ content_offset_x, inset_left, page_width, page_height, photo_sizes }) {
    const n = photo_sizes.length;
    const { index, fraction } = SA.hdIndexFraction({ content_offset_x, inset_left, page_width, count: n });
    const items = photo_sizes.map((photo, i) => {
      const cx = page_width * i + page_width / 2;
      const cy = page_height / 2;
      if (i === index) return item(cx, cy, Math.max(SA_CONST.hdMinPhotoWidth, photo.width - SA_CONST.hdFullSpacing * fraction), photo.height);
      if (i === index + 1) return item(cx, cy, Math.max(SA_CONST.hdMinPhotoWidth, photo.width - SA_CONST.hdFullSpacing * (1 - fraction)), photo.height);
      return item(cx, cy, page_width, page_height);
    });
    return { index, fraction, items, content_width: page_width * n, content_height: page_height };
  },

  accordionProgress({ kind, started, elapsed, cell_length }) {
    const duration = Math.max(SA_CONST.minDuration, (cell_length / SA_CONST.baseLength) * SA_CONST.minDuration);
    let progress;
    if (kind === 'unfolding') progress = !started ? 0 : elapsed >= duration ? 1 : elapsed / duration;
    else progress = !started ? 1 : elapsed >= duration ? 0 : 1 - elapsed / duration;
    return { duration, progress };
  },

  accordionCurrentIndex({ content_offset_x, inset_left, count }) {
    return { index: clampIndex(Math.trunc((content_offset_x + inset_left + UNIT / 2) / UNIT), count) };
  },

  accordionLayout({ progress: p, animated_index: a, full_widths, cell_height: H, superview_width: S }) {
    const n = full_widths.length;
    const adjacentSpacing = (F - S_GAP) * p + S_GAP;
    const animatedWidth = (fullWidthOf(full_widths, a) - W) * p + W;
    const cxA = a * UNIT + adjacentSpacing + animatedWidth / 2;
    const items = new Array(n);
    for (let i = 0; i < n; i++) {
      if (i < a) items[i] = item(normalCenter(i), H / 2, W, H);
      else if (i > a) items[i] = item(cxA + animatedWidth / 2 + adjacentSpacing + UNIT * (i - a - 1) + W / 2, H / 2, W, H);
      else items[i] = item(cxA, H / 2, animatedWidth, H);
    }
    return {
      adjacent_spacing: adjacentSpacing,
      animated_width: animatedWidth,
      symmetric_inset: S / 2 - adjacentSpacing - animatedWidth / 2,
      items,
      content_width: 2 * adjacentSpacing + animatedWidth + Math.max(0, n - 1) * UNIT,
      content_height: H,
    };
  },

  unfoldCenterOffset({ original_inset, original_offset, count }) {
    const k = SA.accordionCurrentIndex({ content_offset_x: original_offset, inset_left: original_inset, count }).index;
    return { current_index: k, center_offset: (original_inset + original_offset) - k * UNIT };
  },

  unfoldContentOffset({ progress, original_inset, original_offset, center_offset, symmetric_inset }) {
    const p = clamp(progress, 0, 1);
    return { content_offset_x: original_offset - (symmetric_inset - original_inset) - center_offset * p };
  },

  unfoldFrame({ progress, original_inset, original_offset, full_widths, cell_height, superview_width }) {
    const { current_index: k, center_offset } = SA.unfoldCenterOffset({ original_inset, original_offset, count: full_widths.length });
    const L = SA.accordionLayout({ progress, animated_index: k, full_widths, cell_height, superview_width });
    const { content_offset_x } = SA.unfoldContentOffset({ progress, original_inset, original_offset, center_offset, symmetric_inset: L.symmetric_inset });
    return {
      animated_index: k, center_offset, symmetric_inset: L.symmetric_inset, content_offset_x,
      animated_center_x: L.items[k] ? L.items[k].center_x : 0,
      visible_center_x: content_offset_x + superview_width / 2,
    };
  },

  slaveLayout({ puppet_index: p, puppet_fraction, full_widths, cell_height: H, superview_width: S }) {
    const n = full_widths.length;
    const f = clamp(puppet_fraction, 0, 1);
    const leftSpacing = (F - S_GAP) * (1 - f) + S_GAP;
    const rightSpacing = F + S_GAP - leftSpacing;
    const focusedWidth = (fullWidthOf(full_widths, p) - W) * (1 - f) + W;
    const focusedCenter = p * UNIT + leftSpacing + focusedWidth / 2;
    const nextWidth = (fullWidthOf(full_widths, p + 1) - W) * f + W;
    const nextCenter = focusedCenter + focusedWidth / 2 + nextWidth / 2 + F;
    const items = new Array(n);
    for (let i = 0; i < n; i++) {
      if (i < p) items[i] = item(normalCenter(i), H / 2, W, H);
      else if (i === p) items[i] = item(focusedCenter, H / 2, focusedWidth, H);
      else if (i === p + 1) items[i] = item(nextCenter, H / 2, nextWidth, H);
      else items[i] = item(nextCenter + nextWidth / 2 + rightSpacing + UNIT * (i - p - 2) + W / 2, H / 2, W, H);
    }
    return {
      effective_fraction: f, focused_width: focusedWidth, next_width: nextWidth,
      left_spacing: leftSpacing, right_spacing: rightSpacing, items,
      content_width: 2 * F + focusedWidth + nextWidth + Math.max(0, n - 2) * UNIT + S_GAP,
      inset: S / 2 - F - (focusedWidth + nextWidth - W) / 2,
    };
  },

  syncThumbnailOffset({ hd_index, hd_fraction, thumb_full_widths, slave_inset_left }) {
    if (hd_fraction < 0) {
      const x = fullWidthOf(thumb_full_widths, hd_index) * hd_fraction;
      return { content_offset_x: x - slave_inset_left, puppet: null };
    }
    const x = UNIT * (hd_index + hd_fraction);
    return { content_offset_x: x - slave_inset_left, puppet: { index: hd_index, fraction: hd_fraction } };
  },

  syncHdOffset({ thumb_index, page_width, hd_inset_left }) {
    return { content_offset_x: page_width * thumb_index - hd_inset_left };
  },

  syncHdToThumbnail({ hd_content_offset_x, hd_inset_left, page_width, thumb_full_widths, cell_height, superview_width, previous_puppet }) {
    const { index, fraction } = SA.hdIndexFraction({ content_offset_x: hd_content_offset_x, inset_left: hd_inset_left, page_width, count: thumb_full_widths.length });
    const puppet = fraction >= 0 ? { index, fraction } : previous_puppet;
    const layout = SA.slaveLayout({ puppet_index: puppet.index, puppet_fraction: puppet.fraction, full_widths: thumb_full_widths, cell_height, superview_width });
    const { content_offset_x } = SA.syncThumbnailOffset({ hd_index: index, hd_fraction: fraction, thumb_full_widths, slave_inset_left: layout.inset });
    return { index, fraction, puppet, inset: layout.inset, content_offset_x, visible_center_x: content_offset_x + superview_width / 2 };
  },
};

// §2 PhotosApp: parallax preview + centred thumbnail strip.
export const PA_CONST = Object.freeze({ offsetBetweenCells: 44, imageParallax: 0.3, defaultAspect: 0.5, d: 4, distanceFocused: 20 });
const D = PA_CONST.d;
const farInset = (boundsWidth, itemWidth) => (boundsWidth - itemWidth) / 2;

function easeCurve(curve, x) {
  if (curve === 'linear') return x;
  if (curve === 'easeIn') return x * x;
  return x < 0.5 ? 2 * x * x : -2 * x * x + 4 * x - 1;
}

export const PA = {
  previewParallax({ cell_center_x, content_offset_x, item_width }) {
    const rel = ((cell_center_x - content_offset_x) - item_width / 2) / item_width;
    if (Math.abs(rel) >= 1) return { parallax: null, translate_x: 0 };
    return { parallax: rel, translate_x: rel * PA_CONST.offsetBetweenCells };
  },

  previewImageShift({ cell_width, parallax }) {
    return { translate_x: -(cell_width * PA_CONST.imageParallax * (parallax ?? 0)) };
  },

  stripMetrics({ bounds_width: B, strip_height: h, count: n }) {
    const itemWidth = h * PA_CONST.defaultAspect;
    const far = farInset(B, itemWidth);
    const contentWidth = n >= 1 ? n * itemWidth + (n - 1) * D : 0;
    const minOffset = -far;
    return {
      item_width: itemWidth, item_height: h, pitch: itemWidth + D, far_inset: far, content_width: contentWidth,
      min_offset_x: minOffset, max_offset_x: Math.max(minOffset, contentWidth + far - B),
    };
  },

  stripCells({ content_offset_x, bounds_width, item_width: iw, item_height: ih, aspects, expanding_rate, updates }) {
    const n = aspects.length;
    const pitch = iw + D;
    const far = farInset(bounds_width, iw);
    const offsetX = content_offset_x + far;
    const slot = (r) => r * pitch + iw / 2;
    const state = aspects.map((_, r) => {
      const delta = Math.abs((slot(r) - iw / 2) - offsetX);
      const expanding = delta < pitch ? (1 - delta / pitch) * expanding_rate : 0;
      return { expanding, collapsing: 0, deleting: 0, direction: 'left' };
    });
    for (const u of updates || []) {
      const st = state[u.row];
      if (!st) continue;
      for (const key of ['expanding', 'collapsing', 'deleting', 'direction']) if (u[key] !== undefined && u[key] !== null) st[key] = u[key];
    }
    const extra = (r) => (ih * aspects[r] - iw) * state[r].expanding;
    const sym = (r) => (extra(r) + PA_CONST.distanceFocused * state[r].expanding) / 2 * (1 - state[r].deleting);
    const shift = (r, dir) => (dir === 'left' ? sym(r) : sym(r) - pitch * state[r].deleting);
    const opposite = (dir) => (dir === 'left' ? 'right' : 'left');
    const cells = [];
    for (let c = 0; c < n; c++) {
      let tx = 0;
      for (let o = 0; o < n; o++) {
        if (c < o) tx -= shift(o, opposite(state[o].direction));
        else if (c > o) tx += shift(o, state[o].direction);
      }
      const st = state[c];
      cells.push({
        row: c, expanding: st.expanding, collapsing: st.collapsing, deleting: st.deleting,
        slot_center_x: slot(c), translate_x: tx, center_x: slot(c) + tx,
        width: Math.ceil((iw + extra(c)) * (1 - st.collapsing)), height: ih * (1 - st.collapsing), alpha: 1 - st.collapsing,
      });
    }
    return { cells };
  },

  stripNearestIndex({ content_offset_x, inset_left, count: n, item_width }) {
    if (n === 0) return { index: null };
    return { index: clampIndex(Math.floor((content_offset_x + inset_left) / (item_width + D) + 0.5), n) };
  },

  stripSnapOffset({ proposed_offset_x, inset_left, count: n, item_width }) {
    const pitch = item_width + D;
    const rel = (proposed_offset_x + inset_left) / pitch;
    const hi = Math.max(n - 1, 0);
    const L = clamp(Math.floor(rel), 0, hi);
    const R = clamp(Math.ceil(rel), 0, hi);
    const xL = L * pitch - inset_left;
    const xR = R * pitch - inset_left;
    return { content_offset_x: Math.abs(xL - proposed_offset_x) < Math.abs(xR - proposed_offset_x) ? xL : xR };
  },

  stripOffsetForIndex({ index, item_width, bounds_width }) {
    return { content_offset_x: index * (item_width + D) - farInset(bounds_width, item_width) };
  },

  stripOffsetFromPreview({ preview_content_offset_x, preview_item_width, count, item_width, bounds_width }) {
    const far = farInset(bounds_width, item_width);
    const x = (preview_content_offset_x / preview_item_width) * (item_width + D) - far;
    return { content_offset_x: x, active_index: PA.stripNearestIndex({ content_offset_x: x, inset_left: far, count, item_width }).index };
  },

  rotationOffsets({ active_index, strip_bounds_width, strip_height, preview_item_width }) {
    const itemWidth = strip_height * 0.5;
    return {
      item_width: itemWidth, item_height: strip_height, far_inset: farInset(strip_bounds_width, itemWidth),
      strip_content_offset_x: PA.stripOffsetForIndex({ index: active_index, item_width: itemWidth, bounds_width: strip_bounds_width }).content_offset_x,
      preview_content_offset_x: active_index * preview_item_width,
    };
  },

  moveAnimationFrame({ from_offset_x, from_index, to_index, item_width, bounds_width, t }) {
    const eased = easeCurve('easeInOut', t);
    const to = PA.stripOffsetForIndex({ index: to_index, item_width, bounds_width }).content_offset_x;
    return {
      eased_t: eased, content_offset_x: from_offset_x + (to - from_offset_x) * eased, expanding_rate: 0,
      updates: [{ row: to_index, expanding: eased }, { row: from_index, expanding: 1 - eased }],
    };
  },

  deletePlan({ row, count }) {
    const direction = row + 1 >= count ? 'left' : 'right';
    const er = direction === 'left' ? row - 1 : row + 1;
    let after;
    if (row < count - 1) after = row;
    else if (count >= 2) after = count - 2;
    else after = null;
    return { direction, expanding_row: er >= 0 && er < count ? er : null, active_index_after: after };
  },

  easing({ curve, x }) {
    return { y: easeCurve(curve, x) };
  },

  scrollAnimation({ phase, current_rate, t }) {
    const target = phase === 'begin' ? 0 : 1;
    return { target_rate: target, duration: 0.15 * Math.abs(current_rate - target), rate: current_rate + (target - current_rate) * easeCurve('easeInOut', t) };
  },
};

// §3 Carousel.
export const CA_CONST = Object.freeze({ tolerance: 0.02, factor: 0.105, minScale: 0.860091 });

export const CA = {
  scaleAlpha({ distance, center_x }) {
    let scale = 1 + CA_CONST.tolerance - (distance / center_x) * CA_CONST.factor;
    if (scale > 1) scale = 1;
    if (scale < CA_CONST.minScale) scale = CA_CONST.minScale;
    return { scale, alpha: ((1 - 0.25) * (scale - 0.86)) / (1 - 0.86) + 0.25 };
  },

  scrollStep({ content_offset_x, cv_width, cv_origin_x, side, count, line_spacing }) {
    const centerX = cv_origin_x + cv_width / 2;
    const cells = [];
    let best = 0;
    let bestWidth = 1;
    for (let i = 0; i < count; i++) {
      const c = i * (side + line_spacing) + side / 2;
      const left = c - side / 2 - content_offset_x;
      if (!(left + side > 0 && left < cv_width)) continue;
      const cellCenterX = cv_origin_x + c - content_offset_x;
      const distance = Math.abs(cellCenterX - centerX);
      const { scale, alpha } = CA.scaleAlpha({ distance, center_x: centerX });
      const frameWidth = side * scale;
      cells.push({ index: i, cell_center_x: cellCenterX, distance, scale, alpha, frame_width: frameWidth });
      if (frameWidth > bestWidth) { best = i; bestWidth = frameWidth; }
    }
    return { center_x: centerX, cells, snap_index: best };
  },

  snapOffset({ index, cv_width, side, count, line_spacing }) {
    const inset = (cv_width - side) / 2;
    const contentWidth = count * side + Math.max(0, count - 1) * line_spacing;
    const c = index * (side + line_spacing) + side / 2;
    return { content_inset: inset, content_width: contentWidth, content_offset_x: clamp(c - cv_width / 2, -inset, contentWidth + inset - cv_width) };
  },
};

// §4 MiniPhotos: two grids and the zoom between them.
function gridMetrics(screenWidth, grid) {
  if (grid === 'A') return { perRow: 10, cell: screenWidth / 10, spacing: 0 };
  return { perRow: 4, cell: (screenWidth - 3 * 1.5) / 4, spacing: 1.5 };
}
function mpSectionHeight(count, g) {
  const rows = Math.ceil(count / g.perRow);
  return rows > 0 ? 50 + (rows * g.cell + (rows - 1) * g.spacing) : 50;
}

export const MP = {
  itemFrame({ screen_width, grid, section_counts, section, item: index }) {
    const g = gridMetrics(screen_width, grid);
    const row = Math.floor(index / g.perRow);
    const col = index % g.perRow;
    let minY = 0;
    for (let s = 0; s < section; s++) minY += mpSectionHeight(section_counts[s], g);
    minY = minY + 50 + row * (g.cell + g.spacing);
    return { min_x: col * (g.cell + g.spacing), min_y: minY, width: g.cell, height: g.cell };
  },

  contentHeight({ screen_width, grid, section_counts }) {
    const g = gridMetrics(screen_width, grid);
    let total = 0;
    for (const c of section_counts) total += mpSectionHeight(c, g);
    return { content_height: total };
  },

  zoomInOffset({ screen_width, a_section_counts, a_section, a_item, a_content_offset_y, b_section_counts, b_section, b_item }) {
    const aMinY = MP.itemFrame({ screen_width, grid: 'A', section_counts: a_section_counts, section: a_section, item: a_item }).min_y;
    const h = aMinY - a_content_offset_y;
    const bMinY = MP.itemFrame({ screen_width, grid: 'B', section_counts: b_section_counts, section: b_section, item: b_item }).min_y;
    return { a_min_y: aMinY, h, b_min_y: bMinY, content_offset_y: bMinY - h };
  },

  sampleIndices({ count: n }) {
    const target = n > 50 ? 50 : n > 40 ? 40 : n > 30 ? 30 : n > 20 ? 20 : n > 10 ? 10 : n;
    if (target === n) return { target_count: target, indices: Array.from({ length: n }, (_, i) => i) };
    const stride = n / target;
    const indices = [0];
    let acc = 0;
    for (let k = 0; k < target - 1; k++) { acc = acc + stride; indices.push(Math.trunc(acc)); }
    return { target_count: target, indices };
  },

  groupMembers({ creation_dates, start, end }) {
    const indices = [];
    creation_dates.forEach((d, i) => { if (d !== null && d !== undefined && start <= d && d <= end) indices.push(i); });
    return { indices };
  },

  indexPathContaining({ groups, asset_id }) {
    for (let s = 0; s < groups.length; s++) {
      const i = groups[s].indexOf(asset_id);
      if (i >= 0) return { index_path: { section: s, item: i } };
    }
    return { index_path: null };
  },

  nearestIndex({ assets, target }) {
    const same = assets.findIndex((a) => a.id === target.id);
    if (same >= 0) return { index: same };
    if (target.date === null || target.date === undefined) return { index: null };
    const later = assets.findIndex((a) => a.date !== null && a.date !== undefined && a.date > target.date);
    return { index: later >= 0 ? later : null };
  },

  pushOutVector({ boundary: b, pointer, start, step }) {
    const angle = pointer.x === 0 && pointer.y === 0 ? 0 : Math.atan2(pointer.y, pointer.x);
    const sx = step * Math.cos(angle);
    const sy = step * Math.sin(angle);
    let px = start.x;
    let py = start.y;
    let total = 0;
    while (b.x <= px && px < b.x + b.width && b.y <= py && py < b.y + b.height) {
      px = px + sx; py = py + sy; total = total + step;
    }
    return { magnitude: total, dx: total * Math.cos(angle), dy: total * Math.sin(angle) };
  },
};

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const families = { SA, PA, CA, MP };

/** The behaviour named as in SPEC.md / vectors.json (`"SA.hd_cell_size"`), or undefined. */
export function behaviour(name) {
  const [family, rest] = name.split('.');
  const fn = families[family] && families[family][camel(rest)];
  return fn ? (input) => fn(input) : undefined;
}
