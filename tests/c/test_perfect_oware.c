/*
 * The perfect player of the ayo C API in Oware: proven values under the real
 * repetition rule, the game's history deciding which position repeats.
 *
 * The reference is a plain game-tree search over ayo_game handles (the
 * core's rules and repetition window through the C API, nothing
 * re-implemented) on endgames of two and three seeds, small enough to search
 * to every end; the rules have no target, as the values do not (play goes
 * on until the board is empty). Each position of a line played from them is
 * checked (three seeds from 17 moves in), so that they have a history;
 * then the fallback above the
 * databases when the budget runs out.
 *
 * The databases (to 4 seeds) are built in a fresh temporary directory.
 *
 * usage: test_perfect_oware
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ayo.h"
#include "check.h"

/* South's seeds in pits 1 and 5, North's row empty: South must feed, and the
 * two seeds chase each other round the board until a position repeats, with
 * one seed a side: worth 0 to South (the databases' convention says +2). */
static const char *CHASE = "oware[target=none] 0,1,0,0,0,1/0,0,0,0,0,0 24-22 s 0 0";
static const char *THREE = "oware[target=none] 0,1,0,1,0,1/0,0,0,0,0,0 23-22 s 0 0";

/* The reference's calls are counted only when they fail (there are many). */
#define MUST(call)                                                                                                     \
  do {                                                                                                                 \
    if ((call) != AYO_RESULT_OK) CHECK_RESULT(call, AYO_RESULT_OK);                                                  \
  } while (0)

static int over(const ayo_game *g) {
  ayo_status s = AYO_STATUS_ONGOING;
  MUST(ayo_game_status(g, &s));
  return s == AYO_STATUS_ENDED;
}

static size_t legal(const ayo_game *g, uint8_t *pits) {
  size_t n = 0;
  MUST(ayo_game_legal_moves(g, pits, AYO_MAX_LEGAL_MOVES, &n));
  return n;
}

/* The mover's final score minus the opponent's after `pit`, with best play
 * by both: every line played to its end. */
static int after(const ayo_game *g, uint8_t pit);

static int final_difference(const ayo_game *g) {
  uint8_t pits[AYO_MAX_LEGAL_MOVES];
  size_t n, i;
  int best = -1000;
  if (over(g)) {
    ayo_outcome o;
    ayo_side me = AYO_SIDE_SOUTH;
    MUST(ayo_game_outcome(g, &o));
    MUST(ayo_game_to_move(g, &me));
    return (int)o.scores[me] - (int)o.scores[1 - me];
  }
  n = legal(g, pits);
  for (i = 0; i < n; i++) {
    int v = after(g, pits[i]);
    if (v > best) best = v;
  }
  return best;
}

static int after(const ayo_game *g, uint8_t pit) {
  ayo_game *child = NULL;
  int v;
  MUST(ayo_game_clone(g, &child));
  MUST(ayo_game_play(child, pit));
  v = -final_difference(child);
  ayo_game_free(child);
  return v;
}

static int analyze(ayo_player *p, const ayo_game *g, ayo_analysis *a) {
  uint8_t pv[64];
  size_t pv_len = 0;
  return CHECK_RESULT(ayo_player_analyze(p, g, a, pv, sizeof pv, &pv_len), AYO_RESULT_OK) &&
         CHECK(pv_len == a->pv_len && (a->best == 0 || pv[0] == a->best));
}

static ayo_perfect_source source_of(const ayo_player *p) {
  ayo_perfect_source s = (ayo_perfect_source)77;
  CHECK_RESULT(ayo_player_last_source(p, &s), AYO_RESULT_OK);
  return s;
}

/* The positions from move `from` of the line from `record` (the lowest
 * legal move each time) until the game ends or move `to`: the player's
 * values are the reference's. */
static int check_line(ayo_player *p, ayo_rules *r, const char *record, int from, int to) {
  ayo_game *g = NULL;
  int positions = 0, ply = 0;
  check_context = record;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_load_position(g, record), AYO_RESULT_OK);
  for (; !over(g) && ply <= to; ply++) {
    ayo_analysis a;
    uint8_t pits[AYO_MAX_LEGAL_MOVES];
    size_t n = legal(g, pits), i;
    int best = -1000;
    if (ply < from) {
      CHECK_RESULT(ayo_game_play(g, pits[0]), AYO_RESULT_OK);
      continue;
    }
    analyze(p, g, &a);
    CHECK(source_of(p) == AYO_PERFECT_SOURCE_DATABASE || source_of(p) == AYO_PERFECT_SOURCE_SEARCH);
    CHECK(a.moves_count == n);
    for (i = 0; i < n && i < a.moves_count; i++) {
      int v = after(g, pits[i]);
      if (v > best) best = v;
      CHECK(a.moves[i].relative_pit == pits[i]);
      CHECK(a.moves[i].value.proven == 1);
      CHECK(a.moves[i].value.final_difference == v);
      CHECK(a.moves[i].value.basis == AYO_BASIS_PROVEN_DATABASE ||
            a.moves[i].value.basis == AYO_BASIS_PROVEN_SEARCH);
    }
    CHECK(a.value.proven == 1 && a.value.final_difference == best);
    CHECK(best == final_difference(g));
    CHECK_RESULT(ayo_game_play(g, pits[0]), AYO_RESULT_OK);
    positions++;
  }
  ayo_game_free(g);
  return positions;
}

static void test_values(const char *dir) {
  ayo_rules *r = check_rules_of("oware");
  ayo_database *db = NULL;
  ayo_player *p = NULL;
  ayo_game *g = NULL;
  ayo_analysis a;
  CHECK_RESULT(ayo_rules_set(r, "target", "none"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_database_build(r, 4, dir, 1, &db), AYO_RESULT_OK);
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_NODES, 1000000, 1, &p), AYO_RESULT_OK);
  CHECK(check_line(p, r, CHASE, 0, 40) > 3);
  /* Three seeds 17 to 24 moves in: the window holds many positions (some a
   * move away from a repetition), and the plain search is quick there. */
  CHECK(check_line(p, r, THREE, 17, 24) == 8);
  /* The chase: 24 - 22 banked, nothing more to come. */
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_load_position(g, CHASE), AYO_RESULT_OK);
  analyze(p, g, &a);
  CHECK(a.value.proven == 1 && a.value.final_difference == 2 && a.best == 6);
  ayo_game_free(g);
  ayo_player_free(p);
  /* Above the databases, a budget too small to close the search: level max. */
  check_context = "fallback";
  CHECK_RESULT(ayo_player_new_perfect(db, AYO_BUDGET_KIND_NODES, 1000, 1, &p), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  analyze(p, g, &a);
  CHECK(source_of(p) == AYO_PERFECT_SOURCE_FALLBACK);
  CHECK(a.value.proven == 0 && a.best >= 1 && a.best <= 6);
  ayo_game_free(g);
  ayo_player_free(p);
  ayo_database_free(db);
  ayo_rules_free(r);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  char top[256];
  snprintf(top, sizeof top, "%s/ayo-perfect-oware-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(top) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  test_values(top);
  check_remove_dir(top);
  return check_report("c-perfect-oware");
}
