// C++17 use of include/ayo.h: RAII owners for the handles, the two-call size
// idiom for text and traces, every shared vector checked through the C API,
// distinct games on several std::threads at once, and computer players
// (ayo_player) owned by std::unique_ptr, twins agreeing across threads.
//
// usage: test_cpp VECTOR_DIR

#include "ayo.h"
#include "json.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct RulesFree {
  void operator()(ayo_rules *r) const { ayo_rules_free(r); }
};
struct GameFree {
  void operator()(ayo_game *g) const { ayo_game_free(g); }
};
struct PlayerFree {
  void operator()(ayo_player *p) const { ayo_player_free(p); }
};
struct JsonFree {
  void operator()(json *j) const { json_free(j); }
};
using Rules = std::unique_ptr<ayo_rules, RulesFree>;
using Game = std::unique_ptr<ayo_game, GameFree>;
using Player = std::unique_ptr<ayo_player, PlayerFree>;
using Json = std::unique_ptr<json, JsonFree>;

long passed = 0;
long failed = 0;
std::string where;

bool expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::fprintf(stderr, "FAIL [%s] %s\n", where.c_str(), what.c_str());
  }
  return ok;
}

std::string name_of(int code) {
  const char *n = ayo_result_name(code);
  return n ? n : "unknown " + std::to_string(code);
}

bool expect_result(ayo_result got, ayo_result want, const char *call) {
  return expect(got == want, std::string(call) + " gave " + name_of(got) + ", expected " + name_of(want));
}

Rules make_rules(const char *preset) {
  ayo_rules *r = nullptr;
  expect_result(ayo_rules_new_preset(preset, &r), AYO_RESULT_OK, "ayo_rules_new_preset");
  return Rules(r);
}

Game make_game(const ayo_rules *rules) {
  ayo_game *g = nullptr;
  expect_result(ayo_game_new(rules, &g), AYO_RESULT_OK, "ayo_game_new");
  return Game(g);
}

// Any text query, by the documented two-call idiom: ask the size, then fill.
template <typename Handle>
std::string text(ayo_result (*query)(const Handle *, char *, size_t, size_t *), const Handle *h) {
  size_t needed = 0;
  if (query(h, nullptr, 0, &needed) != AYO_RESULT_BUFFER_TOO_SMALL) {
    return "<size query failed>";
  }
  std::string out(needed, '\0');
  size_t written = 0;
  if (query(h, out.data(), out.size(), &written) != AYO_RESULT_OK || written + 1 != needed) {
    return "<query failed>";
  }
  out.resize(written);
  return out;
}

std::vector<int> legal_moves(const ayo_game *g) {
  uint8_t pits[AYO_MAX_LEGAL_MOVES];
  size_t n = 0;
  expect_result(ayo_game_legal_moves(g, pits, AYO_MAX_LEGAL_MOVES, &n), AYO_RESULT_OK, "legal_moves");
  return std::vector<int>(pits, pits + n);
}

std::vector<int> ints(const json *array) {
  std::vector<int> out;
  for (size_t i = 0; array && i < array->count; ++i) {
    out.push_back(json_int(&array->items[i]));
  }
  return out;
}

const std::map<std::string, ayo_result> kErrors = {
    {"empty_pit", AYO_RESULT_EMPTY_PIT},
    {"endless_relay", AYO_RESULT_ENDLESS_RELAY},
    {"does_not_feed", AYO_RESULT_DOES_NOT_FEED},
    {"game_over", AYO_RESULT_GAME_OVER},
    {"action_out_of_range", AYO_RESULT_ACTION_OUT_OF_RANGE},
    {"pit_out_of_range", AYO_RESULT_PIT_OUT_OF_RANGE},
    {"not_movers_pit", AYO_RESULT_NOT_MOVERS_PIT},
    {"truncated", AYO_RESULT_TRUNCATED},
};

std::string lap_end_name(ayo_lap_end e) {
  switch (e) {
  case AYO_LAP_END_EMPTY_PIT: return "empty_pit";
  case AYO_LAP_END_OCCUPIED: return "occupied";
  case AYO_LAP_END_MADE_FOUR: return "made_four";
  case AYO_LAP_END_TWO_THREE: return "two_three";
  case AYO_LAP_END_NONE: break;
  }
  return "none";
}

std::string player_name(ayo_side p) { return p == AYO_SIDE_SOUTH ? "south" : "north"; }

// The trace's collected 4s, captures and forfeits, in the vectors' shape.
struct TraceTotals {
  std::vector<std::pair<int, std::string>> collected;
  std::vector<std::pair<int, int>> captured;
  int forfeited = -1;
};

void check_trace(const ayo_game *g, int move, const json *want) {
  size_t needed = 0;
  ayo_trace_summary sum{};
  if (!expect_result(ayo_game_trace(g, move, nullptr, 0, &needed, &sum), AYO_RESULT_BUFFER_TOO_SMALL,
                     "trace size")) {
    return;
  }
  std::vector<ayo_event> events(needed);
  size_t count = 0;
  if (!expect_result(ayo_game_trace(g, move, events.data(), events.size(), &count, &sum), AYO_RESULT_OK,
                     "trace")) {
    return;
  }
  expect(count == needed, "trace count");
  expect(sum.laps == static_cast<uint32_t>(json_int(json_get(want, "laps"))), "laps");
  expect(sum.last_pit == json_int(json_get(want, "last_pit")), "last_pit");
  expect(lap_end_name(sum.end) == json_get(want, "end")->string, "end");
  expect(ints(json_get(want, "taken")) == std::vector<int>{sum.taken[0], sum.taken[1]}, "taken");
  TraceTotals got;
  for (const ayo_event &e : events) {
    if (e.kind == AYO_EVENT_KIND_COLLECT) {
      got.collected.emplace_back(e.pit, player_name(e.player));
    } else if (e.kind == AYO_EVENT_KIND_CAPTURE) {
      got.captured.emplace_back(e.pit, e.seeds);
    } else if (e.kind == AYO_EVENT_KIND_GRAND_SLAM_FORFEITED) {
      got.forfeited = std::max(got.forfeited, 0) + e.seeds;
    }
  }
  TraceTotals wanted;
  const json *c = json_get(want, "collected");
  for (size_t i = 0; i < c->count; ++i) {
    wanted.collected.emplace_back(json_int(json_at(&c->items[i], 0)), json_at(&c->items[i], 1)->string);
  }
  c = json_get(want, "captured");
  for (size_t i = 0; i < c->count; ++i) {
    wanted.captured.emplace_back(json_int(json_at(&c->items[i], 0)), json_int(json_at(&c->items[i], 1)));
  }
  const json *f = json_get(want, "forfeited");
  wanted.forfeited = f->type == JSON_NULL ? -1 : json_int(f);
  expect(got.collected == wanted.collected, "collected");
  expect(got.captured == wanted.captured, "captured");
  expect(got.forfeited == wanted.forfeited, "forfeited");
}

void check_outcome(const ayo_game *g, const json *want) {
  ayo_outcome o{};
  if (want->type == JSON_NULL) {
    expect_result(ayo_game_outcome(g, &o), AYO_RESULT_GAME_NOT_OVER, "outcome while ongoing");
    return;
  }
  if (!expect_result(ayo_game_outcome(g, &o), AYO_RESULT_OK, "outcome")) {
    return;
  }
  static const char *const reasons[] = {"target", "move_limit", "repetition", "no_legal_move"};
  const json *winner = json_get(want, "winner");
  std::string got_winner = o.winner == AYO_WINNER_DRAW ? "draw" : player_name(static_cast<ayo_side>(o.winner));
  expect(got_winner == (winner->type == JSON_NULL ? "draw" : winner->string), "winner");
  expect(std::string(reasons[o.reason]) == json_get(want, "reason")->string, "reason");
  expect(ints(json_get(want, "scores")) == std::vector<int>{o.scores[0], o.scores[1]}, "scores");
}

// Whether every key is present with its type (or null where allowed).
bool well_formed(const json *v) {
  auto has = [](const json *obj, const char *key, json_type type, bool nullable) {
    const json *f = json_get(obj, key);
    return expect(f && (f->type == type || (nullable && f->type == JSON_NULL)), std::string("key ") + key);
  };
  if (!has(v, "name", JSON_STRING, false) || !has(v, "game", JSON_STRING, false) ||
      !has(v, "legal", JSON_ARRAY, false) || !has(v, "move", JSON_NUMBER, false) ||
      !has(v, "error", JSON_STRING, true) || !has(v, "after", JSON_STRING, true) ||
      !has(v, "trace", JSON_OBJECT, true) || !has(v, "outcome", JSON_OBJECT, true)) {
    return false;
  }
  const json *t = json_get(v, "trace"), *o = json_get(v, "outcome");
  bool ok = json_get(v, "error")->type != JSON_NULL ||
            (t->type == JSON_OBJECT && json_get(v, "after")->type == JSON_STRING &&
             has(t, "laps", JSON_NUMBER, false) && has(t, "last_pit", JSON_NUMBER, false) &&
             has(t, "end", JSON_STRING, false) && has(t, "taken", JSON_ARRAY, false) &&
             has(t, "collected", JSON_ARRAY, false) && has(t, "captured", JSON_ARRAY, false) &&
             has(t, "forfeited", JSON_NUMBER, true));
  return ok && (o->type == JSON_NULL || (has(o, "winner", JSON_STRING, true) &&
                                         has(o, "reason", JSON_STRING, false) &&
                                         has(o, "scores", JSON_ARRAY, false)));
}

void check_vector(ayo_game *g, const json *v) {
  const json *name = json_get(v, "name");
  where = name && name->type == JSON_STRING ? name->string : "<vector without a name>";
  if (!well_formed(v)) {
    return;
  }
  if (!expect_result(ayo_game_load_record(g, json_get(v, "game")->string), AYO_RESULT_OK, "load_record")) {
    return;
  }
  expect(legal_moves(g) == ints(json_get(v, "legal")), "legal moves");
  const int move = json_int(json_get(v, "move"));
  const json *error = json_get(v, "error");
  const std::string before = text(ayo_game_record, g);
  if (error->type != JSON_NULL) {
    auto kind = kErrors.find(error->string);
    if (!expect(kind != kErrors.end(), std::string("known error kind ") + error->string)) {
      return;
    }
    expect_result(ayo_game_play(g, move), kind->second, "illegal play");
    expect(text(ayo_game_record, g) == before, "unchanged after an illegal move");
    expect(!text(ayo_game_last_error, g).empty(), "detail of the illegal move");
    return;
  }
  check_trace(g, move, json_get(v, "trace"));
  if (expect_result(ayo_game_play(g, move), AYO_RESULT_OK, "play")) {
    expect(text(ayo_game_position_text, g) == json_get(v, "after")->string, "after");
    check_outcome(g, json_get(v, "outcome"));
  }
}

long check_vectors(const std::filesystem::path &dir) {
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("moves-", 0) == 0 && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  Rules rules = make_rules("ayoayo");
  Game game = make_game(rules.get());
  long vectors = 0;
  for (const auto &file : files) {
    char err[256];
    where = file.string();
    Json doc(json_parse_file(file.string().c_str(), err, sizeof err));
    if (!expect(doc != nullptr, err)) {
      continue;
    }
    const json *list = json_get(doc.get(), "vectors");
    for (size_t i = 0; list && i < list->count; ++i, ++vectors) {
      check_vector(game.get(), &list->items[i]);
    }
  }
  where = dir.string();
  expect(!files.empty() && vectors > 0, "found vectors");
  return vectors;
}

// Each thread plays its own games to the end; the results must match a
// replay of the same moves on one thread.
void check_threads() {
  where = "threads";
  constexpr int kThreads = 4;
  std::vector<std::string> records(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &records] {
      Rules rules = make_rules(ayo_preset_name(static_cast<size_t>(t) % AYO_PRESET_COUNT));
      Game game = make_game(rules.get());
      ayo_game_set_ply_cap(game.get(), 300);
      uint32_t seed = 17u + static_cast<uint32_t>(t);
      ayo_status status = AYO_STATUS_ONGOING;
      while (ayo_game_status(game.get(), &status) == AYO_RESULT_OK && status == AYO_STATUS_ONGOING) {
        std::vector<int> moves = legal_moves(game.get());
        seed = seed * 1664525u + 1013904223u;
        ayo_game_play(game.get(), moves[(seed >> 8) % moves.size()]);
      }
      records[t] = text(ayo_game_record, game.get());
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    ayo_game *raw = nullptr;
    Rules rules = make_rules("oware");
    Game replay = make_game(rules.get());
    ayo_game_set_ply_cap(replay.get(), 300);
    expect_result(ayo_game_load_record(replay.get(), records[t].c_str()), AYO_RESULT_OK, "replay");
    expect(text(ayo_game_record, replay.get()) == records[t], "replayed record");
    expect_result(ayo_game_clone(replay.get(), &raw), AYO_RESULT_OK, "clone");
    Game clone(raw);
    expect(text(ayo_game_position_text, clone.get()) == text(ayo_game_position_text, replay.get()), "clone");
  }
}

// Computer players on std::threads: each thread's player (MCTS, or a level)
// plays a whole game against itself; a twin (same kind, budget and seed)
// replaying on this thread must choose every move the same, and analyze
// must agree with the game's legal moves.
void check_players() {
  where = "players";
  constexpr int kThreads = 4;
  auto make = [](int t) {
    ayo_player *raw = nullptr;
    ayo_result r = t % 2 == 0 ? ayo_player_new_kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 200,
                                                     static_cast<uint64_t>(t), &raw)
                              : ayo_player_new_level("3", static_cast<uint64_t>(t), &raw);
    expect_result(r, AYO_RESULT_OK, "ayo_player_new");
    return Player(raw);
  };
  std::vector<std::string> records(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &records, &make] {
      Player player = make(t);
      Rules rules = make_rules(ayo_preset_name(static_cast<size_t>(t) % AYO_PRESET_COUNT));
      Game game = make_game(rules.get());
      ayo_game_set_ply_cap(game.get(), 200);
      ayo_status status = AYO_STATUS_ONGOING;
      uint8_t pit = 0;
      while (ayo_game_status(game.get(), &status) == AYO_RESULT_OK && status == AYO_STATUS_ONGOING &&
             ayo_player_choose(player.get(), game.get(), &pit) == AYO_RESULT_OK) {
        ayo_game_play(game.get(), pit);
      }
      records[t] = text(ayo_game_record, game.get());
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    Player twin = make(t);
    Rules rules = make_rules(ayo_preset_name(static_cast<size_t>(t) % AYO_PRESET_COUNT));
    Game game = make_game(rules.get());
    ayo_game_set_ply_cap(game.get(), 200);
    ayo_status status = AYO_STATUS_ONGOING;
    uint8_t pit = 0;
    while (ayo_game_status(game.get(), &status) == AYO_RESULT_OK && status == AYO_STATUS_ONGOING &&
           expect_result(ayo_player_choose(twin.get(), game.get(), &pit), AYO_RESULT_OK, "choose")) {
      expect_result(ayo_game_play(game.get(), pit), AYO_RESULT_OK, "play the chosen move");
    }
    expect(text(ayo_game_record, game.get()) == records[t], "twin players play the same game");
    // The end: choose refuses, analyze has no move.
    expect_result(ayo_player_choose(twin.get(), game.get(), &pit),
                  status == AYO_STATUS_ENDED ? AYO_RESULT_GAME_OVER : AYO_RESULT_TRUNCATED, "choose at the end");
    ayo_analysis a{};
    size_t pv_len = 1;
    expect_result(ayo_player_analyze(twin.get(), game.get(), &a, nullptr, 0, &pv_len), AYO_RESULT_OK,
                  "analyze at the end");
    expect(a.best == 0 && a.moves_count == 0 && pv_len == 0, "no move at the end");
  }
  // Analysis in mid-game: one value per legal move, the line starts with the best move.
  Player p = make(1);
  Rules rules = make_rules("oware");
  Game game = make_game(rules.get());
  ayo_game_play(game.get(), 3);
  ayo_analysis a{};
  std::vector<uint8_t> pv(64);
  size_t pv_len = 0;
  if (expect_result(ayo_player_analyze(p.get(), game.get(), &a, pv.data(), pv.size(), &pv_len), AYO_RESULT_OK,
                    "analyze")) {
    std::vector<int> legal = legal_moves(game.get());
    expect(a.moves_count == legal.size(), "a value for each legal move");
    for (size_t i = 0; i < a.moves_count && i < legal.size(); ++i) {
      expect(a.moves[i].relative_pit == legal[i], "moves in pit order");
    }
    expect(pv_len == a.pv_len && pv_len >= 1 && pv[0] == a.best, "the line starts with the best move");
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s VECTOR_DIR\n", argv[0]);
    return 2;
  }
  where = "version";
  expect(std::string(ayo_version()) == AYO_VERSION_STRING, "header and library versions agree");
  long vectors = check_vectors(argv[1]);
  check_threads();
  check_players();
  std::printf("c++ vectors: %ld move vectors checked\n", vectors);
  std::printf("c++: %ld passed, %ld failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
