/* The guided search through the C API (ayo_search_*): a program with its
 * own network asks for leaves and tells the search its logits and values.
 * Here the network is uniform (equal logits, value 0); two games are
 * played to the end with a search at every move. */
#include <math.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_SEARCH_INVALID == 120, "stable result numbers");
_Static_assert(AYO_RESULT_SEARCH_OUT_OF_MEMORY == 121, "stable result numbers");
_Static_assert(AYO_RESULT_SEARCH_NOT_READY == 122, "stable result numbers");
_Static_assert(AYO_SEARCH_OBS == 14 && AYO_SEARCH_ACTIONS == 6, "row widths");

#define GAMES 2

static int last_error_contains(const ayo_search *s, const char *needle) {
  char buf[512];
  size_t n = 0;
  if (ayo_search_last_error(s, buf, sizeof buf, &n) != AYO_RESULT_OK) return 0;
  if (strstr(buf, needle) == NULL) {
    fprintf(stderr, "last error: %s (wanted %s)\n", buf, needle);
    return 0;
  }
  return 1;
}

static void test_codes(void) {
  const int codes[] = {120, 121, 122};
  size_t i;
  char buf[256];
  size_t n = 0;
  for (i = 0; i < 3; i++) {
    CHECK(ayo_result_name(codes[i]) != NULL);
    CHECK_RESULT(ayo_result_message(codes[i], buf, sizeof buf, &n), AYO_RESULT_OK);
    CHECK(n > 0);
  }
  CHECK(strcmp(ayo_result_name(AYO_RESULT_SEARCH_NOT_READY), "AYO_RESULT_SEARCH_NOT_READY") == 0);
}

static void test_options(void) {
  ayo_search_options o;
  ayo_search *s = NULL;
  CHECK_RESULT(ayo_search_options_default(NULL), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_search_options_default(&o), AYO_RESULT_OK);
  CHECK(o.simulations == 32 && o.method == AYO_SEARCH_METHOD_PUCT && o.max_considered == 6);
  o.simulations = 0;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_SEARCH_INVALID);
  CHECK(s == NULL);
  o.simulations = 8;
  o.method = 7;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_SEARCH_INVALID);
  o.method = AYO_SEARCH_METHOD_GUMBEL;
  o.max_considered = 0;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_SEARCH_INVALID);
  o.max_considered = 6;
  o.dirichlet_fraction = NAN;
  o.method = AYO_SEARCH_METHOD_PUCT;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_SEARCH_INVALID);
  CHECK_RESULT(ayo_search_new(NULL, &s), AYO_RESULT_NULL_ARGUMENT);
  ayo_search_free(NULL);
}

/* Plays GAMES games of `preset` to the end (or 200 plies) with `method`. */
static void self_play(const char *preset, int method) {
  ayo_rules *r = check_rules_of(preset);
  ayo_game *games[GAMES] = {NULL, NULL};
  ayo_search_options o;
  ayo_search *s = NULL;
  float obs[GAMES * AYO_SEARCH_OBS];
  uint8_t mask[GAMES * AYO_SEARCH_ACTIONS];
  float logits[GAMES * AYO_SEARCH_ACTIONS];
  float values[GAMES];
  uint8_t pits[GAMES];
  float policies[GAMES * AYO_SEARCH_ACTIONS];
  float roots[GAMES];
  size_t i, n = 0;
  int ply;
  for (i = 0; i < GAMES; i++) CHECK_RESULT(ayo_game_new(r, &games[i]), AYO_RESULT_OK);
  CHECK_RESULT(ayo_search_options_default(&o), AYO_RESULT_OK);
  o.simulations = 12;
  o.method = method;
  o.seed = 5;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_OK);
  for (ply = 0; ply < 200; ply++) {
    const ayo_game *live[GAMES];
    size_t k = 0, rounds = 0;
    enum ayo_status st;
    for (i = 0; i < GAMES; i++) {
      CHECK_RESULT(ayo_game_status(games[i], &st), AYO_RESULT_OK);
      if (st == AYO_STATUS_ONGOING) live[k++] = games[i];
    }
    if (k == 0) break;
    CHECK_RESULT(ayo_search_start(s, live, k), AYO_RESULT_OK);
    CHECK_RESULT(ayo_search_results(s, pits, policies, roots, GAMES, &n), AYO_RESULT_SEARCH_NOT_READY);
    for (;;) {
      CHECK_RESULT(ayo_search_leaves(s, obs, mask, GAMES, &n), AYO_RESULT_OK);
      CHECK(n <= k);
      if (n == 0) break;
      if (rounds == 0) {
        /* The first round is every root, with its legal moves. */
        CHECK(n == k);
        for (i = 0; i < n; i++) {
          uint8_t legal = 0, m = 0;
          int a;
          CHECK_RESULT(ayo_game_legal_mask(live[i], &legal), AYO_RESULT_OK);
          for (a = 0; a < AYO_SEARCH_ACTIONS; a++) m |= (uint8_t)(mask[i * AYO_SEARCH_ACTIONS + a] << a);
          CHECK(m == legal);
        }
      }
      rounds++;
      memset(logits, 0, sizeof logits);
      memset(values, 0, sizeof values);
      CHECK_RESULT(ayo_search_tell(s, logits, values, n), AYO_RESULT_OK);
    }
    CHECK(rounds <= o.simulations + 1);
    CHECK_RESULT(ayo_search_results(s, pits, policies, roots, GAMES, &n), AYO_RESULT_OK);
    CHECK(n == k);
    for (i = 0; i < k; i++) {
      uint8_t legal = 0;
      float sum = 0;
      int a;
      CHECK_RESULT(ayo_game_legal_mask(live[i], &legal), AYO_RESULT_OK);
      CHECK(pits[i] >= 1 && pits[i] <= 6 && (legal >> (pits[i] - 1) & 1));
      for (a = 0; a < AYO_SEARCH_ACTIONS; a++) {
        sum += policies[i * AYO_SEARCH_ACTIONS + a];
        if (!(legal >> a & 1)) CHECK(policies[i * AYO_SEARCH_ACTIONS + a] == 0.0f);
      }
      CHECK(fabsf(sum - 1.0f) < 1e-4f);
      CHECK(roots[i] >= -1.0f && roots[i] <= 1.0f);
      CHECK_RESULT(ayo_game_play((ayo_game *)live[i], pits[i]), AYO_RESULT_OK);
    }
  }
  ayo_search_free(s);
  for (i = 0; i < GAMES; i++) ayo_game_free(games[i]);
  ayo_rules_free(r);
}

static void test_misuse(void) {
  ayo_rules *r = check_rules_of("oware");
  ayo_game *g = NULL, *over = NULL;
  ayo_search_options o;
  ayo_search *s = NULL;
  float obs[2 * AYO_SEARCH_OBS], logits[2 * AYO_SEARCH_ACTIONS] = {0}, values[2] = {0};
  uint8_t mask[2 * AYO_SEARCH_ACTIONS];
  size_t n = 0;
  const ayo_game *two[2];
  enum ayo_status st = AYO_STATUS_ONGOING;
  CHECK_RESULT(ayo_game_new(r, &g), AYO_RESULT_OK);
  CHECK_RESULT(ayo_game_new(r, &over), AYO_RESULT_OK);
  while (st == AYO_STATUS_ONGOING) {
    uint8_t legal = 0;
    int a = 0;
    CHECK_RESULT(ayo_game_legal_mask(over, &legal), AYO_RESULT_OK);
    while (!(legal >> a & 1)) a++;
    CHECK_RESULT(ayo_game_play(over, a + 1), AYO_RESULT_OK);
    CHECK_RESULT(ayo_game_status(over, &st), AYO_RESULT_OK);
  }
  CHECK_RESULT(ayo_search_options_default(&o), AYO_RESULT_OK);
  o.simulations = 4;
  CHECK_RESULT(ayo_search_new(&o, &s), AYO_RESULT_OK);
  two[0] = g;
  two[1] = over;
  CHECK_RESULT(ayo_search_start(s, two, 2), AYO_RESULT_GAME_OVER);
  CHECK(last_error_contains(s, "game 1 of the batch is over"));
  CHECK_RESULT(ayo_search_start(s, two, 0), AYO_RESULT_SEARCH_INVALID);
  CHECK_RESULT(ayo_search_start(s, NULL, 2), AYO_RESULT_NULL_ARGUMENT);
  two[1] = g;
  CHECK_RESULT(ayo_search_start(s, two, 2), AYO_RESULT_OK);
  CHECK_RESULT(ayo_search_tell(s, logits, values, 2), AYO_RESULT_SEARCH_NOT_READY);
  CHECK_RESULT(ayo_search_leaves(s, obs, mask, 1, &n), AYO_RESULT_BUFFER_TOO_SMALL);
  CHECK(n == 2);
  CHECK_RESULT(ayo_search_leaves(s, obs, mask, 2, &n), AYO_RESULT_OK);
  CHECK(n == 2);
  CHECK_RESULT(ayo_search_tell(s, logits, values, 1), AYO_RESULT_SEARCH_INVALID);
  values[1] = NAN;
  CHECK_RESULT(ayo_search_tell(s, logits, values, 2), AYO_RESULT_SEARCH_INVALID);
  CHECK(last_error_contains(s, "value of leaf 1"));
  values[1] = 0.5f;
  CHECK_RESULT(ayo_search_tell(s, logits, values, 2), AYO_RESULT_OK);
  CHECK(last_error_contains(s, ""));
  ayo_search_free(s);
  ayo_game_free(g);
  ayo_game_free(over);
  ayo_rules_free(r);
}

int main(void) {
  test_codes();
  test_options();
  test_misuse();
  self_play("ayoayo", AYO_SEARCH_METHOD_PUCT);
  self_play("oware", AYO_SEARCH_METHOD_GUMBEL);
  self_play("olopon", AYO_SEARCH_METHOD_PUCT);
  self_play("ayo", AYO_SEARCH_METHOD_GUMBEL);
  return check_report("c-search");
}
