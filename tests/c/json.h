/*
 * A small JSON reader for the C and C++ tests of the ayo C API (part of the
 * ayo project, same licence). It parses a whole document into a tree: enough
 * for the files in tests/vectors, strict about syntax (RFC 8259), not tuned for
 * speed. Not part of the library.
 */
#ifndef AYO_TEST_JSON_H
#define AYO_TEST_JSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum json_type {
  JSON_NULL,
  JSON_BOOL,
  JSON_NUMBER,
  JSON_STRING,
  JSON_ARRAY,
  JSON_OBJECT
} json_type;

typedef struct json json;

/* One value. Arrays and objects own `count` children in `items`; objects also
 * own a key per child in `keys`. Strings are NUL-terminated UTF-8. */
struct json {
  json_type type;
  int boolean;
  double number;
  char *string;
  size_t count;
  json *items;
  char **keys;
};

/* Parses `text`. Returns a tree to release with json_free, or NULL with a
 * message (including the byte offset) in `err`. */
json *json_parse(const char *text, char *err, size_t err_len);

/* Reads and parses a file; NULL with a message in `err` on failure. */
json *json_parse_file(const char *path, char *err, size_t err_len);

void json_free(json *value);

/* The member `key` of an object, or NULL (also when `obj` is not an object). */
const json *json_get(const json *obj, const char *key);

/* Element `i` of an array, or NULL. */
const json *json_at(const json *arr, size_t i);

/* The number as an int (the JSON number must be an integer). */
int json_int(const json *value);

#ifdef __cplusplus
}
#endif

#endif
