/* Two random players play a game of Ayo; prints the record and the result.
 * usage: random_game [PRESET [SEED]]   (defaults: ayo, 1) */
#include <stdio.h>
#include <stdlib.h>

#include "ayo.h"

static void die(const char *what, ayo_result r) {
  char msg[256];
  size_t n;
  if (ayo_result_message(r, msg, sizeof msg, &n) != AYO_RESULT_OK) {
    snprintf(msg, sizeof msg, "error %d", (int)r);
  }
  fprintf(stderr, "%s: %s\n", what, msg);
  exit(1);
}

int main(int argc, char **argv) {
  const char *preset = argc > 1 ? argv[1] : "ayo";
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  ayo_rules *rules = NULL;
  ayo_game *game = NULL;
  ayo_status status = AYO_STATUS_ONGOING;
  ayo_outcome outcome;
  ayo_result r;
  char record[8192];
  size_t n;

  if ((r = ayo_rules_new_preset(preset, &rules)) != AYO_RESULT_OK) die("rules", r);
  if ((r = ayo_game_new(rules, &game)) != AYO_RESULT_OK) die("game", r);
  ayo_rules_free(rules); /* the game keeps its own copy */
  ayo_game_set_ply_cap(game, 1000);

  while (ayo_game_status(game, &status) == AYO_RESULT_OK && status == AYO_STATUS_ONGOING) {
    uint8_t moves[AYO_MAX_LEGAL_MOVES]; /* the mover's pits 1..6 */
    if ((r = ayo_game_legal_moves(game, moves, AYO_MAX_LEGAL_MOVES, &n)) != AYO_RESULT_OK) die("moves", r);
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    if ((r = ayo_game_play(game, moves[(seed >> 33) % n])) != AYO_RESULT_OK) die("play", r);
  }

  if ((r = ayo_game_record(game, record, sizeof record, &n)) != AYO_RESULT_OK) die("record", r);
  printf("%s\n", record);
  if (ayo_game_outcome(game, &outcome) == AYO_RESULT_OK) {
    static const char *const who[] = {"South wins", "North wins", "Draw"};
    static const char *const why[] = {"target", "move limit", "repetition", "no legal move"};
    printf("%s %u-%u (%s)\n", who[outcome.winner], outcome.scores[0], outcome.scores[1], why[outcome.reason]);
  } else {
    printf("stopped at the ply cap\n");
  }
  ayo_game_free(game);
  return 0;
}
