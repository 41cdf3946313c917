#ifndef SHOEBOX_CVIPS_SHIM_H
#define SHOEBOX_CVIPS_SHIM_H

#include <stddef.h>
#include <vips/vips.h>

// libvips takes its options as NULL-terminated variadic lists, which Swift cannot call;
// each wrapper below is one such call with the options Shoebox uses.

/// Opens `path` lazily: only the header is read, so the size is known before any decoding.
static inline VipsImage *shoebox_vips_open_header(const char *path) {
    return vips_image_new_from_file(path, NULL);
}

/// vips_thumbnail with shrink-on-load, orientation applied and no upscaling: the result fits
/// in width × height (display orientation).
static inline int shoebox_vips_thumbnail(const char *path, VipsImage **out, int width, int height) {
    return vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

/// Flattens an alpha channel onto white (`white` is 255 for 8-bit images, 65535 for 16-bit).
static inline int shoebox_vips_flatten(VipsImage *in, VipsImage **out, double white) {
    VipsArrayDouble *background = vips_array_double_new(&white, 1);
    int result = vips_flatten(in, out, "background", background, "max_alpha", white, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

/// Encodes a baseline JPEG without metadata (orientation is already applied) into a buffer
/// that the caller frees with g_free.
static inline int shoebox_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

/// Writes a JPEG file (the benchmark's source photos).
static inline int shoebox_vips_jpegsave(VipsImage *in, const char *path, int quality) {
    return vips_jpegsave(in, path, "Q", quality, NULL);
}

static inline void shoebox_vips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// Drops libvips's warnings ("VIPS-WARNING **: …") so a server's log is not flooded; the
/// failures that matter come back as errors.
static inline void shoebox_vips_silence_warnings(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, shoebox_vips_ignore_log, NULL);
}

/// Drops a reference to an image (g_object_unref takes a gpointer).
static inline void shoebox_vips_unref(VipsImage *image) {
    g_object_unref(image);
}

#endif
