//! Legality: which moves may be played. A move lifts a non-empty pit of the
//! player to move; it is illegal when it relays forever, and, under a feeding
//! rule, when the opponent's row is empty and the move leaves it empty
//! ([`must_feed`], [`feeds`]). [`Position::each_legal_child`] is the one
//! filter every move generator uses: `children`, `legal_moves`, the lean
//! games of the batch, the playouts and the solver.

use crate::kernels::dispatch::{Kernel, Loop};
use crate::rules::board::{mover, row};
use crate::rules::family::with_family;
use crate::rules::moves::{Children, IllegalMove, Move, MoveList, PlayError};
use crate::rules::position::Position;
use crate::rules::{Capture, Feeding, GrandSlam, Rules};

/// Whether the feeding rule applies to the player to move in `pos`: the rules
/// have one and the opponent's row is empty ([`opponent_row_empty`]), or
/// the rule is [`Feeding::NoStarving`], which applies at every move.
#[inline(always)]
pub(crate) fn must_feed(rules: &Rules, pos: &Position) -> bool {
    feeding_binds(rules.feeding(), || opponent_row_empty(pos))
}

/// [`must_feed`] for a loop over many positions (the playouts), the
/// feeding rule ([`feeding_binds`]) asked once for either state of the
/// opponent's row: whether it binds when the row is empty, and which of the
/// row's bytes must be empty for it to (none for a rule that binds at every
/// move). Asked a position, the rule's `match` made the playouts' loop keep
/// its position in memory rather than in registers.
#[derive(Clone, Copy)]
pub(crate) struct FeedingTest {
    /// Whether the rule binds when the opponent's row is empty.
    row_empty: bool,
    /// The bytes of [`opponent_row`] that must be empty for it to bind.
    row_bytes: u64,
}

impl FeedingTest {
    #[inline(always)]
    pub(crate) fn new(feeding: Feeding) -> FeedingTest {
        let binds = |row_empty: bool| feeding_binds(feeding, || row_empty);
        // A rule that binds when the row holds seeds binds when it is empty
        // (the one shape the two fields can say).
        debug_assert!(binds(true) || !binds(false));
        FeedingTest {
            row_empty: binds(true),
            row_bytes: if binds(false) { 0 } else { ROW_BYTES },
        }
    }

    /// Whether the feeding rule applies to the player to move in `pos`
    /// ([`must_feed`]).
    #[inline(always)]
    pub(crate) fn binds(self, pos: &Position) -> bool {
        self.row_empty && opponent_row(pos) & self.row_bytes == 0
    }
}

/// The feeding rule's test: it binds the player to move when the rules
/// have one and the opponent's row is empty (`opponent_row_empty`, asked
/// only then), or, under [`Feeding::NoStarving`], at every move.
#[inline(always)]
pub(crate) fn feeding_binds(feeding: Feeding, opponent_row_empty: impl FnOnce() -> bool) -> bool {
    match feeding {
        Feeding::Off => false,
        Feeding::Strict | Feeding::IfPossible => opponent_row_empty(),
        Feeding::NoStarving => true,
    }
}

/// Whether, when no legal move feeds, every move that ends is legal
/// (`if_possible`, `no_starving`) rather than none (`strict`).
#[inline(always)]
pub(crate) fn every_move_when_none_feeds(feeding: Feeding) -> bool {
    matches!(feeding, Feeding::IfPossible | Feeding::NoStarving)
}

/// The six bytes of an opponent's row in [`opponent_row`].
const ROW_BYTES: u64 = 0xFFFF_FFFF_FFFF;

/// The row of the opponent of the player to move, in the low six bytes
/// ([`ROW_BYTES`]; the bytes above are not the row's).
#[inline(always)]
fn opponent_row(pos: &Position) -> u64 {
    let cells = pos.packed();
    // The opponent's six bytes, without a table of 128-bit row masks.
    if mover(cells) == 0 {
        (cells >> 48) as u64
    } else {
        cells as u64
    }
}

/// Whether the opponent of the player to move has no seeds in their row.
#[inline(always)]
fn opponent_row_empty(pos: &Position) -> bool {
    opponent_row(pos) & ROW_BYTES == 0
}

/// The arrival's last question ([`crate::rules::end::end_reason`]'s
/// `no_legal_move`) for a caller that has not sown the moves: the player to
/// move has no non-empty pit, or the feeding rule is in force and no move
/// is legal (the moves sown to tell). A position whose every move relays
/// forever is not seen here: the searches find it when they expand it.
#[inline]
pub(crate) fn no_legal_move_unsown(rules: &Rules, pos: &Position) -> bool {
    pos.nonempty_actions() == 0 || (must_feed(rules, pos) && pos.children(rules).is_empty())
}

/// Whether a move that led to `after` fed the opponent: the player to move
/// in `after` (the last mover's opponent) has seeds in their row.
#[inline(always)]
pub(crate) fn feeds(after: &Position) -> bool {
    let cells = after.packed();
    row(cells, mover(cells)) != 0
}

/// Whether a single-lap move of `seeds` seeds from the mover's pit at
/// mover-relative action `a` reaches the opponent's row (`6 - a` pits
/// away).
#[inline(always)]
pub(crate) const fn reaches_opponent(a: u8, seeds: u8) -> bool {
    seeds >= 6 - a
}

/// Whether, under `rules`, a single-lap move feeds an opponent whose row
/// is empty exactly when it reaches that row ([`reaches_opponent`]): a lap
/// that stops short leaves the row empty, and one that reaches it leaves
/// seeds there whatever it captures when the 2-or-3 capture of every seed
/// of the row is forfeited (the grand-slam rule `no_capture`). So the
/// feeding rule needs no sowing (the batch step in lanes).
#[inline]
pub(crate) fn feeds_by_reach(rules: &Rules) -> bool {
    !rules.relay()
        && rules.capture() == Capture::TwoThree
        && rules.grand_slam() == GrandSlam::NoCapture
}

/// The legal actions of a single-lap position where [`feeds_by_reach`]
/// and the feeding rule is in force: of the non-empty pits `nonempty`,
/// those that feed, or where the rule allows it every non-empty pit when
/// none does. A move feeds an empty row when it reaches it (`reach`: the
/// pits whose moves reach the opponent's row); a row that holds seeds
/// (where `no_starving` binds) no such move can empty, so every move feeds.
#[inline(always)]
pub(crate) fn feeding_legal(feeding: Feeding, nonempty: u8, reach: u8, row_empty: bool) -> u8 {
    let feeders = if row_empty {
        nonempty & reach
    } else {
        nonempty
    };
    if every_move_when_none_feeds(feeding) && feeders == 0 {
        nonempty
    } else {
        feeders
    }
}

/// Whether the legal moves are exactly the non-empty pits, so that none
/// needs sowing to know: single-lap sowing (no endless relay) and no
/// feeding obligation now.
#[inline(always)]
pub(crate) fn nonempty_pits_are_legal(rules: &Rules, pos: &Position) -> bool {
    !rules.relay() && !must_feed(rules, pos)
}

impl Position {
    /// Calls `f` with each legal move and its child, in ascending order: the
    /// non-empty pits of the mover whose sowing ends, filtered by the feeding
    /// rule (strict: only moves that feed; if possible: those, or every move
    /// when none feeds). None once the game is over by its counters.
    #[inline(always)]
    pub(crate) fn each_legal_child<const RELAY: bool, const CAP: u8>(
        &self,
        rules: &Rules,
        mut f: impl FnMut(Move, Position),
    ) {
        if self.ended_by_counters(rules).is_some() {
            return;
        }
        let first = self.to_move().first_pit();
        let mut bits = self.nonempty_actions();
        if !must_feed(rules, self) {
            while bits != 0 {
                let a = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mv = Move((first + a) as u8);
                if let Some(p) = self.sown_mode::<RELAY, CAP>(rules, mv.pit()) {
                    f(mv, p);
                }
            }
            return;
        }
        let mut starving = Children::new();
        let mut fed = false;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mv = Move((first + a) as u8);
            if let Some(p) = self.sown_mode::<RELAY, CAP>(rules, mv.pit()) {
                if feeds(&p) {
                    fed = true;
                    f(mv, p);
                } else {
                    starving.push((mv, p));
                }
            }
        }
        if !fed && every_move_when_none_feeds(rules.feeding()) {
            for (mv, p) in starving {
                f(mv, p);
            }
        }
    }

    /// Every legal move with the position it leads to, ascending.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("ayoayo").unwrap();
    /// let pos = Position::start(&rules);
    /// let children = pos.children(&rules);
    /// assert_eq!(children.len(), 6);
    /// assert_eq!(children[0].1, pos.play(&rules, children[0].0).unwrap());
    /// ```
    pub fn children(&self, rules: &Rules) -> Children {
        with_family!(rules, |RELAY, CAP| {
            let mut out = Children::new();
            self.each_legal_child::<RELAY, CAP>(rules, |mv, p| out.push((mv, p)));
            out
        })
    }

    /// Sows every candidate move into `out[action]` (mover-relative
    /// actions) and returns the legal ones as a bit set: [`Position::children`]
    /// without the list (for a caller that keeps the children by action).
    pub(crate) fn children_by_action(&self, rules: &Rules, out: &mut [Position; 6]) -> u8 {
        let mut legal = 0u8;
        // The action as the pit less the row's first (`Move::action` divides by 6).
        let first = self.to_move().first_pit();
        let mut keep = |mv: Move, p: Position| {
            let a = mv.pit() - first;
            legal |= 1 << a;
            out[a] = p;
        };
        with_family!(rules, |RELAY, CAP| self
            .each_legal_child::<RELAY, CAP>(rules, &mut keep));
        legal
    }

    /// The legal moves as a bit set over mover-relative actions 0..=5,
    /// sowing them only where legality needs it (a relay that may not end,
    /// a feeding rule in force, the game over by its counters); else the
    /// non-empty pits.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// assert_eq!(Position::start(&rules).legal_actions(&rules), 0b11_1111);
    /// ```
    pub fn legal_actions(&self, rules: &Rules) -> u8 {
        if nonempty_pits_are_legal(rules, self) && self.ended_by_counters(rules).is_none() {
            return self.nonempty_actions();
        }
        let mut sown = [*self; 6];
        self.children_by_action(rules, &mut sown)
    }

    /// Every legal move, ascending.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// let moves = Position::start(&rules).legal_moves(&rules);
    /// assert_eq!(moves.iter().map(|m| m.pit()).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
    /// ```
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let first = self.to_move().first_pit();
        let mut out = MoveList::new();
        let mut bits = self.legal_actions(rules);
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(Move((first + a) as u8));
        }
        out
    }

    /// Why `mv` is illegal here, if it is; else the position it leads to.
    pub fn check_move(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        let mover = self.to_move();
        if !mover.owns(mv.pit()) {
            return Err(IllegalMove::NotMoversPit {
                pit: mv.pit(),
                mover,
            });
        }
        if self.ended_by_counters(rules).is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.seeds(mv.pit()) == 0 {
            return Err(IllegalMove::EmptyPit { pit: mv.pit() });
        }
        let next = self
            .sown(rules, mv.pit())
            .ok_or(IllegalMove::EndlessRelay { pit: mv.pit() })?;
        if must_feed(rules, self) && !feeds(&next) {
            // Legal only when no move at all feeds, where the rule allows that.
            let allowed = every_move_when_none_feeds(rules.feeding())
                && self.children(rules).iter().all(|(_, p)| !feeds(p));
            if !allowed {
                let pit = mv.pit();
                return Err(if opponent_row_empty(self) {
                    IllegalMove::DoesNotFeed { pit }
                } else {
                    IllegalMove::Starves { pit }
                });
            }
        }
        Ok(next)
    }

    /// Whether `mv` is legal.
    pub fn is_legal(&self, rules: &Rules, mv: Move) -> bool {
        self.check_move(rules, mv).is_ok()
    }

    /// Plays `mv`, or says why it is illegal (the error holds this position, unchanged).
    /// The game-over check covers the target, the move limit and having no legal
    /// move; repetition needs the history, which [`crate::Game`] keeps.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, PlayError> {
        self.check_move(rules, mv).map_err(|reason| PlayError {
            reason,
            position: *self,
        })
    }

    /// Plays `mv` without any check. `mv` must be a non-empty pit of the
    /// player to move; for an endless relay this returns the position
    /// unchanged, turn included (callers use [`Position::children`] or
    /// [`Position::try_play_unchecked`] to learn of those).
    #[inline]
    pub fn play_unchecked(&self, rules: &Rules, mv: Move) -> Position {
        self.try_play_unchecked(rules, mv).unwrap_or(*self)
    }

    /// [`Position::play_unchecked`] with the sowing compiled into the caller
    /// (the family dispatched here): for a hot loop, which then neither
    /// calls nor gets the position back through memory.
    #[inline(always)]
    pub(crate) fn play_unchecked_inline(&self, rules: &Rules, mv: Move) -> Position {
        debug_assert!(self.to_move().owns(mv.pit()) && self.seeds(mv.pit()) > 0);
        with_family!(rules, |RELAY, CAP| self
            .sown_mode::<RELAY, CAP>(rules, mv.pit()))
        .unwrap_or(*self)
    }

    /// Plays `mv` checking only for an endless relay (`None`); no feeding or
    /// game-over checks. `mv` must be a non-empty pit of the player to move.
    #[inline]
    pub fn try_play_unchecked(&self, rules: &Rules, mv: Move) -> Option<Position> {
        debug_assert!(self.to_move().owns(mv.pit()) && self.seeds(mv.pit()) > 0);
        self.sown(rules, mv.pit())
    }
}

/// Calls `f` with each position of `positions` and its children (as
/// [`Position::children`]), the whole loop compiled for `kernel`
/// ([`crate::kernels::dispatch`]): for a caller that expands many positions in a row
/// (a database layer, a search frontier).
///
/// ```
/// use ayo_core::{each_children, kernel, Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// let start = Position::start(&rules);
/// let mut counts = Vec::new();
/// each_children(kernel::active(), &rules, [start, start], |_, children| {
///     counts.push(children.len())
/// });
/// assert_eq!(counts, [6, 6]);
/// ```
pub fn each_children<I, F>(kernel: Kernel, rules: &Rules, positions: I, f: F)
where
    I: IntoIterator<Item = Position>,
    F: FnMut(&Position, &Children),
{
    kernel.run(ChildrenLoop {
        rules,
        positions,
        f,
    });
}

/// [`each_children`]'s arguments, for [`Kernel::run`].
struct ChildrenLoop<'a, I, F> {
    rules: &'a Rules,
    positions: I,
    f: F,
}

impl<I, F> Loop for ChildrenLoop<'_, I, F>
where
    I: IntoIterator<Item = Position>,
    F: FnMut(&Position, &Children),
{
    type Output = ();
    #[inline(always)]
    fn run(mut self) {
        let rules = self.rules;
        for pos in self.positions {
            let mut out = Children::new();
            with_family!(rules, |RELAY, CAP| pos
                .each_legal_child::<RELAY, CAP>(rules, |mv, p| out.push((mv, p))));
            (self.f)(&pos, &out);
        }
    }
}
