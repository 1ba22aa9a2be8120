/*
 * The exact words of the C API's failure details: pits are numbered as the
 * call numbered them (the mover's pits 1 to 6 for ayo_game_play,
 * ayo_game_trace and game records; absolute pits 0 to 11 for
 * ayo_game_play_pit), ranges are written "a to b", never in Rust's "a..=b";
 * a truncated game's outcome is AYO_RESULT_TRUNCATED; the database calls
 * keep their detail per thread (ayo_database_last_error).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

static char detail[1024];

static const char *game_error(const ayo_game *g) {
  size_t n;
  if (ayo_game_last_error(g, detail, sizeof detail, &n) != AYO_RESULT_OK) return "(no detail)";
  return detail;
}

static const char *rules_error(const ayo_rules *r) {
  size_t n;
  if (ayo_rules_last_error(r, detail, sizeof detail, &n) != AYO_RESULT_OK) return "(no detail)";
  return detail;
}

static const char *database_error(void) {
  size_t n;
  if (ayo_database_last_error(detail, sizeof detail, &n) != AYO_RESULT_OK) return "(no detail)";
  return detail;
}

/* Checks that `got` is exactly `want` (printing both when not), and that it
 * has no Rust range and no "action" (a Python word). */
#define CHECK_TEXT(got, want) check_text((got), (want), __FILE__, __LINE__)
static void check_text(const char *got, const char *want, const char *file, int line) {
  int ok = strcmp(got, want) == 0 && strstr(got, "..") == NULL && strstr(got, "action") == NULL;
  check_one(ok, want, file, line);
  if (!ok) fprintf(stderr, "  got:    \"%s\"\n  wanted: \"%s\"\n", got, want);
}

static ayo_game *game_at(const char *position) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_game *g = NULL;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  ayo_rules_free(r);
  CHECK_RESULT(ayo_game_load_position(g, position), AYO_RESULT_OK);
  return g;
}

/* North to move; North's pit 2 (absolute pit 7) is empty. */
#define NORTH_PIT_2_EMPTY "ayoayo 4,4,4,4,4,4/4,0,4,4,4,4 4-0 n 0 1"

static void moves_by_the_movers_pits(void) {
  ayo_game *g = game_at(NORTH_PIT_2_EMPTY);
  size_t n;
  ayo_trace_summary sum;
  check_context = "the mover's pits 1 to 6";
  CHECK_RESULT(ayo_game_play(g, 2), AYO_RESULT_EMPTY_PIT);
  CHECK_TEXT(game_error(g), "North's pit 2 is empty");
  CHECK_RESULT(ayo_game_play(g, 0), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK_TEXT(game_error(g), "pit 0 is out of range: the pits of the player to move are numbered 1 to 6");
  CHECK_RESULT(ayo_game_play(g, 7), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK_TEXT(game_error(g), "pit 7 is out of range: the pits of the player to move are numbered 1 to 6");
  CHECK_RESULT(ayo_game_play(g, -1), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK_TEXT(game_error(g), "pit -1 is out of range: the pits of the player to move are numbered 1 to 6");
  /* ayo_game_trace gives the same result as ayo_game_play (its handle is
   * const, so the detail above stays). */
  CHECK_RESULT(ayo_game_trace(g, 2, NULL, 0, &n, &sum), AYO_RESULT_EMPTY_PIT);
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_OK);
  CHECK_TEXT(game_error(g), "");
  ayo_game_free(g);

  /* Oware: North's row is empty and South's pit 1 does not reach it. */
  {
    ayo_rules *r = check_rules_of("oware");
    ayo_game *o = NULL;
    CHECK_RESULT(ayo_game_new(r, &o), AYO_RESULT_OK);
    ayo_rules_free(r);
    CHECK_RESULT(ayo_game_load_position(o, "oware 1,0,0,0,0,6/0,0,0,0,0,0 20-21 s 0 10"), AYO_RESULT_OK);
    CHECK_RESULT(ayo_game_play(o, 1), AYO_RESULT_DOES_NOT_FEED);
    CHECK_TEXT(game_error(o), "sowing South's pit 1 does not feed North's empty row");
    CHECK_RESULT(ayo_game_play_pit(o, 0), AYO_RESULT_DOES_NOT_FEED);
    CHECK_TEXT(game_error(o), "sowing absolute pit 0 (South's pit 1) does not feed North's empty row");
    ayo_game_free(o);
  }
}

static void moves_by_absolute_pits(void) {
  ayo_game *g = game_at(NORTH_PIT_2_EMPTY);
  check_context = "absolute pits 0 to 11";
  CHECK_RESULT(ayo_game_play_pit(g, 7), AYO_RESULT_EMPTY_PIT);
  CHECK_TEXT(game_error(g), "absolute pit 7 (North's pit 2) is empty");
  CHECK_RESULT(ayo_game_play_pit(g, 3), AYO_RESULT_NOT_MOVERS_PIT);
  CHECK_TEXT(game_error(g), "absolute pit 3 is South's pit 4, but North is to move (absolute pits 6 to 11)");
  CHECK_RESULT(ayo_game_play_pit(g, 12), AYO_RESULT_PIT_OUT_OF_RANGE);
  CHECK_TEXT(game_error(g), "absolute pit 12 is not on the board: absolute pits are numbered 0 to 11");
  CHECK_RESULT(ayo_game_play_pit(g, -5), AYO_RESULT_PIT_OUT_OF_RANGE);
  CHECK_TEXT(game_error(g), "absolute pit -5 is not on the board: absolute pits are numbered 0 to 11");
  ayo_game_free(g);
}

static void records(void) {
  ayo_game *g = game_at(NORTH_PIT_2_EMPTY);
  ayo_record_field field;
  size_t offset;
  check_context = "records";
  /* The moves of a record are the movers' pits 1 to 6; move 2 is North's. */
  CHECK_RESULT(ayo_game_load_record(g, "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 3 9"),
               AYO_RESULT_MALFORMED_RECORD);
  CHECK_TEXT(game_error(g),
             "bad move at offset 47: move 3 is illegal: pit 9 is out of range: the pits of the player to move are "
             "numbered 1 to 6");
  CHECK_RESULT(ayo_game_last_record_error(g, &field, &offset), AYO_RESULT_OK);
  CHECK(field == AYO_RECORD_FIELD_MOVE && offset == 47);
  CHECK_RESULT(ayo_game_load_record(g, NORTH_PIT_2_EMPTY " | 2"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_TEXT(game_error(g), "bad move at offset 43: move 1 is illegal: North's pit 2 is empty");
  CHECK_RESULT(ayo_game_load_record(g, NORTH_PIT_2_EMPTY " | 1 x"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_TEXT(game_error(g), "bad move at offset 45: `x` is not a pit number 1 to 6");
  CHECK_RESULT(ayo_game_load_position(g, "ayoayo 4,4,z,4,4,4/4,4,4,4,4,4 0-0 s 0 0"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_TEXT(game_error(g), "bad board at offset 11: `z` is not a seed count 0 to 255");
  ayo_game_free(g);
}

static void rules_and_budgets(void) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_player *p = NULL;
  check_context = "rules";
  CHECK_RESULT(ayo_rules_set(r, "seeds_per_pit", "x"), AYO_RESULT_BAD_PARAM_VALUE);
  CHECK_TEXT(rules_error(r), "rule parameter `seeds_per_pit` cannot take the value `x`; expected a number 1 to 21");
  CHECK_RESULT(ayo_rules_set(r, "seeds_per_pit", "99"), AYO_RESULT_INVALID_RULES);
  CHECK_TEXT(rules_error(r), "rule parameter `seeds_per_pit` is invalid: 99 is outside 1 to 21");
  CHECK_RESULT(ayo_rules_load_text(r, "ayoayo[seeds_per_pit=0]"), AYO_RESULT_MALFORMED_RECORD);
  CHECK(strstr(rules_error(r), "1 to 21") != NULL && strstr(rules_error(r), "..=") == NULL);
  ayo_rules_free(r);
  /* Enum arguments outside their lists are refused, not trusted. */
  CHECK_RESULT(ayo_player_new_kind((ayo_player_kind)9, AYO_BUDGET_KIND_DEPTH, 3, 0, &p), AYO_RESULT_UNKNOWN_PLAYER_KIND);
  CHECK_RESULT(ayo_player_new_kind(AYO_PLAYER_KIND_MCTS, (ayo_budget_kind)-2, 3, 0, &p), AYO_RESULT_BAD_BUDGET);
  CHECK(p == NULL);
}

static void truncated_outcome(void) {
  ayo_game *g = game_at("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0");
  ayo_outcome o;
  ayo_status st;
  char text[256];
  size_t n;
  check_context = "truncated outcome";
  CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_GAME_NOT_OVER);
  CHECK_RESULT(ayo_game_set_ply_cap(g, 1), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_status(g, &st), AYO_RESULT_OK);
  CHECK(st == AYO_STATUS_TRUNCATED);
  CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_TRUNCATED);
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_TRUNCATED);
  CHECK_TEXT(game_error(g), "the game has reached its ply cap");
  CHECK_RESULT(ayo_result_message(AYO_RESULT_TRUNCATED, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK_TEXT(text, "the game has reached its ply cap");
  CHECK_RESULT(ayo_result_message(AYO_RESULT_ACTION_OUT_OF_RANGE, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK_TEXT(text, "pit out of range (the pits of the player to move are 1 to 6)");
  CHECK_RESULT(ayo_result_message(AYO_RESULT_PIT_OUT_OF_RANGE, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK_TEXT(text, "absolute pit out of range (absolute pits are 0 to 11)");
  ayo_game_free(g);
}

/* The database detail is the calling thread's own. */
static void *fail_on_another_thread(void *arg) {
  const ayo_rules *r = arg;
  ayo_database *d = NULL;
  static int ok;
  ok = strcmp(database_error(), "") == 0;
  ok = ok && ayo_database_open_up_to(r, "/nonexistent/ayo-other", 41, &d) == AYO_RESULT_INVALID_ARGUMENT;
  ok = ok && strcmp(database_error(), "max_seeds is 0 to 40, not 41") == 0;
  return &ok;
}

static void database_detail_per_thread(void) {
  ayo_rules *r = check_rules_of("ayoayo");
  ayo_database *d = NULL;
  pthread_t t;
  void *ok = NULL;
  check_context = "database detail per thread";
  CHECK_TEXT(database_error(), "");
  CHECK_RESULT(ayo_database_open(r, "/nonexistent/ayo-dir", &d), AYO_RESULT_DATABASE_MISSING);
  CHECK(strstr(database_error(), "/nonexistent/ayo-dir") != NULL);
  CHECK(strstr(database_error(), "no database layer for 0 seeds") != NULL);
  CHECK(pthread_create(&t, NULL, fail_on_another_thread, r) == 0);
  CHECK(pthread_join(t, &ok) == 0);
  CHECK(ok != NULL && *(int *)ok == 1);
  CHECK(strstr(database_error(), "no database layer for 0 seeds") != NULL);
  CHECK_RESULT(ayo_database_open(NULL, "/x", &d), AYO_RESULT_NULL_ARGUMENT);
  CHECK_TEXT(database_error(), "argument `rules` is NULL");
  CHECK(d == NULL);
  ayo_rules_free(r);
}

int main(void) {
  moves_by_the_movers_pits();
  moves_by_absolute_pits();
  records();
  rules_and_budgets();
  truncated_outcome();
  database_detail_per_thread();
  return check_report("c-messages");
}
