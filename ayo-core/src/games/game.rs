//! A game: rules, the start, the moves played, undo, repetition and the outcome.

use crate::rules::end::end_reason;
use crate::rules::moves::{Children, IllegalMove, Move, MoveList};
use crate::rules::outcome::{Outcome, Status};
use crate::rules::position::Position;
use crate::rules::repeat::{window_start, Window};
use crate::rules::setup::{Setup, SetupErrors};
use crate::rules::{Repetition, Rules};

/// A game in progress: the rules, the start position, the moves played and the
/// positions they led to (for undo and repetition), the legal moves of the
/// current position (computed once) and the outcome.
///
/// ```
/// use ayo_core::{EndReason, Game, Rules};
/// let mut game = Game::new(Rules::preset("oware")?);
/// game.play_action(2)?;
/// game.play_action(0)?;
/// assert_eq!(game.moves().len(), 2);
/// game.undo().unwrap();
/// assert_eq!(game.moves().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    history: Vec<Position>,
    moves: Vec<Move>,
    children: Children,
    outcome: Option<Outcome>,
    ply_cap: Option<u32>,
    /// The positions since the last capture (under a repetition rule).
    window: Window,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.rules == other.rules
            && self.history == other.history
            && self.moves == other.moves
            && self.ply_cap == other.ply_cap
    }
}
impl Eq for Game {}

impl Game {
    /// A new game from the rules' start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, Position::start(&rules))
    }

    /// A new game from a setup, validated against the rules.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Game, SetupErrors> {
        Ok(Game::from_position(
            rules,
            Position::from_setup(&rules, setup)?,
        ))
    }

    /// A new game from a position (which must be valid for `rules`).
    pub fn from_position(rules: Rules, position: Position) -> Game {
        let mut g = Game {
            rules,
            history: vec![position],
            moves: Vec::new(),
            children: Children::new(),
            outcome: None,
            ply_cap: None,
            window: Window::new(&position),
        };
        g.refresh(false);
        g
    }

    /// The end checks of the current position, in the rules' order
    /// ([`end_reason`]); `repeated`: it occurred since the last capture.
    fn refresh(&mut self, repeated: bool) {
        let pos = *self.position();
        self.outcome = None;
        self.children.clear();
        let rules = self.rules;
        let children = &mut self.children;
        let reason = end_reason(
            &rules,
            &pos,
            true,
            || repeated,
            || {
                *children = pos.children(&rules);
                children.is_empty()
            },
        );
        self.outcome = reason.map(|r| pos.final_outcome(&rules, r));
    }

    /// Whether the rules end games on repetition (the window is kept only then).
    fn tracks_repetition(&self) -> bool {
        self.rules.repetition() == Repetition::OwnSide
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.history
            .last()
            .expect("a game always has its start position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.history[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, from the start to the current one.
    pub fn positions(&self) -> &[Position] {
        &self.history
    }

    /// The positions since the last capture (or the start), the current one
    /// last: those the repetition rule compares the current position with.
    ///
    /// ```
    /// use ayo_core::{Game, Rules};
    /// let mut game = Game::new(Rules::preset("oware")?);
    /// game.play_action(2)?;
    /// assert_eq!(game.since_last_capture().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn since_last_capture(&self) -> &[Position] {
        &self.history[window_start(&self.history)..]
    }

    /// The legal moves of the current position, ascending (empty when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.is_truncated() {
            return MoveList::new();
        }
        self.children.iter().map(|&(m, _)| m).collect()
    }

    /// The legal moves as a bit set over mover-relative actions 0..=5.
    pub fn legal_action_mask(&self) -> u8 {
        self.legal_moves()
            .iter()
            .fold(0, |m, mv| m | 1 << mv.action())
    }

    /// The legal moves with the positions they lead to (empty when the game
    /// is over or truncated, like [`Game::legal_moves`]).
    pub fn children(&self) -> &[(Move, Position)] {
        if self.is_truncated() {
            return &[];
        }
        &self.children
    }

    /// Whether `mv` is legal now.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<Position, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.is_truncated() {
            return Err(IllegalMove::Truncated);
        }
        if let Some(&(_, p)) = self.children.iter().find(|(m, _)| *m == mv) {
            return Ok(p);
        }
        // Not legal: let the position say why.
        match self.position().check_move(&self.rules, mv) {
            Err(e) => Err(e),
            Ok(_) => unreachable!("a move missing from the legal list is illegal"),
        }
    }

    /// Plays `mv`; on error the game is unchanged and the error says why.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.check(mv)?;
        self.history.push(next);
        self.moves.push(mv);
        let repeated = self.tracks_repetition() && self.window.arrive(&self.rules, Some(mv), &next);
        self.refresh(repeated);
        Ok(())
    }

    /// Plays mover-relative action 0..=5.
    pub fn play_action(&mut self, action: u8) -> Result<(), IllegalMove> {
        let mv = self.position().move_for_action(action)?;
        self.play(mv)
    }

    /// Plays absolute pit 0..=11.
    pub fn play_pit(&mut self, pit: u8) -> Result<(), IllegalMove> {
        self.play(Move::new(pit)?)
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.history.pop();
        let mut repeated = false;
        if self.tracks_repetition() {
            // The window of the position before, then this one's arrival.
            let n = self.history.len();
            let pos = self.history[n - 1];
            if n == 1 {
                self.window.restart(&pos);
            } else {
                self.window = Window::of_history(&self.history[..n - 1], &self.moves[..n - 2]);
                repeated = self
                    .window
                    .arrive(&self.rules, Some(self.moves[n - 2]), &pos);
            }
        }
        self.refresh(repeated);
        Some(mv)
    }

    /// The outcome, once the game has ended by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Ended, truncated by the ply cap, or ongoing.
    pub fn status(&self) -> Status {
        match self.outcome {
            Some(o) => Status::Ended(o),
            None if self.is_truncated() => Status::Truncated,
            None => Status::Ongoing,
        }
    }

    /// Sets a cap on the moves played in this game (counted from its start
    /// position): reaching it reports [`Status::Truncated`], not an end, and
    /// stops further moves until the cap is raised or removed.
    pub fn set_ply_cap(&mut self, cap: Option<u32>) {
        self.ply_cap = cap;
    }

    /// The ply cap.
    pub fn ply_cap(&self) -> Option<u32> {
        self.ply_cap
    }

    fn is_truncated(&self) -> bool {
        self.outcome.is_none()
            && self
                .ply_cap
                .is_some_and(|cap| self.moves.len() as u64 >= u64::from(cap))
    }

    /// The sowing trace of `mv` from the current position (see [`crate::games::trace`]).
    ///
    /// ```
    /// use ayo_core::{Game, Rules, trace::LapEnd};
    /// let game = Game::new(Rules::preset("ayoayo")?);
    /// let t = game.trace(game.legal_moves()[0])?;
    /// assert!(t.laps >= 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trace(&self, mv: Move) -> Result<crate::games::trace::Trace, IllegalMove> {
        self.check(mv)?;
        crate::games::trace::trace(&self.rules, self.position(), mv).map(|(t, _)| t)
    }
}
