//! Batched self-play on the guided search: games played to the end with a
//! search at every move, asked and told as the search is, giving the
//! training rows (observation, mask, policy target, final outcome).

use super::rounds::{run_rounds, Answers, Rounds};
use super::{end_value, GuidedSearch, Leaves, SearchError, SearchOptions, ACTIONS, OBS};
use crate::memory::try_grow;
use crate::observation::{write_view, MASK_BOOL};
use crate::{LeanGame, Outcome, Player, Position, Rules};

/// The options of a self-play run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlayOptions {
    /// Games played side by side, 1 to [`super::MAX_BATCH`].
    pub games: usize,
    /// Moves after which a game that goes on is stopped (truncated; its
    /// rows' outcome is 0), 1 to [`SelfPlayOptions::MAX_PLIES`].
    pub max_plies: u32,
    /// Moves chosen at the search's temperature (PUCT); later moves take
    /// the most visited action.
    pub temperature_plies: u32,
}

impl SelfPlayOptions {
    /// The longest game self-play plays.
    pub const MAX_PLIES: u32 = 100_000;
}

/// The rows of a self-play run, one a move (of every game, in the order
/// played), and each game's end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayData {
    /// The mover's observation before the move ([`OBS`] a row).
    pub obs: Vec<f32>,
    /// Its legal actions ([`ACTIONS`] a row).
    pub mask: Vec<bool>,
    /// The search's policy target ([`ACTIONS`] a row).
    pub policy: Vec<f32>,
    /// The game's final outcome for the mover of the row, by the search's
    /// [`super::Values`] (0 for a truncated game).
    pub outcome: Vec<f32>,
    /// The game of each row.
    pub game: Vec<u32>,
    /// The ply of each row in its game.
    pub ply: Vec<u32>,
    /// Each game's outcome (`None`: truncated at `max_plies`).
    pub outcomes: Vec<Option<Outcome>>,
    /// Each game's moves.
    pub plies: Vec<u32>,
}

/// Self-play on [`GuidedSearch`]: [`SelfPlay::ask`] hands out the current
/// move's leaves (starting each move's search, and playing its moves, as
/// they are done); [`SelfPlay::tell`] answers them, as for the search.
///
/// ```
/// use ayo_core::guided::{SearchOptions, SelfPlay, SelfPlayOptions};
/// use ayo_core::Rules;
/// let opts = SelfPlayOptions { games: 3, max_plies: 400, temperature_plies: 10 };
/// let mut sp = SelfPlay::new(Rules::preset("olopon")?, SearchOptions::new(4), opts)?;
/// let data = sp.run(|_, _, logits, values| {
///     logits.fill(0.0);
///     values.fill(0.0);
/// })?;
/// assert_eq!(data.outcomes.len(), 3);
/// assert_eq!(data.outcome.len(), data.plies.iter().sum::<u32>() as usize);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SelfPlay {
    rules: Rules,
    play: SelfPlayOptions,
    search: GuidedSearch,
    /// The games that go on, and their numbers.
    live: Vec<LeanGame>,
    ids: Vec<u32>,
    /// Moves played by every live game (they start together).
    moves: u32,
    searching: bool,
    /// The mover of each row, for its outcome.
    movers: Vec<Player>,
    data: SelfPlayData,
    done: bool,
    /// The rows of `ask` (`ask_into` writes the caller's).
    obs: Vec<f32>,
    mask: Vec<bool>,
    answers: Answers,
}

impl SelfPlay {
    /// `play.games` games of `rules` from the start, searched with `search`;
    /// everything checked, the search's memory allocated.
    pub fn new(
        rules: Rules,
        search: SearchOptions,
        play: SelfPlayOptions,
    ) -> Result<SelfPlay, SearchError> {
        if !(1..=SelfPlayOptions::MAX_PLIES).contains(&play.max_plies) {
            return Err(SearchError::Option {
                name: "max_plies",
                range: "1 to 100000",
                value: play.max_plies.into(),
            });
        }
        let mut s = GuidedSearch::new(search)?;
        s.prepare(play.games)?;
        let mut sp = SelfPlay {
            rules,
            play,
            search: s,
            live: Vec::new(),
            ids: Vec::new(),
            moves: 0,
            searching: false,
            movers: Vec::new(),
            data: SelfPlayData::default(),
            done: false,
            obs: Vec::new(),
            mask: Vec::new(),
            answers: Answers::default(),
        };
        let n = play.games;
        try_grow(&mut sp.live, n, "self-play's games")?;
        try_grow(&mut sp.ids, n, "self-play's games")?;
        try_grow(&mut sp.data.outcomes, n, "self-play's outcomes")?;
        try_grow(&mut sp.data.plies, n, "self-play's outcomes")?;
        try_grow(&mut sp.obs, n * OBS, "a round's observations")?;
        try_grow(&mut sp.mask, n * ACTIONS, "a round's masks")?;
        try_grow(&mut sp.answers.logits, n * ACTIONS, "a round's logits")?;
        try_grow(&mut sp.answers.values, n, "a round's values")?;
        let start = Position::start(&rules);
        for i in 0..n {
            sp.live.push(LeanGame::new(rules, start));
            sp.ids.push(i as u32);
            sp.data.outcomes.push(None);
            sp.data.plies.push(0);
        }
        Ok(sp)
    }

    /// The games (all of them, `play.games`).
    pub fn games(&self) -> usize {
        self.play.games
    }

    /// Whether every game is over (or truncated).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The next round's leaves into self-play's own rows
    /// ([`SelfPlay::leaves`]); 0 once every game is over.
    pub fn ask(&mut self) -> Result<usize, SearchError> {
        let (mut obs, mut mask) = (
            std::mem::take(&mut self.obs),
            std::mem::take(&mut self.mask),
        );
        obs.resize(self.play.games * OBS, 0.0);
        mask.resize(self.play.games * ACTIONS, false);
        let n = self.ask_into(&mut obs, &mut mask);
        if let Ok(n) = n {
            obs.truncate(n * OBS);
            mask.truncate(n * ACTIONS);
        }
        (self.obs, self.mask) = (obs, mask);
        n
    }

    /// [`SelfPlay::ask`] into the caller's rows (room for a row a game, else
    /// [`SearchError::Shape`]).
    pub fn ask_into(&mut self, obs: &mut [f32], mask: &mut [bool]) -> Result<usize, SearchError> {
        super::tree::check_rows(self.play.games, obs.len(), mask.len())?;
        loop {
            if self.done {
                return Ok(0);
            }
            if self.live.is_empty() {
                self.conclude();
                return Ok(0);
            }
            if !self.searching {
                self.search.greedy = self.moves >= self.play.temperature_plies;
                self.search.start(&self.live)?;
                self.searching = true;
            }
            let n = self.search.ask_into(obs, mask)?;
            if n > 0 {
                return Ok(n);
            }
            self.searching = false;
            self.play_moves()?;
        }
    }

    /// The leaves of the last [`SelfPlay::ask`]; `games` are the live
    /// games' places in the current search, not game numbers.
    pub fn leaves(&self) -> Leaves<'_> {
        let n = self.search.leaf_games().len();
        Leaves {
            obs: &self.obs[..(n * OBS).min(self.obs.len())],
            mask: &self.mask[..(n * ACTIONS).min(self.mask.len())],
            games: self.search.leaf_games(),
        }
    }

    /// The network's answer for the leaves handed out, as
    /// [`GuidedSearch::tell`].
    pub fn tell(&mut self, logits: &[f32], values: &[f32]) -> Result<(), SearchError> {
        self.search.tell(logits, values)
    }

    /// The rows, once [`SelfPlay::is_done`].
    pub fn data(&self) -> Result<&SelfPlayData, SearchError> {
        if self.done {
            Ok(&self.data)
        } else {
            Err(SearchError::NotDone)
        }
    }

    /// Self-play to the end, `evaluate(obs, mask, logits, values)` answering
    /// every round (as [`GuidedSearch::run`]).
    pub fn run(
        &mut self,
        evaluate: impl FnMut(&[f32], &[bool], &mut [f32], &mut [f32]),
    ) -> Result<&SelfPlayData, SearchError> {
        run_rounds(self, evaluate)?;
        self.data()
    }

    /// Records every live game's row and plays the search's move; games
    /// that end (or reach `max_plies`) leave the live set.
    fn play_moves(&mut self) -> Result<(), SearchError> {
        let n = self.live.len();
        let d = &mut self.data;
        try_grow(&mut d.obs, n * OBS, "self-play's observations")?;
        try_grow(&mut d.mask, n * ACTIONS, "self-play's masks")?;
        try_grow(&mut d.policy, n * ACTIONS, "self-play's policies")?;
        try_grow(&mut d.game, n, "self-play's rows")?;
        try_grow(&mut d.ply, n, "self-play's rows")?;
        try_grow(&mut d.outcome, n, "self-play's rows")?;
        try_grow(&mut self.movers, n, "self-play's rows")?;
        let results = self.search.results()?;
        let mut keep = 0;
        for (j, r) in results.iter().enumerate() {
            let g = &mut self.live[j];
            let pos = *g.position();
            let mut view = [0.0f32; OBS];
            write_view(&pos.view(pos.to_move()), &mut view);
            d.obs.extend_from_slice(&view);
            d.mask
                .extend_from_slice(&MASK_BOOL[usize::from(g.legal_mask() & 63)]);
            d.policy.extend_from_slice(&r.policy);
            let id = self.ids[j];
            d.game.push(id);
            d.ply.push(self.moves);
            self.movers.push(pos.to_move());
            g.play_action(r.action)
                .expect("the search's action is legal");
            d.plies[id as usize] = self.moves + 1;
            let over = g.outcome();
            d.outcomes[id as usize] = over;
            if over.is_none() && self.moves + 1 < self.play.max_plies {
                self.live.swap(keep, j);
                self.ids.swap(keep, j);
                keep += 1;
            }
        }
        self.live.truncate(keep);
        self.ids.truncate(keep);
        self.moves += 1;
        Ok(())
    }

    /// Every row's outcome, once every game is over.
    fn conclude(&mut self) {
        let d = &mut self.data;
        // Room for a value a row was reserved with the row.
        d.outcome.clear();
        for (&g, &mover) in d.game.iter().zip(&self.movers) {
            let v = match &d.outcomes[g as usize] {
                Some(o) => end_value(self.search.options().values, &self.rules, o, mover),
                None => 0.0,
            };
            d.outcome.push(v);
        }
        self.done = true;
    }
}

impl Rounds for SelfPlay {
    fn ask_round(&mut self) -> Result<usize, SearchError> {
        self.ask()
    }
    fn leaves(&self) -> (&[f32], &[bool]) {
        (&self.obs, &self.mask)
    }
    fn answers(&mut self) -> &mut Answers {
        &mut self.answers
    }
    fn tell_round(&mut self, logits: &[f32], values: &[f32]) -> Result<(), SearchError> {
        self.tell(logits, values)
    }
}
