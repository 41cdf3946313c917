#ifndef SHOEBOX_CSQLITETUNING_H
#define SHOEBOX_CSQLITETUNING_H

// SQLite's process-wide settings, which it takes through the variadic `sqlite3_config` that Swift
// cannot call.

/// Turns off SQLite's memory statistics, which Shoebox never reads. With them on (the default),
/// every allocation of every connection takes one process-wide mutex: an index run's writer and
/// the reader beside it spent a fifth of their time waiting on each other there. Must run before
/// the first connection is opened; returns SQLite's result code (SQLITE_MISUSE when too late).
int shoebox_sqlite_disable_memory_statistics(void);

struct sqlite3;

/// Adds `shoebox_search_words(city, region, country, make, model, captured, path)` to the
/// connection `db`: the words a photo row is found by, byte for byte what the search triggers'
/// SQL expression gives (`LibraryStore.searchWords`), built in one allocation rather than in one
/// per `||`. Returns SQLite's result code.
int shoebox_sqlite_add_search_words(struct sqlite3 *db);

#endif
