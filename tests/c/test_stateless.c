/* The stateless batch of the C ABI (ayo_stateless_*): self-play records
 * stepped beside an ayo_game move by move, children, the random-opponent
 * step, and the refusals (repetition, bad options, bad records, bad
 * actions, NULL arguments), each with its result code and detail. */
#include <stdint.h>
#include <string.h>

#include "ayo.h"
#include "check.h"

_Static_assert(AYO_RESULT_STATELESS_UNSUPPORTED_RULES == 130, "stable result numbers");
_Static_assert(AYO_STATE_BYTES == 96, "the record's size");

static int last_error_contains(const char *needle) {
  char buf[512];
  size_t n = 0;
  if (ayo_stateless_last_error(buf, sizeof buf, &n) != AYO_RESULT_OK) return 0;
  if (strstr(buf, needle) != NULL) return 1;
  printf("  last error: %s (wanted %s)\n", buf, needle);
  return 0;
}

static void self_play_follows_the_game(void) {
  ayo_stateless *env = NULL;
  /* The rule parameters left out keep ayoayo's. */
  CHECK_RESULT(ayo_stateless_new("opponent=self_play;autoreset=Disabled;max_steps=none", &env), AYO_RESULT_OK);
  ayo_rules *rules = check_rules_of("ayoayo");
  ayo_game *game = NULL;
  CHECK_RESULT(ayo_game_new(rules, &game), AYO_RESULT_OK);
  uint8_t state[AYO_STATE_BYTES];
  const uint64_t seed = 7;
  CHECK_RESULT(ayo_stateless_init(env, &seed, 1, state), AYO_RESULT_OK);
  int over = 0;
  unsigned k = 1;
  for (int ply = 0; ply < 400 && !over; ply++) {
    uint8_t mask[6];
    uint8_t game_mask = 0;
    CHECK_RESULT(ayo_stateless_legal_mask(env, state, 1, mask), AYO_RESULT_OK);
    CHECK_RESULT(ayo_game_legal_mask(game, &game_mask), AYO_RESULT_OK);
    int64_t action = -1;
    for (int a = 0; a < 6; a++) {
      CHECK(mask[a] == ((game_mask >> a) & 1));
      /* A legal action picked by a small LCG, to vary the games. */
      if (mask[a] && (action < 0 || (k = k * 1103515245u + 12345u) % 3 == 0)) action = a;
    }
    if (action < 0) break;
    uint8_t children[6 * AYO_STATE_BYTES];
    uint8_t valid[6];
    CHECK_RESULT(ayo_stateless_children(env, state, 1, children, valid), AYO_RESULT_OK);
    float rewards[2];
    uint8_t terminated = 0, truncated = 1;
    CHECK_RESULT(ayo_stateless_step(env, state, &action, 1, rewards, &terminated, &truncated), AYO_RESULT_OK);
    CHECK(valid[action] && memcmp(children + action * AYO_STATE_BYTES, state, AYO_STATE_BYTES) == 0);
    CHECK_RESULT(ayo_game_play(game, (int32_t)action + 1), AYO_RESULT_OK);
    ayo_setup setup;
    CHECK_RESULT(ayo_game_setup(game, &setup), AYO_RESULT_OK);
    CHECK(memcmp(setup.board, state, AYO_PITS) == 0);
    CHECK(setup.stores[0] == state[12] && setup.stores[1] == state[13]);
    CHECK(!truncated);
    ayo_outcome outcome;
    over = ayo_game_outcome(game, &outcome) == AYO_RESULT_OK;
    CHECK(terminated == (over ? 1 : 0));
  }
  CHECK(over);
  ayo_game_free(game);
  ayo_rules_free(rules);
  ayo_stateless_free(env);
}

static void random_replies_and_refusals(void) {
  ayo_stateless *env = NULL;
  CHECK_RESULT(ayo_stateless_new("repetition=own_side", &env), AYO_RESULT_STATELESS_UNSUPPORTED_RULES);
  CHECK(env == NULL);
  CHECK(last_error_contains("repetition"));
  CHECK_RESULT(ayo_stateless_new("opponent=greedy", &env), AYO_RESULT_INVALID_ARGUMENT);
  CHECK_RESULT(ayo_stateless_new("capture=sometimes", &env), AYO_RESULT_BAD_PARAM_VALUE);
  CHECK_RESULT(ayo_stateless_new(NULL, &env), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_stateless_new("illegal=raise", &env), AYO_RESULT_OK);

  char spec[1024];
  size_t n = 0;
  CHECK_RESULT(ayo_stateless_spec(env, spec, sizeof spec, &n), AYO_RESULT_OK);
  CHECK(strstr(spec, "opponent=random") != NULL && strstr(spec, "relay=true") != NULL);

  enum { B = 3 };
  uint8_t states[B * AYO_STATE_BYTES];
  const uint64_t seeds[B] = {1, 2, 3};
  CHECK_RESULT(ayo_stateless_init(env, seeds, B, states), AYO_RESULT_OK);
  int64_t actions[B] = {0, 1, 2};
  float rewards[2 * B];
  uint8_t term[B], trunc[B];
  /* The agent (South) moves, the random opponent replies: two plies. */
  CHECK_RESULT(ayo_stateless_step(env, states, actions, B, rewards, term, trunc), AYO_RESULT_OK);
  for (int i = 0; i < B; i++) CHECK(states[i * AYO_STATE_BYTES + 20] == 2);

  uint8_t obs[B * 14];
  CHECK_RESULT(ayo_stateless_observe(env, states, B, 1, obs), AYO_RESULT_OK);
  CHECK(memcmp(obs, states, 14) == 0);

  actions[1] = 6;
  CHECK_RESULT(ayo_stateless_step(env, states, actions, B, rewards, term, trunc), AYO_RESULT_ACTION_OUT_OF_RANGE);
  CHECK(last_error_contains("game 1"));
  uint8_t bad[AYO_STATE_BYTES];
  memcpy(bad, states, sizeof bad);
  bad[0] += 1; /* a seed too many */
  uint8_t mask[6];
  CHECK_RESULT(ayo_stateless_legal_mask(env, bad, 1, mask), AYO_RESULT_INVALID_POSITION);
  CHECK(last_error_contains("seeds"));
  CHECK_RESULT(ayo_stateless_legal_mask(env, NULL, 1, mask), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_stateless_legal_mask(env, NULL, 0, NULL), AYO_RESULT_OK);
  CHECK_RESULT(ayo_stateless_legal_mask(NULL, states, 1, mask), AYO_RESULT_NULL_ARGUMENT);
  CHECK_RESULT(ayo_stateless_legal_mask(env, states, SIZE_MAX, mask), AYO_RESULT_INVALID_ARGUMENT);
  ayo_stateless_free(env);
  ayo_stateless_free(NULL);
}

int main(void) {
  self_play_follows_the_game();
  random_replies_and_refusals();
  return check_report("c-stateless");
}
