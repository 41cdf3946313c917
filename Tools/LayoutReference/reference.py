"""Independent Python reference of ../shared/seed-layouts/SPEC.md, written from the spec alone
(not from the Swift code), to generate more vectors than the shared 135. Standard library only.

    python3 Tools/LayoutReference/reference.py [vectors.json]   # checks the reference against a vector file
"""
import math
import os

# ---------- conventions ----------
def trunc(x):
    return int(x)  # toward zero

def clamp_index(i, n):
    if n == 0:
        return 0
    return max(0, min(n - 1, i))

def clamp(x, a, b):
    return min(max(x, a), b)

# ---------- SA constants ----------
HD_FULL_SPACING = 100.0
HD_MIN_PHOTO_WIDTH = 40.0
W = 30.0
S_ = 2.0
F = 15.0
MAX_WIDTH = 160.0
UNIT = W + S_
MIN_DURATION = 0.25
BASE_LENGTH = 80.0

def normal_center(i):
    return i * UNIT + S_ + W / 2

def full_width(widths, i):
    return widths[i] if 0 <= i < len(widths) else 0.0

def sa_hd_cell_size(image_width, image_height, view_width, view_height):
    r = image_height / image_width
    vr = view_height / view_width
    if r < vr:
        return {"width": view_width, "height": view_width * r}
    return {"width": view_height / r, "height": view_height}

def sa_thumbnail_full_width(image_width, image_height, cell_height):
    r = image_height / image_width
    if r > cell_height / W:
        return {"width": W}
    if r < cell_height / MAX_WIDTH:
        return {"width": MAX_WIDTH}
    return {"width": cell_height / r}

def sa_hd_index_fraction(content_offset_x, inset_left, page_width, count):
    rel = (content_offset_x + inset_left) / page_width
    index = clamp_index(trunc(rel), count)
    return {"index": index, "fraction": rel - index}

def sa_hd_parallax_layout(content_offset_x, inset_left, page_width, page_height, photo_sizes):
    n = len(photo_sizes)
    r = sa_hd_index_fraction(content_offset_x, inset_left, page_width, n)
    index, fraction = r["index"], r["fraction"]
    items = []
    for i, ph in enumerate(photo_sizes):
        cx = page_width * i + page_width / 2
        cy = page_height / 2
        if i == index:
            w, h = max(HD_MIN_PHOTO_WIDTH, ph["width"] - HD_FULL_SPACING * fraction), ph["height"]
        elif i == index + 1:
            w, h = max(HD_MIN_PHOTO_WIDTH, ph["width"] - HD_FULL_SPACING * (1 - fraction)), ph["height"]
        else:
            w, h = page_width, page_height
        items.append({"center_x": cx, "center_y": cy, "width": w, "height": h})
    return {"index": index, "fraction": fraction, "items": items,
            "content_width": page_width * n, "content_height": page_height}

def sa_accordion_progress(kind, started, elapsed, cell_length):
    duration = max(MIN_DURATION, (cell_length / BASE_LENGTH) * MIN_DURATION)
    if kind == "unfolding":
        if not started:
            p = 0.0
        elif elapsed >= duration:
            p = 1.0
        else:
            p = elapsed / duration
    elif kind == "folding":
        if not started:
            p = 1.0
        elif elapsed >= duration:
            p = 0.0
        else:
            p = 1 - elapsed / duration
    else:
        raise ValueError(kind)
    return {"duration": duration, "progress": p}

def sa_accordion_current_index(content_offset_x, inset_left, count):
    return {"index": clamp_index(trunc((content_offset_x + inset_left + UNIT / 2) / UNIT), count)}

def sa_accordion_layout(progress, animated_index, full_widths, cell_height, superview_width):
    p, a, H, S = progress, animated_index, cell_height, superview_width
    n = len(full_widths)
    adjacent_spacing = (F - S_) * p + S_
    animated_width = (full_widths[a] - W) * p + W
    cxA = a * UNIT + adjacent_spacing + animated_width / 2
    items = []
    for i in range(n):
        if i < a:
            cx, w = normal_center(i), W
        elif i > a:
            cx, w = cxA + animated_width / 2 + adjacent_spacing + UNIT * (i - a - 1) + W / 2, W
        else:
            cx, w = cxA, animated_width
        items.append({"center_x": cx, "center_y": H / 2, "width": w, "height": H})
    content_width = 2 * adjacent_spacing + animated_width + max(0, n - 1) * UNIT
    symmetric_inset = S / 2 - adjacent_spacing - animated_width / 2
    return {"adjacent_spacing": adjacent_spacing, "animated_width": animated_width,
            "symmetric_inset": symmetric_inset, "items": items,
            "content_width": content_width, "content_height": H}

def sa_unfold_center_offset(original_inset, original_offset, count):
    k = sa_accordion_current_index(original_offset, original_inset, count)["index"]
    return {"current_index": k, "center_offset": (original_inset + original_offset) - k * UNIT}

def sa_unfold_content_offset(progress, original_inset, original_offset, center_offset, symmetric_inset):
    p = clamp(progress, 0.0, 1.0)
    return {"content_offset_x": original_offset - (symmetric_inset - original_inset) - center_offset * p}

def sa_unfold_frame(progress, original_inset, original_offset, full_widths, cell_height, superview_width):
    n = len(full_widths)
    co = sa_unfold_center_offset(original_inset, original_offset, n)
    k, center_offset = co["current_index"], co["center_offset"]
    L = sa_accordion_layout(progress, k, full_widths, cell_height, superview_width)
    x = sa_unfold_content_offset(progress, original_inset, original_offset, center_offset,
                                 L["symmetric_inset"])["content_offset_x"]
    return {"animated_index": k, "center_offset": center_offset,
            "symmetric_inset": L["symmetric_inset"], "content_offset_x": x,
            "animated_center_x": L["items"][k]["center_x"],
            "visible_center_x": x + superview_width / 2}

def sa_slave_layout(puppet_index, puppet_fraction, full_widths, cell_height, superview_width):
    p, H, S = puppet_index, cell_height, superview_width
    n = len(full_widths)
    f = clamp(puppet_fraction, 0.0, 1.0)
    left_spacing = (F - S_) * (1 - f) + S_
    right_spacing = F + S_ - left_spacing
    focused_width = (full_width(full_widths, p) - W) * (1 - f) + W
    focused_center = p * UNIT + left_spacing + focused_width / 2
    next_width = (full_width(full_widths, p + 1) - W) * f + W
    next_center = focused_center + focused_width / 2 + next_width / 2 + F
    items = []
    for i in range(n):
        if i < p:
            cx, w = normal_center(i), W
        elif i == p:
            cx, w = focused_center, focused_width
        elif i == p + 1:
            cx, w = next_center, next_width
        else:
            cx, w = next_center + next_width / 2 + right_spacing + UNIT * (i - p - 2) + W / 2, W
        items.append({"center_x": cx, "center_y": H / 2, "width": w, "height": H})
    content_width = 2 * F + focused_width + next_width + max(0, n - 2) * UNIT + S_
    inset = S / 2 - F - (focused_width + next_width - W) / 2
    return {"effective_fraction": f, "focused_width": focused_width, "next_width": next_width,
            "left_spacing": left_spacing, "right_spacing": right_spacing, "items": items,
            "content_width": content_width, "inset": inset}

def sa_sync_thumbnail_offset(hd_index, hd_fraction, thumb_full_widths, slave_inset_left):
    if hd_fraction < 0:
        x = full_width(thumb_full_widths, hd_index) * hd_fraction
        puppet = None
    else:
        x = UNIT * (hd_index + hd_fraction)
        puppet = {"index": hd_index, "fraction": hd_fraction}
    return {"content_offset_x": x - slave_inset_left, "puppet": puppet}

def sa_sync_hd_offset(thumb_index, page_width, hd_inset_left):
    return {"content_offset_x": page_width * thumb_index - hd_inset_left}

def sa_sync_hd_to_thumbnail(hd_content_offset_x, hd_inset_left, page_width, thumb_full_widths,
                            cell_height, superview_width, previous_puppet):
    r = sa_hd_index_fraction(hd_content_offset_x, hd_inset_left, page_width, len(thumb_full_widths))
    index, fraction = r["index"], r["fraction"]
    puppet = {"index": index, "fraction": fraction} if fraction >= 0 else dict(previous_puppet)
    inset = sa_slave_layout(puppet["index"], puppet["fraction"], thumb_full_widths,
                            cell_height, superview_width)["inset"]
    x = sa_sync_thumbnail_offset(index, fraction, thumb_full_widths, inset)["content_offset_x"]
    return {"index": index, "fraction": fraction, "puppet": puppet, "inset": inset,
            "content_offset_x": x, "visible_center_x": x + superview_width / 2}

# ---------- PA ----------
OFFSET_BETWEEN_CELLS = 44.0
IMAGE_PARALLAX = 0.3
DEFAULT_ASPECT = 0.5
D = 4.0
DISTANCE_FOCUSED = 20.0

def pa_pitch(iw):
    return iw + D

def pa_far(bounds_width, iw):
    return (bounds_width - iw) / 2

def easing(curve, x):
    if curve == "linear":
        return x
    if curve == "easeIn":
        return x * x
    if curve == "easeInOut":
        if x < 0.5:
            return 2 * x * x
        return -2 * x * x + 4 * x - 1
    raise ValueError(curve)

def pa_preview_parallax(cell_center_x, content_offset_x, item_width):
    rel = ((cell_center_x - content_offset_x) - item_width / 2) / item_width
    if abs(rel) >= 1:
        return {"parallax": None, "translate_x": 0.0}
    return {"parallax": rel, "translate_x": rel * OFFSET_BETWEEN_CELLS}

def pa_preview_image_shift(cell_width, parallax):
    return {"translate_x": -(cell_width * IMAGE_PARALLAX * (parallax if parallax is not None else 0.0))}

def pa_strip_metrics(bounds_width, strip_height, count):
    B, h, n = bounds_width, strip_height, count
    iw = h * DEFAULT_ASPECT
    far = (B - iw) / 2
    cw = n * iw + (n - 1) * D if n >= 1 else 0.0
    mn = -far
    mx = max(mn, cw + far - B)
    return {"item_width": iw, "item_height": h, "pitch": iw + D, "far_inset": far,
            "content_width": cw, "min_offset_x": mn, "max_offset_x": mx}

def pa_strip_cells(content_offset_x, bounds_width, item_width, item_height, aspects,
                   expanding_rate, updates):
    iw, ih = item_width, item_height
    pitch = pa_pitch(iw)
    far = pa_far(bounds_width, iw)
    n = len(aspects)
    slot = [r * pitch + iw / 2 for r in range(n)]
    st = []
    offset_x = content_offset_x + far
    for r in range(n):
        delta = abs((slot[r] - iw / 2) - offset_x)
        e = (1 - delta / pitch) * expanding_rate if delta < pitch else 0.0
        st.append({"expanding": e, "collapsing": 0.0, "deleting": 0.0, "direction": "left"})
    for u in updates:
        r = u["row"]
        for k in ("expanding", "collapsing", "deleting", "direction"):
            if k in u and u[k] is not None:
                st[r][k] = u[k]
    extra = [(ih * aspects[r] - iw) * st[r]["expanding"] for r in range(n)]
    sym = [(extra[r] + DISTANCE_FOCUSED * st[r]["expanding"]) / 2 * (1 - st[r]["deleting"])
           for r in range(n)]

    def shift(r, direction):
        if direction == "left":
            return sym[r]
        return sym[r] - pitch * st[r]["deleting"]

    def opposite(dr):
        return "right" if dr == "left" else "left"

    cells = []
    for c in range(n):
        t = 0.0
        for o in range(n):
            if o == c:
                continue
            if c < o:
                t = t - shift(o, opposite(st[o]["direction"]))
            else:
                t = t + shift(o, st[o]["direction"])
        col = st[c]["collapsing"]
        cells.append({"row": c, "expanding": st[c]["expanding"], "collapsing": col,
                      "deleting": st[c]["deleting"], "slot_center_x": slot[c],
                      "translate_x": t, "center_x": slot[c] + t,
                      "width": float(math.ceil((iw + extra[c]) * (1 - col))),
                      "height": ih * (1 - col), "alpha": 1 - col})
    return {"cells": cells}

def pa_strip_nearest_index(content_offset_x, inset_left, count, item_width):
    if count == 0:
        return {"index": None}
    pitch = pa_pitch(item_width)
    return {"index": clamp_index(math.floor((content_offset_x + inset_left) / pitch + 0.5), count)}

def pa_strip_snap_offset(proposed_offset_x, inset_left, count, item_width):
    pitch = pa_pitch(item_width)
    rel = (proposed_offset_x + inset_left) / pitch
    hi = max(count - 1, 0)
    L = clamp(math.floor(rel), 0, hi)
    R = clamp(math.ceil(rel), 0, hi)
    xL = L * pitch - inset_left
    xR = R * pitch - inset_left
    x = xL if abs(xL - proposed_offset_x) < abs(xR - proposed_offset_x) else xR
    return {"content_offset_x": x}

def pa_strip_offset_for_index(index, item_width, bounds_width):
    return {"content_offset_x": index * pa_pitch(item_width) - pa_far(bounds_width, item_width)}

def pa_strip_offset_from_preview(preview_content_offset_x, preview_item_width, count,
                                 item_width, bounds_width):
    far = pa_far(bounds_width, item_width)
    x = (preview_content_offset_x / preview_item_width) * pa_pitch(item_width) - far
    return {"content_offset_x": x,
            "active_index": pa_strip_nearest_index(x, far, count, item_width)["index"]}

def pa_rotation_offsets(active_index, strip_bounds_width, strip_height, preview_item_width):
    iw = strip_height * 0.5
    far = (strip_bounds_width - iw) / 2
    return {"item_width": iw, "item_height": strip_height, "far_inset": far,
            "strip_content_offset_x": pa_strip_offset_for_index(active_index, iw, strip_bounds_width)["content_offset_x"],
            "preview_content_offset_x": active_index * preview_item_width}

def pa_move_animation_frame(from_offset_x, from_index, to_index, item_width, bounds_width, t):
    e = easing("easeInOut", t)
    to = pa_strip_offset_for_index(to_index, item_width, bounds_width)["content_offset_x"]
    return {"eased_t": e, "content_offset_x": from_offset_x + (to - from_offset_x) * e,
            "expanding_rate": 0.0,
            "updates": [{"row": to_index, "expanding": e}, {"row": from_index, "expanding": 1 - e}]}

def pa_delete_plan(row, count):
    direction = "left" if row + 1 >= count else "right"
    er = row - 1 if direction == "left" else row + 1
    if not (0 <= er < count):
        er = None
    if row < count - 1:
        after = row
    elif count >= 2:
        after = count - 2
    else:
        after = None
    return {"direction": direction, "expanding_row": er, "active_index_after": after}

def pa_easing(curve, x):
    return {"y": easing(curve, x)}

def pa_scroll_animation(phase, current_rate, t):
    target = 0.0 if phase == "begin" else 1.0
    if phase not in ("begin", "end"):
        raise ValueError(phase)
    return {"target_rate": target, "duration": 0.15 * abs(current_rate - target),
            "rate": current_rate + (target - current_rate) * easing("easeInOut", t)}

# ---------- CA ----------
CA_TOL = 0.02
CA_FACTOR = 0.105
CA_MIN_SCALE = 0.860091

def ca_scale_alpha(distance, center_x):
    scale = 1 + CA_TOL - (distance / center_x) * CA_FACTOR
    if scale > 1:
        scale = 1.0
    if scale < CA_MIN_SCALE:
        scale = CA_MIN_SCALE
    alpha = ((1 - 0.25) * (scale - 0.86)) / (1 - 0.86) + 0.25
    return {"scale": scale, "alpha": alpha}

def ca_scroll_step(content_offset_x, cv_width, cv_origin_x, side, count, line_spacing):
    center_x = cv_origin_x + cv_width / 2
    cells = []
    best, best_w = 0, 1.0
    for i in range(count):
        c = i * (side + line_spacing) + side / 2
        left = c - side / 2 - content_offset_x
        if not (left + side > 0 and left < cv_width):
            continue
        ccx = cv_origin_x + c - content_offset_x
        dist = abs(ccx - center_x)
        sa = ca_scale_alpha(dist, center_x)
        fw = side * sa["scale"]
        cells.append({"index": i, "cell_center_x": ccx, "distance": dist,
                      "scale": sa["scale"], "alpha": sa["alpha"], "frame_width": fw})
        if fw > best_w:
            best, best_w = i, fw
    return {"center_x": center_x, "cells": cells, "snap_index": best}

def ca_snap_offset(index, cv_width, side, count, line_spacing):
    inset = (cv_width - side) / 2
    cw = count * side + max(0, count - 1) * line_spacing
    c = index * (side + line_spacing) + side / 2
    return {"content_inset": inset,
            "content_offset_x": clamp(c - cv_width / 2, -inset, cw + inset - cv_width)}

# ---------- MP ----------
HEADER = 50.0

def mp_grid(screen_width, grid):
    if grid == "A":
        return 10, screen_width / 10, 0.0
    if grid == "B":
        return 4, (screen_width - 3 * 1.5) / 4, 1.5
    raise ValueError(grid)

def mp_section_height(c, per_row, cell, spacing):
    rows = math.ceil(c / per_row)
    if rows > 0:
        return HEADER + (rows * cell + (rows - 1) * spacing)
    return HEADER

def mp_item_frame(screen_width, grid, section_counts, section, item):
    per, cell, sp = mp_grid(screen_width, grid)
    row, col = item // per, item % per
    y = 0.0
    for s in range(section):
        y = y + mp_section_height(section_counts[s], per, cell, sp)
    y = y + HEADER + row * (cell + sp)
    return {"min_x": col * (cell + sp), "min_y": y, "width": cell, "height": cell}

def mp_content_height(screen_width, grid, section_counts):
    per, cell, sp = mp_grid(screen_width, grid)
    h = 0.0
    for c in section_counts:
        h = h + mp_section_height(c, per, cell, sp)
    return {"content_height": h}

def mp_zoom_in_offset(screen_width, a_section_counts, a_section, a_item, a_content_offset_y,
                      b_section_counts, b_section, b_item):
    a = mp_item_frame(screen_width, "A", a_section_counts, a_section, a_item)["min_y"]
    b = mp_item_frame(screen_width, "B", b_section_counts, b_section, b_item)["min_y"]
    h = a - a_content_offset_y
    return {"a_min_y": a, "h": h, "b_min_y": b, "content_offset_y": b - h}

def mp_sample_indices(count):
    n = count
    if n > 50: tc = 50
    elif n > 40: tc = 40
    elif n > 30: tc = 30
    elif n > 20: tc = 20
    elif n > 10: tc = 10
    else: tc = n
    if tc == n:
        return {"target_count": tc, "indices": list(range(n))}
    stride = n / tc
    idx = [0]
    acc = 0.0
    for _ in range(tc - 1):
        acc = acc + stride
        idx.append(trunc(acc))
    return {"target_count": tc, "indices": idx}

def mp_group_members(creation_dates, start, end):
    return {"indices": [i for i, d in enumerate(creation_dates) if d is not None and start <= d <= end]}

def mp_index_path_containing(groups, asset_id):
    for s, g in enumerate(groups):
        for i, a in enumerate(g):
            if a == asset_id:
                return {"index_path": {"section": s, "item": i}}
    return {"index_path": None}

def mp_nearest_index(assets, target):
    for i, a in enumerate(assets):
        if a["id"] == target["id"]:
            return {"index": i}
    td = target.get("date")
    if td is not None:
        for i, a in enumerate(assets):
            if a.get("date") is not None and a["date"] > td:
                return {"index": i}
    return {"index": None}

def mp_push_out_vector(boundary, pointer, start, step):
    px, py = pointer["x"], pointer["y"]
    angle = 0.0 if (px == 0 and py == 0) else math.atan2(py, px)
    sx, sy = step * math.cos(angle), step * math.sin(angle)
    x, y = start["x"], start["y"]
    bx, by, bw, bh = boundary["x"], boundary["y"], boundary["width"], boundary["height"]
    total = 0.0
    while bx <= x < bx + bw and by <= y < by + bh:
        x, y = x + sx, y + sy
        total = total + step
    return {"magnitude": total, "dx": total * math.cos(angle), "dy": total * math.sin(angle)}

DISPATCH = {
    "SA.hd_cell_size": sa_hd_cell_size,
    "SA.thumbnail_full_width": sa_thumbnail_full_width,
    "SA.hd_index_fraction": sa_hd_index_fraction,
    "SA.hd_parallax_layout": sa_hd_parallax_layout,
    "SA.accordion_progress": sa_accordion_progress,
    "SA.accordion_current_index": sa_accordion_current_index,
    "SA.accordion_layout": sa_accordion_layout,
    "SA.unfold_center_offset": sa_unfold_center_offset,
    "SA.unfold_content_offset": sa_unfold_content_offset,
    "SA.unfold_frame": sa_unfold_frame,
    "SA.slave_layout": sa_slave_layout,
    "SA.sync_thumbnail_offset": sa_sync_thumbnail_offset,
    "SA.sync_hd_offset": sa_sync_hd_offset,
    "SA.sync_hd_to_thumbnail": sa_sync_hd_to_thumbnail,
    "PA.preview_parallax": pa_preview_parallax,
    "PA.preview_image_shift": pa_preview_image_shift,
    "PA.strip_metrics": pa_strip_metrics,
    "PA.strip_cells": pa_strip_cells,
    "PA.strip_nearest_index": pa_strip_nearest_index,
    "PA.strip_snap_offset": pa_strip_snap_offset,
    "PA.strip_offset_for_index": pa_strip_offset_for_index,
    "PA.strip_offset_from_preview": pa_strip_offset_from_preview,
    "PA.rotation_offsets": pa_rotation_offsets,
    "PA.move_animation_frame": pa_move_animation_frame,
    "PA.delete_plan": pa_delete_plan,
    "PA.easing": pa_easing,
    "PA.scroll_animation": pa_scroll_animation,
    "CA.scale_alpha": ca_scale_alpha,
    "CA.scroll_step": ca_scroll_step,
    "CA.snap_offset": ca_snap_offset,
    "MP.item_frame": mp_item_frame,
    "MP.content_height": mp_content_height,
    "MP.zoom_in_offset": mp_zoom_in_offset,
    "MP.sample_indices": mp_sample_indices,
    "MP.group_members": mp_group_members,
    "MP.index_path_containing": mp_index_path_containing,
    "MP.nearest_index": mp_nearest_index,
    "MP.push_out_vector": mp_push_out_vector,
}

def run(behaviour, inp):
    return DISPATCH[behaviour](**inp)

# ---------- comparison ----------
def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)

def compare(got, exp, tol, path="$"):
    """Return list of mismatch strings."""
    errs = []
    if _num(got) and _num(exp):
        lim = max(tol, 1e-9, 1e-9 * abs(exp))
        if not (abs(got - exp) <= lim):
            errs.append(f"{path}: got {got!r} expected {exp!r}")
    elif isinstance(exp, dict):
        if not isinstance(got, dict) or set(got) != set(exp):
            errs.append(f"{path}: keys {sorted(got) if isinstance(got, dict) else type(got)} vs {sorted(exp)}")
        else:
            for k in exp:
                errs += compare(got[k], exp[k], tol, f"{path}.{k}")
    elif isinstance(exp, list):
        if not isinstance(got, list) or len(got) != len(exp):
            errs.append(f"{path}: list length {len(got) if isinstance(got, list) else type(got)} vs {len(exp)}")
        else:
            for i, (g, e) in enumerate(zip(got, exp)):
                errs += compare(g, e, tol, f"{path}[{i}]")
    else:
        if type(got) != type(exp) or got != exp:
            errs.append(f"{path}: got {got!r} expected {exp!r}")
    return errs

if __name__ == "__main__":
    import json, sys
    shared = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "seed-layouts", "vectors.json")
    path = sys.argv[1] if len(sys.argv) > 1 else shared
    data = json.load(open(path))
    ok = 0
    for v in data["vectors"]:
        try:
            e = compare(run(v["behaviour"], v["input"]), v["expected"], v["tolerance"])
        except Exception as ex:  # noqa
            e = [f"exception {ex!r}"]
        if e:
            print("FAIL", v["id"], e[:5])
        else:
            ok += 1
    print(f"{ok}/{len(data['vectors'])} match")
