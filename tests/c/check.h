/* The check counters shared by the C tests of the ayo C API. */
#ifndef AYO_TEST_CHECK_H
#define AYO_TEST_CHECK_H

#include <stdio.h>

extern long check_passed;
extern long check_failed;

/* Counts one check; prints the failing expression with its place and the
 * context (`check_context`, e.g. the vector's name) when it fails. */
#define CHECK(cond) check_one((cond) != 0, #cond, __FILE__, __LINE__)

/* Checks that an ayo call returns `want`, printing both names otherwise. */
#define CHECK_RESULT(call, want) check_result((int)(call), (int)(want), #call, __FILE__, __LINE__)

extern const char *check_context;

int check_one(int ok, const char *expr, const char *file, int line);
int check_result(int got, int want, const char *expr, const char *file, int line);

struct ayo_rules;

/* The rules of `preset`, checked to be made (NULL if not). */
struct ayo_rules *check_rules_of(const char *preset);

/* Whether the last error of `r` contains `needle` (prints it when not). */
int check_rules_error_contains(const struct ayo_rules *r, const char *needle);

/* Whether this thread's last database error (ayo_database_last_error)
 * contains `needle` (prints it when not). */
int check_database_error_contains(const char *needle);
/* Removes every file of `dir` (and its folders), then `dir`. */
void check_remove_dir(const char *dir);

/* Prints "<name>: N passed, M failed" and returns the process exit code. */
int check_report(const char *name);

#endif
