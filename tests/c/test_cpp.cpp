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

// C++17 use of the ayo C API through include/ayo.hpp: RAII handles, text
// and arrays as std::string / std::vector, failures as ayo::Error carrying
// the result code and the C API's message. Every shared vector is checked
// through it, distinct games and players run on several std::threads at
// once, and the layer's own promises (copies, moves, exceptions, long texts,
// databases) are checked.
//
// usage: test_cpp VECTOR_DIR

#include "ayo.hpp"
#include "json.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

struct JsonFree {
  void operator()(json *j) const { json_free(j); }
};
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

std::string name_of(ayo_result code) {
  const char *n = ayo_result_name(code);
  return n ? n : "unknown " + std::to_string(code);
}

// Runs `f`, which must throw ayo::Error with `code` (and, when given, exactly
// `message`); returns the error's message.
template <typename F>
std::string expect_error(F &&f, ayo_result code, const char *what, const char *message = nullptr) {
  try {
    f();
  } catch (const ayo::Error &e) {
    expect(e.code() == code, std::string(what) + " threw " + name_of(e.code()) + ", expected " + name_of(code));
    expect(std::string(e.name()) == name_of(code), std::string(what) + ": the error's name");
    if (message != nullptr) {
      expect(std::string(e.what()) == message,
             std::string(what) + ": message \"" + e.what() + "\", expected \"" + message + "\"");
    }
    return e.what();
  }
  expect(false, std::string(what) + " did not throw " + name_of(code));
  return "";
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
    {"starves", AYO_RESULT_STARVES},
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

void check_trace(const ayo::Game &g, int move, const json *want) {
  ayo::Trace t = g.trace(move);
  const ayo_trace_summary &sum = t.summary;
  expect(!t.events.empty() && t.events.front().kind == AYO_EVENT_KIND_LIFT && t.events.back().kind == AYO_EVENT_KIND_END,
         "trace from lift to end");
  expect(sum.laps == static_cast<uint32_t>(json_int(json_get(want, "laps"))), "laps");
  expect(sum.last_pit == json_int(json_get(want, "last_pit")), "last_pit");
  expect(lap_end_name(sum.end) == json_get(want, "end")->string, "end");
  expect(ints(json_get(want, "taken")) == std::vector<int>{sum.taken[0], sum.taken[1]}, "taken");
  TraceTotals got;
  for (const ayo_event &e : t.events) {
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

void check_outcome(const ayo::Game &g, const json *want) {
  if (want->type == JSON_NULL) {
    expect(g.status() == AYO_STATUS_ONGOING, "ongoing");
    expect_error([&] { g.outcome(); }, AYO_RESULT_GAME_NOT_OVER, "outcome while ongoing");
    return;
  }
  expect(g.status() == AYO_STATUS_ENDED, "ended");
  ayo_outcome o = g.outcome();
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

void check_vector(ayo::Game &g, const json *v) {
  const json *name = json_get(v, "name");
  where = name && name->type == JSON_STRING ? name->string : "<vector without a name>";
  if (!well_formed(v)) {
    return;
  }
  try {
    g.load_record(json_get(v, "game")->string);
  } catch (const ayo::Error &e) {
    expect(false, std::string("load_record: ") + e.what());
    return;
  }
  expect(g.legal_moves() == ints(json_get(v, "legal")), "legal moves");
  const int move = json_int(json_get(v, "move"));
  const json *error = json_get(v, "error");
  const std::string before = g.record();
  if (error->type != JSON_NULL) {
    auto kind = kErrors.find(error->string);
    if (!expect(kind != kErrors.end(), std::string("known error kind ") + error->string)) {
      return;
    }
    std::string message = expect_error([&] { g.play(move); }, kind->second, "illegal play");
    expect(message == g.last_error() && !message.empty(), "the exception carries the game's detail");
    expect(g.record() == before, "unchanged after an illegal move");
    expect_error([&] { g.trace(move); }, kind->second, "illegal trace");
    return;
  }
  check_trace(g, move, json_get(v, "trace"));
  g.play(move);
  expect(g.last_error().empty(), "no detail after a legal move");
  expect(g.position_text() == json_get(v, "after")->string, "after");
  check_outcome(g, json_get(v, "outcome"));
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
  ayo::Game game{ayo::Rules("ayoayo")};
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
      check_vector(game, &list->items[i]);
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
  const std::vector<std::string> presets = ayo::presets();
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &records, &presets] {
      ayo::Game game{ayo::Rules(presets[static_cast<size_t>(t) % presets.size()])};
      game.set_ply_cap(300);
      uint32_t seed = 17u + static_cast<uint32_t>(t);
      while (game.status() == AYO_STATUS_ONGOING) {
        std::vector<int> moves = game.legal_moves();
        seed = seed * 1664525u + 1013904223u;
        game.play(moves[(seed >> 8) % moves.size()]);
      }
      records[t] = game.record();
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    ayo::Game replay = ayo::Game::from_record(records[t]);
    expect(replay.record() == records[t], "replayed record");
    ayo::Game copy = replay;
    expect(copy.position_text() == replay.position_text() && copy.get() != replay.get(), "copy");
  }
}

// Computer players on std::threads: each thread's player (MCTS, or a level)
// plays a whole game against itself; a twin (same kind, budget and seed)
// replaying on this thread must choose every move the same, and analyze
// must agree with the game's legal moves.
void check_players() {
  where = "players";
  constexpr int kThreads = 4;
  const std::vector<std::string> presets = ayo::presets();
  auto make = [](int t) {
    return t % 2 == 0 ? ayo::Player::of_kind(AYO_PLAYER_KIND_MCTS, AYO_BUDGET_KIND_NODES, 200, static_cast<uint64_t>(t))
                      : ayo::Player::level("3", static_cast<uint64_t>(t));
  };
  auto preset = [&presets](int t) { return ayo::Rules(presets[static_cast<size_t>(t) % presets.size()]); };
  std::vector<std::string> records(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &records, &make, &preset] {
      ayo::Player player = make(t);
      ayo::Game game{preset(t)};
      game.set_ply_cap(200);
      while (game.status() == AYO_STATUS_ONGOING) {
        game.play(player.choose(game));
      }
      records[t] = game.record();
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    ayo::Player twin = make(t);
    ayo::Game game{preset(t)};
    game.set_ply_cap(200);
    while (game.status() == AYO_STATUS_ONGOING) {
      game.play(twin.choose(game));
    }
    expect(game.record() == records[t], "twin players play the same game");
    // The end: choose refuses, analyze has no move.
    const bool ended = game.status() == AYO_STATUS_ENDED;
    std::string message = expect_error([&] { twin.choose(game); }, ended ? AYO_RESULT_GAME_OVER : AYO_RESULT_TRUNCATED,
                                       "choose at the end");
    expect(message == twin.last_error(), "the exception carries the player's detail");
    ayo::Analysis a = twin.analyze(game);
    expect(a.best() == 0 && a.moves.empty() && a.pv.empty(), "no move at the end");
    if (!ended) {
      expect_error([&] { game.outcome(); }, AYO_RESULT_TRUNCATED, "outcome of a truncated game");
    }
  }
  // Analysis in mid-game: one value per legal move, the line starts with the best move.
  ayo::Player p = make(1);
  ayo::Game game{ayo::Rules("oware")};
  game.play(3);
  ayo::Analysis a = p.analyze(game);
  std::vector<int> legal = game.legal_moves();
  expect(a.moves.size() == legal.size(), "a value for each legal move");
  for (size_t i = 0; i < a.moves.size() && i < legal.size(); ++i) {
    expect(a.moves[i].relative_pit == legal[i], "moves in pit order");
  }
  expect(a.pv.size() == a.raw.pv_len && !a.pv.empty() && a.pv[0] == a.best(), "the line starts with the best move");
  ayo::Analysis again = p.last_analysis();
  expect(again.pv == a.pv && again.best() == a.best() && again.raw.nodes == a.raw.nodes, "last_analysis repeats it");
  // A deep search: its line is longer than the first array the layer offers.
  ayo::Player deep = ayo::Player::of_kind(AYO_PLAYER_KIND_ALPHA_BETA, AYO_BUDGET_KIND_DEPTH, 9, 1);
  ayo::Analysis line = deep.analyze(game);
  expect(!line.pv.empty() && line.pv.size() == line.raw.pv_len && line.pv[0] == line.best(), "a deep line");
  expect(deep.name() == "alphabeta(depth=9)", "player name: " + deep.name());
  expect_error([&] { deep.last_source(); }, AYO_RESULT_NOT_PERFECT, "last_source of a player that is not perfect");
}

// What the layer promises beyond the C calls it makes.
void check_layer() {
  where = "layer";
  static_assert(std::is_base_of<std::runtime_error, ayo::Error>::value, "ayo::Error is a std::runtime_error");
  static_assert(std::is_base_of<ayo::Error, ayo::RecordError>::value, "ayo::RecordError is an ayo::Error");
  static_assert(!std::is_copy_constructible<ayo::Player>::value && std::is_nothrow_move_constructible<ayo::Player>::value,
                "players move, never copy");
  static_assert(!std::is_copy_constructible<ayo::Database>::value, "databases move, never copy");
  static_assert(std::is_copy_constructible<ayo::Game>::value && std::is_nothrow_move_constructible<ayo::Game>::value,
                "games copy and move");
  expect(ayo::version() == AYO_VERSION_STRING, "header and library versions agree");
  expect(ayo::presets() == std::vector<std::string>{"ayoayo", "ayo", "olopon", "oware"}, "presets");
  expect(ayo::levels().size() == AYO_LEVEL_COUNT && ayo::levels().back() == "max", "levels");
  expect(ayo::param_names().size() == AYO_PARAM_COUNT, "parameter names");
  expect(ayo::value_text(125) == "+1.25", "value text");
  expect(ayo::result_message(AYO_RESULT_EMPTY_PIT) == "the pit is empty", "result message");

  // Rules: copies are independent; failures throw with the detail and change nothing.
  ayo::Rules rules("ayoayo");
  ayo::Rules copy = rules;
  copy.set("capture", "two_three");
  expect(rules.param("capture") != copy.param("capture") && copy.param("capture") == "two_three", "rules copy");
  expect(ayo::Rules::parse(copy.text()).text() == copy.text(), "rules record round trip");
  expect_error([&] { rules.set("seeds_per_pit", "99"); }, AYO_RESULT_INVALID_RULES, "seeds_per_pit 99",
               "rule parameter `seeds_per_pit` is invalid: 99 is outside 1 to 21");
  expect(rules.param("seeds_per_pit") == "4", "the rules are unchanged");
  expect_error([&] { rules.param("speed"); }, AYO_RESULT_UNKNOWN_PARAM, "unknown parameter", "unknown rule parameter `speed`");
  expect_error([] { ayo::Rules("chess"); }, AYO_RESULT_UNKNOWN_PRESET, "unknown preset");

  // Games: copies are independent; moved-from objects hold nothing and throw.
  ayo::Game g{rules};
  g.play(3);
  ayo::Game fork = g;
  const int reply = fork.legal_moves().front();
  fork.play(reply);
  expect(g.move_count() == 1 && fork.move_count() == 2 && fork.moves() == std::vector<int>{3, reply}, "game copy");
  expect(fork.undo() == reply && fork.record() == g.record(), "undo");
  ayo::Game moved = std::move(fork);
  expect(fork.get() == nullptr && moved.move_count() == 1, "move leaves nothing behind");
  expect_error([&] { fork.play(1); }, AYO_RESULT_NULL_ARGUMENT, "a moved-from game");
  expect(g.rules().text() == rules.text(), "the game's rules");
  expect(g.to_move() == AYO_SIDE_NORTH && g.legal_pits().size() == g.legal_moves().size(), "to move, legal pits");
  expect(g.perft(2) > 0, "perft");

  // Errors in the caller's numbering (the mover's pits 1 to 6; absolute pits
  // for play_pit), with the game unchanged.
  ayo::Game north = ayo::Game::from_position("ayoayo 4,4,4,4,4,4/4,0,4,4,4,4 4-0 n 0 1");
  expect_error([&] { north.play(2); }, AYO_RESULT_EMPTY_PIT, "empty pit", "North's pit 2 is empty");
  expect_error([&] { north.play_pit(7); }, AYO_RESULT_EMPTY_PIT, "empty absolute pit",
               "absolute pit 7 (North's pit 2) is empty");
  expect_error([&] { north.play(0); }, AYO_RESULT_ACTION_OUT_OF_RANGE, "pit 0",
               "pit 0 is out of range: the pits of the player to move are numbered 1 to 6");
  expect_error([&] { north.undo(); }, AYO_RESULT_NOTHING_TO_UNDO, "undo at the start");
  expect(north.move_count() == 0 && north.position_text() == "ayoayo 4,4,4,4,4,4/4,0,4,4,4,4 4-0 n 0 1", "unchanged");

  // Records: RecordError says where.
  try {
    north.load_record("ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 3 9");
    expect(false, "a bad record did not throw");
  } catch (const ayo::RecordError &e) {
    expect(e.code() == AYO_RESULT_MALFORMED_RECORD && e.field() == AYO_RECORD_FIELD_MOVE && e.offset() == 47,
           "record error field and offset");
    expect(std::string(e.what()) ==
               "bad move at offset 47: move 3 is illegal: pit 9 is out of range: the pits of the player to move are "
               "numbered 1 to 6",
           std::string("record error message: ") + e.what());
  }
  expect(north.move_count() == 0, "unchanged after a bad record");
  ayo_setup s = north.setup();
  s.to_move = 7;
  expect_error([&] { north.load_setup(s); }, AYO_RESULT_INVALID_ARGUMENT, "bad setup");
  s.to_move = 1;
  north.load_setup(s);
  expect(north.hash() == ayo::Game::from_position("ayoayo 4,4,4,4,4,4/4,0,4,4,4,4 4-0 n 0 1").hash(), "setup round trip");

  // A long text takes the second call: a random game that reaches a cap
  // of 150 moves (the first seed whose game lasts that long).
  ayo::Game longer{ayo::Rules("oware")};
  for (uint64_t seed = 1; seed < 100 && longer.status() != AYO_STATUS_TRUNCATED; ++seed) {
    longer = ayo::Game{ayo::Rules("oware")};
    longer.set_ply_cap(150);
    ayo::Player random = ayo::Player::level("1", seed);
    while (longer.status() == AYO_STATUS_ONGOING) longer.play(random.choose(longer));
  }
  expect(longer.status() == AYO_STATUS_TRUNCATED && longer.move_count() == 150, "a game of 150 moves");
  expect(longer.record().size() > 256 && ayo::Game::from_record(longer.record()).record() == longer.record(),
         "a record longer than the first buffer");
  expect(longer.moves().size() == 150, "a move list longer than the first array");
  expect_error([&] { longer.outcome(); }, AYO_RESULT_TRUNCATED, "outcome when truncated");
  longer.clear_ply_cap();
  expect(longer.status() == AYO_STATUS_ONGOING, "the cap cleared");
}

// Databases: build, open, verify, the perfect player, and the per-thread detail of a failure.
void check_databases() {
  where = "databases";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ayo-test-cpp-" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::remove_all(dir);
  ayo::Rules rules("ayoayo");
  std::string message =
      expect_error([&] { ayo::Database::open(rules, dir.string()); }, AYO_RESULT_DATABASE_MISSING, "no database yet");
  expect(message.find("no database layer for 0 seeds") != std::string::npos, "missing database: " + message);
  expect_error([&] { ayo::Database::open_up_to(rules, dir.string(), 41); }, AYO_RESULT_INVALID_ARGUMENT,
               "max_seeds 41", "max_seeds is 0 to 40, not 41");
  expect_error([] { ayo::Database::build(ayo::Rules("olopon"), 2, "/nonexistent-ayo", 1); },
               AYO_RESULT_DATABASE_UNSUPPORTED_RULES, "olopon (a move limit) has no board-only databases");
  ayo::Player player = [&] {
    ayo::Database built = ayo::Database::build(rules, 4, dir.string(), 1);
    ayo::Database opened = ayo::Database::open(rules, dir.string());
    expect(built.max_seeds() == 4 && opened.max_seeds() == 4, "max seeds");
    ayo::Database::Verified v = opened.verify(1);
    expect(v.checked == 1820 && v.failed == 0, "verified");  // C(16, 12) boards of 0 to 4 seeds
    // Bounds under every scoring of endless play: none above the layers held;
    // equal for this board (nothing can go round for ever with 4 seeds in ayoayo).
    expect(!opened.bounds(ayo::Game(rules)).has_value(), "the start is not held");
    std::optional<std::pair<int32_t, int32_t>> b =
        opened.bounds(ayo::Game::from_position("ayoayo 0,0,0,0,1,0/2,0,0,1,0,0 23-21 s 0 30"));
    expect(b.has_value() && b->first == b->second, "bounds of a held board");
    expect_error([&] { opened.bounds(ayo::Game(ayo::Rules("oware"))); }, AYO_RESULT_DATABASE_RULES_MISMATCH,
                 "bounds of a game of other rules");
    return ayo::Player::perfect(opened, AYO_BUDGET_KIND_NODES, 100000, 3);
  }();  // the player outlives both databases
  ayo::Game g = ayo::Game::from_position("ayoayo 0,0,0,0,1,0/2,0,0,1,0,0 23-21 s 0 30");
  ayo::Analysis a = player.analyze(g);
  expect(player.last_source() == AYO_PERFECT_SOURCE_DATABASE, "values from the databases");
  expect(a.value().proven == 1 && a.value().bound == AYO_BOUND_EXACT && a.best() >= 1 && a.best() <= 6, "exact value");
  expect(player.choose(g) == a.best(), "choose plays the best move");
  std::filesystem::remove_all(dir);
}

// Counted databases (a move limit): build, open, verify, values read and
// searched, a budget that runs out, other rules, and their perfect player.
void check_counted_databases() {
  where = "counted databases";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ayo-test-cpp-counted-" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::remove_all(dir);
  static_assert(!std::is_copy_constructible<ayo::CountedDatabase>::value &&
                    std::is_nothrow_move_constructible<ayo::CountedDatabase>::value,
                "counted databases move, never copy");
  ayo::Rules rules("olopon");
  expect_error([&] { ayo::CountedDatabase::open(rules, 4, dir.string()); }, AYO_RESULT_DATABASE_MISSING,
               "no counted database yet");
  expect_error([&] { ayo::CountedDatabase::build(rules, 49, dir.string(), 1); }, AYO_RESULT_INVALID_ARGUMENT,
               "max_seeds 49", "max_seeds is 0 to 48, not 49");
  std::string unsupported =
      expect_error([] { ayo::CountedDatabase::build(ayo::Rules("ayoayo"), 2, "/nonexistent-ayo", 1); },
                   AYO_RESULT_DATABASE_UNSUPPORTED_RULES, "ayoayo (no move limit) has no counted databases");
  expect(unsupported.find("move limit") != std::string::npos, "unsupported: " + unsupported);
  // 6 seeds: two of North's 3 captured at once, then one left on each side.
  const char *above = "olopon 1,1,1,0,0,0/0,0,1,1,1,0 21-21 s 0 0";
  ayo::Player player = [&] {
    ayo::CountedDatabase small = ayo::CountedDatabase::build(rules, 4, dir.string(), 1);
    ayo::CountedDatabase big = ayo::CountedDatabase::build(rules, 6, dir.string(), 1);
    ayo::CountedDatabase opened = ayo::CountedDatabase::open(rules, 4, dir.string());
    expect(small.max_seeds() == 4 && opened.max_seeds() == 4 && big.max_seeds() == 6, "max seeds");
    ayo::CountedDatabase::Verified v = opened.verify(1);
    expect(v.checked == 1820u * 41u && v.failed == 0, "verified");  // C(16, 12) boards x 41 counts
    std::optional<int32_t> held = big.value(ayo::Game::from_position(above), 1);
    std::optional<int32_t> searched = opened.value(ayo::Game::from_position(above));
    expect(held.has_value() && searched.has_value() && *held == *searched, "searched as held");
    expect(!opened.value(ayo::Game::from_position(above), 1).has_value(), "one node is not enough");
    std::string mismatch = expect_error([&] { opened.value(ayo::Game(ayo::Rules("ayo"))); },
                                        AYO_RESULT_DATABASE_RULES_MISMATCH, "the value of a game of other rules");
    expect(mismatch.find("these databases are for `olopon[target=none]`") != std::string::npos,
           "mismatch: " + mismatch);
    ayo::CountedDatabase moved = std::move(small);
    expect(moved.max_seeds() == 4, "moved");
    expect_error([&] { small.max_seeds(); }, AYO_RESULT_NULL_ARGUMENT, "a moved-from database");
    return ayo::Player::perfect(opened, AYO_BUDGET_KIND_NODES, 5000000, 3);
  }();  // the player outlives the databases
  ayo::Game g = ayo::Game::from_position(above);
  ayo::Analysis a = player.analyze(g);
  expect(player.last_source() == AYO_PERFECT_SOURCE_SEARCH, "values searched above the layers");
  expect(a.value().proven == 1 && a.value().bound == AYO_BOUND_EXACT && a.best() >= 1 && a.best() <= 6, "exact value");
  expect(player.choose(g) == a.best(), "choose plays the best move");
  expect(player.name().find("perfect(counted db<=4") == 0, "name: " + player.name());
  std::filesystem::remove_all(dir);
}

// Every string argument of ayo.hpp with a NUL byte in it is refused (the C
// API would read it cut at the NUL), and nothing is made or changed.
void check_nul_strings() {
  where = "strings with a NUL byte";
  using namespace std::string_literals;
  const std::string junk = "oware\0junk"s;
  expect(junk.size() == 10, "the test string holds its NUL");
  // The refusal names the argument and where its NUL is (offset 5 unless given).
  auto refused = [&](auto &&f, const char *what, int offset = 5) {
    std::string message = expect_error(f, AYO_RESULT_INVALID_ARGUMENT, what);
    std::string nul = "holds a NUL byte at offset " + std::to_string(offset);
    expect(message.find(nul) != std::string::npos, std::string(what) + ": message " + message);
  };
  refused([&] { ayo::Rules r(junk); }, "Rules(preset)");
  refused([&] { ayo::Rules::parse(junk); }, "Rules::parse");
  ayo::Rules rules("ayo");
  const std::string before = rules.text();
  refused([&] { rules.set("relay\0junk"s, "false"); }, "Rules::set key");
  refused([&] { rules.set("relay", "false\0true"s); }, "Rules::set value");
  refused([&] { rules.param("relay\0junk"s); }, "Rules::param");
  refused([&] { rules.load_text(junk); }, "Rules::load_text");
  expect(rules.text() == before, "the rules are unchanged");
  refused([&] { ayo::Game::from_record("oware\0 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |"s); }, "Game::from_record");
  refused([&] { ayo::Game::from_position("oware\0 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"s); }, "Game::from_position");
  ayo::Game game{ayo::Rules("oware")};
  const std::string start = game.position_text();
  refused([&] { game.load_position("ayo\0 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0"s); }, "Game::load_position", 3);
  refused([&] { game.load_record("ayo\0 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |"s); }, "Game::load_record", 3);
  expect(game.position_text() == start, "the game is unchanged");
  refused([&] { ayo::Player::level("3\0junk"s); }, "Player::level", 1);
  const std::string dir = "ayo-db\0/elsewhere"s;
  ayo::Rules relay("ayoayo");
  ayo::Rules counted("olopon");
  auto refused_dir = [&](auto &&f, const char *what) { refused(f, what, 6); };
  refused_dir([&] { ayo::Database::open(relay, dir); }, "Database::open");
  refused_dir([&] { ayo::Database::open_up_to(relay, dir, 2); }, "Database::open_up_to");
  refused_dir([&] { ayo::Database::build(relay, 2, dir, 1); }, "Database::build");
  refused_dir([&] { ayo::CountedDatabase::open(counted, 2, dir); }, "CountedDatabase::open");
  refused_dir([&] { ayo::CountedDatabase::build(counted, 2, dir, 1); }, "CountedDatabase::build");
  expect(!std::filesystem::exists("ayo-db"), "no folder was made at the cut name");
}

}  // namespace

// The guided search through ayo::Search: two games to the end with a
// uniform network, every chosen move legal, every policy summing to 1.
void check_search() {
  where = "search";
  expect_error([] { ayo::Search bad(ayo::Search::default_options(0)); }, AYO_RESULT_SEARCH_INVALID,
               "a search of 0 simulations");
  for (int method : {AYO_SEARCH_METHOD_PUCT, AYO_SEARCH_METHOD_GUMBEL}) {
    ayo_search_options o = ayo::Search::default_options(8);
    o.method = method;
    ayo::Search search(o);
    ayo::Game a{ayo::Rules("oware")}, b{ayo::Rules("ayo")};
    for (int ply = 0; ply < 300; ++ply) {
      std::vector<const ayo::Game *> live;
      for (const ayo::Game *g : {&a, &b}) {
        if (g->status() == AYO_STATUS_ONGOING) live.push_back(g);
      }
      if (live.empty()) break;
      std::size_t rounds = 0;
      auto uniform = [&rounds](const float *, const uint8_t *, std::size_t n, float *logits, float *values) {
        ++rounds;
        std::fill(logits, logits + n * AYO_SEARCH_ACTIONS, 0.0f);
        std::fill(values, values + n, 0.0f);
      };
      std::vector<ayo::SearchResult> results = search.run(live, uniform);
      expect(search.done() && rounds <= 9, "at most simulations + 1 rounds");
      expect(results.size() == live.size(), "a result a game");
      for (std::size_t i = 0; i < live.size(); ++i) {
        const ayo::SearchResult &r = results[i];
        float sum = 0;
        for (float p : r.policy) sum += p;
        expect(sum > 0.9999f && sum < 1.0001f, "the policy sums to 1");
        expect((live[i]->legal_mask() >> (r.relative_pit - 1)) & 1, "the chosen move is legal");
        const_cast<ayo::Game *>(live[i])->play(r.relative_pit);
      }
    }
    expect(a.status() != AYO_STATUS_ONGOING && b.status() != AYO_STATUS_ONGOING, "both games played to the end");
    std::vector<const ayo::Game *> over{&a};
    expect_error([&] { search.start(over); }, AYO_RESULT_GAME_OVER, "a search of a game over");
  }
}

// The batched environment through ayo::VecEnv: self-play games stepped
// beside one ayo::Game each (the same boards), a refused batch that throws
// and changes nothing, and the object moved.
void check_vec_env() {
  where = "vec_env";
  ayo::Rules oware("oware");
  std::string m = expect_error([&] { ayo::VecEnv bad(oware, {1, 2}, "opponent=wizard"); },
                               AYO_RESULT_INVALID_ARGUMENT, "an unknown opponent");
  expect(m.find("opponent must be") != std::string::npos, "the detail names the option: " + m);
  ayo::VecEnv env(oware, {1, 2, 3}, "opponent=self_play;perspective=absolute", 2);
  expect(env.size() == 3, "three games");
  env.reset();
  std::vector<ayo::Game> games(3, ayo::Game(oware));
  for (int t = 0; t < 50; ++t) {
    std::vector<int64_t> actions(3);
    for (std::size_t i = 0; i < 3; ++i) {
      ayo_setup s = games[i].setup();
      bool same = env.obs()[i * 14 + 12] == s.stores[0] && env.obs()[i * 14 + 13] == s.stores[1];
      for (int p = 0; p < AYO_PITS; ++p) same = same && env.obs()[i * 14 + p] == s.board[p];
      expect(same, "the board is the game's");
      expect((env.status()[i] & 63) == games[i].legal_mask(), "the status holds the legal actions");
      int a = 0;
      while (a < 5 && !((env.status()[i] >> a) & 1)) ++a;
      actions[i] = a;
    }
    if (t == 10) {
      std::vector<int64_t> bad = actions;
      bad[2] = 7;
      std::vector<float> before = env.obs();
      m = expect_error([&] { env.step(bad); }, AYO_RESULT_ACTION_OUT_OF_RANGE, "an action out of range");
      expect(m.find("game 2") != std::string::npos, "the detail names the game: " + m);
      expect(env.obs() == before, "a refused batch changes nothing");
    }
    ayo_vec_counts c = env.step(actions);
    expect(c.penalized == 0, "nothing penalized");
    for (std::size_t i = 0; i < 3; ++i) {
      if (env.ply()[i] == 0) {
        games[i] = ayo::Game(oware);
      } else {
        games[i].play(static_cast<int>(actions[i]) + 1);
      }
    }
  }
  ayo::VecEnv moved = std::move(env);
  expect(moved.size() == 3 && env.get() == nullptr, "a move takes the handle");
  moved.reset(std::vector<uint8_t>{1, 0, 0}, std::vector<uint64_t>{5, 5, 5});
  expect(moved.ply()[0] == 0, "the masked game restarted");
  expect_error([&] { env.step({0, 0, 0}); }, AYO_RESULT_NULL_ARGUMENT, "a moved-from batch");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s VECTOR_DIR\n", argv[0]);
    return 2;
  }
  try {
    check_layer();
    long vectors = check_vectors(argv[1]);
    check_threads();
    check_players();
    check_databases();
    check_counted_databases();
    check_nul_strings();
    check_search();
    check_vec_env();
    std::printf("c++ vectors: %ld move vectors checked through ayo.hpp\n", vectors);
  } catch (const std::exception &e) {
    expect(false, std::string("unexpected exception: ") + e.what());
  }
  std::printf("c++: %ld passed, %ld failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
