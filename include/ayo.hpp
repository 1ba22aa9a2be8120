/*
 * ayo.hpp: a header-only C++17 layer over the C API of the ayo rules engine
 * (ayo.h, libayo). Part of the ayo project, same licence.
 *
 * Only translation: every call goes to the C function of the same name, and
 * every rule is the library's. What the layer adds (docs/c-api.md, "C++"):
 *
 * - RAII handles: ayo::Rules, ayo::Game, ayo::Player, ayo::Database,
 *   ayo::CountedDatabase, ayo::Search and ayo::VecEnv own their C handle
 *   and free it in their destructor. Rules and Game copy (ayo_rules_clone,
 *   ayo_game_clone: independent copies); all of them move.
 *   A moved-from object holds no handle; using it throws ayo::Error with
 *   AYO_RESULT_NULL_ARGUMENT. get() gives the C handle for direct C calls.
 * - Outputs as std::string and std::vector: no size-then-fill calls.
 * - Errors as exceptions: a failed call throws ayo::Error (a
 *   std::runtime_error) carrying the ayo_result code and the detailed
 *   message of the handle's last error (or of this thread's last database
 *   error; calls that keep no detail give the code's description); a
 *   position or game record that does not parse throws ayo::RecordError,
 *   which adds the field and the byte offset. Memory exhaustion in the layer
 *   itself is std::bad_alloc.
 *
 * The C types (ayo_setup, ayo_outcome, ayo_event, ayo_analysis, the enums)
 * are used as they are. Thread safety is the C API's: const member
 * functions only read and may run concurrently on one object; the others
 * need it exclusively.
 */
#ifndef AYO_HPP
#define AYO_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ayo.h"

namespace ayo {

/** A failed call of the C API: its result code and a detailed message. */
class Error : public std::runtime_error {
 public:
  Error(ayo_result code, const std::string &message) : std::runtime_error(message), code_(code) {}

  /** The result code (never AYO_RESULT_OK). */
  ayo_result code() const noexcept { return code_; }

  /** The code's name as in ayo.h, e.g. "AYO_RESULT_EMPTY_PIT". */
  const char *name() const noexcept {
    const char *n = ayo_result_name(static_cast<int32_t>(code_));
    return n != nullptr ? n : "AYO_RESULT_UNKNOWN";
  }

 private:
  ayo_result code_;
};

/** A record (rules, position or game) that did not parse, or an illegal
 *  move in a game record: AYO_RESULT_MALFORMED_RECORD with where it failed. */
class RecordError : public Error {
 public:
  RecordError(const std::string &message, ayo_record_field field, std::size_t offset)
      : Error(AYO_RESULT_MALFORMED_RECORD, message), field_(field), offset_(offset) {}

  /** The field that failed. */
  ayo_record_field field() const noexcept { return field_; }

  /** The byte offset of the offending text in the record. */
  std::size_t offset() const noexcept { return offset_; }

 private:
  ayo_record_field field_;
  std::size_t offset_;
};

namespace detail {

/** Text from any C call that follows the text out-parameter convention:
 *  `call(buf, len, &written)`. One call when the text fits 256 bytes,
 *  else a second with the size the first reported. */
template <typename Call>
ayo_result fetch_text(Call &&call, std::string &out) {
  char small[256];
  std::size_t written = 0;
  ayo_result r = call(small, sizeof small, &written);
  if (r == AYO_RESULT_OK) {
    out.assign(small, written);
    return r;
  }
  if (r != AYO_RESULT_BUFFER_TOO_SMALL) return r;
  std::string big(written, '\0');
  r = call(&big[0], big.size(), &written);
  if (r == AYO_RESULT_OK) {
    big.resize(written);
    out = std::move(big);
  }
  return r;
}

/** The one-line description of a result code. */
inline std::string message_of(ayo_result code) {
  std::string text;
  fetch_text([code](char *b, std::size_t l, std::size_t *w) { return ayo_result_message(code, b, l, w); },
             text);
  return text.empty() ? std::string("ayo error ") + std::to_string(static_cast<int>(code)) : text;
}

/** Throws for a failed call whose detail is `detail_text` (empty: the
 *  code's description). */
[[noreturn]] inline void fail(ayo_result code, const std::string &detail_text) {
  throw Error(code, detail_text.empty() ? message_of(code) : detail_text);
}

/** `s` as a C string for argument `what`: a string with a NUL byte in it
 *  would be cut there by the C API (`"oware\0junk"` read as `"oware"`), so
 *  it is refused with AYO_RESULT_INVALID_ARGUMENT instead. */
inline const char *c_arg(const std::string &s, const char *what) {
  const std::size_t at = s.find('\0');
  if (at != std::string::npos) {
    throw Error(AYO_RESULT_INVALID_ARGUMENT,
                std::string(what) + " holds a NUL byte at offset " + std::to_string(at));
  }
  return s.c_str();
}

/** Checks the result of a call that keeps no detail. */
inline void check(ayo_result r) {
  if (r != AYO_RESULT_OK) fail(r, std::string());
}

/** Checks the result of a database call: its detail is this thread's. */
inline void check_database(ayo_result r) {
  if (r == AYO_RESULT_OK) return;
  std::string text;
  fetch_text(ayo_database_last_error, text);
  fail(r, text);
}

/** A text query of the C API that does not fail but for misuse. */
template <typename Call>
std::string text(Call &&call) {
  std::string out;
  check(fetch_text(std::forward<Call>(call), out));
  return out;
}

/** An array from a call following the array convention:
 *  `call(items, capacity, &count)`, with room for `guess` items first. */
template <typename T, typename Call>
std::vector<T> array(std::size_t guess, Call &&call, void (*on_error)(ayo_result)) {
  std::vector<T> items(guess > 0 ? guess : 1);
  std::size_t count = 0;
  ayo_result r = call(items.data(), items.size(), &count);
  if (r == AYO_RESULT_BUFFER_TOO_SMALL) {
    items.resize(count);
    r = call(items.data(), items.size(), &count);
  }
  if (r != AYO_RESULT_OK) on_error(r);
  items.resize(count);
  return items;
}

/** Owns one C handle, freed by `Free`; null after a move. */
template <typename T, void (*Free)(T *)>
class Handle {
 public:
  Handle() noexcept = default;
  explicit Handle(T *h) noexcept : h_(h) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  Handle &operator=(Handle &&other) noexcept {
    if (this != &other) {
      Free(h_);
      h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
  }
  ~Handle() { Free(h_); }
  T *get() const noexcept { return h_; }

 private:
  T *h_ = nullptr;
};

}  // namespace detail

/** The version of the linked library, "major.minor.patch". */
inline std::string version() { return ayo_version(); }

/** The one-line description of a result code. */
inline std::string result_message(ayo_result code) { return detail::message_of(code); }

/** A value's centiseeds in words: "+1.25", "win by 6", "loss by 2". */
inline std::string value_text(int32_t centiseeds) {
  return detail::text(
      [centiseeds](char *b, std::size_t l, std::size_t *w) { return ayo_value_text(centiseeds, b, l, w); });
}

/** The names of a static C list (presets, rule parameters, levels). */
inline std::vector<std::string> names(const char *(*name)(std::size_t)) {
  std::vector<std::string> out;
  for (std::size_t i = 0; name(i) != nullptr; ++i) out.emplace_back(name(i));
  return out;
}

/** "ayoayo", "ayo", "olopon", "oware". */
inline std::vector<std::string> presets() { return names(ayo_preset_name); }
/** The rule parameters, in the order of records. */
inline std::vector<std::string> param_names() { return names(ayo_rules_param_name); }
/** The playing levels, "1" to "8" and "max". */
inline std::vector<std::string> levels() { return names(ayo_level_name); }

/** A validated rule set (ayo_rules). */
class Rules {
 public:
  /** The rules of a preset: "ayoayo", "ayo", "olopon" or "oware". */
  explicit Rules(const std::string &preset) {
    ayo_rules *r = nullptr;
    detail::check(ayo_rules_new_preset(detail::c_arg(preset, "preset"), &r));
    h_ = Owner(r);
  }

  /** The rules of a rules record, e.g. "ayoayo[capture=two_three]". */
  static Rules parse(const std::string &record) {
    Rules r("ayoayo");
    r.load_text(record);
    return r;
  }

  Rules(const Rules &other) : h_(clone(other.get())) {}
  Rules &operator=(const Rules &other) {
    if (this != &other) h_ = Owner(clone(other.get()));
    return *this;
  }
  Rules(Rules &&) noexcept = default;
  Rules &operator=(Rules &&) noexcept = default;
  ~Rules() = default;

  /** Sets one parameter from its text form, e.g. ("capture", "two_three");
   *  the whole set is checked, and unchanged on failure. */
  void set(const std::string &key, const std::string &value) {
    check(ayo_rules_set(get(), detail::c_arg(key, "key"), detail::c_arg(value, "value")));
  }

  /** The text form of parameter `key` (as `set` takes it). */
  std::string param(const std::string &key) const {
    std::string out;
    ayo_result r = detail::fetch_text(
        [&](char *b, std::size_t l, std::size_t *w) { return ayo_rules_get(get(), detail::c_arg(key, "key"), b, l, w); }, out);
    if (r == AYO_RESULT_UNKNOWN_PARAM) detail::fail(r, "unknown rule parameter `" + key + "`");
    detail::check(r);
    return out;
  }

  /** Replaces the rules with those of a rules record. */
  void load_text(const std::string &record) { check(ayo_rules_load_text(get(), detail::c_arg(record, "record"))); }

  /** The rules record: the preset with the fewest overrides. */
  std::string text() const {
    return detail::text([this](char *b, std::size_t l, std::size_t *w) { return ayo_rules_text(get(), b, l, w); });
  }

  /** The detail of the last failed non-const call. */
  std::string last_error() const {
    return detail::text(
        [this](char *b, std::size_t l, std::size_t *w) { return ayo_rules_last_error(get(), b, l, w); });
  }

  /** The C handle, still owned by this object. */
  ayo_rules *get() const noexcept { return h_.get(); }

 private:
  using Owner = detail::Handle<ayo_rules, ayo_rules_free>;
  friend class Game;
  explicit Rules(ayo_rules *owned) noexcept : h_(owned) {}

  static ayo_rules *clone(const ayo_rules *r) {
    ayo_rules *out = nullptr;
    detail::check(ayo_rules_clone(r, &out));
    return out;
  }

  /** Throws for a failed non-const call, with the rules' detail. */
  void check(ayo_result r) const {
    if (r == AYO_RESULT_OK) return;
    detail::fail(r, get() != nullptr ? last_error() : std::string());
  }

  Owner h_;
};

/** One move's sowing trace (ayo_game_trace). */
struct Trace {
  std::vector<ayo_event> events;
  ayo_trace_summary summary;
};

/** A game in progress (ayo_game). */
class Game {
 public:
  /** A new game at the start position of `rules` (copied). */
  explicit Game(const Rules &rules) {
    ayo_game *g = nullptr;
    detail::check(ayo_game_new(rules.get(), &g));
    h_ = Owner(g);
  }

  /** The game of a game record, every move replayed and checked, e.g.
   *  "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1 6". */
  static Game from_record(const std::string &record) {
    Game g{Rules("ayoayo")};
    g.load_record(record);
    return g;
  }

  /** A game starting at a position record. */
  static Game from_position(const std::string &position) {
    Game g{Rules("ayoayo")};
    g.load_position(position);
    return g;
  }

  Game(const Game &other) : h_(clone(other.get())) {}
  Game &operator=(const Game &other) {
    if (this != &other) h_ = Owner(clone(other.get()));
    return *this;
  }
  Game(Game &&) noexcept = default;
  Game &operator=(Game &&) noexcept = default;
  ~Game() = default;

  /** A copy of the game's rules. */
  Rules rules() const {
    ayo_rules *r = nullptr;
    detail::check(ayo_game_rules(get(), &r));
    return Rules(r);
  }

  /** Replaces the game with one starting at a position record. */
  void load_position(const std::string &position) { check(ayo_game_load_position(get(), detail::c_arg(position, "position"))); }
  /** Replaces the game with the game of a game record. */
  void load_record(const std::string &record) { check(ayo_game_load_record(get(), detail::c_arg(record, "record"))); }
  /** Replaces the game with one starting at `setup`, under the same rules. */
  void load_setup(const ayo_setup &setup) { check(ayo_game_load_setup(get(), &setup)); }

  /** The current position as plain values. */
  ayo_setup setup() const { return query<ayo_setup>(ayo_game_setup); }
  /** The player to move. */
  ayo_side to_move() const { return query<ayo_side>(ayo_game_to_move); }
  /** The position's 64-bit hash. */
  uint64_t hash() const { return query<uint64_t>(ayo_game_hash); }
  /** Moves played since the start position. */
  std::size_t move_count() const { return query<std::size_t>(ayo_game_move_count); }
  /** Where the game stands. */
  ayo_status status() const { return query<ayo_status>(ayo_game_status); }
  /** Bit k set when the mover's pit k + 1 is legal. */
  uint8_t legal_mask() const { return query<uint8_t>(ayo_game_legal_mask); }

  /** The moves played, as the movers' pits 1 to 6. */
  std::vector<int> moves() const { return pits(ayo_game_moves, 64); }
  /** The legal moves, as the mover's pits 1 to 6 ascending. */
  std::vector<int> legal_moves() const { return pits(ayo_game_legal_moves, AYO_MAX_LEGAL_MOVES); }
  /** The legal moves, as absolute pits 0 to 11. */
  std::vector<int> legal_pits() const { return pits(ayo_game_legal_pits, AYO_MAX_LEGAL_MOVES); }

  /** Plays the mover's pit 1 to 6; an illegal move throws and changes nothing. */
  void play(int relative_pit) { check(ayo_game_play(get(), relative_pit)); }
  /** Plays absolute pit 0 to 11 of the mover's row. */
  void play_pit(int pit) { check(ayo_game_play_pit(get(), pit)); }
  /** Takes back the last move; returns it as its mover's pit 1 to 6. */
  int undo() {
    uint8_t pit = 0;
    check(ayo_game_undo(get(), &pit));
    return pit;
  }

  /** The outcome of a finished game; throws AYO_RESULT_GAME_NOT_OVER while
   *  it goes on and AYO_RESULT_TRUNCATED when it stopped at its ply cap. */
  ayo_outcome outcome() const { return query<ayo_outcome>(ayo_game_outcome); }

  /** Caps the moves of the game (see ayo_game_set_ply_cap). */
  void set_ply_cap(uint32_t cap) { check(ayo_game_set_ply_cap(get(), cap)); }
  /** Removes the ply cap. */
  void clear_ply_cap() { check(ayo_game_clear_ply_cap(get())); }

  /** The position record of the current position. */
  std::string position_text() const {
    return detail::text(
        [this](char *b, std::size_t l, std::size_t *w) { return ayo_game_position_text(get(), b, l, w); });
  }
  /** The game record: start position, " | ", the moves. */
  std::string record() const {
    return detail::text([this](char *b, std::size_t l, std::size_t *w) { return ayo_game_record(get(), b, l, w); });
  }

  /** The sowing trace of the mover's pit 1 to 6, without playing it. */
  Trace trace(int relative_pit) const {
    Trace t{};
    t.events = detail::array<ayo_event>(
        64,
        [&](ayo_event *e, std::size_t cap, std::size_t *count) {
          return ayo_game_trace(get(), relative_pit, e, cap, count, &t.summary);
        },
        detail::check);
    return t;
  }

  /** Counts the move sequences of length `depth` (perft). */
  uint64_t perft(uint32_t depth) const {
    uint64_t nodes = 0;
    detail::check(ayo_game_perft(get(), depth, &nodes));
    return nodes;
  }

  /** The detail of the last failed non-const call ("" after a success). */
  std::string last_error() const {
    return detail::text(
        [this](char *b, std::size_t l, std::size_t *w) { return ayo_game_last_error(get(), b, l, w); });
  }

  /** The C handle, still owned by this object. */
  ayo_game *get() const noexcept { return h_.get(); }

 private:
  using Owner = detail::Handle<ayo_game, ayo_game_free>;

  static ayo_game *clone(const ayo_game *g) {
    ayo_game *out = nullptr;
    detail::check(ayo_game_clone(g, &out));
    return out;
  }

  template <typename T, typename Query>
  T query(Query q) const {
    T value{};
    detail::check(q(get(), &value));
    return value;
  }

  template <typename Query>
  std::vector<int> pits(Query q, std::size_t guess) const {
    std::vector<uint8_t> raw = detail::array<uint8_t>(
        guess, [&](uint8_t *p, std::size_t cap, std::size_t *count) { return q(get(), p, cap, count); },
        detail::check);
    return std::vector<int>(raw.begin(), raw.end());
  }

  /** Throws for a failed non-const call, with the game's detail. */
  void check(ayo_result r) const {
    if (r == AYO_RESULT_OK) return;
    if (get() == nullptr) detail::fail(r, std::string());
    std::string text = last_error();
    ayo_record_field field = AYO_RECORD_FIELD_OTHER;
    std::size_t offset = 0;
    if (r == AYO_RESULT_MALFORMED_RECORD && ayo_game_last_record_error(get(), &field, &offset) == AYO_RESULT_OK) {
      throw RecordError(text, field, offset);
    }
    detail::fail(r, text);
  }

  Owner h_;
};

/** Endgame databases (ayo_database): immutable once made, shared by the
 *  perfect players made from them. Movable, not copyable. */
class Database {
 public:
  /** Loads every consecutive layer of `rules` found in `dir`. */
  static Database open(const Rules &rules, const std::string &dir) {
    ayo_database *d = nullptr;
    detail::check_database(ayo_database_open(rules.get(), detail::c_arg(dir, "dir"), &d));
    return Database(d);
  }

  /** Loads exactly the layers 0 to `max_seeds` of `rules` from `dir`. */
  static Database open_up_to(const Rules &rules, const std::string &dir, uint32_t max_seeds) {
    ayo_database *d = nullptr;
    detail::check_database(ayo_database_open_up_to(rules.get(), detail::c_arg(dir, "dir"), max_seeds, &d));
    return Database(d);
  }

  /** Builds (or resumes) the layers 0 to `max_seeds` into `dir` and loads
   *  them, on `threads` threads (0: one per core). */
  static Database build(const Rules &rules, uint32_t max_seeds, const std::string &dir, uint32_t threads = 0) {
    ayo_database *d = nullptr;
    detail::check_database(ayo_database_build(rules.get(), max_seeds, detail::c_arg(dir, "dir"), threads, &d));
    return Database(d);
  }

  /** The largest seed count held. */
  uint32_t max_seeds() const {
    uint32_t n = 0;
    detail::check(ayo_database_max_seeds(get(), &n));
    return n;
  }

  /** What ayo_database_verify found. */
  struct Verified {
    uint64_t checked;
    uint64_t failed;
  };

  /** Re-checks every stored value against its successors. */
  Verified verify(uint32_t threads = 0) const {
    Verified v{0, 0};
    detail::check_database(ayo_database_verify(get(), threads, &v.checked, &v.failed));
    return v;
  }

  /** The bounds (lo, hi) of the current position of `game` under every
   *  scoring of endless play, for the player to move (ayo_database_bounds);
   *  none when the databases do not hold the board. */
  std::optional<std::pair<int32_t, int32_t>> bounds(const Game &game) const {
    uint8_t held = 0;
    int32_t lo = 0;
    int32_t hi = 0;
    detail::check_database(ayo_database_bounds(get(), game.get(), &held, &lo, &hi));
    if (!held) return std::nullopt;
    return std::make_pair(lo, hi);
  }

  /** The C handle, still owned by this object. */
  ayo_database *get() const noexcept { return h_.get(); }

 private:
  explicit Database(ayo_database *owned) noexcept : h_(owned) {}
  detail::Handle<ayo_database, ayo_database_free> h_;
};

/** Counted databases (ayo_counted_database) of rules with a move limit
 *  (olopon, ayo): the value of every board of the layers held at every
 *  no-capture count. Immutable once made, shared by the perfect players
 *  made from them. Movable, not copyable. */
class CountedDatabase {
 public:
  /** Loads the layers a database for `max_seeds` seeds needs from `dir`. */
  static CountedDatabase open(const Rules &rules, uint32_t max_seeds, const std::string &dir) {
    ayo_counted_database *d = nullptr;
    detail::check_database(ayo_counted_database_open(rules.get(), max_seeds, detail::c_arg(dir, "dir"), &d));
    return CountedDatabase(d);
  }

  /** Builds (or resumes) the layers for `max_seeds` seeds into `dir` and
   *  loads them, on `threads` threads (0: one per core). */
  static CountedDatabase build(const Rules &rules, uint32_t max_seeds, const std::string &dir,
                               uint32_t threads = 0) {
    ayo_counted_database *d = nullptr;
    detail::check_database(ayo_counted_database_build(rules.get(), max_seeds, detail::c_arg(dir, "dir"), threads, &d));
    return CountedDatabase(d);
  }

  /** The seed count the databases were built for. */
  uint32_t max_seeds() const {
    uint32_t n = 0;
    detail::check(ayo_counted_database_max_seeds(get(), &n));
    return n;
  }

  /** What ayo_counted_database_verify found (as for the board-only databases). */
  using Verified = Database::Verified;

  /** Re-checks every stored value (every count) against the core. */
  Verified verify(uint32_t threads = 0) const {
    Verified v{0, 0};
    detail::check_database(ayo_counted_database_verify(get(), threads, &v.checked, &v.failed));
    return v;
  }

  /** The exact value of the current position of `game` for the player to
   *  move (ayo_counted_database_value), searched above the layers within
   *  `nodes` expanded boards (0: no limit); none when the budget runs out. */
  std::optional<int32_t> value(const Game &game, uint64_t nodes = 0) const {
    uint8_t solved = 0;
    int32_t v = 0;
    detail::check_database(ayo_counted_database_value(get(), game.get(), nodes, &solved, &v));
    if (!solved) return std::nullopt;
    return v;
  }

  /** The C handle, still owned by this object. */
  ayo_counted_database *get() const noexcept { return h_.get(); }

 private:
  explicit CountedDatabase(ayo_counted_database *owned) noexcept : h_(owned) {}
  detail::Handle<ayo_counted_database, ayo_counted_database_free> h_;
};

/** A player's analysis of a position (ayo_player_analyze), with its
 *  principal variation and its moves as vectors. */
struct Analysis {
  /** The C struct, as the library wrote it. */
  ayo_analysis raw;
  /** The principal variation, each move its own mover's pit 1 to 6. */
  std::vector<int> pv;
  /** Every legal move with its value, in pit order. */
  std::vector<ayo_move_value> moves;

  /** The best move, the mover's pit 1 to 6 (0 when the game is over). */
  int best() const noexcept { return raw.best; }
  /** The value of the position for the player to move. */
  const ayo_value &value() const noexcept { return raw.value; }
};

/** A computer player (ayo_player). Movable, not copyable (its search state
 *  is its own). */
class Player {
 public:
  /** The player of a level: "1" to "8" or "max". */
  static Player level(const std::string &level, uint64_t seed = 0) {
    ayo_player *p = nullptr;
    detail::check(ayo_player_new_level(detail::c_arg(level, "level"), seed, &p));
    return Player(p);
  }

  /** A player of `kind` with a budget of `amount` units of `budget_kind`. */
  static Player of_kind(ayo_player_kind kind, ayo_budget_kind budget_kind, uint64_t amount, uint64_t seed = 0) {
    ayo_player *p = nullptr;
    detail::check(ayo_player_new_kind(kind, budget_kind, amount, seed, &p));
    return Player(p);
  }

  /** A perfect player over `database` (which it shares: the Database may
   *  be destroyed first). */
  static Player perfect(const Database &database, ayo_budget_kind budget_kind, uint64_t amount,
                        uint64_t seed = 0) {
    ayo_player *p = nullptr;
    detail::check(ayo_player_new_perfect(database.get(), budget_kind, amount, seed, &p));
    return Player(p);
  }

  /** A perfect player over counted databases (ayo_player_new_perfect_counted;
   *  it shares them: the CountedDatabase may be destroyed first). */
  static Player perfect(const CountedDatabase &database, ayo_budget_kind budget_kind, uint64_t amount,
                        uint64_t seed = 0) {
    ayo_player *p = nullptr;
    detail::check(ayo_player_new_perfect_counted(database.get(), budget_kind, amount, seed, &p));
    return Player(p);
  }

  /** The move to play in `game`, as the mover's pit 1 to 6 (the game is
   *  not changed). */
  int choose(const Game &game) {
    uint8_t pit = 0;
    check(ayo_player_choose(get(), game.get(), &pit));
    return pit;
  }

  /** Analyses the current position of `game` (one search). */
  Analysis analyze(const Game &game) {
    Analysis a{};
    std::vector<uint8_t> pv(64);
    std::size_t len = 0;
    ayo_result r = ayo_player_analyze(get(), game.get(), &a.raw, pv.data(), pv.size(), &len);
    if (r == AYO_RESULT_BUFFER_TOO_SMALL) return last_analysis();  // the same analysis, a longer line
    check(r);
    return finish(std::move(a), pv, len);
  }

  /** The analysis of the last analyze again, without searching. */
  Analysis last_analysis() const {
    Analysis a{};
    std::vector<uint8_t> raw = detail::array<uint8_t>(
        64,
        [&](uint8_t *pv, std::size_t cap, std::size_t *len) {
          return ayo_player_last_analysis(get(), &a.raw, pv, cap, len);
        },
        detail::check);
    return finish(std::move(a), raw, raw.size());
  }

  /** The kind and budget, e.g. "alphabeta(depth=4)". */
  std::string name() const {
    return detail::text([this](char *b, std::size_t l, std::size_t *w) { return ayo_player_name(get(), b, l, w); });
  }

  /** Where a perfect player's last answer came from. */
  ayo_perfect_source last_source() const {
    ayo_perfect_source s = AYO_PERFECT_SOURCE_NONE;
    detail::check(ayo_player_last_source(get(), &s));
    return s;
  }

  /** The detail of the last failed choose or analyze ("" after a success). */
  std::string last_error() const {
    return detail::text(
        [this](char *b, std::size_t l, std::size_t *w) { return ayo_player_last_error(get(), b, l, w); });
  }

  /** The C handle, still owned by this object. */
  ayo_player *get() const noexcept { return h_.get(); }

 private:
  explicit Player(ayo_player *owned) noexcept : h_(owned) {}

  static Analysis finish(Analysis a, const std::vector<uint8_t> &pv, std::size_t len) {
    a.pv.assign(pv.begin(), pv.begin() + static_cast<std::ptrdiff_t>(len));
    a.moves.assign(a.raw.moves, a.raw.moves + a.raw.moves_count);
    return a;
  }

  void check(ayo_result r) const {
    if (r == AYO_RESULT_OK) return;
    detail::fail(r, get() != nullptr ? last_error() : std::string());
  }

  detail::Handle<ayo_player, ayo_player_free> h_;
};

/** What a guided search found for one game (ayo_search_results). */
struct SearchResult {
  /** The chosen move, the mover's pit 1 to 6 (ready for Game::play). */
  int relative_pit = 0;
  /** The policy target over the mover's pits 1 to 6 (sums to 1). */
  std::vector<float> policy;
  /** The root's value for the player to move, in [-1, 1]. */
  float value = 0;
};

/** A batched tree search with a network in the loop (ayo_search): `start`
 *  games, then `leaves` and `tell` until no leaf is handed out, then
 *  `results`; or `run` with the network as a function. See docs/search.md. */
class Search {
 public:
  /** ayo_search_options_default's options with `simulations`. */
  static ayo_search_options default_options(uint64_t simulations = 32) {
    ayo_search_options o{};
    detail::check(ayo_search_options_default(&o));
    o.simulations = simulations;
    return o;
  }

  explicit Search(const ayo_search_options &options) {
    ayo_search *s = nullptr;
    detail::check(ayo_search_new(&options, &s));
    h_ = detail::Handle<ayo_search, ayo_search_free>(s);
  }

  /** Starts a search of `games` (none over), read during the call only. */
  void start(const std::vector<const Game *> &games) {
    std::vector<const ayo_game *> raw;
    raw.reserve(games.size());
    for (const Game *g : games) raw.push_back(g->get());
    check(ayo_search_start(get(), raw.data(), raw.size()));
    games_ = raw.size();
    obs_.assign(games_ * AYO_SEARCH_OBS, 0.0f);
    mask_.assign(games_ * AYO_SEARCH_ACTIONS, 0);
  }

  /** The next round's leaves, at most one a game (0 once done): their rows
   *  in obs() (AYO_SEARCH_OBS floats a leaf) and mask() (AYO_SEARCH_ACTIONS
   *  flags a leaf). */
  std::size_t leaves() {
    std::size_t n = 0;
    check(ayo_search_leaves(get(), obs_.data(), mask_.data(), games_, &n));
    return n;
  }
  const std::vector<float> &obs() const noexcept { return obs_; }
  const std::vector<uint8_t> &mask() const noexcept { return mask_; }

  /** The network's answer for the `n` leaves handed out: AYO_SEARCH_ACTIONS
   *  logits and one value (for the player to move) a leaf. */
  void tell(const float *logits, const float *values, std::size_t n) {
    check(ayo_search_tell(get(), logits, values, n));
  }

  /** Whether every tree has run its simulations. */
  bool done() const {
    uint8_t d = 0;
    detail::check(ayo_search_done(get(), &d));
    return d != 0;
  }

  /** Every game's result, once done. */
  std::vector<SearchResult> results() const {
    std::vector<uint8_t> pits(games_ > 0 ? games_ : 1);
    std::vector<float> policies(pits.size() * AYO_SEARCH_ACTIONS), values(pits.size());
    std::size_t n = 0;
    detail::check(ayo_search_results(get(), pits.data(), policies.data(), values.data(), pits.size(), &n));
    std::vector<SearchResult> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      out[i].relative_pit = pits[i];
      out[i].policy.assign(policies.begin() + static_cast<std::ptrdiff_t>(i * AYO_SEARCH_ACTIONS),
                           policies.begin() + static_cast<std::ptrdiff_t>((i + 1) * AYO_SEARCH_ACTIONS));
      out[i].value = values[i];
    }
    return out;
  }

  /** Starts `games` and runs the search: `evaluate(obs, mask, n, logits,
   *  values)` answers each round (it writes n * AYO_SEARCH_ACTIONS logits
   *  and n values). */
  template <typename Evaluate>
  std::vector<SearchResult> run(const std::vector<const Game *> &games, Evaluate &&evaluate) {
    start(games);
    std::vector<float> logits(games_ * AYO_SEARCH_ACTIONS), values(games_);
    for (std::size_t n = leaves(); n > 0; n = leaves()) {
      evaluate(obs_.data(), mask_.data(), n, logits.data(), values.data());
      tell(logits.data(), values.data(), n);
    }
    return results();
  }

  /** The detail of the last failed call ("" after a success). */
  std::string last_error() const {
    return detail::text(
        [this](char *b, std::size_t l, std::size_t *w) { return ayo_search_last_error(get(), b, l, w); });
  }

  /** The C handle, still owned by this object. */
  ayo_search *get() const noexcept { return h_.get(); }

 private:
  void check(ayo_result r) const {
    if (r == AYO_RESULT_OK) return;
    detail::fail(r, get() != nullptr ? last_error() : std::string());
  }

  detail::Handle<ayo_search, ayo_search_free> h_;
  std::size_t games_ = 0;
  std::vector<float> obs_;
  std::vector<uint8_t> mask_;
};

/** A batched environment (ayo_vec_env): N episodes stepped together on up
 *  to a given number of threads, with its own arrays, which every reset()
 *  and step() rewrites (the same episodes as Python's AyoVectorEnv for the
 *  same seeds). Movable, not copyable. */
class VecEnv {
 public:
  /** Game `i` of `rules` seeded by `seeds[i]`; `options` as ayo_vec_env_new
   *  (`key=value` pairs joined by `;`), `threads` 0 for every core. */
  VecEnv(const Rules &rules, const std::vector<uint64_t> &seeds, const std::string &options = std::string(),
         int32_t threads = 1)
      : n_(seeds.size()),
        obs_(n_ * 14),
        obs_mask_(n_ * 6),
        mask_(n_ * 6),
        reward_(n_),
        terminated_(n_),
        truncated_(n_),
        seat_(n_),
        final_obs_(n_ * 14),
        final_obs_mask_(n_ * 6),
        ended_(n_),
        game_over_(n_),
        scores_(n_ * 2),
        winner_(n_),
        illegal_(n_),
        to_move_(n_),
        ply_(n_),
        replied_(n_),
        reason_(n_),
        status_(n_) {
    ayo_vec_env *e = nullptr;
    check(ayo_vec_env_new(rules.get(), detail::c_arg(options, "options"), seeds.data(), n_, threads, &e));
    h_ = detail::Handle<ayo_vec_env, ayo_vec_env_free>(e);
  }

  /** The number of games. */
  std::size_t size() const noexcept { return n_; }

  /** Starts new episodes in every game (`seat` 0 or 1: the agent's seat; -1
   *  the options'). */
  void reset(int32_t seat = -1) {
    ayo_vec_rows r = rows();
    check(ayo_vec_env_reset(get(), &r, nullptr, nullptr, seat));
  }

  /** Starts new episodes in the games where `mask` is non-zero, each first
   *  reseeded with `seeds[i]` when `seeds` is not empty. */
  void reset(const std::vector<uint8_t> &mask, const std::vector<uint64_t> &seeds = {}, int32_t seat = -1) {
    if (mask.size() != n_ || (!seeds.empty() && seeds.size() != n_)) {
      throw Error(AYO_RESULT_INVALID_ARGUMENT, "a reset's mask and seeds have one entry a game");
    }
    ayo_vec_rows r = rows();
    check(ayo_vec_env_reset(get(), &r, mask.data(), seeds.empty() ? nullptr : seeds.data(), seat));
  }

  /** One step of every game (`actions[i]` 0 to 5 for game `i`); a refused
   *  batch throws and changes nothing. What happened, counted. */
  ayo_vec_counts step(const std::vector<int64_t> &actions) {
    ayo_vec_rows r = rows();
    ayo_vec_counts counts{0, 0, 0};
    check(ayo_vec_env_step(get(), actions.data(), actions.size(), &r, &counts));
    return counts;
  }

  /** The arrays, as ayo_vec_rows describes them. */
  const std::vector<float> &obs() const noexcept { return obs_; }
  const std::vector<int8_t> &obs_mask() const noexcept { return obs_mask_; }
  const std::vector<uint8_t> &mask() const noexcept { return mask_; }
  const std::vector<double> &reward() const noexcept { return reward_; }
  const std::vector<uint8_t> &terminated() const noexcept { return terminated_; }
  const std::vector<uint8_t> &truncated() const noexcept { return truncated_; }
  const std::vector<int8_t> &seat() const noexcept { return seat_; }
  const std::vector<float> &final_obs() const noexcept { return final_obs_; }
  const std::vector<int8_t> &final_obs_mask() const noexcept { return final_obs_mask_; }
  const std::vector<uint8_t> &ended() const noexcept { return ended_; }
  const std::vector<uint8_t> &game_over() const noexcept { return game_over_; }
  const std::vector<int16_t> &scores() const noexcept { return scores_; }
  const std::vector<int8_t> &winner() const noexcept { return winner_; }
  const std::vector<int8_t> &illegal() const noexcept { return illegal_; }
  const std::vector<int8_t> &to_move() const noexcept { return to_move_; }
  const std::vector<uint32_t> &ply() const noexcept { return ply_; }
  const std::vector<int8_t> &replied() const noexcept { return replied_; }
  const std::vector<int8_t> &reason() const noexcept { return reason_; }
  const std::vector<uint8_t> &status() const noexcept { return status_; }

  /** The C handle, still owned by this object. */
  ayo_vec_env *get() const noexcept { return h_.get(); }

 private:
  static void check(ayo_result r) {
    if (r == AYO_RESULT_OK) return;
    std::string text;
    detail::fetch_text(ayo_vec_env_last_error, text);
    detail::fail(r, text);
  }

  /** The arrays as the C call's rows (their data moves with the object). */
  ayo_vec_rows rows() noexcept {
    return ayo_vec_rows{n_,
                        obs_.data(),
                        obs_mask_.data(),
                        mask_.data(),
                        reward_.data(),
                        terminated_.data(),
                        truncated_.data(),
                        seat_.data(),
                        final_obs_.data(),
                        final_obs_mask_.data(),
                        ended_.data(),
                        game_over_.data(),
                        scores_.data(),
                        winner_.data(),
                        illegal_.data(),
                        to_move_.data(),
                        ply_.data(),
                        replied_.data(),
                        reason_.data(),
                        status_.data()};
  }

  detail::Handle<ayo_vec_env, ayo_vec_env_free> h_;
  std::size_t n_;
  std::vector<float> obs_;
  std::vector<int8_t> obs_mask_;
  std::vector<uint8_t> mask_;
  std::vector<double> reward_;
  std::vector<uint8_t> terminated_;
  std::vector<uint8_t> truncated_;
  std::vector<int8_t> seat_;
  std::vector<float> final_obs_;
  std::vector<int8_t> final_obs_mask_;
  std::vector<uint8_t> ended_;
  std::vector<uint8_t> game_over_;
  std::vector<int16_t> scores_;
  std::vector<int8_t> winner_;
  std::vector<int8_t> illegal_;
  std::vector<int8_t> to_move_;
  std::vector<uint32_t> ply_;
  std::vector<int8_t> replied_;
  std::vector<int8_t> reason_;
  std::vector<uint8_t> status_;
};

}  // namespace ayo

#endif
