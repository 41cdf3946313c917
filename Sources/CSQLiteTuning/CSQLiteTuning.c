#include "CSQLiteTuning.h"

#include <sqlite3.h>
#include <string.h>

int shoebox_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// The bytes of the first `characters` characters of `text` (`length` bytes), counted as SQLite's
/// `substr` counts them: a byte of 0xC0 or more and the continuation bytes after it are one.
static int prefix_bytes(const unsigned char *text, int length, int characters) {
    int at = 0;
    while (characters > 0 && at < length) {
        if (text[at++] >= 0xC0) {
            while (at < length && (text[at] & 0xC0) == 0x80) at++;
        }
        characters--;
    }
    return at;
}

/// The month names for `substr(captured, 6, 2)` as the triggers' CASE gives them, "" for none.
static const char *month_words(const unsigned char *captured, int length) {
    static const char *const names[] = {
        "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
        "august aug", "september sep sept", "october oct", "november nov", "december dec",
    };
    int start = prefix_bytes(captured, length, 5);
    int end = start + prefix_bytes(captured + start, length - start, 2);
    if (end - start != 2) return "";
    unsigned char tens = captured[start], ones = captured[start + 1];
    if (tens < '0' || tens > '1' || ones < '0' || ones > '9') return "";
    int month = (tens - '0') * 10 + (ones - '0');
    return month >= 1 && month <= 12 ? names[month - 1] : "";
}

/// shoebox_search_words(city, region, country, make, model, captured, path): the SQL expression
/// coalesce(city, '') || ' ' || … || ' ' || <month CASE> || ' ' || substr(captured, 1, 10)
/// || ' ' || CAST(path AS TEXT), NULL when `captured` or `path` is NULL (as `||` gives).
static void search_words(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    if (sqlite3_value_type(values[5]) == SQLITE_NULL || sqlite3_value_type(values[6]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    const unsigned char *texts[7];
    int lengths[7];
    for (int i = 0; i < 7; i++) {
        texts[i] = sqlite3_value_text(values[i]);
        lengths[i] = sqlite3_value_bytes(values[i]);
        if (!texts[i] && lengths[i] > 0) {
            sqlite3_result_error_nomem(context);
            return;
        }
    }
    const char *month = month_words(texts[5], lengths[5]);
    int monthLength = (int)strlen(month);
    int dayLength = prefix_bytes(texts[5], lengths[5], 10);
    sqlite3_int64 total = (sqlite3_int64)lengths[0] + lengths[1] + lengths[2] + lengths[3] + lengths[4]
        + monthLength + dayLength + lengths[6] + 7;
    char *out = sqlite3_malloc64((sqlite3_uint64)total + 1);
    if (!out) {
        sqlite3_result_error_nomem(context);
        return;
    }
    char *at = out;
    const unsigned char *parts[8] = {texts[0], texts[1], texts[2], texts[3], texts[4], (const unsigned char *)month, texts[5], texts[6]};
    int partLengths[8] = {lengths[0], lengths[1], lengths[2], lengths[3], lengths[4], monthLength, dayLength, lengths[6]};
    for (int i = 0; i < 8; i++) {
        if (i > 0) *at++ = ' ';
        if (partLengths[i] > 0) {
            memcpy(at, parts[i], (size_t)partLengths[i]);
            at += partLengths[i];
        }
    }
    *at = 0;
    sqlite3_result_text64(context, out, (sqlite3_uint64)total, sqlite3_free, SQLITE_UTF8);
}

int shoebox_sqlite_add_search_words(struct sqlite3 *db) {
    return sqlite3_create_function_v2(
        db, "shoebox_search_words", 7, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
        search_words, NULL, NULL, NULL);
}
