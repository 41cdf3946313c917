#ifndef SHOEBOX_CEXIFARENA_H
#define SHOEBOX_CEXIFARENA_H

#include <stddef.h>

#include <libexif/exif-data.h>

// libexif's allocations for one decoded block from a buffer of the calling thread, through
// libexif's own allocator hooks (ExifMem): a decode made some forty calloc and free calls, which
// were a third of reading a photo's EXIF. Blocks come one after another from the buffer, zeroed
// as calloc's are; freeing one gives nothing back (the last one excepted) until the thread's next
// block starts from the beginning. What does not fit comes from calloc and goes back to free.

/// A new ExifData whose memory comes from the calling thread's buffer, keeping every tag as found
/// (no "fixing" to the specification, no dropping of tags recorded in an unusual IFD: some TIFFs
/// keep DateTimeOriginal in IFD0). NULL when out of memory.
///
/// Free it with `shoebox_exif_arena_data_free` on the same thread, before the thread ends. While
/// one is alive, the next ones are allocated after it.
ExifData *shoebox_exif_arena_data_new(void);

/// Frees `data`, made by `shoebox_exif_arena_data_new` on this thread.
void shoebox_exif_arena_data_free(ExifData *data);

/// The bytes of this thread's buffer in use, for tests: 0 when no ExifData of it is alive.
size_t shoebox_exif_arena_used(void);

/// How many of this thread's allocations did not fit and came from calloc, for tests.
size_t shoebox_exif_arena_overflows(void);

#endif
