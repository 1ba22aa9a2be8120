/* The batched environment of the C ABI (ayo_vec_env_*): self-play games
 * stepped beside one ayo_game each (the same boards, turns, masks and
 * outcomes), one thread and two writing the same rows, and the refusals
 * (bad options, bad actions, rows of another batch, NULL arguments), each
 * with its result code and detail, changing nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_VEC_ENV_OUT_OF_MEMORY == 140, "stable result numbers");

static int last_error_contains(const char *needle) {
  char buf[512];
  size_t n = 0;
  if (ayo_vec_env_last_error(buf, sizeof buf, &n) != AYO_RESULT_OK) return 0;
  if (strstr(buf, needle) != NULL) return 1;
  printf("  last error: %s (wanted %s)\n", buf, needle);
  return 0;
}

/* A batch's arrays, each from calloc. */
typedef struct rows {
  ayo_vec_rows r;
} rows;

static rows rows_new(size_t n) {
  rows o;
  o.r.num_envs = n;
  o.r.obs = calloc(n * 14, sizeof(float));
  o.r.obs_mask = calloc(n * 6, 1);
  o.r.mask = calloc(n * 6, 1);
  o.r.reward = calloc(n, sizeof(double));
  o.r.terminated = calloc(n, 1);
  o.r.truncated = calloc(n, 1);
  o.r.seat = calloc(n, 1);
  o.r.final_obs = calloc(n * 14, sizeof(float));
  o.r.final_obs_mask = calloc(n * 6, 1);
  o.r.ended = calloc(n, 1);
  o.r.game_over = calloc(n, 1);
  o.r.scores = calloc(n * 2, sizeof(int16_t));
  o.r.winner = calloc(n, 1);
  o.r.illegal = calloc(n, 1);
  o.r.to_move = calloc(n, 1);
  o.r.ply = calloc(n, sizeof(uint32_t));
  o.r.replied = calloc(n, 1);
  o.r.reason = calloc(n, 1);
  o.r.status = calloc(n, 1);
  return o;
}

static void rows_free(rows *o) {
  free(o->r.obs);
  free(o->r.obs_mask);
  free(o->r.mask);
  free(o->r.reward);
  free(o->r.terminated);
  free(o->r.truncated);
  free(o->r.seat);
  free(o->r.final_obs);
  free(o->r.final_obs_mask);
  free(o->r.ended);
  free(o->r.game_over);
  free(o->r.scores);
  free(o->r.winner);
  free(o->r.illegal);
  free(o->r.to_move);
  free(o->r.ply);
  free(o->r.replied);
  free(o->r.reason);
  free(o->r.status);
}

/* Copies every array of `src` into `dst` (of as many games). */
static void rows_copy(rows *dst, const rows *src) {
  size_t n = src->r.num_envs;
  memcpy(dst->r.obs, src->r.obs, n * 14 * sizeof(float));
  memcpy(dst->r.obs_mask, src->r.obs_mask, n * 6);
  memcpy(dst->r.mask, src->r.mask, n * 6);
  memcpy(dst->r.reward, src->r.reward, n * sizeof(double));
  memcpy(dst->r.terminated, src->r.terminated, n);
  memcpy(dst->r.truncated, src->r.truncated, n);
  memcpy(dst->r.seat, src->r.seat, n);
  memcpy(dst->r.final_obs, src->r.final_obs, n * 14 * sizeof(float));
  memcpy(dst->r.final_obs_mask, src->r.final_obs_mask, n * 6);
  memcpy(dst->r.ended, src->r.ended, n);
  memcpy(dst->r.game_over, src->r.game_over, n);
  memcpy(dst->r.scores, src->r.scores, n * 2 * sizeof(int16_t));
  memcpy(dst->r.winner, src->r.winner, n);
  memcpy(dst->r.illegal, src->r.illegal, n);
  memcpy(dst->r.to_move, src->r.to_move, n);
  memcpy(dst->r.ply, src->r.ply, n * sizeof(uint32_t));
  memcpy(dst->r.replied, src->r.replied, n);
  memcpy(dst->r.reason, src->r.reason, n);
  memcpy(dst->r.status, src->r.status, n);
}

/* Whether two batches' rows hold the same values. */
static int rows_equal(const rows *a, const rows *b) {
  size_t n = a->r.num_envs;
  return n == b->r.num_envs && memcmp(a->r.obs, b->r.obs, n * 14 * sizeof(float)) == 0 &&
         memcmp(a->r.obs_mask, b->r.obs_mask, n * 6) == 0 && memcmp(a->r.mask, b->r.mask, n * 6) == 0 &&
         memcmp(a->r.reward, b->r.reward, n * sizeof(double)) == 0 &&
         memcmp(a->r.terminated, b->r.terminated, n) == 0 &&
         memcmp(a->r.truncated, b->r.truncated, n) == 0 && memcmp(a->r.seat, b->r.seat, n) == 0 &&
         memcmp(a->r.final_obs, b->r.final_obs, n * 14 * sizeof(float)) == 0 &&
         memcmp(a->r.ended, b->r.ended, n) == 0 &&
         memcmp(a->r.scores, b->r.scores, n * 2 * sizeof(int16_t)) == 0 &&
         memcmp(a->r.winner, b->r.winner, n) == 0 && memcmp(a->r.ply, b->r.ply, n * sizeof(uint32_t)) == 0 &&
         memcmp(a->r.replied, b->r.replied, n) == 0 && memcmp(a->r.reason, b->r.reason, n) == 0 &&
         memcmp(a->r.status, b->r.status, n) == 0;
}

/* A legal action of a game's status row picked by a small LCG (0 when none). */
static int64_t pick(uint8_t status, unsigned *k) {
  int64_t action = 0;
  int first = 1;
  for (int a = 0; a < 6; a++) {
    if (!((status >> a) & 1)) continue;
    if (first || (*k = *k * 1103515245u + 12345u) % 3 == 0) action = a;
    first = 0;
  }
  return action;
}

enum { GAMES = 4 };

static void self_play_follows_the_games(void) {
  ayo_rules *rules = check_rules_of("oware");
  ayo_vec_env *env = NULL;
  const uint64_t seeds[GAMES] = {1, 2, 3, 4};
  CHECK_RESULT(ayo_vec_env_new(rules, "opponent=self_play;perspective=absolute", seeds, GAMES, 1, &env),
               AYO_RESULT_OK);
  size_t n = 0;
  CHECK_RESULT(ayo_vec_env_num_envs(env, &n), AYO_RESULT_OK);
  CHECK(n == GAMES);
  rows o = rows_new(GAMES);
  CHECK_RESULT(ayo_vec_env_reset(env, &o.r, NULL, NULL, -1), AYO_RESULT_OK);
  ayo_game *games[GAMES];
  for (int i = 0; i < GAMES; i++) CHECK_RESULT(ayo_game_new(rules, &games[i]), AYO_RESULT_OK);
  unsigned k = 1;
  int ends = 0;
  for (int t = 0; t < 600; t++) {
    int64_t actions[GAMES];
    for (int i = 0; i < GAMES; i++) {
      ayo_setup setup;
      uint8_t mask = 0;
      CHECK_RESULT(ayo_game_setup(games[i], &setup), AYO_RESULT_OK);
      CHECK_RESULT(ayo_game_legal_mask(games[i], &mask), AYO_RESULT_OK);
      int same = 1;
      for (int p = 0; p < AYO_PITS; p++) same &= o.r.obs[i * 14 + p] == (float)setup.board[p];
      same &= o.r.obs[i * 14 + 12] == (float)setup.stores[0] && o.r.obs[i * 14 + 13] == (float)setup.stores[1];
      CHECK(same);
      CHECK(o.r.to_move[i] == setup.to_move && o.r.ply[i] == setup.ply);
      int done = (o.r.status[i] & 0x80) != 0;
      CHECK(done || (o.r.status[i] & 63) == mask);
      actions[i] = pick(o.r.status[i], &k);
    }
    ayo_vec_counts counts = {9, 9, 9};
    CHECK_RESULT(ayo_vec_env_step(env, actions, GAMES, &o.r, &counts), AYO_RESULT_OK);
    CHECK(counts.penalized == 0);
    for (int i = 0; i < GAMES; i++) {
      if (o.r.ply[i] == 0) {
        /* Reset (the step after an episode's end): a new game. */
        ayo_game_free(games[i]);
        CHECK_RESULT(ayo_game_new(rules, &games[i]), AYO_RESULT_OK);
        continue;
      }
      CHECK_RESULT(ayo_game_play(games[i], (int32_t)actions[i] + 1), AYO_RESULT_OK);
      if (o.r.game_over[i]) {
        ayo_outcome outcome;
        CHECK_RESULT(ayo_game_outcome(games[i], &outcome), AYO_RESULT_OK);
        CHECK(o.r.scores[2 * i] == outcome.scores[0] && o.r.scores[2 * i + 1] == outcome.scores[1]);
        int winner = outcome.winner == AYO_WINNER_DRAW ? -1 : (int)outcome.winner;
        CHECK(o.r.winner[i] == winner);
        CHECK(o.r.reason[i] == (int8_t)outcome.reason);
        CHECK(o.r.terminated[i] && o.r.ended[i]);
        ends++;
      }
    }
  }
  CHECK(ends >= 1);
  for (int i = 0; i < GAMES; i++) ayo_game_free(games[i]);
  rows_free(&o);
  ayo_vec_env_free(env);
  ayo_rules_free(rules);
}

/* Every row of `steps` steps of a random-opponent batch on `threads` threads. */
static void run(const ayo_rules *rules, int32_t threads, rows *o, int steps) {
  enum { N = 200 };
  uint64_t seeds[N];
  for (int i = 0; i < N; i++) seeds[i] = (uint64_t)i * 31u + 5u;
  ayo_vec_env *env = NULL;
  CHECK_RESULT(ayo_vec_env_new(rules, "illegal=penalize;max_steps=30", seeds, N, threads, &env), AYO_RESULT_OK);
  CHECK_RESULT(ayo_vec_env_reset(env, &o->r, NULL, NULL, -1), AYO_RESULT_OK);
  unsigned k = 7;
  int64_t actions[N];
  for (int t = 0; t < steps; t++) {
    /* Now and then an illegal action (penalized). */
    for (int i = 0; i < N; i++) actions[i] = (t + i) % 17 == 0 ? 5 : pick(o->r.status[i], &k);
    CHECK_RESULT(ayo_vec_env_step(env, actions, N, &o->r, NULL), AYO_RESULT_OK);
  }
  ayo_vec_env_free(env);
}

static void threads_write_the_same_rows(void) {
  ayo_rules *rules = check_rules_of("ayo");
  rows one = rows_new(200), two = rows_new(200);
  for (int steps = 1; steps <= 81; steps += 40) {
    run(rules, 1, &one, steps);
    run(rules, 2, &two, steps);
    CHECK(rows_equal(&one, &two));
  }
  rows_free(&one);
  rows_free(&two);
  ayo_rules_free(rules);
}

static void refusals_change_nothing(void) {
  ayo_rules *rules = check_rules_of("oware");
  const uint64_t seeds[3] = {1, 2, 3};
  ayo_vec_env *env = NULL;
  CHECK(strcmp(ayo_result_name(AYO_RESULT_VEC_ENV_OUT_OF_MEMORY), "AYO_RESULT_VEC_ENV_OUT_OF_MEMORY") == 0);
  CHECK_RESULT(ayo_vec_env_new(rules, "opponent=wizard", seeds, 3, 1, &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(env == NULL && last_error_contains("opponent must be"));
  CHECK_RESULT(ayo_vec_env_new(rules, "autoreset=Later", seeds, 3, 1, &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains("autoreset"));
  CHECK_RESULT(ayo_vec_env_new(rules, NULL, seeds, 0, 1, &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains("at least 1"));
  CHECK_RESULT(ayo_vec_env_new(rules, NULL, seeds, 3, -2, &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_vec_env_new(rules, NULL, seeds, 3, 5000, &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains("threads"));
  CHECK_RESULT(ayo_vec_env_new(NULL, NULL, seeds, 3, 1, &env), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_vec_env_new(rules, NULL, NULL, 3, 1, &env), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_vec_env_new(rules, "opponent=3;seat=1;autoreset=Disabled", seeds, 3, 0, &env), AYO_RESULT_OK);
  char detail[8] = "x";
  size_t len = 9;
  CHECK_RESULT(ayo_vec_env_last_error(detail, sizeof detail, &len), AYO_RESULT_OK);
  CHECK(len == 0 && detail[0] == 0);
  rows o = rows_new(3);
  CHECK_RESULT(ayo_vec_env_reset(env, &o.r, NULL, NULL, 2), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_vec_env_reset(env, &o.r, NULL, NULL, -1), AYO_RESULT_OK);
  CHECK(o.r.seat[0] == 1 && o.r.seat[2] == 1);
  rows before = rows_new(3);
  rows_copy(&before, &o);
  int64_t actions[3] = {0, 6, 0};
  for (int i = 0; i < 3; i++)
    if (i != 1) actions[i] = pick(o.r.status[i], &(unsigned){1});
  CHECK_RESULT(ayo_vec_env_step(env, actions, 3, &o.r, NULL), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK(last_error_contains("game 1"));
  CHECK_RESULT(ayo_vec_env_step(env, actions, 2, &o.r, NULL), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains("expected 3 actions"));
  rows small = rows_new(2);
  actions[1] = pick(o.r.status[1], &(unsigned){1});
  CHECK_RESULT(ayo_vec_env_step(env, actions, 3, &small.r, NULL), AYO_RESULT_INVALID_ARGUMENT);
  CHECK(last_error_contains("the rows are for 2 games"));
  CHECK_RESULT(ayo_vec_env_step(env, actions, 3, NULL, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_vec_env_step(NULL, actions, 3, &o.r, NULL), AYO_RESULT_NULL_ARGUMENT);
  ayo_vec_rows missing = o.r;
  missing.ply = NULL;
  CHECK_RESULT(ayo_vec_env_step(env, actions, 3, &missing, NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK(last_error_contains("rows.ply"));
  CHECK(rows_equal(&o, &before));
  CHECK_RESULT(ayo_vec_env_step(env, actions, 3, &o.r, NULL), AYO_RESULT_OK);
  rows_free(&small);
  rows_free(&before);
  rows_free(&o);
  ayo_vec_env_free(env);
  ayo_vec_env_free(NULL);
  ayo_rules_free(rules);
}

static void an_illegal_action_names_its_reason(void) {
  ayo_rules *rules = check_rules_of("oware");
  const uint64_t seed = 9;
  ayo_vec_env *env = NULL;
  CHECK_RESULT(ayo_vec_env_new(rules, "opponent=self_play", &seed, 1, 1, &env), AYO_RESULT_OK);
  rows o = rows_new(1);
  CHECK_RESULT(ayo_vec_env_reset(env, &o.r, NULL, NULL, -1), AYO_RESULT_OK);
  /* Both players play their first pit; the mover's is then empty. */
  int refused = 0;
  for (int t = 0; t < 200 && !refused; t++) {
    if (o.r.status[0] & 0x80) break;
    int64_t a = (o.r.status[0] & 1) ? 0 : -1;
    if (a < 0) {
      a = 0;
      CHECK_RESULT(ayo_vec_env_step(env, &a, 1, &o.r, NULL), AYO_RESULT_EMPTY_PIT);
      CHECK(last_error_contains("game 0: "));
      CHECK(last_error_contains("is empty"));
      refused = 1;
    } else {
      CHECK_RESULT(ayo_vec_env_step(env, &a, 1, &o.r, NULL), AYO_RESULT_OK);
    }
  }
  CHECK(refused);
  rows_free(&o);
  ayo_vec_env_free(env);
  ayo_rules_free(rules);
}

int main(void) {
  check_context = "self-play";
  self_play_follows_the_games();
  check_context = "threads";
  threads_write_the_same_rows();
  check_context = "refusals";
  refusals_change_nothing();
  check_context = "illegal";
  an_illegal_action_names_its_reason();
  return check_report("c-vector-env");
}
