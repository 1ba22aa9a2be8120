/* The check counters and helpers shared by the C tests of the ayo C API. */
#define _POSIX_C_SOURCE 200809L /* opendir, unlink, rmdir */
#include "check.h"

#include "ayo.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

long check_passed = 0;
long check_failed = 0;
const char *check_context = "";

int check_one(int ok, const char *expr, const char *file, int line) {
  if (ok) {
    check_passed++;
  } else {
    check_failed++;
    fprintf(stderr, "FAIL %s:%d [%s] %s\n", file, line, check_context, expr);
  }
  return ok;
}

int check_result(int got, int want, const char *expr, const char *file, int line) {
  if (got == want) {
    check_passed++;
    return 1;
  }
  check_failed++;
  {
    const char *g = ayo_result_name(got), *w = ayo_result_name(want);
    fprintf(stderr, "FAIL %s:%d [%s] %s returned %s (%d), expected %s (%d)\n", file, line,
            check_context, expr, g ? g : "?", got, w ? w : "?", want);
  }
  return 0;
}

int check_report(const char *name) {
  /* The plain closing line that CI reads. */
  printf("%s: %ld passed, %ld failed\n", name, check_passed, check_failed);
  return check_failed == 0 && check_passed > 0 ? 0 : 1;
}

ayo_rules *check_rules_of(const char *preset) {
  ayo_rules *r = NULL;
  CHECK_RESULT(ayo_rules_new_preset(preset, &r), AYO_RESULT_OK);
  return r;
}

static int contains(const char *text, const char *needle) {
  if (strstr(text, needle) == NULL) {
    fprintf(stderr, "  (last error: \"%s\", wanted \"%s\")\n", text, needle);
    return 0;
  }
  return 1;
}

int check_rules_error_contains(const ayo_rules *r, const char *needle) {
  char buf[1024];
  size_t n;
  if (ayo_rules_last_error(r, buf, sizeof buf, &n) != AYO_RESULT_OK) return 0;
  return contains(buf, needle);
}

int check_database_error_contains(const char *needle) {
  char buf[1024];
  size_t n;
  if (ayo_database_last_error(buf, sizeof buf, &n) != AYO_RESULT_OK) return 0;
  return contains(buf, needle);
}

/* Removes every file of `dir`, then `dir`. */
void check_remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[512];
  if (!d) return;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (unlink(path) != 0) check_remove_dir(path);
  }
  closedir(d);
  rmdir(dir);
}
