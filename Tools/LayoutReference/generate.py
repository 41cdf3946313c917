"""Generates Tools/LayoutReference/vectors.json: 6 vectors per behaviour of SPEC.md, with inputs drawn
by random.Random(2026) from ranges like the shared vectors' and expected values from reference.py.

    python3 Tools/LayoutReference/generate.py
"""
import json, math, random, copy, collections, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as R

ORIG = json.load(open(os.path.join(HERE, "..", "..", "..", "shared", "seed-layouts", "vectors.json")))
TOL = {}
for v in ORIG["vectors"]:
    TOL.setdefault(v["behaviour"], v["tolerance"])
rng = random.Random(2026)

def ch(xs): return rng.choice(xs)
def u(a, b, q=None):
    x = rng.uniform(a, b)
    return round(round(x / q) * q, 10) if q else round(x, 2)

VIEWS = [(320.0, 568.0), (375.0, 667.0), (375.0, 600.0), (390.0, 844.0), (414.0, 896.0), (768.0, 1024.0), (1024.0, 768.0)]
IMGS = [(4032.0, 3024.0), (3024.0, 4032.0), (1080.0, 1920.0), (1920.0, 1080.0), (2000.0, 2000.0),
        (6000.0, 1000.0), (800.0, 2400.0), (1200.0, 900.0), (640.0, 480.0), (500.0, 3000.0)]
STRIP_H = [48.0]
SUPER = [320.0, 375.0, 390.0, 414.0]

def rand_img():
    if rng.random() < 0.6:
        return ch(IMGS)
    return (float(rng.randint(200, 6000)), float(rng.randint(200, 6000)))

def full_widths(n, h=48.0):
    out = []
    for _ in range(n):
        iw, ih = rand_img()
        out.append(R.sa_thumbnail_full_width(iw, ih, h)["width"])
    return out

def perturb(x, k):
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, float):
        return x * (1 + k * 1e-10) + k * 1e-10
    if isinstance(x, dict):
        return {a: perturb(b, k) for a, b in x.items()}
    if isinstance(x, list):
        return [perturb(b, k) for b in x]
    return x  # ints (indices/counts) untouched

# Behaviours whose only discontinuity-driving inputs are listed (others are exact, e.g. dyadic aspects).
PERTURB_ONLY = {"PA.strip_cells": ("content_offset_x", "expanding_rate"),
                # pointer (0,0) is a deliberate special case; the loop's edge sensitivity is in start/boundary
                "MP.push_out_vector": ("start", "boundary")}

def ceil_margin_ok(inp):
    """PA.strip_cells: every ceil argument is an exact integer or at least 1e-6 away from one."""
    out = R.run("PA.strip_cells", inp)
    iw, ih = inp["item_width"], inp["item_height"]
    for c in out["cells"]:
        x = (iw + (ih * inp["aspects"][c["row"]] - iw) * c["expanding"]) * (1 - c["collapsing"])
        if x != math.floor(x) and min(x - math.floor(x), math.ceil(x) - x) < 1e-6:
            return False
    return True

def robust(beh, inp):
    """True if tiny float perturbations of the inputs do not change the output beyond tolerance."""
    base = R.run(beh, inp)
    keys = PERTURB_ONLY.get(beh)
    for k in (1, -1, 3, -3):
        if keys:
            p = dict(inp)
            for kk in keys:
                p[kk] = perturb(inp[kk], k)
        else:
            p = perturb(inp, k)
        try:
            got = R.run(beh, p)
        except Exception:
            return False
        if R.compare(got, base, max(TOL[beh], 1e-6)):
            return False
    return True

# Each generator returns (input, exact_edge). exact_edge=True: deliberately built on a boundary with
# exactly representable arithmetic (skip the robustness check).
G = {}
def gen(name):
    def deco(f):
        G[name] = f
        return f
    return deco

@gen("SA.hd_cell_size")
def _(i):
    vw, vh = ch(VIEWS)
    if i == 0:  # exact aspect equality -> else branch
        return dict(image_width=vw * 4, image_height=vh * 4, view_width=vw, view_height=vh), True
    iw, ih = rand_img()
    return dict(image_width=iw, image_height=ih, view_width=vw, view_height=vh), False

@gen("SA.thumbnail_full_width")
def _(i):
    h = ch(STRIP_H)
    if i == 0:
        return dict(image_width=160.0, image_height=48.0, cell_height=h), True  # r == h/maxWidth
    if i == 1:
        return dict(image_width=60.0, image_height=96.0, cell_height=h), True   # r == h/w
    iw, ih = rand_img()
    return dict(image_width=iw, image_height=ih, cell_height=h), False

@gen("SA.hd_index_fraction")
def _(i):
    pw = ch([320.0, 375.0, 414.0, 768.0])
    n = ch([1, 3, 5, 8]) if i != 5 else 0
    if i == 0:  # exact page boundary
        return dict(content_offset_x=pw * rng.randint(1, max(1, n - 1)), inset_left=0.0, page_width=pw, count=n), True
    if i == 1:  # exactly at last page + 1 (fraction 1)
        return dict(content_offset_x=pw * n, inset_left=0.0, page_width=pw, count=n), True
    if i == 2:  # far left over-scroll
        return dict(content_offset_x=-u(pw * 1.05, pw * 1.8), inset_left=0.0, page_width=pw, count=n), False
    if i == 3:
        return dict(content_offset_x=-u(1, pw * 0.9), inset_left=0.0, page_width=pw, count=n), False
    return dict(content_offset_x=u(0, pw * (n + 0.9)), inset_left=ch([0.0, 0.0, 20.0]), page_width=pw, count=n), False

@gen("SA.hd_parallax_layout")
def _(i):
    pw, ph = ch(VIEWS)
    n = rng.randint(2, 7)
    sizes = [R.sa_hd_cell_size(*rand_img(), pw, ph) for _ in range(n)]
    if i == 0:
        x = pw * (n - 1)
        return dict(content_offset_x=x, inset_left=0.0, page_width=pw, page_height=ph, photo_sizes=sizes), True
    if i == 1:
        x = -u(10, pw * 0.6)
    elif i == 2:
        x = pw * (n - 1) + u(1, pw * 0.5)
    else:
        x = u(0, pw * (n - 1))
    return dict(content_offset_x=x, inset_left=0.0, page_width=pw, page_height=ph, photo_sizes=sizes), False

@gen("SA.accordion_progress")
def _(i):
    kind = ch(["folding", "unfolding"])
    cl = ch([20.0, 30.0, 48.0, 64.0, 100.0, 160.0, u(30, 160)])
    dur = max(0.25, cl / 80 * 0.25)
    if i == 0:
        return dict(kind="unfolding", started=False, elapsed=u(0, 1), cell_length=cl), False
    if i == 1:  # elapsed exactly duration
        return dict(kind=kind, started=True, elapsed=0.5, cell_length=160.0), True
    return dict(kind=["folding", "unfolding"][i % 2], started=True, elapsed=ch([0.0, u(0, dur), u(0, dur), u(dur, 2)]), cell_length=cl), False

@gen("SA.accordion_current_index")
def _(i):
    S = ch(SUPER)
    inset = S / 2 - 2 - 15
    n = rng.randint(1, 9)
    if i == 0:  # exact half-unit boundary
        return dict(content_offset_x=32.0 * 2 - 16.0 - inset, inset_left=inset, count=max(n, 3)), True
    if i == 1:
        return dict(content_offset_x=-inset - u(20, 200), inset_left=inset, count=n), False
    if i == 2:
        return dict(content_offset_x=u(32 * n, 32 * n + 300) - inset, inset_left=inset, count=n), False
    return dict(content_offset_x=u(-inset, 32 * n - inset), inset_left=inset, count=n), False

@gen("SA.accordion_layout")
def _(i):
    n = rng.randint(1, 8)
    fw = full_widths(n)
    a = [0, n - 1][i % 2] if i < 2 else rng.randrange(n)
    p = [0.0, 1.0][i % 2] if i in (2, 3) else u(0, 1, 0.01)
    return dict(progress=p, animated_index=a, full_widths=fw, cell_height=48.0, superview_width=ch(SUPER)), False

def strip_offset(case, inset, n, before, after):
    """An original strip offset: over-scrolled before the first cell (case "before", by up to
    `before` points), past the last (case "after", by up to `after`), or anywhere in between."""
    if case == "before":
        return -inset - u(*before)
    if case == "after":
        return 32.0 * n + u(*after) - inset
    return u(-inset, 32 * n - inset)

@gen("SA.unfold_center_offset")
def _(i):
    S = ch(SUPER)
    inset = S / 2 - 2 - 15
    n = rng.randint(1, 9)
    off = strip_offset({0: "before", 1: "after"}.get(i), inset, n, (20, 150), (0, 100))
    return dict(original_inset=inset, original_offset=off, count=n), False

@gen("SA.unfold_content_offset")
def _(i):
    S = ch(SUPER)
    inset = S / 2 - 2 - 15
    n = rng.randint(2, 8)
    fw = full_widths(n)
    off = strip_offset(None, inset, n, None, None)
    co = R.sa_unfold_center_offset(inset, off, n)
    p = [0.0, 1.0][i % 2] if i < 2 else u(0, 1, 0.01)
    L = R.sa_accordion_layout(p, co["current_index"], fw, 48.0, S)
    return dict(progress=p, original_inset=inset, original_offset=off, center_offset=co["center_offset"],
                symmetric_inset=L["symmetric_inset"]), False

@gen("SA.unfold_frame")
def _(i):
    S = ch(SUPER)
    inset = S / 2 - 2 - 15
    n = rng.randint(1, 8)
    fw = full_widths(n)
    p = [0.0, 1.0][i % 2] if i < 2 else u(0, 1, 0.01)
    off = strip_offset({2: "before", 3: "after"}.get(i), inset, n, (10, 100), (0, 80))
    return dict(progress=p, original_inset=inset, original_offset=off, full_widths=fw, cell_height=48.0,
                superview_width=S), False

@gen("SA.slave_layout")
def _(i):
    n = rng.randint(1, 8)
    fw = full_widths(n)
    p = [0, n - 1][i % 2] if i < 2 else rng.randrange(n)
    f = [-u(0.01, 0.5), 1.0, 0.0][i] if i < 3 else u(0, 1, 0.01)
    return dict(puppet_index=p, puppet_fraction=f, full_widths=fw, cell_height=48.0, superview_width=ch(SUPER)), False

@gen("SA.sync_thumbnail_offset")
def _(i):
    n = rng.randint(1, 8)
    fw = full_widths(n)
    idx = 0 if i < 2 else rng.randrange(n)
    f = -u(0.01, 1.5) if i < 2 else (0.0 if i == 2 else u(0, 1, 0.01))
    return dict(hd_index=idx, hd_fraction=f, thumb_full_widths=fw, slave_inset_left=u(100, 190, 0.5)), i == 2

@gen("SA.sync_hd_offset")
def _(i):
    return dict(thumb_index=rng.randint(0, 12), page_width=ch([320.0, 375.0, 414.0, 768.0]), hd_inset_left=ch([0.0, 0.0, 0.0, 20.0])), False

@gen("SA.sync_hd_to_thumbnail")
def _(i):
    pw = ch([320.0, 375.0, 414.0])
    n = rng.randint(1, 8)
    fw = full_widths(n)
    prev = {"index": rng.randrange(n), "fraction": u(0, 1, 0.05)}
    if i == 0:
        x = -u(5, pw * 0.8)
    elif i == 1:
        x = pw * rng.randrange(n)
        return dict(hd_content_offset_x=x, hd_inset_left=0.0, page_width=pw, thumb_full_widths=fw, cell_height=48.0,
                    superview_width=ch(SUPER), previous_puppet=prev), True
    elif i == 2:
        x = pw * (n - 1) + u(1, pw * 0.5)
    else:
        x = u(0, pw * (n - 1))
    return dict(hd_content_offset_x=x, hd_inset_left=0.0, page_width=pw, thumb_full_widths=fw, cell_height=48.0,
                superview_width=ch(SUPER), previous_puppet=prev), False

@gen("PA.preview_parallax")
def _(i):
    iw = ch([320.0, 375.0, 414.0, 768.0])
    k = rng.randint(0, 6)
    cc = k * iw + iw / 2
    if i == 0:  # |rel| == 1 exactly -> null
        return dict(cell_center_x=cc, content_offset_x=cc - iw / 2 - iw, item_width=iw), True
    if i == 1:
        return dict(cell_center_x=cc, content_offset_x=cc - iw / 2, item_width=iw), True  # rel 0
    if i == 2:
        return dict(cell_center_x=cc, content_offset_x=cc - iw / 2 + u(iw * 1.05, iw * 2), item_width=iw), False
    return dict(cell_center_x=cc, content_offset_x=cc - iw / 2 + u(-iw * 0.95, iw * 0.95), item_width=iw), False

@gen("PA.preview_image_shift")
def _(i):
    return dict(cell_width=ch([320.0, 375.0, 414.0, 768.0]), parallax=None if i == 0 else u(-0.99, 0.99, 0.001)), False

@gen("PA.strip_metrics")
def _(i):
    n = [0, 1][i] if i < 2 else rng.randint(2, 40)
    return dict(bounds_width=ch([320.0, 375.0, 414.0, 667.0, 768.0]), strip_height=ch([50.0, 66.0, 60.0, 44.0]), count=n), False

ASPECTS = [0.5, 0.75, 1.0, 1.333, 1.5, 2.0, 0.5625, 1.7778, 3.0, 0.3]
@gen("PA.strip_cells")
def _(i):
    h = ch([66.0, 50.0, 60.0])
    iw = h * 0.5
    B = ch([320.0, 375.0, 414.0])
    n = rng.randint(2, 7)
    asp = [ch(ASPECTS) if rng.random() < 0.5 else round(rng.uniform(0.3, 3.0), 3) for _ in range(n)]
    far = (B - iw) / 2
    pitch = iw + 4
    mk = lambda off, rate, ups: dict(bounds_width=B, item_width=iw, item_height=h, aspects=asp,
                                     content_offset_x=off, expanding_rate=rate, updates=ups)
    if i == 0:   # resting on a slot
        return mk(rng.randrange(n) * pitch - far, 1.0, []), True
    if i == 1:   # between slots, partial rate
        return mk(u(0, (n - 1) * pitch) - far, u(0.05, 1, 0.05), []), False
    if i == 2:   # over-scrolled left
        return mk(-far - u(1, pitch * 1.5), 1.0, []), False
    if i == 3:   # delete in progress (direction per delete_plan)
        row = rng.randrange(n)
        plan = R.pa_delete_plan(row, n)
        t = u(0.05, 1, 0.05)
        ups = [{"row": row, "collapsing": 1.0, "deleting": t, "direction": plan["direction"]}]
        if plan["expanding_row"] is not None:
            ups.append({"row": plan["expanding_row"], "expanding": t})
        return mk(row * pitch - far, 1.0, ups), True
    if i == 4:   # collapse phase
        row = rng.randrange(n)
        return mk(row * pitch - far, 1.0, [{"row": row, "collapsing": u(0.05, 0.95, 0.05)}]), True
    # move animation frame
    fr = rng.randrange(n)
    to = rng.choice([r for r in range(n) if r != fr])
    m = R.pa_move_animation_frame(fr * pitch - far, fr, to, iw, B, u(0, 1, 0.05))
    return mk(m["content_offset_x"], 0.0, m["updates"]), False

@gen("PA.strip_nearest_index")
def _(i):
    iw = ch([33.0, 25.0, 30.0])
    B = ch([320.0, 375.0, 414.0])
    far = (B - iw) / 2
    n = 0 if i == 0 else rng.randint(1, 9)
    if i == 1:  # exact half-pitch boundary -> rounds up
        return dict(content_offset_x=(iw + 4) * 1.5 - far, inset_left=far, count=max(n, 3), item_width=iw), True
    if i == 2:
        x = -far - u(10, 300)
    elif i == 3:
        x = (n - 1) * (iw + 4) - far + u(10, 300)
    else:
        x = u(-far, (n - 1) * (iw + 4) - far) if n else u(-far - 50, 50)
    return dict(content_offset_x=x, inset_left=far, count=n, item_width=iw), False

@gen("PA.strip_snap_offset")
def _(i):
    iw = ch([33.0, 25.0, 30.0])
    B = ch([320.0, 375.0, 414.0])
    far = (B - iw) / 2
    n = rng.randint(1, 9)
    p = iw + 4
    if i == 0:  # exact tie -> right
        return dict(proposed_offset_x=p * 1.5 - far, inset_left=far, count=max(n, 3), item_width=iw), True
    if i == 1:
        x = -far - u(5, 200)
    elif i == 2:
        x = (n - 1) * p - far + u(5, 300)
    elif i == 3:
        return dict(proposed_offset_x=rng.randrange(n) * p - far, inset_left=far, count=n, item_width=iw), True
    else:
        x = u(-far, (n - 1) * p - far)
    return dict(proposed_offset_x=x, inset_left=far, count=n, item_width=iw), False

@gen("PA.strip_offset_for_index")
def _(i):
    return dict(index=0 if i == 0 else rng.randint(1, 30), item_width=ch([33.0, 25.0, 30.0, 22.0]),
                bounds_width=ch([320.0, 375.0, 414.0, 667.0, 812.0])), False

@gen("PA.strip_offset_from_preview")
def _(i):
    piw = ch([320.0, 375.0, 414.0, 667.0])
    n = 0 if i == 0 else rng.randint(1, 9)
    if i == 1:
        x = piw * (n - 1)
    elif i == 2:
        x = -u(10, piw * 0.4)
    else:
        x = u(0, piw * max(n - 1, 0))
    return dict(preview_content_offset_x=x, preview_item_width=piw, count=n, item_width=ch([33.0, 25.0]),
                bounds_width=ch([320.0, 375.0, 414.0, 667.0])), i == 1

@gen("PA.rotation_offsets")
def _(i):
    B = ch([320.0, 375.0, 414.0, 568.0, 667.0, 812.0, 896.0])
    return dict(active_index=0 if i == 0 else rng.randint(1, 20), strip_bounds_width=B,
                strip_height=ch([66.0, 50.0, 44.0]), preview_item_width=B), False

@gen("PA.move_animation_frame")
def _(i):
    iw = ch([33.0, 25.0])
    B = ch([320.0, 375.0, 414.0])
    n = rng.randint(2, 9)
    fr = rng.randrange(n)
    to = rng.choice([r for r in range(n) if r != fr])
    t = [0.0, 0.5, 1.0][i] if i < 3 else u(0, 1, 0.01)
    return dict(from_offset_x=fr * (iw + 4) - (B - iw) / 2, from_index=fr, to_index=to, item_width=iw,
                bounds_width=B, t=t), False

@gen("PA.delete_plan")
def _(i):
    n = rng.randint(2, 12)
    row = [0, n - 1, n - 2][i] if i < 3 else rng.randrange(n)
    if i == 5:
        n = rng.randint(2, 3); row = rng.randrange(n)
    return dict(row=row, count=n), False

@gen("PA.easing")
def _(i):
    cases = [("easeInOut", 0.5), ("linear", 1.0), ("easeIn", 0.0)]
    if i < 3:
        c, x = cases[i]
        return dict(curve=c, x=x), True
    return dict(curve=["linear", "easeIn", "easeInOut"][i - 3], x=u(0, 1, 0.01)), False

@gen("PA.scroll_animation")
def _(i):
    ph = ["begin", "end"][i % 2]
    cur = [0.0, 0.0][i] if i < 2 else u(0, 1, 0.05)
    t = [1.0, 0.0][i] if i < 2 else u(0, 1, 0.01)
    return dict(phase=ph, current_rate=cur, t=t), False

@gen("CA.scale_alpha")
def _(i):
    cx = ch([160.0, 187.5, 207.0, 195.0, 384.0])
    if i == 0:
        return dict(distance=u(0, cx * 0.19), center_x=cx), False  # clamped to 1
    if i == 1:
        return dict(distance=u(cx * 1.4, cx * 2.5), center_x=cx), False  # floor
    return dict(distance=u(cx * 0.2, cx * 1.3), center_x=cx), False

@gen("CA.scroll_step")
def _(i):
    side = ch([307.0, 252.0, 346.0, 200.0])
    cvw = side + 68
    ls = 10.0
    n = rng.randint(1, 7)
    inset = (cvw - side) / 2
    org = 0.0 if i < 4 else ch([20.0, 12.5])
    pitch = side + ls
    if i == 0:  # exactly centred on a cell
        return dict(content_offset_x=rng.randrange(n) * pitch - inset, cv_width=cvw, cv_origin_x=org, side=side,
                    count=n, line_spacing=ls), True
    if i == 1:
        x = -inset - u(5, 100)
    elif i == 2:
        x = (n - 1) * pitch - inset + u(5, 150)
    else:
        x = u(-inset, (n - 1) * pitch - inset)
    return dict(content_offset_x=x, cv_width=cvw, cv_origin_x=org, side=side, count=n, line_spacing=ls), False

@gen("CA.snap_offset")
def _(i):
    side = ch([307.0, 252.0, 346.0, 200.0])
    n = rng.randint(1, 7)
    idx = [0, n - 1, n + rng.randint(0, 3)][i] if i < 3 else rng.randrange(n)
    return dict(index=idx, cv_width=side + 68, side=side, count=n, line_spacing=10.0), False

SW = [320.0, 375.0, 390.0, 414.0]
def counts(k, mx=45):
    return [rng.choice([0, rng.randint(1, mx), rng.randint(1, 12)]) for _ in range(k)]

@gen("MP.item_frame")
def _(i):
    g = ["A", "B"][i % 2]
    cs = counts(rng.randint(1, 5))
    secs = [s for s, c in enumerate(cs) if c > 0]
    if not secs:
        cs[-1] = 7
        secs = [len(cs) - 1]
    s = secs[-1] if i < 2 else rng.choice(secs)
    it = cs[s] - 1 if i in (0, 3) else rng.randrange(cs[s])
    return dict(screen_width=ch(SW), grid=g, section_counts=cs, section=s, item=it), False

@gen("MP.content_height")
def _(i):
    g = ["A", "B"][i % 2]
    cs = [] if i == 0 else ([0, 0] if i == 1 else counts(rng.randint(1, 6)))
    return dict(screen_width=ch(SW), grid=g, section_counts=cs), False

@gen("MP.zoom_in_offset")
def _(i):
    ac = counts(rng.randint(1, 4))
    ac = [c if c else 3 for c in ac]
    bc = counts(rng.randint(1, 5), 60)
    bc = [c if c else 5 for c in bc]
    a_s = rng.randrange(len(ac)); b_s = rng.randrange(len(bc))
    return dict(screen_width=ch(SW), a_section_counts=ac, a_section=a_s, a_item=rng.randrange(ac[a_s]),
                a_content_offset_y=ch([-64.0, -88.0, u(-100, 500, 0.5)]), b_section_counts=bc, b_section=b_s,
                b_item=rng.randrange(bc[b_s])), False

@gen("MP.sample_indices")
def _(i):
    return dict(count=[30, 31, 40, 41, rng.randint(52, 400), rng.randint(12, 19)][i]), False

@gen("MP.group_members")
def _(i):
    k = rng.randint(0 if i == 0 else 3, 12)
    ds, d = [], 0
    for _ in range(k):
        d += rng.choice([0, 10, 50, 100, 250])
        ds.append(None if rng.random() < 0.15 else d)
    lo = rng.choice([0, 50, 100, 200]); hi = lo + rng.choice([0, 100, 300, 1000])
    if i == 1 and any(x is not None for x in ds):
        x = next(x for x in ds if x is not None); lo = hi = x  # inclusive single value
    return dict(creation_dates=ds, start=lo, end=hi), False

IDS = list("abcdefghijklmn")
@gen("MP.index_path_containing")
def _(i):
    pool = IDS[:]
    rng.shuffle(pool)
    groups = []
    for _ in range(rng.randint(1, 4)):
        groups.append([rng.choice(pool) for _ in range(rng.randint(0, 4))])
    allids = [x for g in groups for x in g]
    target = "zz" if (i == 0 or not allids) else rng.choice(allids)
    return dict(groups=groups, asset_id=target), False

@gen("MP.nearest_index")
def _(i):
    k = rng.randint(1, 7)
    assets, d = [], 0
    for j in range(k):
        d += rng.choice([10, 50, 100])
        assets.append({"id": IDS[j], "date": None if rng.random() < 0.2 else d})
    if i == 0:
        a = rng.choice(assets); t = {"id": a["id"], "date": None}
    elif i == 1:
        t = {"id": "x", "date": d + 100}
    elif i == 2:
        t = {"id": "x", "date": None}
    elif i == 3:
        t = {"id": "x", "date": rng.choice([a["date"] for a in assets if a["date"] is not None] or [0])}
    else:
        t = {"id": rng.choice(["x", IDS[rng.randrange(k)]]), "date": rng.randint(0, d)}
    return dict(assets=assets, target=t), False

@gen("MP.push_out_vector")
def _(i):
    sw = ch(SW)
    b = {"x": 0.0, "y": ch([-64.0, -88.0, 120.0]), "width": sw, "height": ch([667.0, 568.0, 844.0])}
    cell = sw / 10
    if i == 0:
        ptr = {"x": 0.0, "y": 0.0}
    else:
        ptr = {"x": cell * rng.randint(-5, 5), "y": cell * rng.randint(-5, 5)}
        if ptr["x"] == 0 and ptr["y"] == 0:
            ptr["y"] = -cell
    if i == 5:  # start outside the boundary -> magnitude 0
        st = {"x": u(10, sw - 10), "y": b["y"] - u(5, 50)}
    else:
        st = {"x": u(5, sw - 5, 0.25), "y": u(b["y"] + 5, b["y"] + b["height"] - 5, 0.25)}
    return dict(boundary=b, pointer=ptr, start=st, step=10.0), False

def tidy(x):
    """Round float inputs to 10 decimals (removes 0.1+0.2-style noise; exact dyadic values unchanged)."""
    if isinstance(x, float):
        y = round(x, 10)
        return y if y != 0 else 0.0
    if isinstance(x, dict):
        return {k: tidy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [tidy(v) for v in x]
    return x

def main():
    behaviours = list(collections.OrderedDict.fromkeys(v["behaviour"] for v in ORIG["vectors"]))
    missing = [b for b in behaviours if b not in G]
    assert not missing, missing
    out, stats = [], {}
    for b in behaviours:
        seen, made, tries = set(), 0, 0
        orig_inputs = {json.dumps(v["input"], sort_keys=True) for v in ORIG["vectors"] if v["behaviour"] == b}
        while made < 6:
            tries += 1
            assert tries < 5000, b
            inp, edge = G[b](made)
            inp = tidy(inp)
            key = json.dumps(inp, sort_keys=True)
            if key in seen or key in orig_inputs:
                continue
            if not edge and not robust(b, inp):
                continue
            if b == "PA.strip_cells" and not ceil_margin_ok(inp):
                continue
            seen.add(key)
            out.append({"id": f"fresh_{b}_{made + 1}", "behaviour": b, "input": copy.deepcopy(inp),
                        "expected": R.run(b, inp), "tolerance": TOL[b]})
            made += 1
        stats[b] = made
    doc = {"generator": "independent python reference", "float_tolerance": ORIG["float_tolerance"], "vectors": out}
    with open(os.path.join(HERE, "vectors.json"), "w") as f:
        json.dump(doc, f, indent=1)
    return stats

if __name__ == "__main__":
    s = main()
    print(len(s), "behaviours,", sum(s.values()), "vectors")
