#ifndef SHOEBOX_CVIPS_H
#define SHOEBOX_CVIPS_H

#include <stddef.h>

// libvips, loaded on first use with dlopen rather than linked: libvips brings about a hundred
// libraries (GLib, cairo, pango, HDF5, …), and loading them at start-up made every `shoebox`
// command, a 10 ms re-index included, pay about 30 ms for thumbnails it never makes.
//
// Only the few functions Shoebox calls are declared, with the types of libvips 8's stable ABI
// (`libvips.so.42`); an image is an opaque pointer. libvips takes its options as NULL-terminated
// variadic lists, which Swift cannot call: each wrapper below is one such call with the options
// Shoebox uses.

typedef struct _VipsImage VipsImage;

/// libvips's band formats that Shoebox uses (`VipsBandFormat`).
enum {
    SHOEBOX_VIPS_FORMAT_UCHAR = 0,
    SHOEBOX_VIPS_FORMAT_USHORT = 2,
};

/// Loads libvips and looks up every function below, once per process (later calls return the
/// first answer); 0 on success. `SHOEBOX_LIBVIPS` in the environment names another library file.
int shoebox_vips_load(void);

/// Why `shoebox_vips_load` failed, as one line; empty when it did not.
const char *shoebox_vips_load_error(void);

// Start-up and settings (vips_init, vips_cache_set_max, vips_cache_set_max_mem,
// vips_concurrency_set, vips_block_untrusted_set).
int shoebox_vips_init(const char *program);
void shoebox_vips_cache_set_max(int operations);
void shoebox_vips_cache_set_max_mem(size_t bytes);
void shoebox_vips_concurrency_set(int threads);
void shoebox_vips_block_untrusted_set(int blocked);

/// Drops libvips's warnings ("VIPS-WARNING **: …") so a server's log is not flooded; the
/// failures that matter come back as errors.
void shoebox_vips_silence_warnings(void);

/// Takes and clears libvips's error buffer; free the text with `shoebox_vips_free`.
char *shoebox_vips_error_buffer_copy(void);

/// Frees memory libvips handed over (g_free).
void shoebox_vips_free(void *memory);

/// Drops a reference to an image (g_object_unref).
void shoebox_vips_unref(VipsImage *image);

/// Opens `path` lazily: only the header is read, so the size is known before any decoding.
VipsImage *shoebox_vips_open_header(const char *path);

/// The image's size as stored, and whether its orientation tag swaps width and height.
int shoebox_vips_width(VipsImage *image);
int shoebox_vips_height(VipsImage *image);
int shoebox_vips_orientation_swaps(VipsImage *image);
/// The image's EXIF orientation (1–8; 1 when it has none).
int shoebox_vips_orientation(VipsImage *image);

/// Whether the image has an alpha channel, and its band format.
int shoebox_vips_has_alpha(VipsImage *image);
int shoebox_vips_format(VipsImage *image);

/// An image over `size` bytes of pixels that the caller keeps alive until it is unreferenced.
VipsImage *shoebox_vips_image_from_memory(const void *pixels, size_t size, int width, int height, int bands, int format);

/// vips_thumbnail with shrink-on-load, orientation applied and no upscaling: the result fits
/// in width × height (display orientation).
int shoebox_vips_thumbnail(const char *path, VipsImage **out, int width, int height);

/// vips_thumbnail_buffer on an encoded image in memory (an embedded JPEG), which the caller keeps
/// alive until the result is encoded: shrink-on-load, no upscaling, the buffer's own orientation
/// tag ignored and `orientation` (EXIF 1–8, that of the file the buffer came from) applied. The
/// result fits in width × height as stored (the caller swaps them for orientations 5–8).
int shoebox_vips_thumbnail_buffer(const void *buffer, size_t length, VipsImage **out, int width, int height, int orientation);

/// The same for an image already decoded (pixels from another decoder).
int shoebox_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int orientation);

/// Flattens an alpha channel onto white (`white` is 255 for 8-bit images, 65535 for 16-bit).
int shoebox_vips_flatten(VipsImage *in, VipsImage **out, double white);

/// Encodes a baseline JPEG without metadata (orientation is already applied) into a buffer
/// that the caller frees with `shoebox_vips_free`.
int shoebox_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality);

/// Like `shoebox_vips_jpegsave_buffer`, but libvips stops computing once `seconds` have passed
/// (an "eval" handler kills the pipeline between tiles); `*timedOut` then is 1 and the result -1.
/// One step that libvips does not split, such as libjpeg reading every scan of a progressive
/// file, is not interrupted: the limit takes effect after it.
int shoebox_vips_jpegsave_buffer_within(VipsImage *in, void **buffer, size_t *length, int quality, double seconds, int *timedOut);

/// Writes a JPEG file (the benchmark's source photos).
int shoebox_vips_jpegsave(VipsImage *in, const char *path, int quality);

// Duplicates: a picture's grey fingerprint, and the variants its tests and benchmark make.

/// vips_thumbnail_buffer forced to edge × edge (aspect ignored), the buffer's orientation ignored.
int shoebox_vips_thumbnail_buffer_square(const void *buffer, size_t length, VipsImage **out, int edge);

/// The image's band count.
int shoebox_vips_bands(VipsImage *image);

/// Computes the image and copies its pixels into memory the caller frees with `shoebox_vips_free`.
void *shoebox_vips_write_to_memory(VipsImage *image, size_t *length);

/// Opens `path` (lazily), the same as `shoebox_vips_open_header`: a name for the variant makers.
VipsImage *shoebox_vips_open(const char *path);

/// A rectangle of an image (vips_extract_area).
int shoebox_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height);

/// Writes a PNG, or a WebP of `quality`, keeping the image's metadata.
int shoebox_vips_pngsave(VipsImage *in, const char *path);
int shoebox_vips_webpsave(VipsImage *in, const char *path, int quality);

#endif
