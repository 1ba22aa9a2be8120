/*
 * The computer-player handle (ayo_player) of the ayo C API: levels and kinds,
 * choose and analyze, its misuse matrix (NULL for every pointer argument,
 * bad level names, kinds and budgets, finished and truncated games, too-small
 * arrays), determinism for a seed, agreement with the Rust players, and
 * distinct players searching in parallel.
 *
 * usage: test_player [REFERENCE]
 * REFERENCE is the output of `cargo run --release -p ayo-ffi --example
 * player_reference`: games played by ayo_core::players directly, which this
 * test replays through the C API (ci/c.sh always passes it).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_UNKNOWN_LEVEL == 100, "stable result numbers");
_Static_assert(AYO_RESULT_UNKNOWN_PLAYER_KIND == 101, "stable result numbers");
_Static_assert(AYO_RESULT_BAD_BUDGET == 102, "stable result numbers");
_Static_assert(AYO_RESULT_PLAYER_OUT_OF_MEMORY == 106, "stable result numbers");
_Static_assert(AYO_RESULT_NO_ANALYSIS == 103, "stable result numbers");
_Static_assert(AYO_RESULT_PLAYER_BROKEN == 104, "stable result numbers");
_Static_assert(AYO_PLAYER_KIND_RANDOM == 0 && AYO_PLAYER_KIND_GREEDY == 1 && AYO_PLAYER_KIND_ALPHA_BETA == 2 &&
                   AYO_PLAYER_KIND_MCTS == 3,
               "stable kind numbers");
_Static_assert(AYO_BUDGET_KIND_DEPTH == 0 && AYO_BUDGET_KIND_NODES == 1 && AYO_BUDGET_KIND_MILLISECONDS == 2,
               "stable budget kind numbers");
_Static_assert(AYO_BOUND_EXACT == 0 && AYO_BOUND_LOWER == 1 && AYO_BOUND_UPPER == 2 && AYO_BOUND_ESTIMATE == 3,
               "stable bound numbers");
_Static_assert(AYO_SIDE_SOUTH == 0 && AYO_SIDE_NORTH == 1, "stable side numbers");

/* South has reached the target of 25: the game is over. */
static const char TARGET_WON[] = "ayoayo 4,4,4,4,4,3/0,0,0,0,0,0 25-0 n 0 10";
static const char OWARE_START[] = "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0";

#define SENTINEL_PTR ((void *)&sentinel_target)
static int sentinel_target;

static ayo_game *new_game(const char *position) {
  ayo_rules *r = NULL;
  ayo_game *g = NULL;
  CHECK_RESULT(ayo_rules_new_preset("ayoayo", &r), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  ayo_rules_free(r);
  CHECK_RESULT(ayo_game_load_position(g, position), AYO_RESULT_OK);
  return g;
}

static ayo_player *level(const char *name, uint64_t seed) {
  ayo_player *p = NULL;
  CHECK_RESULT(ayo_player_new_level(name, seed, &p), AYO_RESULT_OK);
  return p;
}

static ayo_player *kind(int k, int budget_kind, uint64_t amount, uint64_t seed) {
  ayo_player *p = NULL;
  CHECK_RESULT(ayo_player_new_kind((ayo_player_kind)k, (ayo_budget_kind)budget_kind, amount, seed, &p), AYO_RESULT_OK);
  return p;
}

static const char *record_of(const ayo_game *g) {
  static char buf[8192];
  size_t n;
  if (ayo_game_record(g, buf, sizeof buf, &n) != AYO_RESULT_OK) {
    return "<no record>";
  }
  return buf;
}

static int player_error_contains(const ayo_player *p, const char *needle) {
  char buf[512];
  size_t n;
  return ayo_player_last_error(p, buf, sizeof buf, &n) == AYO_RESULT_OK && strstr(buf, needle) != NULL;
}

static int name_is(const ayo_player *p, const char *want) {
  char buf[128];
  size_t n;
  return ayo_player_name(p, buf, sizeof buf, &n) == AYO_RESULT_OK && strcmp(buf, want) == 0;
}

/* Plays a game between two players (either may be the same handle) up to
 * `cap` plies; 1 when every choice was legal and played. */
static int play_out(ayo_player *south, ayo_player *north, ayo_game *g, uint32_t cap) {
  ayo_status st = AYO_STATUS_ONGOING;
  if (ayo_game_set_ply_cap(g, cap) != AYO_RESULT_OK) return 0;
  while (ayo_game_status(g, &st) == AYO_RESULT_OK && st == AYO_STATUS_ONGOING) {
    ayo_side side;
    uint8_t pit = 0;
    if (ayo_game_to_move(g, &side) != AYO_RESULT_OK) return 0;
    if (!CHECK_RESULT(ayo_player_choose(side == AYO_SIDE_SOUTH ? south : north, g, &pit), AYO_RESULT_OK)) return 0;
    if (!CHECK_RESULT(ayo_game_play(g, pit), AYO_RESULT_OK)) return 0;
  }
  return 1;
}

static void test_results(void) {
  const int codes[] = {100, 101, 102, 103, 104, 106};
  size_t i;
  check_context = "results";
  for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    char buf[256];
    size_t n = 0;
    CHECK(ayo_result_name(codes[i]) != NULL);
    CHECK_RESULT(ayo_result_message(codes[i], buf, sizeof buf, &n), AYO_RESULT_OK);
    CHECK(n > 0 && n == strlen(buf));
  }
  CHECK(strcmp(ayo_result_name(AYO_RESULT_UNKNOWN_LEVEL), "AYO_RESULT_UNKNOWN_LEVEL") == 0);
  CHECK(strcmp(ayo_result_name(AYO_RESULT_PLAYER_BROKEN), "AYO_RESULT_PLAYER_BROKEN") == 0);
  CHECK(ayo_result_name(107) == NULL && ayo_result_name(199) == NULL);
}

static int name_starts(const ayo_player *p, const char *prefix, char *name, size_t len) {
  size_t n;
  return ayo_player_name(p, name, len, &n) == AYO_RESULT_OK && strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Every level; the budgets of levels 3 and up are ayo-core's to tune
 * (the Rust test in ayo-ffi checks each name against ayo_core's). */
static void test_levels_and_kinds(void) {
  size_t i;
  ayo_player *p;
  char name[128], max_name[128];
  check_context = "levels and kinds";
  for (i = 0; i < AYO_LEVEL_COUNT; i++) {
    const char *level_name = ayo_level_name(i);
    CHECK(level_name != NULL);
    p = level(level_name, 5);
    CHECK(name_starts(p, i == 0 ? "random" : i == 1 ? "greedy" : "", name, sizeof name));
    if (i >= 2) {
      CHECK(name_starts(p, "alphabeta(", name, sizeof name) || name_starts(p, "mcts(", name, sizeof name));
    }
    ayo_player_free(p);
  }
  CHECK(strcmp(ayo_level_name(0), "1") == 0 && strcmp(ayo_level_name(8), "max") == 0);
  CHECK(ayo_level_name(AYO_LEVEL_COUNT) == NULL);
  CHECK(ayo_level_name(SIZE_MAX) == NULL);
  /* "max" in any case; its name is the last level's. */
  p = level("MAX", 0);
  CHECK(name_starts(p, "", max_name, sizeof max_name));
  CHECK(strcmp(max_name, name) == 0);
  ayo_player_free(p);

  p = kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 5000, 1);
  CHECK(name_is(p, "mcts(nodes=5000)"));
  ayo_player_free(p);
  p = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_MILLISECONDS, 250, 1);
  CHECK(name_is(p, "alphabeta(time=250ms)"));
  ayo_player_free(p);
  p = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 7, 1);
  CHECK(name_is(p, "alphabeta(depth=7)"));
  ayo_player_free(p);
  p = kind(AYO_PLAYER_KIND_RANDOM, AYO_BUDGET_KIND_DEPTH, 1, 1);
  CHECK(name_is(p, "random"));
  ayo_player_free(p);
  /* The extremes of each budget are accepted. */
  p = kind(AYO_PLAYER_KIND_GREEDY, AYO_BUDGET_KIND_DEPTH, UINT32_MAX, 1);
  ayo_player_free(p);
  p = kind(AYO_PLAYER_KIND_GREEDY, AYO_BUDGET_KIND_NODES, AYO_MAX_BUDGET_NODES, 1);
  ayo_player_free(p);
  p = kind(AYO_PLAYER_KIND_GREEDY, AYO_BUDGET_KIND_MILLISECONDS, AYO_MAX_BUDGET_MS, 1);
  ayo_player_free(p);
  ayo_player_free(NULL); /* a no-op */
}

/* Bad level names, kinds and budgets: their codes, the out-parameter untouched. */
static void test_bad_arguments(void) {
  static const char *const bad_levels[] = {"", "0", "9", "10", "-1", " 3", "3 ", "3.0", "level 3", "maximum", "one"};
  const struct {
    int budget_kind;
    uint64_t amount;
  } bad_budgets[] = {{AYO_BUDGET_KIND_DEPTH, 0},
                     {AYO_BUDGET_KIND_DEPTH, (uint64_t)UINT32_MAX + 1},
                     {AYO_BUDGET_KIND_NODES, 0},
                     {AYO_BUDGET_KIND_NODES, AYO_MAX_BUDGET_NODES + 1},
                     {AYO_BUDGET_KIND_NODES, UINT64_MAX},
                     {AYO_BUDGET_KIND_MILLISECONDS, 0},
                     {AYO_BUDGET_KIND_MILLISECONDS, AYO_MAX_BUDGET_MS + 1},
                     {AYO_BUDGET_KIND_MILLISECONDS, UINT64_MAX},
                     {3, 100},
                     {-1, 100},
                     {INT32_MAX, 1}};
  const int bad_kinds[] = {-1, 4, 100, INT32_MIN, INT32_MAX};
  ayo_player *out = (ayo_player *)SENTINEL_PTR;
  size_t i;
  check_context = "bad arguments";
  for (i = 0; i < sizeof bad_levels / sizeof bad_levels[0]; i++) {
    CHECK_RESULT(ayo_player_new_level(bad_levels[i], 1, &out), AYO_RESULT_UNKNOWN_LEVEL);
  }
  CHECK_RESULT(ayo_player_new_level("\xff", 1, &out), AYO_RESULT_INVALID_UTF8);
  for (i = 0; i < sizeof bad_kinds / sizeof bad_kinds[0]; i++) {
    CHECK_RESULT(ayo_player_new_kind((ayo_player_kind)bad_kinds[i], AYO_BUDGET_KIND_DEPTH, 3, 1, &out),
                 AYO_RESULT_UNKNOWN_PLAYER_KIND);
  }
  for (i = 0; i < sizeof bad_budgets / sizeof bad_budgets[0]; i++) {
    int k;
    for (k = AYO_PLAYER_KIND_RANDOM; k <= AYO_PLAYER_KIND_MCTS; k++) {
      CHECK_RESULT(ayo_player_new_kind((ayo_player_kind)k, (ayo_budget_kind)bad_budgets[i].budget_kind,
                                       bad_budgets[i].amount, 1, &out),
                   AYO_RESULT_BAD_BUDGET);
    }
  }
  CHECK(out == (ayo_player *)SENTINEL_PTR);
}

/* NULL for every pointer argument of every player function. */
static void test_null_matrix(void) {
  ayo_player *p = level("3", 1), *out = (ayo_player *)SENTINEL_PTR;
  ayo_game *g = new_game(OWARE_START);
  ayo_analysis a;
  uint8_t pv[64], pit = 42;
  size_t n = 4242;
  char buf[256], before[8192];
  const int NA = AYO_RESULT_NULL_ARGUMENT;
  check_context = "NULL matrix";
  strcpy(before, record_of(g));
  memset(&a, 0x5A, sizeof a);

  CHECK_RESULT(ayo_player_new_level(NULL, 1, &out), NA);
  CHECK_RESULT(ayo_player_new_level("3", 1, NULL), NA);
  CHECK_RESULT(ayo_player_new_kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 10, 1, NULL), NA);
  CHECK(out == (ayo_player *)SENTINEL_PTR);

  CHECK_RESULT(ayo_player_choose(NULL, g, &pit), NA);
  CHECK_RESULT(ayo_player_choose(p, NULL, &pit), NA);
  CHECK(player_error_contains(p, "`game` is NULL"));
  CHECK_RESULT(ayo_player_choose(p, g, NULL), NA);
  CHECK(player_error_contains(p, "`relative_pit` is NULL"));
  CHECK(pit == 42);

  CHECK_RESULT(ayo_player_analyze(NULL, g, &a, pv, sizeof pv, &n), NA);
  CHECK_RESULT(ayo_player_analyze(p, NULL, &a, pv, sizeof pv, &n), NA);
  CHECK_RESULT(ayo_player_analyze(p, g, NULL, pv, sizeof pv, &n), NA);
  CHECK(player_error_contains(p, "`analysis` is NULL"));
  CHECK_RESULT(ayo_player_analyze(p, g, &a, NULL, sizeof pv, &n), NA);
  CHECK(player_error_contains(p, "`pv` is NULL"));
  CHECK_RESULT(ayo_player_analyze(p, g, &a, pv, sizeof pv, NULL), NA);
  /* None of these searched: there is no analysis to fetch yet. */
  CHECK_RESULT(ayo_player_last_analysis(p, &a, pv, sizeof pv, &n), AYO_RESULT_NO_ANALYSIS);
  CHECK_RESULT(ayo_player_last_analysis(NULL, &a, pv, sizeof pv, &n), NA);
  CHECK_RESULT(ayo_player_last_analysis(p, NULL, pv, sizeof pv, &n), NA);
  CHECK_RESULT(ayo_player_last_analysis(p, &a, pv, sizeof pv, NULL), NA);

  CHECK_RESULT(ayo_player_name(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_player_name(p, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_player_name(p, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_player_last_error(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_player_last_error(p, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_player_last_error(p, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_value_text(0, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_value_text(0, buf, sizeof buf, NULL), NA);
  CHECK(n == 4242);
  {
    ayo_analysis untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    CHECK(memcmp(&a, &untouched, sizeof a) == 0);
  }
  CHECK(strcmp(record_of(g), before) == 0);

  /* Afterwards the player still works, and a success clears the detail. */
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_OK);
  CHECK(pit >= 1 && pit <= 6);
  CHECK(player_error_contains(p, ""));
  CHECK_RESULT(ayo_player_last_error(p, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(n == 0 && buf[0] == '\0');
  ayo_player_free(p);
  ayo_game_free(g);
}

/* Text out-parameters: size query, one byte short (untouched), exact fit. */
static void check_text(const char *what, ayo_result (*call)(const void *, char *, size_t, size_t *), const void *h) {
  char buf[128];
  size_t needed = 0, n = 0;
  check_context = what;
  CHECK_RESULT(call(h, NULL, 0, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(needed >= 2 && needed <= sizeof buf);
  if (needed < 2 || needed > sizeof buf) return;
  memset(buf, 'Z', sizeof buf);
  CHECK_RESULT(call(h, buf, needed - 1, &n), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(n == needed && buf[0] == 'Z' && buf[needed - 2] == 'Z');
  CHECK_RESULT(call(h, buf, needed, &n), AYO_RESULT_OK);
  CHECK(n == needed - 1 && strlen(buf) == n);
}

static ayo_result player_name_text(const void *h, char *b, size_t l, size_t *w) {
  return ayo_player_name((const ayo_player *)h, b, l, w);
}
static ayo_result player_error_text(const void *h, char *b, size_t l, size_t *w) {
  return ayo_player_last_error((const ayo_player *)h, b, l, w);
}
static ayo_result value_text_win(const void *h, char *b, size_t l, size_t *w) {
  (void)h;
  return ayo_value_text(AYO_VALUE_WIN + 6 * AYO_VALUE_SEED, b, l, w);
}

static void test_buffers(void) {
  ayo_player *p = level("4", 1);
  ayo_game *g = new_game(TARGET_WON);
  uint8_t pit;
  char buf[32];
  size_t n;
  check_text("ayo_player_name", player_name_text, p);
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_GAME_OVER);
  check_text("ayo_player_last_error", player_error_text, p);
  check_text("ayo_value_text", value_text_win, NULL);
  check_context = "value text";
  CHECK_RESULT(ayo_value_text(AYO_VALUE_WIN + 6 * AYO_VALUE_SEED, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strcmp(buf, "win by 6") == 0);
  CHECK_RESULT(ayo_value_text(-AYO_VALUE_WIN - 2 * AYO_VALUE_SEED, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strcmp(buf, "loss by 2") == 0);
  CHECK_RESULT(ayo_value_text(125, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strcmp(buf, "+1.25") == 0);
  CHECK_RESULT(ayo_value_text(-50, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strcmp(buf, "-0.50") == 0);
  CHECK_RESULT(ayo_value_text(INT32_MIN, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK_RESULT(ayo_value_text(INT32_MAX, buf, sizeof buf, &n), AYO_RESULT_OK);
  ayo_player_free(p);
  ayo_game_free(g);
}

/* Finished and truncated games: choose refuses, analyze reports the end. */
static void test_finished_games(void) {
  ayo_game *g = new_game(TARGET_WON);
  ayo_player *p = level("5", 1);
  ayo_analysis a;
  uint8_t pit = 42, pv[4] = {9, 9, 9, 9};
  size_t n = 4242;
  char before[8192];
  ayo_outcome o;
  check_context = "finished games";
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_GAME_OVER);
  CHECK(pit == 42);
  CHECK(player_error_contains(p, "the game is over"));
  CHECK(strcmp(record_of(g), before) == 0);
  CHECK_RESULT(ayo_player_analyze(p, g, &a, pv, sizeof pv, &n), AYO_RESULT_OK);
  CHECK(a.best == 0 && a.pv_len == 0 && n == 0 && a.moves_count == 0 && a.depth == 0);
  CHECK(pv[0] == 9);
  CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_OK);
  /* North is to move and has lost: the value is North's final difference. */
  CHECK(a.value.proven == 1 && a.value.bound == AYO_BOUND_EXACT && a.value.basis == AYO_BASIS_PROVEN_SEARCH);
  CHECK(a.value.final_difference == (int)o.scores[1] - (int)o.scores[0]);
  CHECK(a.value.final_difference < 0);
  CHECK(a.value.centiseeds == -AYO_VALUE_WIN + AYO_VALUE_SEED * a.value.final_difference);
  CHECK(a.value.seeds == (double)a.value.final_difference);
  CHECK(player_error_contains(p, ""));
  ayo_game_free(g);

  /* Truncated at the ply cap. */
  g = new_game(OWARE_START);
  CHECK_RESULT(ayo_game_set_ply_cap(g, 0), AYO_RESULT_OK);
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_TRUNCATED);
  CHECK(pit == 42);
  CHECK(player_error_contains(p, "ply cap"));
  CHECK_RESULT(ayo_game_clear_ply_cap(g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_player_choose(p, g, &pit), AYO_RESULT_OK);
  CHECK(pit >= 1 && pit <= 6);
  ayo_game_free(g);
  ayo_player_free(p);
}

/* Field by field (the structs' padding bytes are not set). Values are
 * copied, not computed, so the doubles compare exactly. */
static int same_value(const ayo_value *a, const ayo_value *b) {
  return a->centiseeds == b->centiseeds && a->seeds == b->seeds && a->proven == b->proven &&
         a->final_difference == b->final_difference && a->bound == b->bound;
}

static int same_analysis(const ayo_analysis *a, const ayo_analysis *b) {
  size_t i;
  int same = a->best == b->best && same_value(&a->value, &b->value) && a->pv_len == b->pv_len &&
             a->moves_count == b->moves_count && a->depth == b->depth && a->nodes == b->nodes;
  for (i = 0; same && i < AYO_MAX_LEGAL_MOVES; i++) {
    same = a->moves[i].relative_pit == b->moves[i].relative_pit && same_value(&a->moves[i].value, &b->moves[i].value);
  }
  return same;
}

/* The analysis agrees with choose, the legal moves and itself. */
static void check_analysis(ayo_player *p, ayo_player *twin, const ayo_game *g) {
  ayo_analysis a;
  uint8_t pv[256], legal[AYO_MAX_LEGAL_MOVES], chosen = 0;
  size_t n = 0, nlegal = 0, i;
  char text[64];
  if (!CHECK_RESULT(ayo_player_analyze(p, g, &a, pv, sizeof pv, &n), AYO_RESULT_OK)) return;
  CHECK_RESULT(ayo_player_choose(twin, g, &chosen), AYO_RESULT_OK);
  CHECK(a.best == chosen);
  CHECK(n == a.pv_len && n >= 1 && pv[0] == a.best);
  CHECK_RESULT(ayo_game_legal_moves(g, legal, sizeof legal, &nlegal), AYO_RESULT_OK);
  CHECK(a.moves_count == nlegal);
  for (i = 0; i < a.moves_count && i < nlegal; i++) {
    const ayo_value *v = &a.moves[i].value;
    CHECK(a.moves[i].relative_pit == legal[i]);
    CHECK(v->bound <= AYO_BOUND_ESTIMATE);
    if (v->proven) {
      CHECK(v->seeds == (double)v->final_difference);
      CHECK(v->centiseeds == (v->final_difference > 0 ? AYO_VALUE_WIN : v->final_difference < 0 ? -AYO_VALUE_WIN : 0) +
                                 AYO_VALUE_SEED * v->final_difference);
    } else {
      double error = v->seeds * AYO_VALUE_SEED - (double)v->centiseeds;
      CHECK(v->final_difference == 0 && error < 1e-6 && error > -1e-6);
    }
  }
  for (; i < AYO_MAX_LEGAL_MOVES; i++) {
    CHECK(a.moves[i].relative_pit == 0 && a.moves[i].value.centiseeds == 0);
  }
  CHECK_RESULT(ayo_value_text(a.value.centiseeds, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(n > 0);
  if (a.value.proven) {
    CHECK(strstr(text, a.value.final_difference > 0 ? "win by " : "loss by ") == text ||
          (a.value.final_difference == 0 && strcmp(text, "+0.00") == 0));
  } else {
    CHECK(text[0] == '+' || text[0] == '-');
  }
}

static void test_analysis(void) {
  ayo_game *g = new_game(OWARE_START);
  ayo_player *ab = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 5, 3);
  ayo_player *ab_twin = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 5, 3);
  ayo_player *mc = kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 400, 3);
  ayo_player *mc_twin = kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 400, 3);
  ayo_player *gr = level("2", 3), *gr_twin = level("2", 3);
  ayo_analysis a, b;
  uint8_t pv[8], big[64];
  size_t n = 0, m = 0;
  int ply;
  check_context = "analysis";
  for (ply = 0; ply < 12; ply++) {
    uint8_t pit = 0;
    check_analysis(ab, ab_twin, g);
    check_analysis(mc, mc_twin, g);
    check_analysis(gr, gr_twin, g);
    CHECK_RESULT(ayo_player_choose(gr, g, &pit), AYO_RESULT_OK);
    CHECK_RESULT(ayo_player_choose(gr_twin, g, &pit), AYO_RESULT_OK);
    CHECK_RESULT(ayo_game_play(g, pit), AYO_RESULT_OK);
  }
  /* Depth 5: a principal variation of 5 moves, and the search's own value,
     not a proof. */
  CHECK_RESULT(ayo_player_analyze(ab, g, &a, big, sizeof big, &n), AYO_RESULT_OK);
  CHECK(n == 5 && a.depth == 5 && a.value.bound == AYO_BOUND_EXACT && a.nodes > 0);
  CHECK(a.value.basis == AYO_BASIS_SEARCH && a.value.search_depth == 5 && a.value.proven == 0);
  /* MCTS estimates. */
  CHECK_RESULT(ayo_player_analyze(mc, g, &a, big, sizeof big, &n), AYO_RESULT_OK);
  CHECK(a.value.bound == AYO_BOUND_ESTIMATE && a.value.basis == AYO_BASIS_ESTIMATE && a.nodes == 400);

  ayo_player_free(ab);
  ayo_player_free(ab_twin);
  /* A too-small array: the needed length, nothing written; the kept analysis
   * comes back from ayo_player_last_analysis without a new search, the same
   * as a twin's analysis with a large enough array. */
  ab = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 5, 8);
  ab_twin = kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 5, 8);
  memset(pv, 0xEE, sizeof pv);
  memset(&a, 0x5A, sizeof a);
  {
    ayo_analysis untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    CHECK_RESULT(ayo_player_analyze(ab_twin, g, &a, pv, 2, &n), AYO_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 5 && pv[0] == 0xEE && pv[1] == 0xEE);
    CHECK(memcmp(&a, &untouched, sizeof a) == 0);
    CHECK(player_error_contains(ab_twin, "`pv` holds 2; 5 are needed"));
  }
  CHECK_RESULT(ayo_player_last_analysis(ab_twin, &a, NULL, 0, &n), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(n == 5);
  CHECK_RESULT(ayo_player_last_analysis(ab_twin, &a, pv, sizeof pv, &n), AYO_RESULT_OK);
  CHECK(n == 5);
  CHECK_RESULT(ayo_player_analyze(ab, g, &b, big, sizeof big, &m), AYO_RESULT_OK);
  CHECK(m == n && memcmp(pv, big, n) == 0);
  CHECK(same_analysis(&a, &b));
  ayo_player_free(ab);
  ayo_player_free(ab_twin);
  ayo_player_free(mc);
  ayo_player_free(mc_twin);
  ayo_player_free(gr);
  ayo_player_free(gr_twin);
  ayo_game_free(g);
}

/* The same players with the same seeds play the same games; other seeds
 * play other games. */
static void test_determinism(void) {
  static const char *const presets[] = {"ayoayo", "ayo", "olopon", "oware"};
  char first[8192];
  size_t i;
  int differ = 0;
  check_context = "determinism";
  for (i = 0; i < 4; i++) {
    int round;
    for (round = 0; round < 2; round++) {
      ayo_rules *r = NULL;
      ayo_game *g = NULL;
      ayo_player *s = kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 100, 40 + i);
      ayo_player *n = level("1", 80 + i);
      CHECK_RESULT(ayo_rules_new_preset(presets[i], &r), AYO_RESULT_OK);
      CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
      CHECK(play_out(s, n, g, 300));
      if (round == 0) {
        strcpy(first, record_of(g));
      } else {
        CHECK(strcmp(first, record_of(g)) == 0);
      }
      ayo_player_free(s);
      ayo_player_free(n);
      ayo_game_free(g);
      ayo_rules_free(r);
    }
  }
  /* Random players with other seeds: some game differs. */
  for (i = 0; i < 4; i++) {
    ayo_game *a = new_game(OWARE_START), *b = new_game(OWARE_START);
    ayo_player *p1 = level("1", 1000 + i), *p2 = level("1", 2000 + i);
    CHECK(play_out(p1, p1, a, 300));
    CHECK(play_out(p2, p2, b, 300));
    strcpy(first, record_of(a));
    differ |= strcmp(first, record_of(b)) != 0;
    ayo_player_free(p1);
    ayo_player_free(p2);
    ayo_game_free(a);
    ayo_game_free(b);
  }
  CHECK(differ);
}

/* Agreement with Rust: every reference game, replayed through the C API. */
static ayo_player *from_spec(const char *spec, uint64_t seed) {
  if (spec[0] == 'L') {
    return level(spec + 1, seed);
  } else {
    int k = 0, bk = 0;
    unsigned long long amount = 0;
    if (!CHECK(sscanf(spec, "K%d:%d:%llu", &k, &bk, &amount) == 3)) return NULL;
    return kind(k, bk, (uint64_t)amount, seed);
  }
}

static void test_reference(const char *path) {
  FILE *f = fopen(path, "r");
  static char line[16384];
  int games = 0;
  check_context = "agreement with Rust";
  if (!CHECK(f != NULL)) return;
  while (fgets(line, sizeof line, f)) {
    char *fields[6], *save = NULL, *tok;
    int nf = 0;
    line[strcspn(line, "\n")] = '\0';
    for (tok = strtok_r(line, ";", &save); tok && nf < 6; tok = strtok_r(NULL, ";", &save)) fields[nf++] = tok;
    if (!CHECK(nf == 6)) continue;
    {
      uint64_t seed = strtoull(fields[3], NULL, 10);
      ayo_rules *r = NULL;
      ayo_game *g = NULL;
      ayo_player *s = from_spec(fields[1], seed), *n = from_spec(fields[2], seed + 1);
      check_context = fields[5];
      CHECK_RESULT(ayo_rules_new_preset(fields[0], &r), AYO_RESULT_OK);
      CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
      if (s && n && g) {
        CHECK(play_out(s, n, g, (uint32_t)strtoul(fields[4], NULL, 10)));
        if (!CHECK(strcmp(record_of(g), fields[5]) == 0)) {
          fprintf(stderr, "  C:    %s\n  Rust: %s\n", record_of(g), fields[5]);
        }
      }
      ayo_player_free(s);
      ayo_player_free(n);
      ayo_game_free(g);
      ayo_rules_free(r);
      games++;
      check_context = "agreement with Rust";
    }
  }
  fclose(f);
  CHECK(games >= 10);
  printf("replayed %d reference games\n", games);
}

/* Distinct players search in parallel on the same (const) game and answer as
 * they do alone. */
typedef struct {
  const ayo_game *game;
  uint64_t seed;
  int ok;
  uint8_t moves[8];
  ayo_analysis analysis;
} worker;

static void *think(void *arg) {
  worker *w = (worker *)arg;
  ayo_player *p = NULL;
  uint8_t pv[128];
  size_t n;
  int i, ok = ayo_player_new_kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 300, w->seed, &p) == AYO_RESULT_OK;
  for (i = 0; ok && i < 8; i++) {
    ok &= ayo_player_choose(p, w->game, &w->moves[i]) == AYO_RESULT_OK;
  }
  ok &= ok && ayo_player_analyze(p, w->game, &w->analysis, pv, sizeof pv, &n) == AYO_RESULT_OK;
  ayo_player_free(p);
  w->ok = ok;
  return NULL;
}

static void test_threads(void) {
  enum { THREADS = 4 };
  pthread_t t[THREADS];
  worker w[THREADS], alone;
  ayo_game *g = new_game(OWARE_START);
  size_t i;
  check_context = "threads";
  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_OK);
  for (i = 0; i < THREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].game = g;
    w[i].seed = i % 2; /* two pairs of twins */
    CHECK(pthread_create(&t[i], NULL, think, &w[i]) == 0);
  }
  for (i = 0; i < THREADS; i++) {
    CHECK(pthread_join(t[i], NULL) == 0);
    CHECK(w[i].ok);
  }
  for (i = 0; i < THREADS; i++) {
    memset(&alone, 0, sizeof alone);
    alone.game = g;
    alone.seed = i % 2;
    think(&alone);
    CHECK(alone.ok);
    CHECK(memcmp(alone.moves, w[i].moves, sizeof alone.moves) == 0);
    CHECK(same_analysis(&alone.analysis, &w[i].analysis));
  }
  ayo_game_free(g);
}

int main(int argc, char **argv) {
  test_results();
  test_levels_and_kinds();
  test_bad_arguments();
  test_null_matrix();
  test_buffers();
  test_finished_games();
  test_analysis();
  test_determinism();
  test_threads();
  if (argc > 1) {
    test_reference(argv[1]);
  }
  return check_report("c-player");
}
