//! [`LeanGame`]: a game that keeps only what its rules need to go on, for the
//! hot loops of batched environments and self-play data generation.

use rand::Rng;

use crate::games::game::Game;
use crate::games::random_move::{draw_action, draw_among};
use crate::rules::end::{counters_may_end, end_reason};
use crate::rules::family::with_family;
use crate::rules::legal::{must_feed, nonempty_pits_are_legal};
use crate::rules::moves::{IllegalMove, Move};
use crate::rules::outcome::{EndReason, Outcome};
use crate::rules::position::Position;
use crate::rules::repeat::Window;
use crate::rules::{Repetition, Rules};

/// What is known of the legal moves of the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moves {
    /// Not worked out yet: a relay game, or a feeding rule with the
    /// opponent's row empty, needs candidates sown to know.
    Unknown,
    /// The legal moves are the non-empty pits (`legal`); none sown yet.
    NonEmpty,
    /// Every candidate sown: `legal` and `children` are exact.
    Sown,
    /// The game is over: `outcome` is set and `legal` is 0 (one field for
    /// the hot paths to test).
    Over,
}

/// A game without undo or move list: the current position, the positions
/// since the last capture (when the rules end a game on repetition), the
/// legal moves once they are known, and the outcome. It plays exactly as a
/// [`crate::Game`] (same positions, same legal moves, same ends; the tests
/// compare them move by move) at a fraction of the cost:
///
/// * a move needs one sowing when the legal moves are simply the non-empty
///   pits (no relay; no feeding rule with the opponent's row empty);
/// * otherwise every candidate is sown once, when the legal moves are asked
///   for ([`LeanGame::legal_mask`]), and the chosen child is reused;
/// * [`LeanGame::play_random`] draws a uniformly random legal move sowing
///   about one candidate (endless relays are struck off and redrawn).
///
/// An end by lack of legal moves is only known once they are worked out:
/// [`LeanGame::outcome`] works them out when needed.
///
/// ```
/// use ayo_core::{Game, LeanGame, Rules};
/// use rand::SeedableRng;
/// let rules = Rules::preset("ayoayo")?;
/// let mut lean = LeanGame::new(rules, ayo_core::Position::start(&rules));
/// let mut game = Game::new(rules);
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
/// while let Some(mv) = lean.play_random(&mut rng) {
///     game.play(mv)?;
///     assert_eq!(lean.position(), game.position());
///     assert_eq!(lean.legal_mask(), game.legal_action_mask());
/// }
/// assert_eq!(lean.outcome(), game.outcome());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// In declaration order, what every move touches first: thousands of games
// are stepped side by side, so the fewer cache lines a move reads the better.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct LeanGame {
    pos: Position,
    outcome: Option<Outcome>,
    moves: Moves,
    /// Legal actions (bit `a`: mover-relative action `a`) when `moves` is known.
    legal: u8,
    rules: Rules,
    window: Window,
    /// The child of each legal action when `moves` is [`Moves::Sown`].
    children: [Position; 6],
}

impl LeanGame {
    /// A game from `position` (which must be valid for `rules`).
    pub fn new(rules: Rules, position: Position) -> LeanGame {
        let mut g = LeanGame {
            rules,
            pos: position,
            window: Window::new(&position),
            moves: Moves::Unknown,
            legal: 0,
            children: [position; 6],
            outcome: None,
        };
        g.arrive(None);
        g
    }

    /// The position `game` has reached, with the positions since its last
    /// capture (the repetition window): the lean game goes on exactly as
    /// `game` would.
    pub fn from_game(game: &Game) -> LeanGame {
        let (rules, history, moves) = (*game.rules(), game.positions(), game.moves());
        let pos = *game.position();
        let Some(&last) = moves.last() else {
            return LeanGame::new(rules, pos);
        };
        // The window before the last move, then the last move's arrival, as
        // `Game::undo` rebuilds it.
        let n = history.len();
        let mut g = LeanGame {
            rules,
            pos,
            window: Window::of_history(&history[..n - 1], &moves[..n - 2]),
            moves: Moves::Unknown,
            legal: 0,
            children: [pos; 6],
            outcome: None,
        };
        g.arrive(Some(last));
        g
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Starts again from `position`, keeping the allocations.
    // Inlined: a position passed through memory, just built by the caller
    // (a stateless record unpacked), stalled the load that read it back.
    #[inline]
    pub fn reset(&mut self, position: Position) {
        self.pos = position;
        self.outcome = None;
        self.arrive(None);
    }

    /// The outcome once the game has ended, working out the legal moves if
    /// that is needed to know.
    #[inline]
    pub fn outcome(&mut self) -> Option<Outcome> {
        if self.moves == Moves::Unknown {
            self.sow_all();
        }
        self.outcome
    }

    /// The outcome as far as known without sowing: an end by lack of legal
    /// moves may still be undiscovered (see the type's docs). For ayo's own
    /// tests (the `testing` feature).
    #[cfg(any(test, feature = "testing"))]
    pub fn known_outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves as a bit set over mover-relative actions 0..=5
    /// (0 once the game is over), as [`crate::Game::legal_action_mask`].
    #[inline]
    pub fn legal_mask(&mut self) -> u8 {
        if self.moves == Moves::Unknown {
            self.sow_all();
        }
        // 0 once the game is over.
        self.legal
    }

    /// Plays mover-relative `action`; on error the game is unchanged and the
    /// error says why, as [`crate::Game::play_action`].
    #[inline]
    pub fn play_action(&mut self, action: u8) -> Result<Move, IllegalMove> {
        let mv = self.pos.move_for_action(action)?;
        if self.moves == Moves::Unknown {
            self.sow_all();
        }
        let bit = 1u8 << action;
        let next = match self.moves {
            Moves::Over => return Err(IllegalMove::GameOver),
            Moves::Sown if self.legal & bit != 0 => self.children[usize::from(action)],
            Moves::NonEmpty if self.legal & bit != 0 => self
                .sow(mv.pit())
                .ok_or(IllegalMove::EndlessRelay { pit: mv.pit() })?,
            _ => self.pos.check_move(&self.rules, mv)?,
        };
        self.pos = next;
        self.arrive(Some(mv));
        Ok(mv)
    }

    /// Plays a uniformly random legal move and returns it; `None` when the
    /// game is over (the outcome is then known).
    #[inline(always)]
    pub fn play_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Move> {
        with_family!(&self.rules, |RELAY, CAP| self
            .play_random_mode::<RELAY, CAP, R>(rng))
    }

    #[inline(always)]
    fn play_random_mode<const RELAY: bool, const CAP: u8, R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Option<Move> {
        if self.moves == Moves::Unknown && self.must_feed() {
            self.sow_all();
        }
        let first = self.pos.to_move().first_pit();
        let (mv, next) = match self.moves {
            Moves::Over => return None,
            Moves::Sown | Moves::NonEmpty => {
                let legal = self.legal;
                // Drawn as when they were not yet known: among the non-empty
                // pits, unless the feeding rule applies (`random_move`).
                let a = if RELAY
                    && self.moves == Moves::Sown
                    && legal != self.pos.nonempty_actions()
                    && !self.must_feed()
                {
                    draw_action(rng, self.pos.nonempty_actions(), |a| legal & (1 << a) != 0)
                        .expect("a game not over has a legal move")
                } else {
                    draw_among(rng, legal)
                };
                let mv = Move((first + usize::from(a)) as u8);
                let next = if self.moves == Moves::Sown {
                    self.children[usize::from(a)]
                } else {
                    self.pos
                        .sown_mode::<RELAY, CAP>(&self.rules, mv.pit())
                        .expect("single-lap sowing always ends")
                };
                (mv, next)
            }
            Moves::Unknown => {
                // A relay game without feeding pressure: `draw_action` over
                // the non-empty pits, sowing each drawn pit to strike off
                // endless relays.
                let mut bits = self.pos.nonempty_actions();
                loop {
                    if bits == 0 {
                        self.end(EndReason::NoLegalMove);
                        return None;
                    }
                    let a = draw_among(rng, bits);
                    let pit = first + usize::from(a);
                    if let Some(next) = self.pos.sown_mode::<RELAY, CAP>(&self.rules, pit) {
                        break (Move(pit as u8), next);
                    }
                    bits &= !(1 << a);
                }
            }
        };
        self.pos = next;
        self.arrive(Some(mv));
        Some(mv)
    }

    /// Sows `pit` of the player to move (see [`Position::try_play_unchecked`]),
    /// with the sowing loop of the rule family inlined.
    #[inline]
    fn sow(&self, pit: usize) -> Option<Position> {
        with_family!(&self.rules, |RELAY, CAP| self
            .pos
            .sown_mode::<RELAY, CAP>(&self.rules, pit))
    }

    /// The feeding rule applies: the opponent's row is empty.
    #[inline]
    fn must_feed(&self) -> bool {
        must_feed(&self.rules, &self.pos)
    }

    fn end(&mut self, reason: EndReason) {
        self.outcome = Some(self.pos.final_outcome(&self.rules, reason));
        self.moves = Moves::Over;
        self.legal = 0;
    }

    /// The checks of a new current position, reached by `mv` (`None`: a
    /// new game), in the rules' order ([`end_reason`]): target and move
    /// limit, repetition, then no legal move when that can be told without
    /// sowing (no non-empty pit; otherwise [`LeanGame::sow_all`] finds out).
    /// The game was not over before (`outcome` is `None`). Inlined into
    /// every caller: out of line, saving and restoring registers costs
    /// about as much as the checks.
    #[inline(always)]
    fn arrive(&mut self, mv: Option<Move>) {
        let (rules, pos, window) = (&self.rules, &self.pos, &mut self.window);
        // The pits are read after the other checks: the position was just
        // stored, and reading its mover's row at once stalls on that store.
        // The closures inlined by force, as `arrive` itself.
        let reason = end_reason(
            rules,
            pos,
            counters_may_end(rules, mv.is_none() || pos.no_capture() == 0),
            #[inline(always)]
            || rules.repetition() == Repetition::OwnSide && window.arrive(rules, mv, pos),
            #[inline(always)]
            || pos.nonempty_actions() == 0,
        );
        match reason {
            Some(reason) => self.end(reason),
            None if nonempty_pits_are_legal(&self.rules, &self.pos) => {
                self.legal = self.pos.nonempty_actions();
                self.moves = Moves::NonEmpty;
            }
            // `legal` is not read until the moves are known.
            None => self.moves = Moves::Unknown,
        }
    }

    /// The legal actions of a game that goes on where they are known: the
    /// non-empty pits (no relay, no feeding rule in force), or the
    /// candidates sown for them; for the batch step in lanes
    /// (`episode/lanes.rs`). `None` otherwise.
    #[inline(always)]
    pub(crate) fn known_legal(&self) -> Option<u8> {
        matches!(self.moves, Moves::NonEmpty | Moves::Sown).then_some(self.legal)
    }

    /// Whether the legal actions are not known yet because the feeding
    /// rule is in force (nothing sown for them yet).
    #[inline(always)]
    pub(crate) fn feeding_unknown(&self) -> bool {
        self.moves == Moves::Unknown && self.must_feed()
    }

    /// The repetition window, for the batch step in lanes to look up.
    #[inline(always)]
    pub(crate) fn window(&self) -> &Window {
        &self.window
    }

    /// Two moves played elsewhere (the batch step in lanes), which that
    /// caller found end nothing: `first` led to a position of board key
    /// `first_key` (`first_pos` builds it, asked only when the window
    /// starts there: after a capture), then `second` to `pos`, whose legal
    /// actions are its non-empty pits `legal` or, where `feeding` (the
    /// feeding rule in force), worked out when asked, as
    /// [`LeanGame::arrive`] leaves them. What `arrive` would conclude
    /// twice, without its checks.
    #[inline(always)]
    pub(crate) fn arrive_unended(
        &mut self,
        (first, first_key, first_captured): (Move, u64, bool),
        first_pos: impl FnOnce() -> Position,
        second: Move,
        pos: Position,
        (legal, feeding): (u8, bool),
    ) {
        debug_assert!(feeding || legal == pos.nonempty_actions());
        debug_assert_eq!(feeding, must_feed(&self.rules, &pos));
        if self.rules.repetition() == Repetition::OwnSide {
            let window = &mut self.window;
            window.arrive_new(first, first_key, first_captured, first_pos);
            window.arrive_new(second, pos.board_key(), pos.no_capture() == 0, || pos);
        }
        self.pos = pos;
        (self.moves, self.legal) = if feeding {
            (Moves::Unknown, 0)
        } else {
            (Moves::NonEmpty, legal)
        };
    }

    /// Sows every candidate ([`Position::children`]) and keeps the children.
    // Kept out of line: the callers' fast paths only test whether it is needed.
    #[inline(never)]
    fn sow_all(&mut self) {
        self.legal = self.pos.children_by_action(&self.rules, &mut self.children);
        self.moves = Moves::Sown;
        if self.legal == 0 {
            self.end(EndReason::NoLegalMove);
        }
    }
}
