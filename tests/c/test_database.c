/*
 * Endgame databases (ayo_database) and the perfect player of the ayo C API:
 * building a small database into a fresh temporary directory and opening it
 * again, verifying it, perfect players winning every won position against
 * level 1, the search above the databases, the fallback on rules the
 * databases cannot solve (olopon: a move limit), damaged, truncated, mismatched and
 * missing layer files, I/O errors, the misuse matrix (NULL for every pointer
 * argument, bad numbers), the database freed before its players, two
 * players sharing one database on two threads, and the bounds of a position
 * under every scoring of endless play.
 *
 * usage: test_database [--quick]
 * --quick does one exact search above the databases instead of several and
 * skips the budget fallback (each exact search runs on a thread of its own
 * with a large reserved stack, which is slow under valgrind); ci/c.sh runs
 * it in full against the shared library and under the sanitizers.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_NOT_PERFECT == 105, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_UNSUPPORTED_RULES == 110, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_MISSING == 111, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_DAMAGED == 112, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_IO == 113, "stable result numbers");
_Static_assert(AYO_RESULT_DATABASE_RULES_MISMATCH == 115, "stable result numbers");
_Static_assert(AYO_PERFECT_SOURCE_NONE == 0 && AYO_PERFECT_SOURCE_DATABASE == 1 && AYO_PERFECT_SOURCE_SEARCH == 2 &&
                   AYO_PERFECT_SOURCE_FALLBACK == 3,
               "stable source numbers");
_Static_assert(AYO_BASIS_PROVEN_DATABASE == 0 && AYO_BASIS_ESTIMATE == 5 && AYO_BASIS_CONVENTION == 6,
               "stable basis numbers");

#define MAX_SEEDS 8
/* Boards of 0..=8 seeds: sum of C(n + 11, 11) = C(20, 12). */
#define BOARDS_TO_8 125970u

#define SENTINEL_PTR ((void *)&sentinel_target)
static int sentinel_target;

static char top[256]; /* the temporary directory of this run */
static int quick;     /* --quick: fewer exact searches (for valgrind) */


/* After a successful database call, this thread's detail is empty. */
static int database_error_empty(void) {
  char buf[512];
  size_t n = 99;
  return ayo_database_last_error(buf, sizeof buf, &n) == AYO_RESULT_OK && n == 0;
}

static ayo_player *perfect(const ayo_database *db, ayo_budget_kind budget_kind, uint64_t amount) {
  ayo_player *p = NULL;
  CHECK_RESULT(ayo_player_new_perfect(db, budget_kind, amount, 1, &p), AYO_RESULT_OK);
  return p;
}

static ayo_perfect_source source_of(const ayo_player *p) {
  ayo_perfect_source s = (ayo_perfect_source)77;
  CHECK_RESULT(ayo_player_last_source(p, &s), AYO_RESULT_OK);
  return s;
}

/* A subdirectory of the run's directory. */
static void path_in(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", top, name); }

/* The path of the layer file for `n` seeds in `dir` (the one file whose
 * name ends in ".nNN.ayodb"); 1 when found. */
static int layer_file(const char *dir, int n, char *out, size_t len) {
  char suffix[32];
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = 0;
  if (!d) return 0;
  snprintf(suffix, sizeof suffix, ".n%02d.ayodb", n);
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name), s = strlen(suffix);
    if (l > s && strcmp(e->d_name + l - s, suffix) == 0) {
      snprintf(out, len, "%s/%s", dir, e->d_name);
      found++;
    }
  }
  closedir(d);
  return found == 1;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = NULL;
  char buf[4096];
  size_t n;
  int ok = in != NULL && (out = fopen(to, "wb")) != NULL;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = 0;
  return ok;
}

/* Flips every bit of the byte at `offset` (from the end when negative). */
static int flip_byte(const char *path, long offset) {
  FILE *f = fopen(path, "r+b");
  int c, ok;
  if (!f) return 0;
  ok = fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET) == 0 && (c = fgetc(f)) != EOF &&
       fseek(f, -1, SEEK_CUR) == 0 && fputc(c ^ 0xFF, f) != EOF;
  return fclose(f) == 0 && ok;
}

static int analyze(ayo_player *p, const ayo_game *g, ayo_analysis *a) {
  uint8_t pv[64];
  size_t pv_len = 0;
  return CHECK_RESULT(ayo_player_analyze(p, g, a, pv, sizeof pv, &pv_len), AYO_RESULT_OK) &&
         CHECK(pv_len == a->pv_len && (a->best == 0 || pv[0] == a->best));
}

static int is_legal(const ayo_game *g, uint8_t pit) {
  uint8_t moves[AYO_MAX_LEGAL_MOVES];
  size_t n = 0, i;
  if (ayo_game_legal_moves(g, moves, sizeof moves, &n) != AYO_RESULT_OK) return 0;
  for (i = 0; i < n; i++) {
    if (moves[i] == pit) return 1;
  }
  return 0;
}

/* Plays `perfect_side` against `other` to the end (at most `cap` plies);
 * 1 when every choice was legal. */
static int play_out(ayo_player *perfect_p, ayo_side perfect_side, ayo_player *other, ayo_game *g, uint32_t cap) {
  ayo_status st = AYO_STATUS_ONGOING;
  if (ayo_game_set_ply_cap(g, cap) != AYO_RESULT_OK) return 0;
  while (ayo_game_status(g, &st) == AYO_RESULT_OK && st == AYO_STATUS_ONGOING) {
    ayo_side side;
    uint8_t pit = 0;
    if (ayo_game_to_move(g, &side) != AYO_RESULT_OK) return 0;
    if (!CHECK_RESULT(ayo_player_choose(side == perfect_side ? perfect_p : other, g, &pit), AYO_RESULT_OK)) return 0;
    if (!CHECK(is_legal(g, pit))) return 0;
    if (!CHECK_RESULT(ayo_game_play(g, pit), AYO_RESULT_OK)) return 0;
  }
  return 1;
}

/* Loads a position of `seeds` seeds spread by `*rng` over the pits, the
 * rest of the 48 split between the stores, `to_move` to move. */
static int load_endgame(ayo_game *g, unsigned seeds, ayo_side to_move, uint64_t *rng) {
  ayo_setup s;
  unsigned i, rest = 48 - seeds;
  memset(&s, 0, sizeof s);
  for (i = 0; i < seeds; i++) {
    *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
    s.board[(*rng >> 33) % AYO_PITS]++;
  }
  s.stores[0] = (uint8_t)(rest / 2 + (rest % 2) * (to_move == AYO_SIDE_SOUTH));
  s.stores[1] = (uint8_t)(rest - s.stores[0]);
  s.to_move = (uint8_t)to_move;
  s.ply = 60;
  return ayo_game_load_setup(g, &s) == AYO_RESULT_OK;
}

static void test_results(void) {
  const int codes[] = {105, 110, 111, 112, 113, 114, 115};
  size_t i;
  check_context = "results";
  for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    char buf[256];
    size_t n = 0;
    CHECK(ayo_result_name(codes[i]) != NULL);
    CHECK_RESULT(ayo_result_message(codes[i], buf, sizeof buf, &n), AYO_RESULT_OK);
    CHECK(n > 0 && n == strlen(buf));
  }
  CHECK(strcmp(ayo_result_name(AYO_RESULT_DATABASE_DAMAGED), "AYO_RESULT_DATABASE_DAMAGED") == 0);
  CHECK(strcmp(ayo_result_name(AYO_RESULT_NOT_PERFECT), "AYO_RESULT_NOT_PERFECT") == 0);
  CHECK(strcmp(ayo_result_name(AYO_RESULT_DATABASE_RULES_MISMATCH), "AYO_RESULT_DATABASE_RULES_MISMATCH") == 0);
  CHECK(ayo_result_name(107) == NULL && ayo_result_name(109) == NULL && ayo_result_name(116) == NULL);
}

/* Builds the databases to 8 seeds, opens them again, verifies them; returns
 * the opened handle (the built one is freed). */
static ayo_database *test_build_and_open(const char *dir) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *built = NULL, *opened = NULL, *again = NULL;
  uint32_t max = 0;
  uint64_t checked = 0, failed = 99;
  char file[512];
  struct stat before, after;
  check_context = "build and open";
  /* Nothing there yet. */
  CHECK_RESULT(ayo_database_open(r, dir, &opened), AYO_RESULT_DATABASE_MISSING);
  CHECK(opened == NULL);
  CHECK(check_database_error_contains("no database layer for 0 seeds"));
  CHECK_RESULT(ayo_database_build(r, MAX_SEEDS, dir, 1, &built), AYO_RESULT_OK);
  CHECK(built != NULL);
  CHECK(database_error_empty());
  CHECK_RESULT(ayo_database_max_seeds(built, &max), AYO_RESULT_OK);
  CHECK(max == MAX_SEEDS);
  CHECK(layer_file(dir, 0, file, sizeof file) && layer_file(dir, MAX_SEEDS, file, sizeof file));
  CHECK(!layer_file(dir, MAX_SEEDS + 1, file, sizeof file));
  /* The rules' target does not matter: ayoayo without a target opens them. */
  {
    ayo_rules *no_target = check_rules_of("ayoayo");
    CHECK_RESULT(ayo_rules_set(no_target, "target", "none"), AYO_RESULT_OK);
    CHECK_RESULT(ayo_database_open(no_target, dir, &opened), AYO_RESULT_OK);
    CHECK_RESULT(ayo_database_max_seeds(opened, &max), AYO_RESULT_OK);
    CHECK(max == MAX_SEEDS);
    ayo_rules_free(no_target);
  }
  /* A second build reuses the finished files (a rebuilt layer would be
   * renamed into place: a new inode). */
  CHECK(layer_file(dir, MAX_SEEDS, file, sizeof file) && stat(file, &before) == 0);
  CHECK_RESULT(ayo_database_build(r, MAX_SEEDS, dir, 1, &again), AYO_RESULT_OK);
  CHECK(stat(file, &after) == 0 && before.st_ino == after.st_ino && before.st_mtime == after.st_mtime);
  /* A build to fewer seeds loads fewer layers. */
  ayo_database_free(again);
  again = NULL;
  CHECK_RESULT(ayo_database_build(r, 3, dir, 1, &again), AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_max_seeds(again, &max), AYO_RESULT_OK);
  CHECK(max == 3);
  ayo_database_free(again);
  /* Every stored value checks out against its successors. */
  CHECK_RESULT(ayo_database_verify(opened, 1, &checked, &failed), AYO_RESULT_OK);
  CHECK(checked == BOARDS_TO_8);
  CHECK(failed == 0);
  checked = failed = 77;
  CHECK_RESULT(ayo_database_verify(opened, 0, &checked, &failed), AYO_RESULT_OK); /* 0: every core */
  CHECK(checked == BOARDS_TO_8 && failed == 0);
  /* The built and the opened databases give the same values. */
  {
    ayo_player *a = perfect(built, AYO_BUDGET_KIND_NODES, 100000), *b = perfect(opened, AYO_BUDGET_KIND_NODES, 100000);
    ayo_game *g = NULL;
    uint64_t rng = 5;
    int i, same = 1;
    CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
    for (i = 0; i < 20; i++) {
      ayo_analysis x, y;
      if (!load_endgame(g, 3 + (unsigned)(i % 6), (ayo_side)(i % 2), &rng)) continue;
      if (analyze(a, g, &x) && analyze(b, g, &y)) {
        same &= x.best == y.best && x.value.centiseeds == y.value.centiseeds && x.moves_count == y.moves_count;
      }
    }
    CHECK(same);
    ayo_game_free(g);
    ayo_player_free(a);
    ayo_player_free(b);
  }
  ayo_database_free(built);
  ayo_rules_free(r);
  return opened;
}

/* The perfect player wins every won position, and never loses a drawn one,
 * against level 1 (random); its values are exact and from the databases. */
static void test_perfect_play(const ayo_database *db, const char *dir) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_game *g = NULL;
  ayo_player *p = perfect(db, AYO_BUDGET_KIND_NODES, 100000), *random = NULL;
  uint64_t rng = 12345;
  int tries, won = 0, drawn = 0, lost = 0;
  char name[128];
  size_t n;
  check_context = "perfect play";
  CHECK_RESULT(ayo_player_new_level("1", 7, &random), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK(source_of(p) == AYO_PERFECT_SOURCE_NONE);
  CHECK_RESULT(ayo_player_name(p, name, sizeof name, &n), AYO_RESULT_OK);
  CHECK(strncmp(name, "perfect(db<=8", 13) == 0);
  for (tries = 0; tries < 200 && won + drawn < 24; tries++) {
    ayo_analysis a;
    ayo_status st;
    ayo_side mover = (ayo_side)(tries % 2);
    ayo_outcome out;
    uint8_t chosen = 0;
    size_t i;
    int best = INT32_MIN;
    if (!load_endgame(g, 3 + (unsigned)(tries % 6), mover, &rng)) continue;
    if (ayo_game_status(g, &st) != AYO_RESULT_OK || st != AYO_STATUS_ONGOING) continue;
    if (!analyze(p, g, &a)) continue;
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_DATABASE);
    /* Values proven by the databases (a proven draw is 0; no board of
     * ayoayo to 8 seeds depends on endless play). */
    CHECK(a.value.bound == AYO_BOUND_EXACT && a.value.basis == AYO_BASIS_PROVEN_DATABASE &&
          a.value.proven == 1 && a.value.search_depth == 0);
    CHECK(a.best >= 1 && a.best <= 6);
    for (i = 0; i < a.moves_count; i++) {
      CHECK(a.moves[i].value.bound == AYO_BOUND_EXACT &&
            a.moves[i].value.basis == AYO_BASIS_PROVEN_DATABASE && a.moves[i].value.proven == 1);
      if (a.moves[i].value.centiseeds > best) best = a.moves[i].value.centiseeds;
    }
    CHECK(best == a.value.centiseeds);
    CHECK_RESULT(ayo_player_choose(p, g, &chosen), AYO_RESULT_OK);
    CHECK(chosen == a.best);
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_DATABASE);
    if (a.value.final_difference < 0) {
      lost++;
      continue;
    }
    if (!CHECK(play_out(p, mover, random, g, 400))) continue;
    if (!CHECK_RESULT(ayo_game_outcome(g, &out), AYO_RESULT_OK)) continue;
    if (a.value.final_difference > 0) {
      won++;
      if (!CHECK(out.winner == (ayo_winner)mover)) {
        fprintf(stderr, "  the perfect side (%d) did not win a position worth %+d\n", (int)mover,
                a.value.final_difference);
      }
    } else {
      drawn++;
      CHECK(out.winner == (ayo_winner)mover || out.winner == AYO_WINNER_DRAW);
    }
  }
  CHECK(won >= 10); /* the loop must have tried enough won positions */
  CHECK(lost > 0);  /* and seen lost ones, so the values are not all alike */
  printf("perfect play: %d won, %d drawn positions played out; %d lost ones skipped\n", won, drawn, lost);
  /* An ended game: no move, source none. */
  {
    ayo_analysis a;
    uint8_t pit = 42;
    CHECK_RESULT(ayo_game_load_position(g, "ayoayo 4,4,4,4,4,3/0,0,0,0,0,0 25-0 n 0 10"), AYO_RESULT_OK);
    CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_GAME_OVER);
    CHECK(pit == 42);
    CHECK(analyze(p, g, &a) && a.best == 0 && a.value.proven == 1);
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_NONE);
  }
  /* Above the databases: a player over the layers 0..=3 only must search
   * 4- and 5-seed positions exactly and find the values (and so the moves'
   * values) the full databases hold. With 1 ms per move it cannot solve
   * 10-seed positions and falls back to level max (alpha-beta on 1 ms).
   * (Each exact search runs on a thread of its own: few positions, so that
   * the test stays quick under valgrind.) */
  {
    int searched = 0, fell_back = 0;
    ayo_database *small = NULL;
    ayo_player *deep, *starved;
    CHECK_RESULT(ayo_database_build(r, 3, dir, 1, &small), AYO_RESULT_OK);
    deep = perfect(small, AYO_BUDGET_KIND_NODES, 1000000);
    starved = perfect(small, AYO_BUDGET_KIND_MILLISECONDS, 1);
    for (tries = 0; tries < 12 && searched < (quick ? 1 : 3); tries++) {
      ayo_analysis a, want;
      ayo_status st;
      size_t i;
      uint8_t pit = 0;
      if (!load_endgame(g, 4 + (unsigned)(tries % 2), (ayo_side)(tries % 2), &rng)) continue;
      if (ayo_game_status(g, &st) != AYO_RESULT_OK || st != AYO_STATUS_ONGOING) continue;
      if (quick) {
        /* One move's search, not a whole principal variation's. */
        CHECK_RESULT(ayo_player_choose(deep, g, &pit), AYO_RESULT_OK);
        CHECK(is_legal(g, pit));
        searched += source_of(deep) == AYO_PERFECT_SOURCE_SEARCH;
        continue;
      }
      if (!analyze(deep, g, &a) || !analyze(p, g, &want)) continue;
      if (source_of(deep) != AYO_PERFECT_SOURCE_SEARCH) continue; /* every move captured into layers 0..=3 */
      searched++;
      CHECK(a.value.bound == AYO_BOUND_EXACT && (a.value.proven == 1 || a.value.centiseeds == 0));
      CHECK(a.value.centiseeds == want.value.centiseeds && a.moves_count == want.moves_count);
      for (i = 0; i < a.moves_count && i < want.moves_count; i++) {
        CHECK(a.moves[i].relative_pit == want.moves[i].relative_pit &&
              a.moves[i].value.centiseeds == want.moves[i].value.centiseeds);
      }
    }
    CHECK(searched == (quick ? 1 : 3));
    for (tries = 0, searched = 0; !quick && tries < 12 && searched < 3; tries++) {
      uint8_t pit = 0;
      ayo_status st;
      if (!load_endgame(g, 10, (ayo_side)(tries % 2), &rng)) continue;
      if (ayo_game_status(g, &st) != AYO_RESULT_OK || st != AYO_STATUS_ONGOING) continue;
      CHECK_RESULT(ayo_player_choose(starved, g, &pit), AYO_RESULT_OK);
      CHECK(is_legal(g, pit));
      searched++;
      fell_back += source_of(starved) == AYO_PERFECT_SOURCE_FALLBACK;
    }
    CHECK(quick || fell_back >= 2);
    ayo_player_free(deep);
    ayo_player_free(starved);
    ayo_database_free(small);
  }
  ayo_player_free(random);
  ayo_player_free(p);
  ayo_game_free(g);
  ayo_rules_free(r);
}

/* Rules with a move limit cannot be solved; a perfect player shown other
 * rules than its databases' (oware, over ayoayo's) falls back to level max
 * (here alpha-beta on 20 ms). */
static void test_unsolvable_rules(const ayo_database *db, const char *dir) {
  const char *presets[] = {"ayo", "olopon"};
  const char *why[] = {"move limit", "move limit"};
  size_t i;
  char other[512];
  check_context = "unsolvable rules";
  path_in(other, sizeof other, "olopon");
  for (i = 0; i < 2; i++) {
    ayo_rules *r = check_rules_of(presets[i]);
    ayo_database *d = (ayo_database *)SENTINEL_PTR;
    CHECK_RESULT(ayo_database_build(r, 2, other, 1, &d), AYO_RESULT_DATABASE_UNSUPPORTED_RULES);
    CHECK(check_database_error_contains(why[i]));
    CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_UNSUPPORTED_RULES);
    CHECK(check_database_error_contains(why[i]));
    CHECK(d == (ayo_database *)SENTINEL_PTR);
    ayo_rules_free(r);
  }
  {
    ayo_rules *r = check_rules_of("oware");
    ayo_game *g = NULL;
    ayo_player *p = perfect(db, AYO_BUDGET_KIND_MILLISECONDS, 20);
    ayo_analysis a;
    int ply;
    CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
    for (ply = 0; ply < 8; ply++) {
      uint8_t pit = 0;
      CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_OK);
      CHECK(is_legal(g, pit));
      CHECK(source_of(p) == AYO_PERFECT_SOURCE_FALLBACK);
      CHECK_RESULT(ayo_game_play(g, pit), AYO_RESULT_OK);
    }
    CHECK(analyze(p, g, &a) && is_legal(g, a.best));
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_FALLBACK);
    ayo_player_free(p);
    ayo_game_free(g);
    ayo_rules_free(r);
  }
  /* Other solvable rules: their files are not these, so they are missing. */
  {
    ayo_rules *r = check_rules_of("ayoayo");
    ayo_database *d = (ayo_database *)SENTINEL_PTR;
    CHECK_RESULT(ayo_rules_set(r, "stuck_seeds", "own_side"), AYO_RESULT_OK);
    CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_MISSING);
    CHECK(d == (ayo_database *)SENTINEL_PTR);
    ayo_rules_free(r);
  }
}

/* The value of `record` over `db`: 1 and `*value` when solved within `nodes`. */
static int counted_value(const ayo_counted_database *db, const char *record, uint64_t nodes, int32_t *value) {
  ayo_rules *r = check_rules_of("olopon");
  ayo_game *g = NULL;
  uint8_t solved = 77;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_load_position(g, record), AYO_RESULT_OK);
  CHECK_RESULT(ayo_counted_database_value(db, g, nodes, &solved, value), AYO_RESULT_OK);
  CHECK(solved == 0 || solved == 1);
  CHECK(database_error_empty());
  ayo_game_free(g);
  ayo_rules_free(r);
  return solved == 1;
}

/* ayo_counted_database_verify and ayo_counted_database_value over `small`
 * (olopon layers 0..=4): values read from the layers and searched above
 * them, against a database that holds those boards (layers 0..=6), a budget
 * that runs out, other rules and NULL arguments. */
static void test_counted_verify_and_value(const ayo_rules *r, const ayo_counted_database *small) {
  char dir[512];
  ayo_counted_database *big = NULL;
  ayo_rules *plain = check_rules_of("ayoayo");
  ayo_game *g = NULL;
  uint64_t checked = 77, failed = 77;
  uint8_t solved = 77;
  int32_t v = 77, w = 77;
  size_t i;
  /* Positions of 3 seeds (held) and 6 (above the small layers), either
   * player to move, at no-capture counts 0, 5 and 39 (one move from the limit). */
  static const char *const records[] = {
      "olopon[target=none] 0,0,0,0,0,1/1,0,0,0,0,1 24-21 s 0 0",
      "olopon[target=none] 1,1,1,0,0,0/0,0,1,1,1,0 21-21 s 0 0",
      "olopon[target=none] 0,2,0,1,0,0/1,0,1,0,0,1 20-22 n 5 9",
      "olopon[target=none] 2,0,0,0,1,1/0,0,0,2,0,0 22-20 s 39 40",
      "olopon[target=none] 0,0,3,0,0,1/0,0,0,0,1,1 21-21 n 0 6",
  };
  check_context = "counted verify and value";
  /* Layers 0..=4 at every count 0..=40: C(16, 12) = 1,820 boards x 41. */
  CHECK_RESULT(ayo_counted_database_verify(small, 1, &checked, &failed), AYO_RESULT_OK);
  CHECK(checked == 1820u * 41u && failed == 0);
  checked = failed = 77;
  CHECK_RESULT(ayo_counted_database_verify(small, 0, &checked, &failed), AYO_RESULT_OK); /* 0: every core */
  CHECK(checked == 1820u * 41u && failed == 0);
  CHECK(database_error_empty());
  path_in(dir, sizeof dir, "olopon-counted-6");
  CHECK_RESULT(ayo_counted_database_build(r, 6, dir, 1, &big), AYO_RESULT_OK);
  if (!big) goto done;
  /* Read from the held layers, or searched above the small ones: the same. */
  for (i = 0; i < sizeof records / sizeof *records; i++) {
    v = w = 77;
    check_context = records[i];
    if (CHECK(counted_value(big, records[i], 1, &v)) && CHECK(counted_value(small, records[i], 0, &w))) {
      CHECK(v == w);
    }
  }
  check_context = "counted verify and value";
  /* South's one move captures North's 2 (+2), then keeps the last seed (+1). */
  CHECK(counted_value(small, records[0], 1, &v) && v == 3);
  /* One node is not enough above the layers: not solved, the value untouched. */
  v = 77;
  CHECK(!counted_value(small, records[1], 1, &v) && v == 77);
  /* Other rules: refused, with the detail; nothing written. */
  CHECK_RESULT(ayo_game_new(plain, &g), AYO_RESULT_OK);
  solved = 77;
  CHECK_RESULT(ayo_counted_database_value(small, g, 0, &solved, &v), AYO_RESULT_DATABASE_RULES_MISMATCH);
  CHECK(check_database_error_contains("ayoayo"));
  CHECK(solved == 77 && v == 77);
  CHECK_RESULT(ayo_counted_database_value(NULL, g, 0, &solved, &v), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_value(small, NULL, 0, &solved, &v), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_value(small, g, 0, NULL, &v), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_value(small, g, 0, &solved, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_verify(NULL, 1, &checked, &failed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_verify(small, 1, NULL, &failed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_verify(small, 1, &checked, NULL), AYO_RESULT_NULL_ARGUMENT);
  checked = failed = 77;
  CHECK_RESULT(ayo_counted_database_verify(small, AYO_MAX_THREADS + 1, &checked, &failed),
               AYO_RESULT_INVALID_ARGUMENT);
  CHECK(checked == 77 && failed == 77);
  CHECK(solved == 77 && v == 77);
done:
  ayo_game_free(g);
  ayo_counted_database_free(big);
  ayo_rules_free(plain);
}

/* Counted databases (rules with a move limit) and their perfect player. */
static void test_counted(void) {
  char dir[512];
  ayo_rules *r = check_rules_of("olopon");
  ayo_rules *plain = check_rules_of("ayoayo");
  ayo_counted_database *built = NULL, *opened = NULL, *none = (ayo_counted_database *)SENTINEL_PTR;
  ayo_player *p = NULL;
  ayo_game *g = NULL;
  ayo_analysis a;
  uint32_t max = 0;
  check_context = "counted databases";
  path_in(dir, sizeof dir, "olopon-counted");
  CHECK_RESULT(ayo_rules_set(r, "target", "none"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_counted_database_build(plain, 2, dir, 1, &none), AYO_RESULT_DATABASE_UNSUPPORTED_RULES);
  CHECK(check_database_error_contains("move limit"));
  CHECK_RESULT(ayo_counted_database_build(r, 49, dir, 1, &none), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_counted_database_open(r, 4, dir, &none), AYO_RESULT_DATABASE_MISSING);
  CHECK(none == (ayo_counted_database *)SENTINEL_PTR);
  CHECK_RESULT(ayo_counted_database_build(r, 4, dir, 1, &built), AYO_RESULT_OK);
  CHECK_RESULT(ayo_counted_database_open(r, 4, dir, &opened), AYO_RESULT_OK);
  CHECK_RESULT(ayo_counted_database_max_seeds(opened, &max), AYO_RESULT_OK);
  CHECK(max == 4);
  CHECK_RESULT(ayo_player_new_perfect_counted(opened, AYO_BUDGET_KIND_NODES, 10, 1, &p), AYO_RESULT_OK);
  test_counted_verify_and_value(r, opened);
  ayo_counted_database_free(opened);
  ayo_counted_database_free(built);
  /* South's one move captures North's 2 (+2); North must feed its last seed
   * into South's row; South cannot feed and keeps it (+1): 27-21. */
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_load_position(g, "olopon[target=none] 0,0,0,0,0,1/1,0,0,0,0,1 24-21 s 0 0"), AYO_RESULT_OK);
  if (CHECK(analyze(p, g, &a))) {
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_DATABASE);
    CHECK(a.best == 6 && a.value.proven == 1 && a.value.final_difference == 6);
  }
  /* The opening is far above 4 seeds: 10 nodes fall back to level max. */
  ayo_game_free(g);
  g = NULL;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  if (CHECK(analyze(p, g, &a))) {
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_FALLBACK);
    CHECK(is_legal(g, a.best));
  }
  ayo_player_free(p);
  ayo_game_free(g);
  ayo_rules_free(r);
  ayo_rules_free(plain);
}

/* Damaged, truncated, mismatched and missing files, and I/O errors: a code
 * and a message naming the file and the problem, never wrong values. */
static void test_damaged_files(void) {
  char dir[512], n2[512], n1[512], n0[512], saved[512], plain[512];
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *d = NULL;
  long size;
  check_context = "damaged files";
  path_in(dir, sizeof dir, "small");
  path_in(saved, sizeof saved, "saved-n02");
  CHECK_RESULT(ayo_database_build(r, 3, dir, 1, &d), AYO_RESULT_OK);
  ayo_database_free(d);
  d = NULL;
  if (!CHECK(layer_file(dir, 2, n2, sizeof n2) && layer_file(dir, 1, n1, sizeof n1) &&
             layer_file(dir, 0, n0, sizeof n0) && copy_file(n2, saved))) {
    ayo_rules_free(r);
    return;
  }
  size = file_size(n2);

  /* A flipped value byte: the value checksum. */
  CHECK(flip_byte(n2, -1));
  d = (ayo_database *)SENTINEL_PTR;
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(d == (ayo_database *)SENTINEL_PTR);
  CHECK(check_database_error_contains("value checksum mismatch"));
  CHECK(check_database_error_contains(".n02.ayodb"));
  /* Building over it refuses it too, and leaves it as it is. */
  CHECK_RESULT(ayo_database_build(r, 3, dir, 1, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("value checksum mismatch"));
  CHECK(file_size(n2) == size && d == (ayo_database *)SENTINEL_PTR);

  /* A flipped header byte (inside the rules record): the header checksum. */
  CHECK(copy_file(saved, n2) && flip_byte(n2, 17));
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("header checksum mismatch"));

  /* Truncated by one byte. */
  CHECK(copy_file(saved, n2) && truncate(n2, size - 1) == 0);
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("truncated"));
  /* Truncated inside the header. */
  CHECK(truncate(n2, 10) == 0);
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("ends inside its header"));

  /* Not a database file. */
  {
    FILE *f = fopen(n2, "wb");
    CHECK(f != NULL && fputs("hello, this is not a database file at all", f) >= 0 && fclose(f) == 0);
  }
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("bad magic"));

  /* Another layer's file under this layer's name. */
  CHECK(copy_file(n1, n2));
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_DAMAGED);
  CHECK(check_database_error_contains("holds the layer of 1 seeds"));

  /* Restored, it opens again; without layer 3 it holds 0..=2. */
  CHECK(copy_file(saved, n2));
  {
    char n3[512];
    uint32_t max = 0;
    CHECK(layer_file(dir, 3, n3, sizeof n3) && unlink(n3) == 0);
    d = NULL;
    CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_OK);
    CHECK(database_error_empty());
    CHECK_RESULT(ayo_database_max_seeds(d, &max), AYO_RESULT_OK);
    CHECK(max == 2);
    ayo_database_free(d);
    d = (ayo_database *)SENTINEL_PTR;
  }

  /* Without layer 0 nothing can be opened. */
  CHECK(unlink(n0) == 0);
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_DATABASE_MISSING);
  CHECK(check_database_error_contains(".n00.ayodb"));
  CHECK(d == (ayo_database *)SENTINEL_PTR);

  /* A regular file where the directory should be: an I/O error. */
  path_in(plain, sizeof plain, "plain-file");
  {
    FILE *f = fopen(plain, "wb");
    CHECK(f != NULL && fclose(f) == 0);
  }
  CHECK_RESULT(ayo_database_build(r, 2, plain, 1, &d), AYO_RESULT_DATABASE_IO);
  CHECK(check_database_error_contains("plain-file"));
  CHECK_RESULT(ayo_database_open(r, plain, &d), AYO_RESULT_DATABASE_IO);
  CHECK(check_database_error_contains("plain-file"));
  CHECK(d == (ayo_database *)SENTINEL_PTR);
  ayo_rules_free(r);
}

/* NULL for every pointer argument, and numbers out of range. */
static void test_misuse(const ayo_database *db, const char *dir) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *d = (ayo_database *)SENTINEL_PTR;
  ayo_player *p = (ayo_player *)SENTINEL_PTR, *level = NULL;
  uint32_t max = 77;
  uint64_t checked = 77, failed = 77;
  ayo_perfect_source s = (ayo_perfect_source)77;
  char bad_utf8[] = {'\xff', '\xfe', 0};
  char scratch[512];
  check_context = "misuse";
  path_in(scratch, sizeof scratch, "never");
  CHECK_RESULT(ayo_database_open(NULL, dir, &d), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_open(r, NULL, &d), AYO_RESULT_NULL_ARGUMENT);
  CHECK(check_database_error_contains("dir"));
  CHECK_RESULT(ayo_database_open(r, dir, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_open(r, bad_utf8, &d), AYO_RESULT_INVALID_UTF8);
  CHECK_RESULT(ayo_database_build(NULL, 2, scratch, 1, &d), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_build(r, 2, NULL, 1, &d), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_build(r, 2, scratch, 1, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_build(r, 2, bad_utf8, 1, &d), AYO_RESULT_INVALID_UTF8);
  CHECK_RESULT(ayo_database_build(r, AYO_MAX_DATABASE_SEEDS + 1, scratch, 1, &d), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(check_database_error_contains("max_seeds"));
  CHECK_RESULT(ayo_database_build(r, UINT32_MAX, scratch, 1, &d), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_database_build(r, 2, scratch, AYO_MAX_THREADS + 1, &d), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(check_database_error_contains("threads is 0 (every core) or 1 to 1024, not 1025")); /* Rust's and Python's text */
  CHECK_RESULT(ayo_database_build(r, 2, scratch, UINT32_MAX, &d), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(d == (ayo_database *)SENTINEL_PTR);
  CHECK(access(scratch, F_OK) != 0); /* refused before anything was written */
  ayo_database_free(NULL);

  CHECK_RESULT(ayo_database_max_seeds(NULL, &max), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_max_seeds(db, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK(max == 77);
  CHECK_RESULT(ayo_database_verify(NULL, 1, &checked, &failed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_verify(db, 1, NULL, &failed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_verify(db, 1, &checked, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_verify(db, AYO_MAX_THREADS + 1, &checked, &failed), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(checked == 77 && failed == 77);

  CHECK_RESULT(ayo_player_new_perfect(NULL, AYO_BUDGET_KIND_NODES, 1000, 0, &p), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_NODES, 1000, 0, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_NODES, 0, 0, &p), AYO_RESULT_BAD_BUDGET);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_NODES, AYO_MAX_BUDGET_NODES + 1, 0, &p),
               AYO_RESULT_BAD_BUDGET);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_DEPTH, 0, 0, &p), AYO_RESULT_BAD_BUDGET);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_MILLISECONDS, AYO_MAX_BUDGET_MS + 1, 0, &p),
               AYO_RESULT_BAD_BUDGET);
  CHECK_RESULT(ayo_player_new_perfect(db, (ayo_budget_kind)3, 5, 0, &p), AYO_RESULT_BAD_BUDGET);
  CHECK_RESULT(ayo_player_new_perfect(db, (ayo_budget_kind)-1, 5, 0, &p), AYO_RESULT_BAD_BUDGET);
  CHECK(p == (ayo_player *)SENTINEL_PTR);

  CHECK_RESULT(ayo_player_new_level("3", 1, &level), AYO_RESULT_OK);
  CHECK_RESULT(ayo_player_last_source(NULL, &s), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_player_last_source(level, &s), AYO_RESULT_NOT_PERFECT);
  CHECK(s == (ayo_perfect_source)77);
  p = perfect(db, AYO_BUDGET_KIND_DEPTH, 1);
  CHECK_RESULT(ayo_player_last_source(p, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_player_last_source(p, &s), AYO_RESULT_OK);
  CHECK(s == AYO_PERFECT_SOURCE_NONE);
  ayo_player_free(p);
  ayo_player_free(level);
  ayo_rules_free(r);
}

/* A player outlives its database handle. */
static void test_free_order(const char *dir) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *d = NULL;
  ayo_player *p = NULL, *q = NULL;
  ayo_game *g = NULL;
  uint64_t rng = 99;
  ayo_analysis a;
  uint8_t pit = 0;
  check_context = "free order";
  CHECK_RESULT(ayo_database_open(r, dir, &d), AYO_RESULT_OK);
  p = perfect(d, AYO_BUDGET_KIND_NODES, 50000);
  q = perfect(d, AYO_BUDGET_KIND_NODES, 50000);
  ayo_database_free(d);
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK(load_endgame(g, 6, AYO_SIDE_NORTH, &rng));
  CHECK(analyze(p, g, &a) && a.value.proven == 1);
  CHECK(source_of(p) == AYO_PERFECT_SOURCE_DATABASE);
  ayo_player_free(p);
  CHECK_RESULT(ayo_player_choose(q, g, &pit), AYO_RESULT_OK);
  CHECK(pit == a.best);
  ayo_player_free(q);
  ayo_game_free(g);
  ayo_rules_free(r);
}

/* Two players sharing one database, each on its own thread, analyse the
 * same positions and must agree with each other. */
struct worker {
  ayo_player *player;
  int32_t values[16];
  uint8_t best[16];
  int ok;
};

static void *work(void *arg) {
  struct worker *w = arg;
  ayo_rules *r = NULL;
  ayo_game *g = NULL;
  uint64_t rng = 2024;
  int i;
  w->ok = ayo_rules_new_preset("ayoayo", &r) == AYO_RESULT_OK && ayo_game_new(r, &g) == AYO_RESULT_OK;
  for (i = 0; w->ok && i < 16; i++) {
    ayo_analysis a;
    uint8_t pv[64];
    size_t len;
    w->values[i] = 0;
    w->best[i] = 0;
    if (!load_endgame(g, 4 + (unsigned)(i % 5), (ayo_side)(i % 2), &rng)) continue;
    if (ayo_player_analyze(w->player, g, &a, pv, sizeof pv, &len) != AYO_RESULT_OK) {
      w->ok = 0;
      break;
    }
    w->values[i] = a.value.centiseeds;
    w->best[i] = a.best;
  }
  ayo_game_free(g);
  ayo_rules_free(r);
  return NULL;
}

static void test_threads(const ayo_database *db) {
  struct worker w[2];
  pthread_t t[2];
  int i;
  check_context = "threads";
  for (i = 0; i < 2; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].player = perfect(db, AYO_BUDGET_KIND_NODES, 100000);
  }
  for (i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0);
  for (i = 0; i < 2; i++) CHECK(pthread_join(t[i], NULL) == 0);
  CHECK(w[0].ok && w[1].ok);
  CHECK(memcmp(w[0].values, w[1].values, sizeof w[0].values) == 0);
  CHECK(memcmp(w[0].best, w[1].best, sizeof w[0].best) == 0);
  for (i = 0; i < 2; i++) ayo_player_free(w[i].player);
}

/* The bounds under every scoring of endless play (ayo_database_bounds): a
 * board that depends on endless play only through a capture into a lower
 * layer (the independent analysis' example), a closed board, a board not
 * held, other rules, and NULL arguments. */
static void test_bounds(const ayo_database *ayoayo_db) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *db = NULL;
  ayo_game *g = NULL;
  char dir[512];
  uint8_t held = 0;
  int32_t lo = 77, hi = 77;
  check_context = "bounds";
  CHECK_RESULT(ayo_rules_set(r, "capturing_seed_taken", "false"), AYO_RESULT_OK);
  path_in(dir, sizeof dir, "capturing-seed-kept");
  CHECK_RESULT(ayo_database_build(r, 5, dir, 1, &db), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  if (!db || !g) goto done;
  CHECK_RESULT(ayo_game_load_position(g, "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0"),
               AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_bounds(db, g, &held, &lo, &hi), AYO_RESULT_OK);
  CHECK(held == 1 && lo == -1 && hi == 3);
  CHECK(database_error_empty());
  /* Level perfect there: the best move goes to an open board, so its value
   * and the position's are the convention's, not proven; the other move's
   * board is closed and proven. */
  {
    ayo_player *p = perfect(db, AYO_BUDGET_KIND_NODES, 100000);
    ayo_analysis a;
    size_t i;
    int convention = 0, proven = 0;
    if (p && analyze(p, g, &a)) {
      CHECK(a.value.basis == AYO_BASIS_CONVENTION && a.value.bound == AYO_BOUND_EXACT && a.value.proven == 0);
      for (i = 0; i < a.moves_count; i++) {
        convention += a.moves[i].value.basis == AYO_BASIS_CONVENTION;
        proven += a.moves[i].value.basis == AYO_BASIS_PROVEN_DATABASE && a.moves[i].value.proven == 1;
      }
      CHECK(convention == 1 && proven == 1);
    }
    ayo_player_free(p);
  }
  /* The same board with North to move, mirrored. */
  CHECK_RESULT(ayo_game_load_position(g, "ayoayo[capturing_seed_taken=false] 0,1,0,1,0,1/1,0,0,1,0,0 21-22 n 0 0"),
               AYO_RESULT_OK);
  lo = hi = 77;
  CHECK_RESULT(ayo_database_bounds(db, g, &held, &lo, &hi), AYO_RESULT_OK);
  CHECK(held == 1 && lo == -1 && hi == 3);
  /* One seed left: nothing can go round for ever, the bounds agree. */
  CHECK_RESULT(ayo_game_load_position(g, "ayoayo[capturing_seed_taken=false] 0,0,0,0,1,0/0,0,0,0,0,0 24-23 s 0 0"),
               AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_bounds(db, g, &held, &lo, &hi), AYO_RESULT_OK);
  CHECK(held == 1 && lo == hi);
  /* The start (48 seeds) is not held: held is false, lo and hi untouched. */
  CHECK_RESULT(ayo_game_load_position(g, "ayoayo[capturing_seed_taken=false] 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"),
               AYO_RESULT_OK);
  lo = hi = 77;
  CHECK_RESULT(ayo_database_bounds(db, g, &held, &lo, &hi), AYO_RESULT_OK);
  CHECK(held == 0 && lo == 77 && hi == 77);
  /* A game of other rules than the databases'. */
  held = 9;
  CHECK_RESULT(ayo_database_bounds(ayoayo_db, g, &held, &lo, &hi), AYO_RESULT_DATABASE_RULES_MISMATCH);
  CHECK(check_database_error_contains("these databases are for `ayoayo[target=none]`"));
  CHECK(held == 9 && lo == 77 && hi == 77);
  CHECK_RESULT(ayo_database_bounds(NULL, g, &held, &lo, &hi), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_bounds(db, NULL, &held, &lo, &hi), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_bounds(db, g, NULL, &lo, &hi), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_bounds(db, g, &held, NULL, &hi), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_database_bounds(db, g, &held, &lo, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK(held == 9 && lo == 77 && hi == 77);
done:
  ayo_game_free(g);
  ayo_database_free(db);
  ayo_rules_free(r);
}

int main(int argc, char **argv) {
  const char *tmp = getenv("TMPDIR");
  char dir[512];
  ayo_database *db;
  snprintf(top, sizeof top, "%s/ayo-db-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  if (mkdtemp(top) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  path_in(dir, sizeof dir, "ayoayo");
  test_results();
  db = test_build_and_open(dir);
 
  if (db) {
    test_perfect_play(db, dir);
    test_unsolvable_rules(db, dir);
    test_misuse(db, dir);
    test_threads(db);
    test_free_order(dir);
    test_bounds(db);
  }
  test_damaged_files();
  test_counted();
  ayo_database_free(db);
  check_remove_dir(top);
  return check_report("c-database");
}
