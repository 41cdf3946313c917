#include "CExifArena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libexif/exif-mem.h>

enum { ARENA_CAPACITY = 32 * 1024, HEADER = 16 };

/// Before every block: its size as asked for, and whether it came from calloc.
typedef struct {
    uint32_t size;
    uint32_t fromHeap;
    uint64_t unused;
} BlockHeader;

_Static_assert(sizeof(BlockHeader) == HEADER, "a block header keeps 16-byte alignment");

typedef struct {
    unsigned char *base;
    size_t used;
    /// ExifData of this arena alive: the buffer starts over only when none is.
    size_t alive;
    size_t overflows;
    ExifMem *mem;
} Arena;

static _Thread_local Arena arena;
static pthread_key_t arenaKey;
static pthread_once_t arenaKeyOnce = PTHREAD_ONCE_INIT;

static void arena_thread_ended(void *unused) {
    (void)unused;
    if (arena.mem) exif_mem_unref(arena.mem);
    free(arena.base);
    memset(&arena, 0, sizeof arena);
}

static void arena_make_key(void) {
    pthread_key_create(&arenaKey, arena_thread_ended);
}

static size_t rounded(size_t size) {
    return (size + HEADER - 1) / HEADER * HEADER;
}

static void *arena_alloc(ExifLong size) {
    size_t need = HEADER + rounded(size);
    BlockHeader *header;
    if (arena.base && need <= ARENA_CAPACITY - arena.used) {
        header = (BlockHeader *)(arena.base + arena.used);
        arena.used += need;
        memset(header, 0, need);
    } else {
        header = calloc(1, HEADER + (size_t)size);
        if (!header) return NULL;
        header->fromHeap = 1;
        arena.overflows++;
    }
    header->size = size;
    return (unsigned char *)header + HEADER;
}

static void arena_free(void *pointer) {
    if (!pointer) return;
    BlockHeader *header = (BlockHeader *)((unsigned char *)pointer - HEADER);
    if (header->fromHeap) {
        free(header);
    } else if ((unsigned char *)header + HEADER + rounded(header->size) == arena.base + arena.used) {
        // The last block: its space is used again.
        arena.used -= HEADER + rounded(header->size);
    }
}

static void *arena_realloc(void *pointer, ExifLong size) {
    if (!pointer) return arena_alloc(size);
    BlockHeader *header = (BlockHeader *)((unsigned char *)pointer - HEADER);
    if (size <= header->size) {
        header->size = size;
        return pointer;
    }
    void *moved = arena_alloc(size);
    if (!moved) return NULL;
    memcpy(moved, pointer, header->size);
    arena_free(pointer);
    return moved;
}

ExifData *shoebox_exif_arena_data_new(void) {
    if (!arena.mem) {
        pthread_once(&arenaKeyOnce, arena_make_key);
        // The ExifMem first, while there is no buffer: libexif allocates it with these functions,
        // and it must outlive every start over of the buffer.
        arena.mem = exif_mem_new(arena_alloc, arena_realloc, arena_free);
        arena.base = malloc(ARENA_CAPACITY);
        arena.overflows = 0;
        if (!arena.base || !arena.mem) {
            arena_thread_ended(NULL);
            return NULL;
        }
        // Non-NULL, so the destructor runs when the thread ends.
        pthread_setspecific(arenaKey, &arena);
    }
    if (arena.alive == 0) arena.used = 0;
    ExifData *data = exif_data_new_mem(arena.mem);
    if (!data) return NULL;
    arena.alive++;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    return data;
}

void shoebox_exif_arena_data_free(ExifData *data) {
    if (!data) return;
    exif_data_unref(data);
    if (arena.alive > 0 && --arena.alive == 0) arena.used = 0;
}

size_t shoebox_exif_arena_used(void) {
    return arena.used;
}

size_t shoebox_exif_arena_overflows(void) {
    return arena.overflows;
}
