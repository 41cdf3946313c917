#include "CVips.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// The values below are libvips's and GLib's, from their headers (vips/resample.h,
// glib/gmessages.h); they are part of the stable ABI of libvips.so.42.
enum {
    VIPS_SIZE_DOWN = 2,
    VIPS_SIZE_FORCE = 3,
    G_LOG_LEVEL_WARNING = 1 << 4,
};

typedef void (*LogFunction)(const char *domain, int level, const char *message, void *data);

// Every function Shoebox calls: its name in libvips (or GLib, which libvips loads), its result
// and its parameters.
#define SHOEBOX_VIPS_FUNCTIONS(X) \
    X(vips_init, int, (const char *)) \
    X(vips_cache_set_max, void, (int)) \
    X(vips_cache_set_max_mem, void, (size_t)) \
    X(vips_concurrency_set, void, (int)) \
    X(vips_block_untrusted_set, void, (int)) \
    X(vips_error_buffer_copy, char *, (void)) \
    X(vips_image_new_from_file, VipsImage *, (const char *, ...)) \
    X(vips_image_new_from_memory, VipsImage *, (const void *, size_t, int, int, int, int)) \
    X(vips_image_get_width, int, (const VipsImage *)) \
    X(vips_image_get_height, int, (const VipsImage *)) \
    X(vips_image_get_orientation_swap, int, (VipsImage *)) \
    X(vips_image_get_orientation, int, (VipsImage *)) \
    X(vips_image_hasalpha, int, (VipsImage *)) \
    X(vips_image_get_format, int, (const VipsImage *)) \
    X(vips_thumbnail, int, (const char *, VipsImage **, int, ...)) \
    X(vips_flatten, int, (VipsImage *, VipsImage **, ...)) \
    X(vips_jpegsave_buffer, int, (VipsImage *, void **, size_t *, ...)) \
    X(vips_jpegsave, int, (VipsImage *, const char *, ...)) \
    X(vips_array_double_new, void *, (const double *, int)) \
    X(vips_area_unref, void, (void *)) \
    X(g_object_unref, void, (void *)) \
    X(g_free, void, (void *)) \
    X(g_log_set_handler, unsigned, (const char *, int, LogFunction, void *)) \
    X(vips_image_set_progress, void, (VipsImage *, int)) \
    X(vips_image_set_kill, void, (VipsImage *, int)) \
    X(g_signal_connect_data, unsigned long, (void *, const char *, void (*)(void), void *, void *, int)) \
    X(g_signal_handler_disconnect, void, (void *, unsigned long)) \
    X(g_get_monotonic_time, long long, (void)) \
    X(vips_thumbnail_buffer, int, (void *, size_t, VipsImage **, int, ...)) \
    X(vips_thumbnail_image, int, (VipsImage *, VipsImage **, int, ...)) \
    X(vips_image_set_int, void, (VipsImage *, const char *, int)) \
    X(vips_autorot, int, (VipsImage *, VipsImage **, ...)) \
    X(vips_image_get_bands, int, (const VipsImage *)) \
    X(vips_image_write_to_memory, void *, (VipsImage *, size_t *)) \
    X(vips_extract_area, int, (VipsImage *, VipsImage **, int, int, int, int, ...)) \
    X(vips_pngsave, int, (VipsImage *, const char *, ...)) \
    X(vips_webpsave, int, (VipsImage *, const char *, ...))

#define DECLARE(name, result, parameters) result (*name) parameters;
static struct {
    SHOEBOX_VIPS_FUNCTIONS(DECLARE)
} vips;
#undef DECLARE

static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
static int loadResult = -1;
static char loadError[512];

#ifdef __APPLE__
static const char *const defaultLibrary = "libvips.42.dylib";
#else
static const char *const defaultLibrary = "libvips.so.42";
#endif

static void load(void) {
    const char *chosen = getenv("SHOEBOX_LIBVIPS");
    const char *library = chosen && *chosen ? chosen : defaultLibrary;
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(loadError, sizeof loadError, "cannot load %s (%s); install libvips (apt-get install libvips42)", library, dlerror());
        return;
    }
    // dlsym on the handle also finds GLib's functions: libvips depends on GLib.
#define RESOLVE(name, result, parameters) \
    *(void **)&vips.name = dlsym(handle, #name); \
    if (!vips.name) { \
        snprintf(loadError, sizeof loadError, "%s has no function %s; libvips 8.13 or later is needed", library, #name); \
        return; \
    }
    SHOEBOX_VIPS_FUNCTIONS(RESOLVE)
#undef RESOLVE
    loadResult = 0;
}

int shoebox_vips_load(void) {
    pthread_once(&loadOnce, load);
    return loadResult;
}

const char *shoebox_vips_load_error(void) {
    pthread_once(&loadOnce, load);
    return loadError;
}

int shoebox_vips_init(const char *program) { return vips.vips_init(program); }
void shoebox_vips_cache_set_max(int operations) { vips.vips_cache_set_max(operations); }
void shoebox_vips_cache_set_max_mem(size_t bytes) { vips.vips_cache_set_max_mem(bytes); }
void shoebox_vips_concurrency_set(int threads) { vips.vips_concurrency_set(threads); }
void shoebox_vips_block_untrusted_set(int blocked) { vips.vips_block_untrusted_set(blocked); }

static void ignoreLog(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)level; (void)message; (void)data;
}

void shoebox_vips_silence_warnings(void) { vips.g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, ignoreLog, NULL); }
char *shoebox_vips_error_buffer_copy(void) { return vips.vips_error_buffer_copy(); }
void shoebox_vips_free(void *memory) { vips.g_free(memory); }
void shoebox_vips_unref(VipsImage *image) { vips.g_object_unref(image); }

VipsImage *shoebox_vips_open_header(const char *path) { return vips.vips_image_new_from_file(path, NULL); }
int shoebox_vips_width(VipsImage *image) { return vips.vips_image_get_width(image); }
int shoebox_vips_height(VipsImage *image) { return vips.vips_image_get_height(image); }
int shoebox_vips_orientation_swaps(VipsImage *image) { return vips.vips_image_get_orientation_swap(image); }
int shoebox_vips_orientation(VipsImage *image) { return vips.vips_image_get_orientation(image); }
int shoebox_vips_has_alpha(VipsImage *image) { return vips.vips_image_hasalpha(image); }
int shoebox_vips_format(VipsImage *image) { return vips.vips_image_get_format(image); }

VipsImage *shoebox_vips_image_from_memory(const void *pixels, size_t size, int width, int height, int bands, int format) {
    return vips.vips_image_new_from_memory(pixels, size, width, height, bands, format);
}

int shoebox_vips_thumbnail(const char *path, VipsImage **out, int width, int height) {
    return vips.vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

// Turns a thumbnail made without rotation into display orientation: the EXIF `orientation`
// (2–8) given by the caller, not read from the image, is set and applied. Takes over `thumb`.
static int orient(VipsImage *thumb, VipsImage **out, int orientation) {
    if (orientation < 2 || orientation > 8) {
        *out = thumb;
        return 0;
    }
    vips.vips_image_set_int(thumb, "orientation", orientation);
    int result = vips.vips_autorot(thumb, out, NULL);
    vips.g_object_unref(thumb);
    return result;
}

int shoebox_vips_thumbnail_buffer(const void *buffer, size_t length, VipsImage **out, int width, int height, int orientation) {
    VipsImage *thumb = NULL;
    if (vips.vips_thumbnail_buffer((void *)buffer, length, &thumb, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate", 1, NULL))
        return -1;
    return orient(thumb, out, orientation);
}

int shoebox_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int orientation) {
    VipsImage *thumb = NULL;
    if (vips.vips_thumbnail_image(in, &thumb, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate", 1, NULL))
        return -1;
    return orient(thumb, out, orientation);
}

int shoebox_vips_flatten(VipsImage *in, VipsImage **out, double white) {
    void *background = vips.vips_array_double_new(&white, 1);
    int result = vips.vips_flatten(in, out, "background", background, "max_alpha", white, NULL);
    vips.vips_area_unref(background);
    return result;
}

int shoebox_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips.vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", 1, "optimize_coding", 1, NULL);
}

// The "eval" handler's state: when to stop, and whether it did. It lives on the stack of
// `shoebox_vips_jpegsave_buffer_within`, which disconnects the handler before returning.
typedef struct {
    long long deadline;
    int timedOut;
} Deadline;

// Called by libvips's worker threads as tiles are computed (VipsImage, VipsProgress, data).
static void stopWhenLate(VipsImage *image, void *progress, void *data) {
    (void)progress;
    Deadline *deadline = data;
    if (!deadline->timedOut && vips.g_get_monotonic_time() > deadline->deadline) {
        deadline->timedOut = 1;
        vips.vips_image_set_kill(image, 1);
    }
}

int shoebox_vips_jpegsave_buffer_within(VipsImage *in, void **buffer, size_t *length, int quality, double seconds, int *timedOut) {
    Deadline deadline = { vips.g_get_monotonic_time() + (long long)(seconds * 1e6), 0 };
    vips.vips_image_set_progress(in, 1);
    unsigned long handler = vips.g_signal_connect_data(in, "eval", (void (*)(void))stopWhenLate, &deadline, NULL, 0);
    int result = shoebox_vips_jpegsave_buffer(in, buffer, length, quality);
    vips.g_signal_handler_disconnect(in, handler);
    *timedOut = deadline.timedOut;
    return result;
}

int shoebox_vips_jpegsave(VipsImage *in, const char *path, int quality) {
    return vips.vips_jpegsave(in, path, "Q", quality, NULL);
}

int shoebox_vips_thumbnail_buffer_square(const void *buffer, size_t length, VipsImage **out, int edge) {
    return vips.vips_thumbnail_buffer((void *)buffer, length, out, edge, "height", edge, "size", VIPS_SIZE_FORCE, "no_rotate", 1, NULL);
}

int shoebox_vips_bands(VipsImage *image) { return vips.vips_image_get_bands(image); }

void *shoebox_vips_write_to_memory(VipsImage *image, size_t *length) { return vips.vips_image_write_to_memory(image, length); }

VipsImage *shoebox_vips_open(const char *path) { return vips.vips_image_new_from_file(path, NULL); }

int shoebox_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips.vips_extract_area(in, out, left, top, width, height, NULL);
}

int shoebox_vips_pngsave(VipsImage *in, const char *path) { return vips.vips_pngsave(in, path, NULL); }

int shoebox_vips_webpsave(VipsImage *in, const char *path, int quality) { return vips.vips_webpsave(in, path, "Q", quality, NULL); }
