/* Play a game of Ayo against the computer in the terminal.
 * usage: vs_computer [PRESET [LEVEL [SEED [south|north]]]]
 *        (defaults: ayo, 3, 1, south; LEVEL is 1 to 8, max or learned)
 * Type a pit 1..6 (your row, left to right, in sowing order), h for a hint
 * from the computer's analysis, or q to quit. The last two lines printed
 * are the game record and the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The board from the human's side: the computer's row on top, right to
 * left, so that seeds travel anticlockwise; the human's row below. */
static void show(const ayo_game *game, int human) {
  ayo_setup s;
  int i, computer = 1 - human;
  ayo_result r = ayo_game_setup(game, &s);
  if (r != AYO_RESULT_OK) die("setup", r);
  printf("\n  computer ");
  for (i = 5; i >= 0; i--) printf("[%2u]", s.board[6 * computer + i]);
  printf("  store %u\n  you      ", s.stores[computer]);
  for (i = 0; i < 6; i++) printf("[%2u]", s.board[6 * human + i]);
  printf("  store %u\n  pit        1   2   3   4   5   6\n", s.stores[human]);
}

/* Prints the computer's view of the position: best move, value, line. */
static void hint(ayo_player *helper, const ayo_game *game) {
  ayo_analysis a;
  uint8_t small[16], *pv = small;
  size_t n, i;
  char value[64];
  ayo_result r = ayo_player_analyze(helper, game, &a, pv, sizeof small, &n);
  if (r == AYO_RESULT_BUFFER_TOO_SMALL) {
    /* A longer line: fetch the same analysis again into a larger array. */
    if (!(pv = malloc(n))) exit(1);
    r = ayo_player_last_analysis(helper, &a, pv, n, &n);
  }
  if (r != AYO_RESULT_OK) die("analyze", r);
  if (ayo_value_text(a.value.centiseeds, value, sizeof value, &n) != AYO_RESULT_OK) strcpy(value, "?");
  printf("hint: pit %u (%s for you); line:", a.best, value);
  for (i = 0; i < a.pv_len; i++) printf(" %u", pv[i]);
  printf("\n");
  if (pv != small) free(pv);
}

int main(int argc, char **argv) {
  const char *preset = argc > 1 ? argv[1] : "ayo";
  const char *level = argc > 2 ? argv[2] : "3";
  uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
  int human = argc > 4 && strcmp(argv[4], "north") == 0 ? AYO_SIDE_NORTH : AYO_SIDE_SOUTH;
  ayo_rules *rules = NULL;
  ayo_game *game = NULL;
  ayo_player *computer = NULL, *helper = NULL;
  ayo_status status = AYO_STATUS_ONGOING;
  ayo_outcome outcome;
  ayo_result r;
  char record[8192], line[64];
  size_t n;

  if ((r = ayo_rules_new_preset(preset, &rules)) != AYO_RESULT_OK) die("rules", r);
  if ((r = ayo_game_new(rules, &game)) != AYO_RESULT_OK) die("game", r);
  ayo_rules_free(rules);
  ayo_game_set_ply_cap(game, 400);
  if ((r = ayo_player_new_level(level, seed, &computer)) != AYO_RESULT_OK) die("level", r);
  /* Hints come from a player of the same level with its own seed. */
  if ((r = ayo_player_new_level(level, seed + 1, &helper)) != AYO_RESULT_OK) die("level", r);
  if (ayo_player_name(computer, line, sizeof line, &n) == AYO_RESULT_OK) {
    printf("You play %s against level %s (%s).\n", human == AYO_SIDE_SOUTH ? "South" : "North", level, line);
  }

  while (ayo_game_status(game, &status) == AYO_RESULT_OK && status == AYO_STATUS_ONGOING) {
    ayo_side to_move;
    uint8_t pit = 0;
    if ((r = ayo_game_to_move(game, &to_move)) != AYO_RESULT_OK) die("to move", r);
    if ((int)to_move != human) {
      if ((r = ayo_player_choose(computer, game, &pit)) != AYO_RESULT_OK) die("computer", r);
      printf("computer sows its pit %u\n", pit);
      if ((r = ayo_game_play(game, pit)) != AYO_RESULT_OK) die("play", r);
      continue;
    }
    show(game, human);
    printf("your move (1-6, h for a hint, q to quit): ");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin) || line[0] == 'q') break;
    if (line[0] == 'h') {
      hint(helper, game);
    } else if ((r = ayo_game_play(game, atoi(line))) != AYO_RESULT_OK) {
      char why[256];
      if (ayo_game_last_error(game, why, sizeof why, &n) != AYO_RESULT_OK) strcpy(why, "illegal move");
      printf("%s; try again\n", why);
    }
  }

  show(game, human);
  if ((r = ayo_game_record(game, record, sizeof record, &n)) != AYO_RESULT_OK) die("record", r);
  printf("%s\n", record);
  if (ayo_game_outcome(game, &outcome) == AYO_RESULT_OK) {
    static const char *const who[] = {"South wins", "North wins", "Draw"};
    static const char *const why[] = {"target", "move limit", "repetition", "no legal move"};
    printf("%s %u-%u (%s)\n", who[outcome.winner], outcome.scores[0], outcome.scores[1], why[outcome.reason]);
  } else {
    printf("%s\n", status == AYO_STATUS_TRUNCATED ? "stopped at the ply cap" : "stopped before the end");
  }
  ayo_player_free(computer);
  ayo_player_free(helper);
  ayo_game_free(game);
  return 0;
}
