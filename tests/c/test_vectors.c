/*
 * Checks every shared test vector (tests/vectors/moves-NAME.json and perft.json,
 * format in tests/vectors/README.md) through the C API.
 *
 * usage: test_vectors VECTOR_DIR
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ayo.h"
#include "check.h"
#include "json.h"

/* perft depths whose counts exceed this are not replayed (printed as skipped),
 * to keep the sanitizer run short; every count at or under it is checked. */
#define PERFT_NODE_BUDGET 3000000.0

static long vectors_checked = 0;
static long perft_checked = 0;
static long perft_skipped = 0;

typedef struct {
  const char *kind;
  ayo_result code;
} error_kind;

static const error_kind ERROR_KINDS[] = {
    {"empty_pit", AYO_RESULT_EMPTY_PIT},
    {"endless_relay", AYO_RESULT_ENDLESS_RELAY},
    {"does_not_feed", AYO_RESULT_DOES_NOT_FEED},
    {"starves", AYO_RESULT_STARVES},
    {"game_over", AYO_RESULT_GAME_OVER},
    {"action_out_of_range", AYO_RESULT_ACTION_OUT_OF_RANGE},
    {"pit_out_of_range", AYO_RESULT_PIT_OUT_OF_RANGE},
    {"not_movers_pit", AYO_RESULT_NOT_MOVERS_PIT},
    {"truncated", AYO_RESULT_TRUNCATED},
};

static int error_code(const char *kind) {
  size_t i;
  for (i = 0; i < sizeof ERROR_KINDS / sizeof ERROR_KINDS[0]; i++) {
    if (strcmp(ERROR_KINDS[i].kind, kind) == 0) {
      return (int)ERROR_KINDS[i].code;
    }
  }
  return -1;
}

static const char *LAP_ENDS[] = {"none", "empty_pit", "occupied", "made_four", "two_three"};
static const char *PLAYERS[] = {"south", "north"};
static const char *REASONS[] = {"target", "move_limit", "repetition", "no_legal_move"};

static int is_str(const json *v, const char *s) {
  return v && v->type == JSON_STRING && strcmp(v->string, s) == 0;
}

/* Whether `v` is present with type `type` (or null, when `nullable`). */
static int is_type(const json *v, json_type type, int nullable) {
  return v && (v->type == type || (nullable && v->type == JSON_NULL));
}

/* Text of a game query into a fixed buffer (records here are short). */
typedef ayo_result (*text_fn)(const ayo_game *, char *, size_t, size_t *);

static int text_of(text_fn fn, const ayo_game *g, char *buf, size_t len) {
  size_t n = 0;
  return CHECK_RESULT(fn(g, buf, len, &n), AYO_RESULT_OK) && CHECK(n == strlen(buf));
}

static void check_trace(const ayo_game *g, int move, const json *want) {
  size_t needed = 0, count = 0, i, collected = 0, captured = 0;
  long forfeited = -1;
  ayo_trace_summary sum;
  ayo_event *events;
  const json *list;
  memset(&sum, 0xAB, sizeof sum);
  /* Ask for the size first: nothing but the count is written. */
  if (!CHECK_RESULT(ayo_game_trace(g, move, NULL, 0, &needed, &sum), AYO_RESULT_BUFFER_TOO_SMALL)) {
    return;
  }
  CHECK(needed >= 3); /* lift, at least one drop, end */
  CHECK(sum.laps == 0xABABABABu);
  events = (ayo_event *)calloc(needed, sizeof *events);
  if (!CHECK(events != NULL)) {
    return;
  }
  if (CHECK_RESULT(ayo_game_trace(g, move, events, needed, &count, &sum), AYO_RESULT_OK)) {
    CHECK(count == needed);
    CHECK(sum.laps == (uint32_t)json_int(json_get(want, "laps")));
    CHECK(sum.last_pit == json_int(json_get(want, "last_pit")));
    CHECK(is_str(json_get(want, "end"), LAP_ENDS[sum.end]));
    list = json_get(want, "taken");
    CHECK(sum.taken[0] == json_int(json_at(list, 0)) && sum.taken[1] == json_int(json_at(list, 1)));
    CHECK(events[0].kind == AYO_EVENT_KIND_LIFT);
    CHECK(events[count - 1].kind == AYO_EVENT_KIND_END);
    CHECK(events[count - 1].pit == sum.last_pit && events[count - 1].end == sum.end);
    for (i = 0; i < count; i++) {
      const ayo_event *e = &events[i];
      if (e->kind == AYO_EVENT_KIND_COLLECT) {
        const json *c = json_at(json_get(want, "collected"), collected++);
        CHECK(c && json_int(json_at(c, 0)) == e->pit && is_str(json_at(c, 1), PLAYERS[e->player]));
      } else if (e->kind == AYO_EVENT_KIND_CAPTURE) {
        const json *c = json_at(json_get(want, "captured"), captured++);
        CHECK(c && json_int(json_at(c, 0)) == e->pit && json_int(json_at(c, 1)) == e->seeds);
      } else if (e->kind == AYO_EVENT_KIND_GRAND_SLAM_FORFEITED) {
        forfeited = (forfeited < 0 ? 0 : forfeited) + e->seeds;
      }
      if (e->kind == AYO_EVENT_KIND_RELAY) {
        CHECK(e->seeds >= 2);
      }
    }
    CHECK(collected == json_get(want, "collected")->count);
    CHECK(captured == json_get(want, "captured")->count);
    list = json_get(want, "forfeited");
    CHECK(forfeited < 0 ? list->type == JSON_NULL : json_int(list) == forfeited);
  }
  free(events);
}

static void check_outcome(const ayo_game *g, const json *want) {
  ayo_status status;
  ayo_outcome o;
  const json *winner;
  if (!CHECK_RESULT(ayo_game_status(g, &status), AYO_RESULT_OK)) {
    return;
  }
  if (want->type == JSON_NULL) {
    CHECK(status == AYO_STATUS_ONGOING);
    CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_GAME_NOT_OVER);
    return;
  }
  CHECK(status == AYO_STATUS_ENDED);
  if (!CHECK_RESULT(ayo_game_outcome(g, &o), AYO_RESULT_OK)) {
    return;
  }
  winner = json_get(want, "winner");
  CHECK(winner->type == JSON_NULL ? o.winner == AYO_WINNER_DRAW : is_str(winner, PLAYERS[o.winner]));
  CHECK(is_str(json_get(want, "reason"), REASONS[o.reason]));
  CHECK(o.scores[0] == json_int(json_at(json_get(want, "scores"), 0)));
  CHECK(o.scores[1] == json_int(json_at(json_get(want, "scores"), 1)));
}

static void check_vector(const json *v, ayo_game *g, ayo_game *other) {
  const json *legal = json_get(v, "legal"), *err = json_get(v, "error"), *after = json_get(v, "after");
  int move = json_int(json_get(v, "move"));
  char before[4096], text[4096], again[4096];
  uint8_t pits[AYO_MAX_LEGAL_MOVES], abs_pits[AYO_MAX_LEGAL_MOVES], mask = 0, undone = 0;
  size_t n = 99, n_abs = 99, i;
  uint64_t hash_before = 0, hash = 1, hash_other = 2;
  ayo_side mover;
  ayo_setup setup;

  /* Every key of the format, with its type, before anything is read. */
  const json *name = json_get(v, "name"), *trace = json_get(v, "trace"), *outcome = json_get(v, "outcome");
  check_context = name && name->type == JSON_STRING ? name->string : "<vector without a name>";
  vectors_checked++;
  if (!CHECK(name && name->type == JSON_STRING) || !CHECK(is_type(json_get(v, "game"), JSON_STRING, 0)) ||
      !CHECK(is_type(legal, JSON_ARRAY, 0)) || !CHECK(is_type(json_get(v, "move"), JSON_NUMBER, 0)) ||
      !CHECK(is_type(err, JSON_STRING, 1)) || !CHECK(is_type(after, JSON_STRING, 1)) ||
      !CHECK(is_type(trace, JSON_OBJECT, 1)) || !CHECK(is_type(outcome, JSON_OBJECT, 1)) ||
      !CHECK((err->type == JSON_NULL) == (trace->type == JSON_OBJECT) &&
             (err->type == JSON_NULL) == (after->type == JSON_STRING))) {
    return;
  }
  if (trace->type == JSON_OBJECT &&
      (!CHECK(is_type(json_get(trace, "laps"), JSON_NUMBER, 0)) ||
       !CHECK(is_type(json_get(trace, "last_pit"), JSON_NUMBER, 0)) ||
       !CHECK(is_type(json_get(trace, "end"), JSON_STRING, 0)) ||
       !CHECK(is_type(json_get(trace, "taken"), JSON_ARRAY, 0)) ||
       !CHECK(is_type(json_get(trace, "collected"), JSON_ARRAY, 0)) ||
       !CHECK(is_type(json_get(trace, "captured"), JSON_ARRAY, 0)) ||
       !CHECK(json_get(trace, "forfeited") != NULL))) {
    return;
  }
  if (outcome->type == JSON_OBJECT &&
      (!CHECK(is_type(json_get(outcome, "winner"), JSON_STRING, 1)) ||
       !CHECK(is_type(json_get(outcome, "reason"), JSON_STRING, 0)) ||
       !CHECK(is_type(json_get(outcome, "scores"), JSON_ARRAY, 0)))) {
    return;
  }
  if (!CHECK_RESULT(ayo_game_load_record(g, json_get(v, "game")->string), AYO_RESULT_OK)) {
    return;
  }
  /* The record prints back to text that loads to the same game. */
  text_of(ayo_game_record, g, before, sizeof before);
  CHECK_RESULT(ayo_game_load_record(other, before), AYO_RESULT_OK);
  text_of(ayo_game_record, other, text, sizeof text);
  CHECK(strcmp(before, text) == 0);

  /* Legal moves: relative pits, absolute pits and the mask agree. */
  CHECK_RESULT(ayo_game_to_move(g, &mover), AYO_RESULT_OK);
  if (CHECK_RESULT(ayo_game_legal_moves(g, pits, sizeof pits, &n), AYO_RESULT_OK) &&
      CHECK(n == legal->count)) {
    CHECK_RESULT(ayo_game_legal_pits(g, abs_pits, sizeof abs_pits, &n_abs), AYO_RESULT_OK);
    CHECK_RESULT(ayo_game_legal_mask(g, &mask), AYO_RESULT_OK);
    CHECK(n_abs == n);
    for (i = 0; i < n; i++) {
      CHECK(pits[i] == json_int(json_at(legal, i)));
      CHECK(abs_pits[i] == pits[i] - 1 + 6 * (int)mover);
      CHECK(mask & (1u << (pits[i] - 1)));
    }
    for (i = 0; i < 8; i++) {
      n_abs -= (mask >> i) & 1u;
    }
    CHECK(n_abs == 0 && mask < 64);
  }

  CHECK_RESULT(ayo_game_hash(g, &hash_before), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_setup(g, &setup), AYO_RESULT_OK);
  CHECK(setup.to_move == (uint8_t)mover);

  if (err->type != JSON_NULL) {
    int code = error_code(err->string);
    ayo_trace_summary sum;
    size_t count = 0;
    CHECK(code >= 0);
    CHECK_RESULT(ayo_game_trace(g, move, NULL, 0, &count, &sum), code);
    CHECK_RESULT(ayo_game_play(g, move), code);
    CHECK_RESULT(ayo_game_last_error(g, text, sizeof text, &n), AYO_RESULT_OK);
    CHECK(n > 0);
    if (move >= 1 && move <= 6 && code != AYO_RESULT_ACTION_OUT_OF_RANGE) {
      CHECK_RESULT(ayo_game_play_pit(g, move - 1 + 6 * (int)mover), code);
    }
    /* The game is unchanged. */
    text_of(ayo_game_record, g, text, sizeof text);
    CHECK(strcmp(text, before) == 0);
    CHECK_RESULT(ayo_game_hash(g, &hash), AYO_RESULT_OK);
    CHECK(hash == hash_before);
    CHECK(after->type == JSON_NULL);
    return;
  }

  check_trace(g, move, trace);
  if (!CHECK_RESULT(ayo_game_play(g, move), AYO_RESULT_OK)) {
    return;
  }
  text_of(ayo_game_position_text, g, text, sizeof text);
  CHECK(after->type == JSON_STRING && strcmp(text, after->string) == 0);
  check_outcome(g, outcome);

  /* The hash is that of the same position loaded from its record. */
  CHECK_RESULT(ayo_game_hash(g, &hash), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_load_position(other, text), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_hash(other, &hash_other), AYO_RESULT_OK);
  CHECK(hash == hash_other);

  /* Undo restores the game; the same move by absolute pit gives the same result. */
  CHECK_RESULT(ayo_game_undo(g, &undone), AYO_RESULT_OK);
  CHECK(undone == move);
  text_of(ayo_game_record, g, again, sizeof again);
  CHECK(strcmp(again, before) == 0);
  CHECK_RESULT(ayo_game_hash(g, &hash), AYO_RESULT_OK);
  CHECK(hash == hash_before);
  CHECK_RESULT(ayo_game_play_pit(g, move - 1 + 6 * (int)mover), AYO_RESULT_OK);
  text_of(ayo_game_position_text, g, again, sizeof again);
  CHECK(strcmp(again, after->string) == 0);
}

/* Reads a vector file of `format` and finds its non-empty array `key`;
 * NULL (a failed check) when any of that is missing. */
static json *open_vectors(const char *path, const char *format, const char *key, const json **list) {
  char err[256];
  json *doc = json_parse_file(path, err, sizeof err);
  check_context = path;
  if (!CHECK(doc != NULL)) {
    fprintf(stderr, "%s\n", err);
    return NULL;
  }
  *list = json_get(doc, key);
  if (!CHECK(is_str(json_get(doc, "format"), format)) ||
      !CHECK(*list && (*list)->type == JSON_ARRAY && (*list)->count > 0)) {
    json_free(doc);
    return NULL;
  }
  return doc;
}

static void check_moves_file(const char *path) {
  const json *vectors = NULL;
  json *doc = open_vectors(path, "ayo-vectors/1", "vectors", &vectors);
  ayo_rules *rules = NULL;
  ayo_game *g = NULL, *other = NULL;
  size_t i;
  if (doc && CHECK_RESULT(ayo_rules_new_preset("ayoayo", &rules), AYO_RESULT_OK) &&
      CHECK_RESULT(ayo_game_new(rules, &g), AYO_RESULT_OK) &&
      CHECK_RESULT(ayo_game_new(rules, &other), AYO_RESULT_OK)) {
    for (i = 0; i < vectors->count; i++) {
      check_vector(&vectors->items[i], g, other);
    }
  }
  ayo_game_free(g);
  ayo_game_free(other);
  ayo_rules_free(rules);
  json_free(doc);
}

static void check_perft_file(const char *path) {
  char rules_text[256];
  const json *suites = NULL;
  json *doc = open_vectors(path, "ayo-perft/1", "suites", &suites);
  ayo_rules *rules = NULL;
  ayo_game *g = NULL;
  size_t i, d, n;
  if (doc && CHECK_RESULT(ayo_rules_new_preset("ayoayo", &rules), AYO_RESULT_OK) &&
      CHECK_RESULT(ayo_game_new(rules, &g), AYO_RESULT_OK)) {
    for (i = 0; i < suites->count; i++) {
      const json *s = &suites->items[i], *counts = json_get(s, "counts");
      ayo_rules *game_rules = NULL;
      if (!CHECK_RESULT(ayo_game_load_position(g, json_get(s, "position")->string), AYO_RESULT_OK)) {
        continue;
      }
      /* The suite's rules are those of its position record. */
      if (CHECK_RESULT(ayo_game_rules(g, &game_rules), AYO_RESULT_OK) &&
          CHECK_RESULT(ayo_rules_text(game_rules, rules_text, sizeof rules_text, &n), AYO_RESULT_OK)) {
        char named_text[256];
        CHECK_RESULT(ayo_rules_load_text(game_rules, json_get(s, "rules")->string), AYO_RESULT_OK);
        CHECK_RESULT(ayo_rules_text(game_rules, named_text, sizeof named_text, &n), AYO_RESULT_OK);
        CHECK(strcmp(rules_text, named_text) == 0);
      }
      ayo_rules_free(game_rules);
      for (d = 0; d < counts->count; d++) {
        uint64_t nodes = 0;
        if (counts->items[d].number > PERFT_NODE_BUDGET) {
          perft_skipped++;
          continue;
        }
        perft_checked++;
        CHECK_RESULT(ayo_game_perft(g, (uint32_t)(d + 1), &nodes), AYO_RESULT_OK);
        CHECK((double)nodes == counts->items[d].number);
      }
    }
  }
  ayo_game_free(g);
  ayo_rules_free(rules);
  json_free(doc);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  DIR *dir;
  struct dirent *e;
  char *names[256];
  size_t count = 0, i, moves_files = 0;
  char path[4096];
  if (argc != 2) {
    fprintf(stderr, "usage: %s VECTOR_DIR\n", argv[0]);
    return 2;
  }
  dir = opendir(argv[1]);
  if (!dir) {
    fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  while ((e = readdir(dir)) != NULL && count < 256) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
      names[count++] = strdup(e->d_name);
    }
  }
  closedir(dir);
  qsort(names, count, sizeof names[0], by_name);
  for (i = 0; i < count; i++) {
    snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
    if (strncmp(names[i], "moves-", 6) == 0) {
      moves_files++;
      check_moves_file(path);
    } else if (strcmp(names[i], "perft.json") == 0) {
      check_perft_file(path);
    } else {
      fprintf(stderr, "note: %s is not a known vector file; not read\n", path);
    }
    free(names[i]);
  }
  check_context = "";
  CHECK(moves_files > 0);
  printf("vectors: %ld move vectors in %zu files, %ld perft counts checked, %ld over the node budget "
         "not replayed\n",
         vectors_checked, moves_files, perft_checked, perft_skipped);
  return check_report("c-vectors");
}
