#ifndef SHOEBOX_CEXIF_SHIM_H
#define SHOEBOX_CEXIF_SHIM_H

#include <stddef.h>

#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-log.h>

/// The IFD an entry lives in (libexif's exif_entry_get_ifd is a macro).
static inline ExifIfd shoebox_exif_entry_ifd(ExifEntry *entry) {
    return exif_entry_get_ifd(entry);
}

/// Number of entries in one IFD of an ExifData.
static inline unsigned int shoebox_exif_ifd_count(ExifData *data, ExifIfd ifd) {
    return data->ifd[ifd] ? data->ifd[ifd]->count : 0;
}

/// The entry for a tag in a given IFD, or NULL (exif_content_get_entry on data->ifd[ifd]).
static inline ExifEntry *shoebox_exif_entry(ExifData *data, ExifIfd ifd, ExifTag tag) {
    return data->ifd[ifd] ? exif_content_get_entry(data->ifd[ifd], tag) : NULL;
}

#endif
