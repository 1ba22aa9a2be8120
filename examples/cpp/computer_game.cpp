// A computer player of a level (South) against a random player (North),
// through the C++ layer include/ayo.hpp; prints the game record and the result.
// usage: computer_game [PRESET [LEVEL [SEED]]]   (defaults: ayo, 3, 1)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ayo.hpp"

int main(int argc, char **argv) {
  const std::string preset = argc > 1 ? argv[1] : "ayo";
  const std::string level = argc > 2 ? argv[2] : "3";
  const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  try {
    ayo::Game game{ayo::Rules(preset)};
    game.set_ply_cap(1000);
    ayo::Player south = ayo::Player::level(level, seed);
    ayo::Player north = ayo::Player::level("1", seed + 1);  // level 1 plays at random
    while (game.status() == AYO_STATUS_ONGOING) {
      ayo::Player &mover = game.to_move() == AYO_SIDE_SOUTH ? south : north;
      game.play(mover.choose(game));  // the mover's pit 1..6
    }
    std::printf("%s\n", game.record().c_str());
    if (game.status() == AYO_STATUS_ENDED) {
      static const char *const who[] = {"South wins", "North wins", "Draw"};
      static const char *const why[] = {"target", "move limit", "repetition", "no legal move"};
      const ayo_outcome o = game.outcome();
      std::printf("%s %u-%u (%s)\n", who[o.winner], o.scores[0], o.scores[1], why[o.reason]);
    } else {
      std::printf("stopped at the ply cap\n");
    }
  } catch (const ayo::Error &e) {
    // e.g. "computer_game: AYO_RESULT_UNKNOWN_LEVEL: unknown level; valid levels: 1 to 8, max and learned"
    std::fprintf(stderr, "computer_game: %s: %s\n", e.name(), e.what());
    return 1;
  }
  return 0;
}
