/*
 * The behaviour of the ayo C API beyond the shared vectors, and its misuse
 * matrix: NULL for every pointer argument, illegal and game-over moves,
 * out-of-range pits, malformed records, too-small buffers, the ownership
 * model (rules and games freed in any order), result numbering, and
 * distinct handles used from several threads at once.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

/* The numbers of the result codes are part of the ABI: they never change. */
_Static_assert(AYO_RESULT_OK == 0, "stable result numbers");
_Static_assert(AYO_RESULT_NULL_ARGUMENT == 1, "stable result numbers");
_Static_assert(AYO_RESULT_INVALID_UTF8 == 2, "stable result numbers");
_Static_assert(AYO_RESULT_BUFFER_TOO_SMALL == 3, "stable result numbers");
_Static_assert(AYO_RESULT_PANIC == 4, "stable result numbers");
_Static_assert(AYO_RESULT_INVALID_ARGUMENT == 5, "stable result numbers");
_Static_assert(AYO_RESULT_UNKNOWN_PRESET == 10, "stable result numbers");
_Static_assert(AYO_RESULT_UNKNOWN_PARAM == 11, "stable result numbers");
_Static_assert(AYO_RESULT_BAD_PARAM_VALUE == 12, "stable result numbers");
_Static_assert(AYO_RESULT_INVALID_RULES == 13, "stable result numbers");
_Static_assert(AYO_RESULT_INVALID_POSITION == 20, "stable result numbers");
_Static_assert(AYO_RESULT_MALFORMED_RECORD == 21, "stable result numbers");
_Static_assert(AYO_RESULT_PIT_OUT_OF_RANGE == 30, "stable result numbers");
_Static_assert(AYO_RESULT_ACTION_OUT_OF_RANGE == 31, "stable result numbers");
_Static_assert(AYO_RESULT_NOT_MOVERS_PIT == 32, "stable result numbers");
_Static_assert(AYO_RESULT_EMPTY_PIT == 33, "stable result numbers");
_Static_assert(AYO_RESULT_ENDLESS_RELAY == 34, "stable result numbers");
_Static_assert(AYO_RESULT_DOES_NOT_FEED == 35, "stable result numbers");
_Static_assert(AYO_RESULT_GAME_OVER == 36, "stable result numbers");
_Static_assert(AYO_RESULT_TRUNCATED == 37, "stable result numbers");
_Static_assert(AYO_RESULT_NOTHING_TO_UNDO == 38, "stable result numbers");
_Static_assert(AYO_RESULT_GAME_NOT_OVER == 50, "stable result numbers");
_Static_assert(AYO_RESULT_NO_RECORD_ERROR == 51, "stable result numbers");
/* 100..=105, the computer player's: asserted in test_player.c and
 * test_database.c; 110..=115, the databases': asserted in test_database.c and test_db_limits.c. */
_Static_assert(sizeof(ayo_setup) == 24, "ayo_setup layout");

static const int ALL_CODES[] = {0,  1,  2,  3,  4,  5,   10,  11,  12,  13,  20,  21,  30,  31,  32,  33,  34, 35,
                                36, 37, 38, 50, 51, 100, 101, 102, 103, 104, 105, 106, 110, 111, 112, 113, 114, 115, 120};
#define N_CODES (sizeof ALL_CODES / sizeof ALL_CODES[0])

static const char START[] = "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0";
/* the rules' (docs/rules.md) worked example: North's pit 2 (absolute 7) relays forever. */
static const char WORKED[] = "ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 10";
/* South has reached the target of 25: the game is over. */
static const char TARGET_WON[] = "ayoayo 4,4,4,4,4,3/0,0,0,0,0,0 25-0 n 0 10";

/* Sentinels: out-parameters must keep these after a failure. */
#define SENTINEL_PTR ((void *)&sentinel_target)
static int sentinel_target;

static ayo_rules *new_rules(const char *preset) {
  ayo_rules *r = NULL;
  CHECK_RESULT(ayo_rules_new_preset(preset, &r), AYO_RESULT_OK);
  return r;
}

static ayo_game *new_game(const char *position) {
  ayo_rules *r = new_rules("ayoayo");
  ayo_game *g = NULL;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  ayo_rules_free(r);
  if (position) {
    CHECK_RESULT(ayo_game_load_position(g, position), AYO_RESULT_OK);
  }
  return g;
}

/* The record of a game, into a static buffer (each call overwrites it). */
static const char *record_of(const ayo_game *g) {
  static char buf[4096];
  size_t n;
  if (ayo_game_record(g, buf, sizeof buf, &n) != AYO_RESULT_OK) {
    return "<no record>";
  }
  return buf;
}

/* Plays the first legal move. */
static int play_first_legal(ayo_game *g) {
  uint8_t pits[AYO_MAX_LEGAL_MOVES];
  size_t n = 0;
  return CHECK_RESULT(ayo_game_legal_moves(g, pits, sizeof pits, &n), AYO_RESULT_OK) && CHECK(n > 0) &&
         CHECK_RESULT(ayo_game_play(g, pits[0]), AYO_RESULT_OK);
}

static int last_error_contains(const ayo_game *g, const char *needle) {
  char buf[512];
  size_t n;
  return ayo_game_last_error(g, buf, sizeof buf, &n) == AYO_RESULT_OK && strstr(buf, needle) != NULL;
}

static void test_version(void) {
  char expect[32];
  check_context = "version";
  CHECK(strcmp(ayo_version(), AYO_VERSION_STRING) == 0);
  snprintf(expect, sizeof expect, "%d.%d.%d", AYO_VERSION_MAJOR, AYO_VERSION_MINOR, AYO_VERSION_PATCH);
  CHECK(strcmp(expect, AYO_VERSION_STRING) == 0);
  CHECK(AYO_VERSION_NUMBER == AYO_VERSION_MAJOR * 10000 + AYO_VERSION_MINOR * 100 + AYO_VERSION_PATCH);
}

static void test_kernel(void) {
  const char *k = ayo_kernel();
  check_context = "kernel";
  /* The tests never set AYO_KERNEL to a kernel the CPU lacks. */
  CHECK(k != NULL);
  CHECK(k != NULL && (strcmp(k, "scalar") == 0 || strcmp(k, "avx2") == 0 || strcmp(k, "avx512") == 0));
}

static void test_results(void) {
  size_t i;
  char buf[256];
  check_context = "results";
  for (i = 0; i < N_CODES; i++) {
    size_t n = 0, needed = 0;
    const char *name = ayo_result_name(ALL_CODES[i]);
    CHECK(name != NULL && strncmp(name, "AYO_RESULT_", 11) == 0);
    CHECK_RESULT(ayo_result_message(ALL_CODES[i], buf, sizeof buf, &n), AYO_RESULT_OK);
    CHECK(n > 0 && n == strlen(buf));
    /* Size query, then a buffer one byte short: untouched, needed reported. */
    CHECK_RESULT(ayo_result_message(ALL_CODES[i], NULL, 0, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == n + 1);
    memset(buf, 'Z', sizeof buf);
    CHECK_RESULT(ayo_result_message(ALL_CODES[i], buf, n, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == n + 1 && buf[0] == 'Z' && buf[n - 1] == 'Z');
    CHECK_RESULT(ayo_result_message(ALL_CODES[i], buf, n + 1, &needed), AYO_RESULT_OK);
    CHECK(needed == n && buf[n] == '\0');
  }
  CHECK(strcmp(ayo_result_name(AYO_RESULT_EMPTY_PIT), "AYO_RESULT_EMPTY_PIT") == 0);
  {
    const int unknown[] = {-1, 6, 9, 14, 52, 99, 107, 109, 116, 199, 1000, INT32_MIN, INT32_MAX};
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
      size_t n = 77;
      CHECK(ayo_result_name(unknown[i]) == NULL);
      CHECK_RESULT(ayo_result_message(unknown[i], buf, sizeof buf, &n), AYO_RESULT_INVALID_ARGUMENT);
      CHECK(n == 77);
    }
  }
  {
    size_t n = 77;
    CHECK_RESULT(ayo_result_message(0, NULL, 5, &n), AYO_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(ayo_result_message(0, buf, sizeof buf, NULL), AYO_RESULT_NULL_ARGUMENT);
    CHECK(n == 77);
  }
}

static void test_rules(void) {
  size_t i, n;
  char value[64], text[256], before[256];
  ayo_rules *r = NULL, *copy = NULL;
  ayo_game *g = NULL;
  check_context = "rules";
  CHECK(ayo_preset_name(AYO_PRESET_COUNT) == NULL);
  CHECK(ayo_rules_param_name(AYO_PARAM_COUNT) == NULL);
  for (i = 0; i < AYO_PRESET_COUNT; i++) {
    const char *name = ayo_preset_name(i);
    r = new_rules(name);
    CHECK_RESULT(ayo_rules_text(r, text, sizeof text, &n), AYO_RESULT_OK);
    CHECK(strcmp(text, name) == 0);
    ayo_rules_free(r);
  }
  r = (ayo_rules *)SENTINEL_PTR;
  CHECK_RESULT(ayo_rules_new_preset("awale", &r), AYO_RESULT_UNKNOWN_PRESET);
  CHECK_RESULT(ayo_rules_new_preset("", &r), AYO_RESULT_UNKNOWN_PRESET);
  CHECK_RESULT(ayo_rules_new_preset("oware\xff", &r), AYO_RESULT_INVALID_UTF8);
  CHECK(r == (ayo_rules *)SENTINEL_PTR);

  r = new_rules("ayoayo");
  /* Every parameter reads back and can be set to its own value. */
  for (i = 0; i < AYO_PARAM_COUNT; i++) {
    const char *key = ayo_rules_param_name(i);
    CHECK(key != NULL);
    CHECK_RESULT(ayo_rules_get(r, key, value, sizeof value, &n), AYO_RESULT_OK);
    CHECK(n > 0);
    CHECK_RESULT(ayo_rules_set(r, key, value), AYO_RESULT_OK);
  }
  CHECK_RESULT(ayo_rules_get(r, "speed", value, sizeof value, &n), AYO_RESULT_UNKNOWN_PARAM);

  CHECK_RESULT(ayo_rules_set(r, "capture", "two_three"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_rules_set(r, "target", "none"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_rules_text(r, before, sizeof before, &n), AYO_RESULT_OK);
  CHECK(strcmp(before, "ayoayo[capture=two_three,target=none]") == 0);
  CHECK(check_rules_error_contains(r, "") && ayo_rules_last_error(r, text, sizeof text, &n) == AYO_RESULT_OK && n == 0);

  /* Failures leave the rules unchanged and explain themselves. */
  CHECK_RESULT(ayo_rules_set(r, "speed", "fast"), AYO_RESULT_UNKNOWN_PARAM);
  CHECK(check_rules_error_contains(r, "speed"));
  CHECK_RESULT(ayo_rules_set(r, "capture", "sometimes"), AYO_RESULT_BAD_PARAM_VALUE);
  CHECK(check_rules_error_contains(r, "sometimes"));
  CHECK_RESULT(ayo_rules_set(r, "seeds_per_pit", "0"), AYO_RESULT_INVALID_RULES);
  CHECK(check_rules_error_contains(r, "seeds_per_pit"));
  CHECK_RESULT(ayo_rules_set(r, "seeds_per_pit", "300"), AYO_RESULT_BAD_PARAM_VALUE);
  CHECK_RESULT(ayo_rules_set(r, "target", "60"), AYO_RESULT_INVALID_RULES); /* 48 seeds in play */
  CHECK_RESULT(ayo_rules_set(r, "move_limit", "0"), AYO_RESULT_INVALID_RULES);
  CHECK_RESULT(ayo_rules_set(r, "relay", "\xc3\x28"), AYO_RESULT_INVALID_UTF8);
  CHECK_RESULT(ayo_rules_text(r, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(strcmp(text, before) == 0);

  /* Several parameters at once, checked together. */
  CHECK_RESULT(ayo_rules_load_text(r, "ayoayo[seeds_per_pit=6,target=60]"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_rules_get(r, "seeds_per_pit", value, sizeof value, &n), AYO_RESULT_OK);
  CHECK(strcmp(value, "6") == 0);
  CHECK_RESULT(ayo_rules_load_text(r, "ayoayo[seeds_per_pit=6"), AYO_RESULT_MALFORMED_RECORD);
  CHECK(check_rules_error_contains(r, "]"));
  CHECK_RESULT(ayo_rules_load_text(r, "mancala"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_RESULT(ayo_rules_load_text(r, "ayoayo[target=49]"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_RESULT(ayo_rules_text(r, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(strcmp(text, "ayoayo[target=60,seeds_per_pit=6]") == 0);

  /* A game made from the rules starts with 6 seeds a pit. */
  CHECK_RESULT(ayo_rules_clone(r, &copy), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(copy, &g), AYO_RESULT_OK);
  {
    ayo_setup s;
    CHECK_RESULT(ayo_game_setup(g, &s), AYO_RESULT_OK);
    CHECK(s.board[0] == 6 && s.board[11] == 6 && s.stores[0] == 0 && s.to_move == 0);
  }
  ayo_game_free(g);
  ayo_rules_free(copy);
  ayo_rules_free(r);
}

static void test_game_basics(void) {
  ayo_game *g = new_game(NULL), *clone = NULL;
  ayo_rules *rules = NULL;
  uint8_t pits[AYO_MAX_LEGAL_MOVES], mask = 0, undone = 99, hist[8];
  size_t n = 0;
  ayo_setup s;
  ayo_status status;
  ayo_outcome o;
  ayo_side p;
  uint64_t h0 = 0, h1 = 0;
  char text[256];
  check_context = "game basics";
  CHECK_RESULT(ayo_game_setup(g, &s), AYO_RESULT_OK);
  CHECK(s.board[5] == 4 && s.stores[1] == 0 && s.no_capture == 0 && s.ply == 0);
  CHECK_RESULT(ayo_game_to_move(g, &p), AYO_RESULT_OK);
  CHECK(p == AYO_SIDE_SOUTH);
  CHECK_RESULT(ayo_game_legal_moves(g, pits, sizeof pits, &n), AYO_RESULT_OK);
  CHECK(n == 6 && pits[0] == 1 && pits[5] == 6);
  CHECK_RESULT(ayo_game_legal_mask(g, &mask), AYO_RESULT_OK);
  CHECK(mask == 0x3F);
  CHECK_RESULT(ayo_game_status(g, &status), AYO_RESULT_OK);
  CHECK(status == AYO_STATUS_ONGOING);
  CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_GAME_NOT_OVER);
  CHECK_RESULT(ayo_game_undo(g, &undone), AYO_RESULT_NOTHING_TO_UNDO);
  CHECK(undone == 99);
  CHECK(last_error_contains(g, "no move"));
  CHECK_RESULT(ayo_game_hash(g, &h0), AYO_RESULT_OK);

  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_OK);
  CHECK(last_error_contains(g, "") && ayo_game_last_error(g, text, sizeof text, &n) == AYO_RESULT_OK &&
        n == 0);
  CHECK_RESULT(ayo_game_to_move(g, &p), AYO_RESULT_OK);
  CHECK(p == AYO_SIDE_NORTH);
  CHECK_RESULT(ayo_game_hash(g, &h1), AYO_RESULT_OK);
  CHECK(h0 != h1);
  CHECK_RESULT(ayo_game_move_count(g, &n), AYO_RESULT_OK);
  CHECK(n == 1);
  /* North's relative pit 1 is absolute pit 6. */
  CHECK_RESULT(ayo_game_play_pit(g, 6), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_moves(g, hist, sizeof hist, &n), AYO_RESULT_OK);
  CHECK(n == 2 && hist[0] == 3 && hist[1] == 1);
  CHECK(strcmp(record_of(g), "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1") == 0);

  /* A clone is independent of its original. */
  CHECK_RESULT(ayo_game_clone(g, &clone), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_undo(clone, &undone), AYO_RESULT_OK);
  CHECK(undone == 1);
  CHECK(strcmp(record_of(clone), "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3") == 0);
  CHECK(strcmp(record_of(g), "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1") == 0);

  /* Ownership: the game's rules are a new handle that outlives the game. */
  CHECK_RESULT(ayo_game_rules(g, &rules), AYO_RESULT_OK);
  ayo_game_free(g);
  CHECK_RESULT(ayo_rules_text(rules, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(strcmp(text, "ayoayo") == 0);
  CHECK_RESULT(ayo_rules_set(rules, "relay", "false"), AYO_RESULT_OK);
  /* ...and freeing rules never touches a game made from them. */
  CHECK_RESULT(ayo_game_new(rules, &g), AYO_RESULT_OK);
  ayo_rules_free(rules);
  CHECK_RESULT(ayo_game_play(g, 6), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_position_text(g, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(strcmp(text, "ayoayo[relay=false] 4,4,4,4,4,0/5,5,5,5,4,4 0-0 n 1 1") == 0);
  ayo_game_free(g);
  ayo_game_free(clone);

  /* Free of NULL does nothing. */
  ayo_game_free(NULL);
  ayo_rules_free(NULL);
}

/* Checks that `g` still has record `want` (the state is unchanged). */
#define CHECK_UNCHANGED(g, want) CHECK(strcmp(record_of(g), (want)) == 0)

static void test_illegal_moves(void) {
  ayo_game *g = new_game(START);
  char before[512];
  const int bad_relative[] = {0, 7, -1, 100, 256, INT32_MAX, INT32_MIN};
  const int bad_absolute[] = {12, -1, 255, 256, 1000, INT32_MAX, INT32_MIN};
  size_t i, n;
  uint8_t pits[6];
  ayo_trace_summary sum;
  check_context = "illegal moves";
  strcpy(before, record_of(g));
  for (i = 0; i < sizeof bad_relative / sizeof bad_relative[0]; i++) {
    CHECK_RESULT(ayo_game_play(g, bad_relative[i]), AYO_RESULT_ACTION_OUT_OF_RANGE);
    CHECK_RESULT(ayo_game_trace(g, bad_relative[i], NULL, 0, &n, &sum), AYO_RESULT_ACTION_OUT_OF_RANGE);
    CHECK(last_error_contains(g, "out of range"));
  }
  for (i = 0; i < sizeof bad_absolute / sizeof bad_absolute[0]; i++) {
    CHECK_RESULT(ayo_game_play_pit(g, bad_absolute[i]), AYO_RESULT_PIT_OUT_OF_RANGE);
  }
  CHECK_RESULT(ayo_game_play_pit(g, 6), AYO_RESULT_NOT_MOVERS_PIT);
  CHECK_RESULT(ayo_game_play_pit(g, 11), AYO_RESULT_NOT_MOVERS_PIT);
  CHECK_UNCHANGED(g, before);

  /* Empty pit: South's first pit after "1 1". */
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_EMPTY_PIT);
  CHECK(last_error_contains(g, "empty"));
  CHECK_RESULT(ayo_game_play_pit(g, 0), AYO_RESULT_EMPTY_PIT);
  /* NULL arguments are reported before the move's problem. */
  CHECK_RESULT(ayo_game_trace(g, 1, NULL, 16, &n, &sum), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_game_trace(g, 1, NULL, 0, &n, &sum), AYO_RESULT_EMPTY_PIT);
  CHECK_UNCHANGED(g, before);

  /* Endless relay (docs/rules.md worked example). */
  CHECK_RESULT(ayo_game_load_position(g, WORKED), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_play(g, 2), AYO_RESULT_ENDLESS_RELAY);
  CHECK_RESULT(ayo_game_play_pit(g, 7), AYO_RESULT_ENDLESS_RELAY);
  CHECK_RESULT(ayo_game_trace(g, 2, NULL, 0, &n, &sum), AYO_RESULT_ENDLESS_RELAY);
  CHECK_UNCHANGED(g, before);

  /* Game over: a store has reached the target. */
  CHECK_RESULT(ayo_game_load_position(g, TARGET_WON), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_legal_moves(g, pits, sizeof pits, &n), AYO_RESULT_OK);
  CHECK(n == 0);
  for (i = 1; i <= 6; i++) {
    CHECK_RESULT(ayo_game_play(g, (int)i), AYO_RESULT_GAME_OVER);
  }
  CHECK_RESULT(ayo_game_trace(g, 1, NULL, 0, &n, &sum), AYO_RESULT_GAME_OVER);
  CHECK(last_error_contains(g, "over"));
  CHECK_UNCHANGED(g, before);
  {
    ayo_outcome o;
    ayo_status st;
    CHECK_RESULT(ayo_game_status(g, &st), AYO_RESULT_OK);
    CHECK(st == AYO_STATUS_ENDED);
    CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_OK);
    CHECK(o.winner == AYO_WINNER_SOUTH && o.reason == AYO_END_REASON_TARGET);
    CHECK(o.scores[0] == 25 && o.scores[1] == 0);
  }

  /* Ply cap: truncated, not ended; lifting the cap resumes the game. */
  CHECK_RESULT(ayo_game_load_position(g, START), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_set_ply_cap(g, 1), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_TRUNCATED);
  CHECK_UNCHANGED(g, before);
  {
    ayo_status st;
    ayo_outcome o;
    uint8_t mask = 99;
    CHECK_RESULT(ayo_game_status(g, &st), AYO_RESULT_OK);
    CHECK(st == AYO_STATUS_TRUNCATED);
    CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_TRUNCATED);
    CHECK_RESULT(ayo_game_legal_mask(g, &mask), AYO_RESULT_OK);
    CHECK(mask == 0);
  }
  /* The cap survives loading another game into the handle. */
  CHECK_RESULT(ayo_game_load_record(g, "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 1"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_TRUNCATED);
  CHECK_RESULT(ayo_game_clear_ply_cap(g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_play(g, 3), AYO_RESULT_OK);
  ayo_game_free(g);
}

typedef struct {
  const char *text;
  int is_game; /* 1: ayo_game_load_record, 0: ayo_game_load_position */
  ayo_result code;
  ayo_record_field field;
  size_t offset;
} bad_record;

static const bad_record BAD_RECORDS[] = {
    {"oware 4,4,4,4,4,4/4,4,x,4,4,4 0-0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_BOARD, 22},
    {"awale 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_RULES, 0},
    {"oware[target=x] 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD,
     AYO_RECORD_FIELD_RULES, 6},
    {"oware 4,4,4,4,4,4/4,4,4,4,4 0-0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_BOARD, 18},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0+0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_STORES, 30},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 x 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_TO_MOVE, 34},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s -1 0", 0, AYO_RESULT_MALFORMED_RECORD,
     AYO_RECORD_FIELD_NO_CAPTURE, 36},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 z", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_PLY, 38},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_PLY, 37},
    {"", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_RULES, 0},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,5 0-0 s 0 0", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_POSITION, 6},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 extra", 0, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_END,
     40},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 3 1", 1, AYO_RESULT_MALFORMED_RECORD,
     AYO_RECORD_FIELD_SEPARATOR, 43},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 9", 1, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_MOVE,
     44},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 1 1 1", 1, AYO_RESULT_MALFORMED_RECORD,
     AYO_RECORD_FIELD_MOVE, 46},
    {"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 x", 1, AYO_RESULT_MALFORMED_RECORD, AYO_RECORD_FIELD_MOVE,
     44},
};

static void test_malformed_records(void) {
  ayo_game *g = new_game(NULL);
  char before[512];
  size_t i, offset = 12345;
  ayo_record_field field = AYO_RECORD_FIELD_OTHER;
  check_context = "malformed records";
  CHECK_RESULT(ayo_game_load_record(g, "ayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 2 5"), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_last_record_error(g, &field, &offset), AYO_RESULT_NO_RECORD_ERROR);
  CHECK(offset == 12345);
  for (i = 0; i < sizeof BAD_RECORDS / sizeof BAD_RECORDS[0]; i++) {
    const bad_record *b = &BAD_RECORDS[i];
    check_context = b->text;
    CHECK_RESULT(b->is_game ? ayo_game_load_record(g, b->text) : ayo_game_load_position(g, b->text), b->code);
    CHECK_UNCHANGED(g, before);
    CHECK(last_error_contains(g, "offset"));
    if (CHECK_RESULT(ayo_game_last_record_error(g, &field, &offset), AYO_RESULT_OK)) {
      CHECK(field == b->field);
      CHECK(offset == b->offset);
      if (field != b->field || offset != b->offset) {
        fprintf(stderr, "  got field %d offset %zu\n", (int)field, offset);
      }
    }
  }
  check_context = "malformed records";
  CHECK_RESULT(ayo_game_load_position(g, "oware \xff"), AYO_RESULT_INVALID_UTF8);
  CHECK(last_error_contains(g, "UTF-8"));
  /* Not a record error: the detail moves on. */
  CHECK_RESULT(ayo_game_last_record_error(g, &field, &offset), AYO_RESULT_NO_RECORD_ERROR);
  CHECK_RESULT(ayo_game_load_position(g, "oware 4,4,4,4,4,4/4,4,x,4,4,4 0-0 s 0 0"), AYO_RESULT_MALFORMED_RECORD);
  CHECK_RESULT(ayo_game_play(g, 9), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK_RESULT(ayo_game_last_record_error(g, &field, &offset), AYO_RESULT_NO_RECORD_ERROR);
  CHECK_UNCHANGED(g, before);
  ayo_game_free(g);
}

static void test_setups(void) {
  ayo_game *g = new_game(NULL);
  ayo_setup s, back;
  char text[256], before[512];
  size_t n;
  check_context = "setups";
  CHECK_RESULT(ayo_game_setup(g, &s), AYO_RESULT_OK);
  s.board[0] = 0;
  s.board[6] = 8;
  s.to_move = 1;
  s.ply = 7;
  s.no_capture = 3;
  CHECK_RESULT(ayo_game_load_setup(g, &s), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_setup(g, &back), AYO_RESULT_OK);
  CHECK(memcmp(back.board, s.board, sizeof s.board) == 0 && back.to_move == 1 && back.ply == 7 &&
        back.no_capture == 3);
  CHECK_RESULT(ayo_game_position_text(g, text, sizeof text, &n), AYO_RESULT_OK);
  CHECK(strcmp(text, "ayoayo 0,4,4,4,4,4/8,4,4,4,4,4 0-0 n 3 7") == 0);
  strcpy(before, record_of(g));
  s.to_move = 2;
  CHECK_RESULT(ayo_game_load_setup(g, &s), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains(g, "to_move"));
  s.to_move = 0;
  s.board[1] = 5; /* 49 seeds */
  s.no_capture = 9; /* more than the 7 moves played */
  CHECK_RESULT(ayo_game_load_setup(g, &s), AYO_RESULT_INVALID_POSITION);
  CHECK(last_error_contains(g, "49") && last_error_contains(g, "48") && last_error_contains(g, "7 moves"));
  CHECK_UNCHANGED(g, before);
  ayo_game_free(g);
}

static void test_trace(void) {
  ayo_game *g = new_game(START);
  ayo_event ev[8], spare[8];
  ayo_trace_summary sum, untouched;
  size_t n = 0, needed = 0, i;
  uint64_t nodes = 0;
  check_context = "trace";
  /* Oware's opening move 6 sows pit 5 into 6..9 (ayo-core's own example). */
  CHECK_RESULT(ayo_game_trace(g, 6, ev, 8, &n, &sum), AYO_RESULT_OK);
  CHECK(n == 6);
  CHECK(ev[0].kind == AYO_EVENT_KIND_LIFT && ev[0].pit == 5 && ev[0].seeds == 4);
  for (i = 1; i <= 4; i++) {
    CHECK(ev[i].kind == AYO_EVENT_KIND_DROP && ev[i].pit == 5 + i && ev[i].seeds == 0);
  }
  CHECK(ev[5].kind == AYO_EVENT_KIND_END && ev[5].pit == 9 && ev[5].end == AYO_LAP_END_OCCUPIED);
  CHECK(sum.laps == 1 && sum.last_pit == 9 && sum.end == AYO_LAP_END_OCCUPIED);
  CHECK(sum.taken[0] == 0 && sum.taken[1] == 0);
  /* Too small: only the needed count is written. */
  memset(spare, 0x5A, sizeof spare);
  memset(&untouched, 0x5A, sizeof untouched);
  sum = untouched;
  CHECK_RESULT(ayo_game_trace(g, 6, spare, 5, &needed, &sum), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(needed == 6);
  CHECK(memcmp(&sum, &untouched, sizeof sum) == 0);
  CHECK(((unsigned char *)spare)[0] == 0x5A);
  /* A NULL array with a capacity is a NULL argument, whatever the size. */
  needed = 77;
  CHECK_RESULT(ayo_game_trace(g, 6, NULL, 3, &needed, &sum), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_game_trace(g, 6, NULL, 6, &needed, &sum), AYO_RESULT_NULL_ARGUMENT);
  CHECK(needed == 77);
  /* Tracing does not play. */
  CHECK(strcmp(record_of(g), "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |") == 0);
  /* perft from the Oware start (ayo-core's own example). */
  CHECK_RESULT(ayo_game_perft(g, 3, &nodes), AYO_RESULT_OK);
  CHECK(nodes == 190);
  CHECK_RESULT(ayo_game_perft(g, 0, &nodes), AYO_RESULT_OK);
  CHECK(nodes == 1);
  ayo_game_free(g);
}

/* Every text out-parameter: one byte short is refused with the size needed
 * and an untouched buffer; the exact size works. */
static void check_text_fn(const char *what, ayo_result (*call)(const void *, char *, size_t, size_t *),
                          const void *h) {
  char buf[512], small[512];
  size_t n = 0, needed = 0;
  check_context = what;
  if (!CHECK_RESULT(call(h, buf, sizeof buf, &n), AYO_RESULT_OK)) {
    return;
  }
  CHECK_RESULT(call(h, NULL, 0, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(needed == n + 1);
  memset(small, '#', sizeof small);
  needed = 0;
  CHECK_RESULT(call(h, small, n, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(needed == n + 1 && small[0] == '#' && (n == 0 || small[n - 1] == '#'));
  CHECK_RESULT(call(h, small, n + 1, &needed), AYO_RESULT_OK);
  CHECK(needed == n && strcmp(small, buf) == 0);
  CHECK_RESULT(call(h, NULL, 4, &needed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(call(h, buf, sizeof buf, NULL), AYO_RESULT_NULL_ARGUMENT);
}

static ayo_result rules_text(const void *h, char *b, size_t l, size_t *w) { return ayo_rules_text((const ayo_rules *)h, b, l, w); }
static ayo_result rules_get(const void *h, char *b, size_t l, size_t *w) { return ayo_rules_get((const ayo_rules *)h, "capture", b, l, w); }
static ayo_result rules_err(const void *h, char *b, size_t l, size_t *w) { return ayo_rules_last_error((const ayo_rules *)h, b, l, w); }
static ayo_result game_pos(const void *h, char *b, size_t l, size_t *w) { return ayo_game_position_text((const ayo_game *)h, b, l, w); }
static ayo_result game_rec(const void *h, char *b, size_t l, size_t *w) { return ayo_game_record((const ayo_game *)h, b, l, w); }
static ayo_result game_err(const void *h, char *b, size_t l, size_t *w) { return ayo_game_last_error((const ayo_game *)h, b, l, w); }
static ayo_result message(const void *h, char *b, size_t l, size_t *w) { (void)h; return ayo_result_message(AYO_RESULT_ENDLESS_RELAY, b, l, w); }

typedef ayo_result (*array_fn)(const ayo_game *, uint8_t *, size_t, size_t *);

static void check_array_fn(const char *what, array_fn call, const ayo_game *g) {
  uint8_t buf[64], small[64];
  size_t n = 0, needed = 0;
  check_context = what;
  if (!CHECK_RESULT(call(g, buf, sizeof buf, &n), AYO_RESULT_OK) || !CHECK(n > 0)) {
    return;
  }
  memset(small, 0xEE, sizeof small);
  CHECK_RESULT(call(g, small, n - 1, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(needed == n && small[0] == 0xEE);
  CHECK_RESULT(call(g, NULL, 0, &needed), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK_RESULT(call(g, small, n, &needed), AYO_RESULT_OK);
  CHECK(needed == n && memcmp(small, buf, n) == 0);
  CHECK_RESULT(call(g, NULL, n, &needed), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(call(g, buf, sizeof buf, NULL), AYO_RESULT_NULL_ARGUMENT);
}

static void test_buffers(void) {
  ayo_rules *r = new_rules("olopon");
  ayo_game *g = new_game(NULL);
  size_t n = 5;
  uint8_t none[1];
  CHECK_RESULT(ayo_rules_set(r, "target", "none"), AYO_RESULT_OK);
  CHECK_RESULT(ayo_rules_set(r, "capture", "wrong"), AYO_RESULT_BAD_PARAM_VALUE);
  check_context = "buffers";
  play_first_legal(g);
  play_first_legal(g);
  CHECK_RESULT(ayo_game_play(g, 0), AYO_RESULT_ACTION_OUT_OF_RANGE);
  check_text_fn("ayo_rules_text", rules_text, r);
  check_text_fn("ayo_rules_get", rules_get, r);
  check_text_fn("ayo_rules_last_error", rules_err, r);
  check_text_fn("ayo_game_position_text", game_pos, g);
  check_text_fn("ayo_game_record", game_rec, g);
  check_text_fn("ayo_game_last_error", game_err, g);
  check_text_fn("ayo_result_message", message, NULL);
  check_array_fn("ayo_game_legal_moves", ayo_game_legal_moves, g);
  check_array_fn("ayo_game_legal_pits", ayo_game_legal_pits, g);
  check_array_fn("ayo_game_moves", ayo_game_moves, g);
  /* An empty list fits in no buffer at all. */
  check_context = "empty lists";
  CHECK_RESULT(ayo_game_load_position(g, TARGET_WON), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_legal_moves(g, NULL, 0, &n), AYO_RESULT_OK);
  CHECK(n == 0);
  CHECK_RESULT(ayo_game_moves(g, none, 0, &n), AYO_RESULT_OK);
  CHECK(n == 0);
  ayo_game_free(g);
  ayo_rules_free(r);
}

/* NULL for every pointer argument of every function: AYO_RESULT_NULL_ARGUMENT,
 * other out-parameters untouched, the handle unchanged. */
static void test_null_matrix(void) {
  ayo_rules *r = new_rules("ayo"), *rout = (ayo_rules *)SENTINEL_PTR;
  ayo_game *g = new_game(NULL), *gout = (ayo_game *)SENTINEL_PTR;
  char buf[256], before[512];
  size_t n = 4242, off = 4242;
  uint8_t u8 = 42, pits[6];
  uint64_t u64 = 42;
  ayo_setup s;
  ayo_side p = AYO_SIDE_NORTH;
  ayo_status st = AYO_STATUS_TRUNCATED;
  ayo_outcome o;
  ayo_event ev[16];
  ayo_trace_summary sum;
  ayo_record_field field = AYO_RECORD_FIELD_END;
  const int NA = AYO_RESULT_NULL_ARGUMENT;
  check_context = "NULL matrix";
  CHECK_RESULT(ayo_game_play(g, 1), AYO_RESULT_OK);
  strcpy(before, record_of(g));
  CHECK_RESULT(ayo_game_setup(g, &s), AYO_RESULT_OK);

  CHECK_RESULT(ayo_result_message(0, NULL, 10, &n), NA);
  CHECK_RESULT(ayo_result_message(0, buf, sizeof buf, NULL), NA);

  CHECK_RESULT(ayo_rules_new_preset(NULL, &rout), NA);
  CHECK_RESULT(ayo_rules_new_preset("ayo", NULL), NA);
  CHECK_RESULT(ayo_rules_clone(NULL, &rout), NA);
  CHECK_RESULT(ayo_rules_clone(r, NULL), NA);
  CHECK(rout == (ayo_rules *)SENTINEL_PTR);
  CHECK_RESULT(ayo_rules_set(NULL, "relay", "true"), NA);
  CHECK_RESULT(ayo_rules_set(r, NULL, "true"), NA);
  CHECK(check_rules_error_contains(r, "`key` is NULL"));
  CHECK_RESULT(ayo_rules_set(r, "relay", NULL), NA);
  CHECK(check_rules_error_contains(r, "`value` is NULL"));
  CHECK_RESULT(ayo_rules_get(NULL, "relay", buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_get(r, NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_get(r, "relay", NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_get(r, "relay", buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_rules_load_text(NULL, "ayo"), NA);
  CHECK_RESULT(ayo_rules_load_text(r, NULL), NA);
  CHECK_RESULT(ayo_rules_text(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_text(r, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_text(r, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_rules_last_error(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_last_error(r, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_rules_last_error(r, buf, sizeof buf, NULL), NA);
  CHECK(n == 4242);
  CHECK_RESULT(ayo_rules_text(r, buf, sizeof buf, &n), AYO_RESULT_OK);
  CHECK(strcmp(buf, "ayo") == 0);
  n = 4242;

  CHECK_RESULT(ayo_game_new(NULL, &gout), NA);
  CHECK_RESULT(ayo_game_new(r, NULL), NA);
  CHECK_RESULT(ayo_game_clone(NULL, &gout), NA);
  CHECK_RESULT(ayo_game_clone(g, NULL), NA);
  CHECK(gout == (ayo_game *)SENTINEL_PTR);
  CHECK_RESULT(ayo_game_rules(NULL, &rout), NA);
  CHECK_RESULT(ayo_game_rules(g, NULL), NA);
  CHECK(rout == (ayo_rules *)SENTINEL_PTR);
  CHECK_RESULT(ayo_game_load_position(NULL, START), NA);
  CHECK_RESULT(ayo_game_load_position(g, NULL), NA);
  CHECK(last_error_contains(g, "`text` is NULL"));
  CHECK_RESULT(ayo_game_load_record(NULL, START), NA);
  CHECK_RESULT(ayo_game_load_record(g, NULL), NA);
  CHECK_RESULT(ayo_game_load_setup(NULL, &s), NA);
  CHECK_RESULT(ayo_game_load_setup(g, NULL), NA);
  CHECK(last_error_contains(g, "`setup` is NULL"));
  CHECK_RESULT(ayo_game_setup(NULL, &s), NA);
  CHECK_RESULT(ayo_game_setup(g, NULL), NA);
  CHECK_RESULT(ayo_game_to_move(NULL, &p), NA);
  CHECK_RESULT(ayo_game_to_move(g, NULL), NA);
  CHECK(p == AYO_SIDE_NORTH);
  CHECK_RESULT(ayo_game_hash(NULL, &u64), NA);
  CHECK_RESULT(ayo_game_hash(g, NULL), NA);
  CHECK(u64 == 42);
  CHECK_RESULT(ayo_game_move_count(NULL, &n), NA);
  CHECK_RESULT(ayo_game_move_count(g, NULL), NA);
  CHECK_RESULT(ayo_game_moves(NULL, pits, 6, &n), NA);
  CHECK_RESULT(ayo_game_moves(g, NULL, 6, &n), NA);
  CHECK_RESULT(ayo_game_moves(g, pits, 6, NULL), NA);
  CHECK_RESULT(ayo_game_legal_moves(NULL, pits, 6, &n), NA);
  CHECK_RESULT(ayo_game_legal_moves(g, NULL, 6, &n), NA);
  CHECK_RESULT(ayo_game_legal_moves(g, pits, 6, NULL), NA);
  CHECK_RESULT(ayo_game_legal_pits(NULL, pits, 6, &n), NA);
  CHECK_RESULT(ayo_game_legal_pits(g, NULL, 6, &n), NA);
  CHECK_RESULT(ayo_game_legal_pits(g, pits, 6, NULL), NA);
  CHECK_RESULT(ayo_game_legal_mask(NULL, &u8), NA);
  CHECK_RESULT(ayo_game_legal_mask(g, NULL), NA);
  CHECK_RESULT(ayo_game_play(NULL, 1), NA);
  CHECK_RESULT(ayo_game_play_pit(NULL, 6), NA);
  CHECK_RESULT(ayo_game_undo(NULL, &u8), NA);
  CHECK_RESULT(ayo_game_undo(g, NULL), NA);
  CHECK(last_error_contains(g, "`relative_pit` is NULL"));
  CHECK(u8 == 42);
  CHECK_RESULT(ayo_game_status(NULL, &st), NA);
  CHECK_RESULT(ayo_game_status(g, NULL), NA);
  CHECK(st == AYO_STATUS_TRUNCATED);
  CHECK_RESULT(ayo_game_outcome(NULL, &o), NA);
  CHECK_RESULT(ayo_game_outcome(g, NULL), NA);
  CHECK_RESULT(ayo_game_set_ply_cap(NULL, 3), NA);
  CHECK_RESULT(ayo_game_clear_ply_cap(NULL), NA);
  CHECK_RESULT(ayo_game_position_text(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_position_text(g, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_position_text(g, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_game_record(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_record(g, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_record(g, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_game_trace(NULL, 1, ev, 16, &n, &sum), NA);
  CHECK_RESULT(ayo_game_trace(g, 1, NULL, 16, &n, &sum), NA);
  CHECK_RESULT(ayo_game_trace(g, 1, ev, 16, NULL, &sum), NA);
  CHECK_RESULT(ayo_game_trace(g, 1, ev, 16, &n, NULL), NA);
  CHECK_RESULT(ayo_game_perft(NULL, 2, &u64), NA);
  CHECK_RESULT(ayo_game_perft(g, 2, NULL), NA);
  CHECK_RESULT(ayo_game_last_error(NULL, buf, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_last_error(g, NULL, sizeof buf, &n), NA);
  CHECK_RESULT(ayo_game_last_error(g, buf, sizeof buf, NULL), NA);
  CHECK_RESULT(ayo_game_last_record_error(NULL, &field, &off), NA);
  CHECK_RESULT(ayo_game_last_record_error(g, NULL, &off), NA);
  CHECK_RESULT(ayo_game_last_record_error(g, &field, NULL), NA);
  CHECK(n == 4242 && off == 4242 && field == AYO_RECORD_FIELD_END);
  CHECK_UNCHANGED(g, before);
  ayo_game_free(g);
  ayo_rules_free(r);
}

/* Distinct handles on different threads, and read-only calls sharing one. */
typedef struct {
  const ayo_game *shared;
  unsigned seed;
  int ok;
  char expect[4096];
} worker;

static void *play_random_games(void *arg) {
  worker *w = (worker *)arg;
  ayo_rules *r = NULL;
  ayo_game *g = NULL;
  int game, ok = 1;
  const char *preset = ayo_preset_name(w->seed % AYO_PRESET_COUNT);
  ok &= ayo_rules_new_preset(preset, &r) == AYO_RESULT_OK;
  for (game = 0; ok && game < 20; game++) {
    ayo_status st = AYO_STATUS_ONGOING;
    char buf[4096];
    size_t n;
    ok &= ayo_game_new(r, &g) == AYO_RESULT_OK;
    ok &= ayo_game_set_ply_cap(g, 400) == AYO_RESULT_OK;
    while (ok && ayo_game_status(g, &st) == AYO_RESULT_OK && st == AYO_STATUS_ONGOING) {
      uint8_t pits[AYO_MAX_LEGAL_MOVES];
      ok &= ayo_game_legal_moves(g, pits, sizeof pits, &n) == AYO_RESULT_OK && n > 0;
      w->seed = w->seed * 1103515245u + 12345u;
      ok &= ok && ayo_game_play(g, pits[(w->seed >> 16) % n]) == AYO_RESULT_OK;
    }
    /* Meanwhile the shared game reads the same every time. */
    ok &= ayo_game_record(w->shared, buf, sizeof buf, &n) == AYO_RESULT_OK && strcmp(buf, w->expect) == 0;
    ayo_game_free(g);
    g = NULL;
  }
  ayo_rules_free(r);
  w->ok = ok;
  return NULL;
}

static void test_threads(void) {
  enum { THREADS = 4 };
  pthread_t t[THREADS];
  worker w[THREADS];
  ayo_game *shared = new_game(START);
  size_t n, i;
  check_context = "threads";
  CHECK_RESULT(ayo_game_play(shared, 4), AYO_RESULT_OK);
  for (i = 0; i < THREADS; i++) {
    w[i].shared = shared;
    w[i].seed = (unsigned)(i + 1);
    w[i].ok = 0;
    CHECK_RESULT(ayo_game_record(shared, w[i].expect, sizeof w[i].expect, &n), AYO_RESULT_OK);
    CHECK(pthread_create(&t[i], NULL, play_random_games, &w[i]) == 0);
  }
  for (i = 0; i < THREADS; i++) {
    CHECK(pthread_join(t[i], NULL) == 0);
    CHECK(w[i].ok);
  }
  ayo_game_free(shared);
}

int main(void) {
  test_version();
  test_kernel();
  test_results();
  test_rules();
  test_game_basics();
  test_illegal_moves();
  test_malformed_records();
  test_setups();
  test_trace();
  test_buffers();
  test_null_matrix();
  test_threads();
  return check_report("c-api");
}
