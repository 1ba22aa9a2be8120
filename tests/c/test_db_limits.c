/*
 * Endgame databases at their limits, through the ayo C API:
 *
 * - out of memory: in a forked child whose address space is capped with
 *   setrlimit(RLIMIT_AS) 256 MiB above what it already maps, a small build
 *   works and a build of 40 seeds fails with AYO_RESULT_DATABASE_OUT_OF_MEMORY
 *   and a detail naming the bytes, instead of aborting; the parent checks that
 *   the child exited normally (no signal), and that the layers the child
 *   finished are whole (no partial file, they open);
 * - a layer missing in the middle: with layer 5 of 0..=8 deleted,
 *   ayo_database_open fails with AYO_RESULT_DATABASE_MISSING naming the file
 *   and the layers found, and ayo_database_open_up_to below the gap works.
 *
 * usage: test_db_limits [--no-rlimit]
 * --no-rlimit skips the out-of-memory part (for the sanitizers, whose
 * allocators report a failed allocation as an error and stop).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_DATABASE_MISSING == 111, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_IO == 113, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_OUT_OF_MEMORY == 114, "stable result numbers");

static char top[256]; /* the temporary directory of this run */


/* Files in `dir` whose name ends in `suffix`. */
static int count_files(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = 0;
  if (!d) return -1;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name), s = strlen(suffix);
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && l >= s &&
        strcmp(e->d_name + l - s, suffix) == 0)
      found++;
  }
  closedir(d);
  return found;
}

/* The bytes of address space this process maps (VmSize), or 0. */
static unsigned long long vm_bytes(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  unsigned long long kb = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmSize: %llu kB", &kb) == 1) break;
  fclose(f);
  return kb * 1024;
}

/* The child of test_out_of_memory: exit status 0 when every check passed. */
static int oom_child(const char *small_dir, const char *big_dir) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *small = NULL, *big = NULL;
  uint32_t max = 0;
  struct rlimit lim;
  unsigned long long vm = vm_bytes();
  if (vm == 0 || getrlimit(RLIMIT_AS, &lim) != 0) return 10;
  lim.rlim_cur = (rlim_t)(vm + 256ull * 1024 * 1024);
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 11;
  CHECK_RESULT(ayo_database_build(r, 6, small_dir, 1, &small), AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_build(r, 40, big_dir, 1, &big), AYO_RESULT_DATABASE_OUT_OF_MEMORY);
  CHECK(big == NULL);
  CHECK(check_database_error_contains("out of memory: could not allocate "));
  CHECK(check_database_error_contains(" bytes ("));
  CHECK(check_database_error_contains(" of layer "));
  /* The small database and the rules handle still work. */
  CHECK_RESULT(ayo_database_max_seeds(small, &max), AYO_RESULT_OK);
  CHECK(max == 6);
  ayo_database_free(small);
  ayo_rules_free(r);
  fflush(stdout);
  fflush(stderr);
  return check_failed == 0 ? 0 : 1;
}

static void test_out_of_memory(void) {
  char small_dir[512], big_dir[512];
  int status = 0;
  pid_t pid;
  snprintf(small_dir, sizeof small_dir, "%s/small", top);
  snprintf(big_dir, sizeof big_dir, "%s/big", top);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    perror("fork");
    CHECK(0);
    return;
  }
  if (pid == 0) _exit(oom_child(small_dir, big_dir));
  CHECK(waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status)) fprintf(stderr, "  (the child died of signal %d)\n", WTERMSIG(status));
  CHECK(!WIFSIGNALED(status));
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* The layers the child finished are whole: no partial file, and they open. */
  CHECK(count_files(big_dir, ".partial") == 0);
  {
    int layers = count_files(big_dir, ".ayodb");
    ayo_rules *r = check_rules_of("ayoayo");
    ayo_database *db = NULL;
    uint32_t max = 0;
    CHECK(layers > 6);
    CHECK_RESULT(ayo_database_open(r, big_dir, &db), AYO_RESULT_OK);
    CHECK_RESULT(ayo_database_max_seeds(db, &max), AYO_RESULT_OK);
    CHECK((int)max == layers - 1);
    ayo_database_free(db);
    ayo_rules_free(r);
  }
}

static void test_layer_gap(void) {
  char dir[512], gone[600];
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *db = NULL;
  uint32_t max = 0;
  snprintf(dir, sizeof dir, "%s/gap", top);
  CHECK_RESULT(ayo_database_build(r, 8, dir, 1, &db), AYO_RESULT_OK);
  ayo_database_free(db);
  db = NULL;
  snprintf(gone, sizeof gone, "%s/ayoayo_target_none_.n05.ayodb", dir);
  CHECK(unlink(gone) == 0);
  CHECK_RESULT(ayo_database_open(r, dir, &db), AYO_RESULT_DATABASE_MISSING);
  CHECK(db == NULL);
  CHECK(check_database_error_contains(gone));
  CHECK(check_database_error_contains("layer 5 is missing"));
  CHECK(check_database_error_contains("layers found: 0 to 4, 6 to 8"));
  /* Below the gap every layer is there. */
  CHECK_RESULT(ayo_database_open_up_to(r, dir, 4, &db), AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_max_seeds(db, &max), AYO_RESULT_OK);
  CHECK(max == 4);
  ayo_database_free(db);
  db = NULL;
  /* Up to a layer past the gap: the missing layer is named. */
  CHECK_RESULT(ayo_database_open_up_to(r, dir, 6, &db), AYO_RESULT_DATABASE_MISSING);
  CHECK(db == NULL);
  CHECK(check_database_error_contains("no database layer for 5 seeds"));
  CHECK_RESULT(ayo_database_open_up_to(r, dir, AYO_MAX_DATABASE_SEEDS + 1, &db), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_database_open_up_to(r, NULL, 4, &db), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_open_up_to(r, dir, 4, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_open_up_to(NULL, dir, 4, &db), AYO_RESULT_NULL_ARGUMENT);
  ayo_rules_free(r);
}

/* The child of test_player_out_of_memory: a depth-7 alpha-beta player's
 * table (2^22 entries, 64 MiB) cannot be had under a limit 16 MiB above what
 * the process maps; the player and the game stay usable. */
static int player_oom_child(void) {
  ayo_rules *r = check_rules_of("oware");
  ayo_game *g = NULL;
  ayo_player *p = NULL;
  uint8_t pit = 0;
  char buf[512];
  size_t n = 0;
  struct rlimit lim;
  rlim_t cur;
  unsigned long long vm;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_player_new_kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 7, 1, &p),
               AYO_RESULT_OK);
  vm = vm_bytes();
  if (vm == 0 || getrlimit(RLIMIT_AS, &lim) != 0) return 10;
  cur = lim.rlim_cur;
  lim.rlim_cur = (rlim_t)(vm + 16ull * 1024 * 1024);
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 11;
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_PLAYER_OUT_OF_MEMORY);
  CHECK_RESULT(ayo_player_last_error(p, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strstr(buf, "out of memory: could not allocate 67108864 bytes") != NULL);
  CHECK(strstr(buf, "transposition table") != NULL);
  /* With the limit lifted the same player searches. */
  lim.rlim_cur = cur;
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 12;
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_OK);
  CHECK(pit >= 1 && pit <= 6);
  ayo_player_free(p);
  ayo_game_free(g);
  ayo_rules_free(r);
  fflush(stdout);
  fflush(stderr);
  return check_failed == 0 ? 0 : 1;
}

static void test_player_out_of_memory(void) {
  int status = 0;
  pid_t pid;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    perror("fork");
    CHECK(0);
    return;
  }
  if (pid == 0) _exit(player_oom_child());
  CHECK(waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status)) fprintf(stderr, "  (the child died of signal %d)\n", WTERMSIG(status));
  CHECK(!WIFSIGNALED(status));
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv) {
  const char *tmp = getenv("TMPDIR");
  int no_rlimit = argc > 1 && strcmp(argv[1], "--no-rlimit") == 0;
  snprintf(top, sizeof top, "%s/ayo-db-limits-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(top) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  test_layer_gap();
  if (!no_rlimit) {
    test_out_of_memory();
    test_player_out_of_memory();
  }
  check_remove_dir(top);
  return check_report("c-db-limits");
}
